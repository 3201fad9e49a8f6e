"""Counting the memory that live numpy arrays hold, each buffer once.

A saved array may be a view (a transpose, a reshape) of a buffer; what it keeps alive is the
whole buffer. So an array is counted by its owner, the array at the end of its ``.base``
chain, and two views of one buffer count once. Scalars: the owner's element count (ints
included, such as the token ids); bytes: the owner's ``nbytes``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

__all__ = ["Held", "count_held", "owner"]


@dataclass(frozen=True)
class Held:
    """Scalars and bytes held by some arrays."""

    scalars: int
    """Elements of the distinct buffers."""
    nbytes: int
    """Bytes of the distinct buffers (sum of their ``nbytes``)."""

    def __add__(self, other: Held) -> Held:
        return Held(self.scalars + other.scalars, self.nbytes + other.nbytes)


def owner(array: np.ndarray) -> np.ndarray:
    """The array that owns the buffer ``array`` looks into (``array`` itself if it owns it)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def count_held(arrays: Iterable[np.ndarray], *, besides: Iterable[np.ndarray] = ()) -> Held:
    """Scalars and bytes of the distinct buffers behind ``arrays``, not counting those
    already behind ``besides`` (e.g. a checkpoint a recomputed tape shares)."""
    seen = {id(owner(a)) for a in besides}
    scalars = nbytes = 0
    for array in arrays:
        buffer = owner(array)
        if id(buffer) not in seen:
            seen.add(id(buffer))
            scalars += buffer.size
            nbytes += buffer.nbytes
    return Held(scalars, nbytes)
