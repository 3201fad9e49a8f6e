"""Replace ``{{ name }}`` in a page's prose with the figure, formatted for the page's locale."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from typing import Protocol

from distlesson.site.markdown_scan import Prose, inline_code_spans, split_blocks

__all__ = ["PLACEHOLDER", "UnknownFigureError", "placeholders_in", "resolve_placeholders"]

PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}")


class _Renders(Protocol):
    def render(self, locale: str) -> str: ...


class UnknownFigureError(ValueError):
    """A page names a figure that the library does not define."""


def _prose_pieces(text: str) -> Iterator[tuple[str, bool]]:
    """(piece, is_code) for a prose block: inline code spans are left alone."""
    position = 0
    for start, end in inline_code_spans(text):
        yield text[position:start], False
        yield text[start:end], True
        position = end
    yield text[position:], False


def placeholders_in(markdown: str) -> Iterator[tuple[str, int]]:
    """(name, line) of every placeholder in the prose of a page."""
    for block in split_blocks(markdown):
        if not isinstance(block, Prose):
            continue
        offset = 0
        for piece, is_code in _prose_pieces(block.text):
            if not is_code:
                for match in PLACEHOLDER.finditer(piece):
                    line = block.line + block.text.count("\n", 0, offset + match.start())
                    yield match[1], line
            offset += len(piece)


def resolve_placeholders(
    markdown: str, locale: str, figures: Mapping[str, _Renders], *, where: str = "<page>"
) -> str:
    """The page with every placeholder in prose replaced; code is left as written."""
    for name, line in placeholders_in(markdown):
        if name not in figures:
            near = difflib.get_close_matches(name, list(figures), n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise UnknownFigureError(f"{where}:{line}: unknown figure {{{{ {name} }}}}{hint}")
    out: list[str] = []
    for block in split_blocks(markdown):
        if isinstance(block, Prose):
            out.append("".join(
                piece if is_code else PLACEHOLDER.sub(
                    lambda m: figures[m[1]].render(locale), piece)
                for piece, is_code in _prose_pieces(block.text)))
        else:
            out.append(block.raw)
    return "\n".join(out)
