"""Parity of prose: each translation keeps the English page's headings, paragraphs, lists,
tables and admonitions, section by section."""

import pytest

from distlesson.site.prose_structure import compare_structure, structure
from tests.pages import LOCALES, page_names, page_path

ENGLISH = """# Title

Opening paragraph.

## First

One paragraph
on two lines.

- an item
- another

```python
# a fence: not prose
```

## Second

| a | b |
| --- | --- |

!!! note
    An admonition.
"""


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("locale", [x for x in LOCALES if x != "en"])
def test_translation_keeps_the_structure_of_the_text(name, locale):
    english = page_path(name, "en").read_text(encoding="utf-8")
    other = page_path(name, locale).read_text(encoding="utf-8")
    assert compare_structure(english, other, where=f"docs/{name}.{locale}.md") == []


def test_structure_counts_by_hand():
    sections = structure(ENGLISH)
    assert [s.line for s in sections] == [1, 5, 17]
    assert dict(sections[0].counts) == {"heading": 1, "paragraph": 1}
    assert dict(sections[1].counts) == {"paragraph": 1, "list": 1, "item": 2}
    assert dict(sections[2].counts) == {"table": 1, "admonition": 1}


def test_a_dropped_paragraph_is_caught_with_its_line():
    shorter = ENGLISH.replace("One paragraph\non two lines.\n\n", "")
    problems = compare_structure(ENGLISH, shorter, where="docs/x.ca.md")
    assert problems == ["docs/x.ca.md:5: section differs from the English (line 5): "
                        "paragraph 0 against 1"]


def test_a_dropped_section_is_caught():
    without = ENGLISH[:ENGLISH.index("## Second")]
    assert compare_structure(ENGLISH, without, where="p") == [
        "p: 2 sections (## headings) against 3 in English"]


def test_a_declared_difference_is_allowed():
    declared = ENGLISH.replace("One paragraph\non two lines.\n",
                               "<!-- parity: the example is shorter here -->\n")
    assert compare_structure(ENGLISH, declared, where="p") == []
