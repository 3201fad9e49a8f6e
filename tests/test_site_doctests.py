"""Every doctest fence in the pages is collected by Sybil: none is silently skipped."""

import pytest
from sybil import Sybil

from distlesson.site.doctests import MarkdownDoctestParser
from distlesson.site.markdown_scan import Fence, split_blocks
from tests.pages import DOCS, all_page_files


def _examples_in_fences(text: str) -> int:
    return sum(
        sum(1 for line in block.body.split("\n") if line.lstrip().startswith(">>>"))
        for block in split_blocks(text)
        if isinstance(block, Fence) and block.is_doctest
    )


@pytest.mark.parametrize("path", all_page_files(), ids=lambda p: p.name)
def test_every_doctest_fence_is_collected(path):
    sybil = Sybil(parsers=[MarkdownDoctestParser()], patterns=["*.md"], path=str(DOCS))
    document = sybil.parse(path)
    collected = len(list(document))
    assert collected == _examples_in_fences(path.read_text(encoding="utf-8")), (
        f"docs/{path.name}: Sybil collected {collected} examples")


def test_the_collector_sees_fences_with_attributes(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# T\n\n```pycon title=\"pinned\"\n>>> 1 + 1\n2\n```\n\n"
        "```python\n>>> 2 * 3\n6\n```\n\n```pycon\n>>> print('x')\nx\n>>> 3\n3\n```\n",
        encoding="utf-8")
    sybil = Sybil(parsers=[MarkdownDoctestParser()], patterns=["*.md"], path=str(tmp_path))
    assert len(list(sybil.parse(page))) == 4


def test_a_wrong_pin_fails(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n", encoding="utf-8")
    sybil = Sybil(parsers=[MarkdownDoctestParser()], patterns=["*.md"], path=str(tmp_path))
    (example,) = list(sybil.parse(page))
    with pytest.raises(Exception, match="Expected"):
        example.evaluate()
