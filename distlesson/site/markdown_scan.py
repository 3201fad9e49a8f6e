"""Split a Markdown page into prose and fenced code, the way MkDocs will see it.

The placeholder resolver, the prose lint and the parity check all need the same split:
a number inside a code fence or an inline code span is code, not prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Fence", "Prose", "inline_code_spans", "split_blocks"]

_FENCE = re.compile(r"^(?P<indent>[ \t]*(?:>[ \t]*)*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


@dataclass(frozen=True)
class Fence:
    """A fenced code block: its info string (``python exec="on"``) and its body."""

    info: str
    body: str
    line: int  # 1-based line of the opening fence
    raw: str  # the block as written, fences included

    @property
    def language(self) -> str:
        """The first word of the info string (``python``, ``pycon``, ...), braces removed."""
        word = self.info.strip().lstrip("{").split(maxsplit=1)
        return word[0].lstrip(".").rstrip("}") if word else ""

    @property
    def is_doctest(self) -> bool:
        return self.body.lstrip().startswith(">>>")


@dataclass(frozen=True)
class Prose:
    """Lines of Markdown outside any fence."""

    text: str
    line: int  # 1-based line of the first line


def split_blocks(markdown: str) -> list[Fence | Prose]:
    """Prose and fences in page order; a fence nested in a longer fence stays inside it."""
    blocks: list[Fence | Prose] = []
    lines = markdown.split("\n")
    prose: list[str] = []
    prose_start = 1
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            if not prose:
                prose_start = i + 1
            prose.append(lines[i])
            i += 1
            continue
        if prose:
            blocks.append(Prose("\n".join(prose), prose_start))
            prose = []
        fence = opening["fence"]
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            closing = _FENCE.match(lines[j])
            if (
                closing is not None
                and closing["fence"][0] == fence[0]
                and len(closing["fence"]) >= len(fence)
                and not closing["info"].strip()
            ):
                break
            body.append(lines[j][len(opening["indent"]) :] if lines[j].startswith(
                opening["indent"]) else lines[j])
            j += 1
        raw = "\n".join(lines[i : j + 1])
        blocks.append(Fence(opening["info"].strip(), "\n".join(body), i + 1, raw))
        i = j + 1
    if prose:
        blocks.append(Prose("\n".join(prose), prose_start))
    return blocks


def inline_code_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each inline code span in a piece of prose."""
    for match in _INLINE_CODE.finditer(text):
        yield match.start(), match.end()
