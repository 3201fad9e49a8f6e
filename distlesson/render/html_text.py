"""Edits to the prose of a rendered page: its text between tags, never code, scripts,
drawings or formulas.

Two edits use it: Catalan elision (:func:`distlesson.render.catalan.elide_html`) and, on
Persian pages, :func:`keep_compounds_whole`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["COMPOUND", "NOBREAK_CLASS", "keep_compounds_whole", "map_text"]

_TAG = re.compile(r"(<[^>]+>)")
_SKIPPED = frozenset({"code", "pre", "script", "style", "kbd", "samp", "math", "option",
                      "select", "textarea"})
_DRAWINGS = frozenset({"svg"})
_FORMULA = re.compile(r"(\\\(.*?\\\)|\\\[.*?\\\])", re.DOTALL)


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
            name = part[1:].lstrip("/").split(None, 1)[0].rstrip(">").lower()
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
