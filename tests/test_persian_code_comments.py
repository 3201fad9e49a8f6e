"""A Persian comment in code reads right to left only if its first letter is Persian.

On Persian pages each code comment takes the direction of its first letter
(``unicode-bidi: plaintext`` in docs/assets/distlesson.css): one that starts with a Latin word
or a parenthesis before Persian words is laid out left to right and its Persian words come
out in the wrong order. Such a comment is reworded to start in Persian (or written without
Persian words). Checked in the sources: the labs' ``#[fa]`` lines and the code blocks of the
Persian pages; tests/test_browser_chrome.py checks what the browser shows."""

import functools
import re
from pathlib import Path

import pytest

from tests.pages import ROOT

_PERSIAN = re.compile("[\u0600-\u06ff]")
_LETTER = re.compile("[A-Za-z\u0600-\u06ff]")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _latin_first(comment: str) -> bool:
    """Persian words in it, and its first letter Latin."""
    first = _LETTER.search(comment)
    return bool(_PERSIAN.search(comment)) and first is not None and first.group(0) < "\u0600"


@functools.cache
def _comments() -> tuple[tuple[str, str], ...]:
    """(where, comment text) of every Persian comment in the sources, read once."""
    found = []
    for lab in sorted((ROOT / "labs").glob("*.py")):
        for n, line in enumerate(lab.read_text(encoding="utf-8").splitlines(), start=1):
            if (m := re.match(r"\s*#\[fa\] ?(.*)", line)):
                found.append((f"labs/{lab.name}:{n}", m.group(1)))
    for page in sorted((ROOT / "docs").glob("*.fa.md")):
        for block in _FENCE.findall(page.read_text(encoding="utf-8")):
            for line in block.splitlines():
                if (m := re.search(r"(?:^|\s)# (.*)$", line)):
                    found.append((f"docs/{page.name}", m.group(1)))
    return tuple(found)


def test_the_sources_have_persian_comments_to_check():
    assert sum(bool(_PERSIAN.search(text)) for _, text in _comments()) > 50


def test_the_rule_tells_a_scrambled_comment_from_a_good_one():
    assert _latin_first("all-reduce گذر رو به عقب")
    assert _latin_first("(N, h): گرادیانی دلخواه")
    assert not _latin_first("عملیات all-reduce در گذر رو به عقب")
    assert not _latin_first("(2 x 8192^2) / (2 x 8192)")  # no Persian word: left to right


@pytest.mark.parametrize("where", sorted({w.split(":")[0] for w, _ in _comments()}))
def test_persian_comments_start_with_a_persian_word(where):
    bad = [f"{w}: {text}" for w, text in _comments()
           if w.split(":")[0] == where and _latin_first(text)]
    assert not bad, "\n".join(bad)


def test_every_lab_is_checked():
    labs = {Path(w.split(":")[0]).name for w, _ in _comments() if w.startswith("labs/")}
    assert labs == {p.name for p in (ROOT / "labs").glob("*.py")} - {"__init__.py"}
