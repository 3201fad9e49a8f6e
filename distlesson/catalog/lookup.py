"""Looking a name up in one of the library's catalogs, with an error that lists the names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

__all__ = ["lookup"]

T = TypeVar("T")


def lookup(catalog: Mapping[str, T], key: str, *, what: str) -> T:
    """``catalog[key]``, or ``ValueError("model='x' is not known; allowed: a, b")``."""
    try:
        return catalog[key]
    except (KeyError, TypeError):
        raise ValueError(f"{what}={key!r} is not known; allowed: {', '.join(catalog)}") from None
