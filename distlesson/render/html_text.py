"""Edits to the prose of a rendered page: its text between tags, never code, scripts,
drawings or formulas.

Two edits use it: Catalan elision (:func:`distlesson.render.catalan.elide_html`) and, on
Persian pages, :func:`keep_compounds_whole`; :func:`mark_numbers_after_latin` walks the same
text with the tags in view, since a line's direction runs across inline tags.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

__all__ = ["COMPOUND", "NOBREAK_CLASS", "RLM", "keep_compounds_whole", "map_text",
           "mark_numbers_after_latin"]

_TAG = re.compile(r"(<[^>]+>)")
_SKIPPED = frozenset({"code", "pre", "script", "style", "kbd", "samp", "math", "option",
                      "select", "textarea"})
_DRAWINGS = frozenset({"svg"})
_FORMULA = re.compile(r"(\\\(.*?\\\)|\\\[.*?\\\])", re.DOTALL)


def _tag_name(tag: str) -> str:
    """``<td class="x">``, ``</td>``, ``<br/>`` -> ``td``, ``td``, ``br``."""
    return tag[1:].lstrip("/").split(None, 1)[0].rstrip(">").rstrip("/").lower()


def map_text(html: str, edit: Callable[[str], str], *, drawings: bool = False) -> str:
    """``html`` with ``edit`` applied to each run of prose text: not to tags, not inside
    code, scripts or form controls, not to LaTeX formulas (which KaTeX typesets in the
    browser from the text itself), and inside SVG drawings only if ``drawings`` (a text
    edit suits them, markup does not)."""
    skipping = _SKIPPED if drawings else _SKIPPED | _DRAWINGS
    parts = _TAG.split(html)
    skipped = 0
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            name = _tag_name(part)
            if name in skipping and not part.endswith("/>"):
                skipped = max(skipped + (-1 if part.startswith("</") else 1), 0)
        elif not skipped and part:
            pieces = _FORMULA.split(part)
            parts[i] = "".join(piece if j % 2 else edit(piece)
                               for j, piece in enumerate(pieces))
    return "".join(parts)


NOBREAK_CLASS = "dl-nobreak"
"""The class of a span the browser does not break (``white-space: nowrap``, in
``docs/assets/distlesson.css``)."""
COMPOUND = re.compile(r"(?<![\w-])[A-Za-z0-9][A-Za-z0-9.]*(?:-[A-Za-z0-9][A-Za-z0-9.]*)+")
"""Latin letters and digits joined by hyphens: all-reduce, ZeRO-3, Megatron-LM."""


def keep_compounds_whole(html: str) -> str:
    """Latin words joined by hyphens (all-reduce, ZeRO-3, Megatron-LM) kept on one line.

    In a right-to-left paragraph a browser may break "all-reduce" at its hyphen and set the
    hyphen on the wrong side of the line end (the Persian review counted 330 such words);
    each compound goes into a span that does not break."""
    return map_text(html, lambda text: COMPOUND.sub(
        lambda m: f'<span class="{NOBREAK_CLASS}">{m.group(0)}</span>', text))


RLM = "\u200f"
"""RIGHT-TO-LEFT MARK: a strong right-to-left character of zero width."""
_ISOLATE_OPEN, _PDI = frozenset("\u2066\u2067\u2068"), "\u2069"
_STRONG = frozenset({"L", "R", "AL"})  # UAX #9's strong types; the Arabic comma is not one
_ARABIC_COMMA = "،"  # a separator to the bidi algorithm (the Arabic semicolon is a letter)
_DIR_LTR = re.compile(r'\sdir\s*=\s*"?ltr\b')
_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source"})
_BLOCKS = frozenset({"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div", "br",
                     "tr", "table", "ul", "ol", "figure", "figcaption", "blockquote", "dd",
                     "dt", "details", "summary", "section", "article", "pre", "svg", "hr"})


def mark_numbers_after_latin(html: str) -> str:
    """A right-to-left mark before each Persian number whose nearest strong letter before it,
    in its paragraph, is Latin, and after a Persian comma that follows a Latin word (prose
    of a right-to-left page).

    Persian digits (U+06F0..U+06F9) are "European numbers" to the bidi algorithm (UAX #9,
    rule W7): after a Latin letter they take its left-to-right direction, so «یک H100 ۸۰
    گیگابایت» shows the 80 on the wrong side of "H100" and «fp32: ۵۶» reads backwards. The
    mark is the nearest strong letter instead, and the number stays in the Persian line. The
    Persian comma is a separator too: «DeepSeek-V3، MFU» would show as one left-to-right run
    with the comma inside it. The text of code and formulas counts as Latin, as it is shown,
    but is never edited."""
    skipping = _SKIPPED | _DRAWINGS
    parts = _TAG.split(html)
    skipped = 0
    latin = False  # the nearest strong letter so far in this block is Latin
    isolated = 0  # depth inside Unicode isolates (LRI, RLI, FSI ... PDI)

    def edit(text: str) -> str:
        nonlocal latin, isolated
        out = []
        for piece_index, piece in enumerate(_FORMULA.split(text)):
            if piece_index % 2:  # a formula: left to right, never edited
                latin = True
                out.append(piece)
                continue
            chars = []
            for i, ch in enumerate(piece):
                if ch in _ISOLATE_OPEN or ch == _PDI or isolated:
                    # an isolate's inside is its own line (a signed number, a label)
                    isolated = max(isolated + (ch in _ISOLATE_OPEN) - (ch == _PDI), 0)
                elif ch == _ARABIC_COMMA and latin:
                    # «DeepSeek-V3، MFU»: a comma between two Latin words would join their run
                    chars.append(ch)
                    ch = RLM
                    latin = False
                elif "\u06f0" <= ch <= "\u06f9" and latin and not (
                        i and "\u06f0" <= piece[i - 1] <= "\u06f9"):
                    chars.append(RLM)
                    latin = False
                elif (kind := unicodedata.bidirectional(ch)) in _STRONG:
                    latin = kind == "L"
                chars.append(ch)
            out.append("".join(chars))
        return "".join(out)

    ltr: list[str] = []  # tags open inside an element marked dir="ltr" (its own line)
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            name = _tag_name(part)
            if name in _BLOCKS:
                latin, isolated = False, 0
            if name in skipping and not part.endswith("/>"):
                skipped = max(skipped + (-1 if part.startswith("</") else 1), 0)
            # an element marked dir="ltr" is a left-to-right isolate that its author laid
            # out («GPT 22B، ۸ × A100»): left as it is, and neutral to the text around it
            if part.startswith("</"):
                if ltr and ltr[-1] == name:
                    ltr.pop()
            elif (ltr or _DIR_LTR.search(part)) and not part.endswith("/>") \
                    and name not in _VOID:
                ltr.append(name)
        elif ltr:
            continue
        elif skipped:  # code: shown left to right, so it counts as Latin if it has letters
            # (a drawing's text too, harmlessly: the drawing ends its block)
            latin = latin or re.search("[A-Za-z]", part) is not None
        elif part:
            parts[i] = edit(part)
    return "".join(parts)
