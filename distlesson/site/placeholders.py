"""Replace ``{{ name }}`` in a page's prose with the figure, formatted for the page's locale."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from typing import Protocol

from distlesson.site.markdown_scan import Prose, inline_code_spans, split_blocks

__all__ = ["PLACEHOLDER", "UnknownFigureError", "placeholder_names", "placeholders_in",
           "resolve_placeholders"]

# ``{{ name }}``, or with a filter: ``{{ name | words }}`` (``words_f`` for a Catalan
# feminine noun: «dues vegades») spells a small count; ``{{ low | to high }}`` is a range
# with its unit once («entre 87 i 98 milions de dòlars»). Group 1 is the figure's name.
PLACEHOLDER = re.compile(
    r"\{\{\s*([A-Za-z0-9_.\-]+)\s*(?:\|\s*(words_f|words|to)(?:\s+([A-Za-z0-9_.\-]+))?\s*)?\}\}")


def placeholder_names(text: str) -> list[str]:
    """Every figure name ``text``'s placeholders use, in order (a range names two)."""
    return [name for match in PLACEHOLDER.finditer(text)
            for name in (match[1], match[3]) if name]


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
                    yield from ((name, line) for name in (match[1], match[3]) if name)
            offset += len(piece)


def _render(match: re.Match, figures: Mapping[str, _Renders], locale: str, where: str) -> str:
    name, flt, argument = match.groups()
    if (flt == "to") != bool(argument):
        raise UnknownFigureError(f"{where}: {match[0]!r}: 'to' takes the range's upper figure; "
                                 "'words' and 'words_f' take nothing")
    figure = figures[name]
    try:
        if flt == "to":
            return figure.render_range(figures[argument], locale)  # type: ignore[attr-defined]
        if flt:
            gender = "f" if flt == "words_f" else "m"
            return figure.render_words(locale, gender)  # type: ignore[attr-defined]
    except (AttributeError, ValueError) as error:
        raise UnknownFigureError(f"{where}: {match[0]!r}: {error}") from None
    return figure.render(locale)


def resolve_placeholders(
    markdown: str, locale: str, figures: Mapping[str, _Renders], *, where: str = "<page>"
) -> str:
    """The page with every placeholder in prose replaced; code is left as written."""
    for name, line in placeholders_in(markdown):  # a range's upper figure included
        if name not in figures:
            near = difflib.get_close_matches(name, list(figures), n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise UnknownFigureError(f"{where}:{line}: unknown figure {{{{ {name} }}}}{hint}")
    out: list[str] = []
    for block in split_blocks(markdown):
        if isinstance(block, Prose):
            out.append("".join(
                piece if is_code else PLACEHOLDER.sub(
                    lambda m: _render(m, figures, locale, where), piece)
                for piece, is_code in _prose_pieces(block.text)))
        else:
            out.append(block.raw)
    return "\n".join(out)
