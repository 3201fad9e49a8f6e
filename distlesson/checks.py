"""Checks shared by the library's public functions, so that each refuses a bad count with
the same message, naming the argument and its value, as the command line does."""

from __future__ import annotations

__all__ = ["check_positive_int"]


def check_positive_int(name: str, value: object) -> None:
    """ValueError unless ``value`` is a whole number >= 1 (a bool is not a count)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name}={value!r} must be a positive integer")
