"""Units: the decimal and binary byte prefixes, and parsing of quantities such as ``70B``.

Inside the library every size is in bytes, every count a plain number. These constants
name the conversions where they happen: ``GB`` (1e9, as GPU datasheets use it) and
``GiB`` (2**30, as memory is addressed) differ by about seven percent.
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["GB", "KB", "MB", "SUFFIXES", "TB", "GiB", "parse_quantity"]

KB = 1e3
MB = 1e6
GB = 1e9
TB = 1e12
GiB = 2**30

SUFFIXES: dict[str, int] = {
    "": 1,
    "k": 10**3,
    "K": 10**3,
    "M": 10**6,
    "B": 10**9,
    "G": 10**9,
    "T": 10**12,
}
"""Multipliers of the suffixes that :func:`parse_quantity` accepts (B is billion, not byte)."""

_QUANTITY = re.compile(r"^(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?P<suffix>[kKMBGT]?)$")
_ALLOWED = (
    "allowed: a non-negative number such as 70e9, 7.5e9, 16M, 70B, 124M, 1.5T or 2k "
    "(suffixes k/K = 1e3, M = 1e6, B/G = 1e9, T = 1e12)"
)


def parse_quantity(text: str, *, name: str) -> float:
    """Parse a count written as ``70e9``, ``7.5e9``, ``70B``, ``124M``, ``1.5T`` or ``2k``.

    Equation: value = number x multiplier(suffix), computed in decimal arithmetic so that
    ``0.3B`` gives exactly 3e8 (then rounded once to a float).
    Units: whatever the caller counts (parameters, tokens); the suffix B means billion.
    Assumptions: negatives, nan, inf and other text are rejected; whether zero makes sense
    is the caller's decision.

    Raises ``ValueError`` naming ``name``, the text, and what is allowed.
    """
    if not isinstance(name, str):
        raise TypeError(f"name={name!r} must be a str (the argument named in refusals)")
    stripped = text.strip() if isinstance(text, str) else ""
    match = _QUANTITY.match(stripped)
    if match is None:
        raise ValueError(f"{name}={text!r} is not a quantity; {_ALLOWED}")
    value = Decimal(match["number"]) * SUFFIXES[match["suffix"]]
    result = float(value)
    if result == float("inf"):
        raise ValueError(f"{name}={text!r} is too large for a float; {_ALLOWED}")
    return result
