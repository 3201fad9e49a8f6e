"""Checks shared by the library's public functions, so that each refuses a bad value with
the same message, naming the argument, its value and what is allowed, as the command line
does. One place for them: a module that copies a check drifts from the others.

Counts are whole numbers (a bool is not a count, nor is 2.0); sizes and times are finite
real numbers (int, float or Fraction, never bool); fractions lie in [0, 1].
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "check_finite_nonneg",
    "check_finite_positive",
    "check_fraction",
    "check_nonneg_int",
    "check_positive_int",
    "check_positive_ints",
    "check_type",
    "is_real",
]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_real(value: object) -> bool:
    """True for an int, float or Fraction that is finite (a bool is not a number here).

    An int is always finite, even 10**400, which ``math.isfinite`` cannot convert."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return False
    return isinstance(value, int | Fraction) or math.isfinite(value)


def check_positive_int(name: str, value: object, *, maximum: int | None = None) -> None:
    """ValueError unless ``value`` is a whole number >= 1 (and <= ``maximum`` if given)."""
    if not _is_int(value) or value < 1:  # type: ignore[operator]
        raise ValueError(f"{name}={value!r} must be a positive integer")
    if maximum is not None and value > maximum:  # type: ignore[operator]
        raise ValueError(f"{name}={value!r} is too large; allowed: 1 to {maximum:,}")


def check_positive_ints(**values: object) -> None:
    """:func:`check_positive_int` on each keyword, in order."""
    for name, value in values.items():
        check_positive_int(name, value)


def check_nonneg_int(name: str, value: object) -> None:
    """ValueError unless ``value`` is a whole number >= 0 (an index, a stage, a count of 0)."""
    if not _is_int(value) or value < 0:  # type: ignore[operator]
        raise ValueError(f"{name}={value!r} must be an integer >= 0")


def check_finite_positive(name: str, value: object) -> None:
    """ValueError unless ``value`` is a finite real number > 0 (a time, a rate, a peak)."""
    if not is_real(value) or not value > 0:  # type: ignore[operator]
        raise ValueError(f"{name}={value!r} must be a finite number > 0")


def check_finite_nonneg(name: str, value: object) -> None:
    """ValueError unless ``value`` is a finite real number >= 0 (a size, a duration)."""
    if not is_real(value) or not value >= 0:  # type: ignore[operator]
        raise ValueError(f"{name}={value!r} must be a finite number >= 0")


def check_fraction(name: str, value: object) -> None:
    """ValueError unless ``value`` is a real number in [0, 1] (a share, a utilisation)."""
    if not is_real(value) or not 0 <= value <= 1:  # type: ignore[operator]
        raise ValueError(f"{name}={value!r} must be a fraction in [0, 1]")


def check_type(name: str, value: object, kind: type | tuple[type, ...]) -> None:
    """TypeError unless ``value`` is an instance of ``kind``, naming what was expected."""
    if not isinstance(value, kind):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        allowed = " or ".join(k.__name__ for k in kinds)
        raise TypeError(f"{name}={value!r} must be a {allowed}")
