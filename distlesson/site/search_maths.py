"""Formulas as a reader would type them, for the search index.

Pages write maths as LaTeX between ``\\(...\\)`` or ``\\[...\\]``, which KaTeX typesets in the
browser; Material's search index takes the page's text before that, so a result's snippet
would show ``\\frac{p-1}{m}``. :func:`plain_maths` rewrites each formula in the few macros the
pages use as plain Unicode text (``(p-1)/m``, ``T = steps × α``), before the index is
written (:func:`distlesson.site.chrome.split_search_index`).
"""

from __future__ import annotations

import re

__all__ = ["plain_maths"]

_FORMULA = re.compile(r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]", re.DOTALL)
_SYMBOLS = {
    "times": "×", "cdot": "·", "alpha": "α", "beta": "β", "varepsilon": "ε", "epsilon": "ε",
    "approx": "≈", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "lceil": "⌈", "rceil": "⌉",
    "lfloor": "⌊", "rfloor": "⌋", "infty": "∞", "sum": "∑", "to": "→", "pm": "±",
    "ldots": "…", "dots": "…",
}


def _group(name: str) -> str:
    """A brace group without braces inside, captured as ``name``."""
    return rf"\{{(?P<{name}>[^{{}}]*)\}}"


_FRAC = re.compile(r"\\frac" + _group("num") + _group("den"))
_SQRT = re.compile(r"\\sqrt" + _group("arg"))
_STYLED = re.compile(r"\\(?:text|mathit|mathrm|mathbf|operatorname)" + _group("arg"))
_SPACING = re.compile(r"\\[,;:!]|\\ |~")
_MACRO = re.compile(r"\\(?P<name>[A-Za-z]+)")
_SCRIPT = re.compile(r"(?P<mark>[\^_])\{(?P<arg>[^{}]*)\}")
_DIGIT_SUBSCRIPT = re.compile(r"_(?P<digit>[0-9])(?![0-9])")
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _grouped(text: str) -> str:
    """``text`` as one operand: in parentheses unless it is a single symbol or number."""
    text = text.strip()
    return text if re.fullmatch(r"[\w.]+", text) else f"({text})"


def _formula(latex: str) -> str:
    text = latex
    for _ in range(8):  # inner groups first: \frac{\sqrt{v}}{m} takes two passes
        before = text
        text = _STYLED.sub(lambda m: m["arg"], text)
        text = _SQRT.sub(lambda m: "√" + _grouped(m["arg"]), text)
        text = _FRAC.sub(lambda m: f"{_grouped(m['num'])}/{_grouped(m['den'])}", text)
        text = _SCRIPT.sub(lambda m: m["mark"] + _grouped(m["arg"]), text)
        if text == before:
            break
    # T_0 reads T₀, as the prose around it writes it
    text = _DIGIT_SUBSCRIPT.sub(lambda m: m["digit"].translate(_SUBSCRIPTS), text)
    text = _SPACING.sub(" ", text)
    text = _MACRO.sub(lambda m: _SYMBOLS.get(m["name"], m["name"]), text)
    text = text.replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", text).strip()


def plain_maths(text: str) -> str:
    """``text`` with every ``\\(...\\)`` and ``\\[...\\]`` formula as plain text."""
    return _FORMULA.sub(lambda m: _formula(m["inline"] or m["display"]), text)
