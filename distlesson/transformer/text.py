"""The character vocabulary and the small text the course's decoder trains on.

96 symbols, matching ``course-tiny``'s vocab_size: the newline, then the 95 printable
ASCII characters from space (32) to tilde (126). Token id = position in :data:`VOCAB`.
The corpus is ``corpus.txt`` next to this module, plain English prose written for the
course (printable ASCII and newlines only).
"""

from __future__ import annotations

from importlib import resources

import numpy as np

__all__ = ["VOCAB", "decode", "encode", "load_corpus"]

VOCAB = "\n" + "".join(chr(c) for c in range(32, 127))
"""The 96 symbols, in token-id order."""
_IDS = {ch: i for i, ch in enumerate(VOCAB)}


def encode(text: str) -> np.ndarray:
    """Token ids of ``text``, (len(text),) int64; ValueError naming a character outside VOCAB."""
    bad = next((ch for ch in text if ch not in _IDS), None)
    if bad is not None:
        raise ValueError(f"character {bad!r} is not in the vocabulary; allowed: newline and "
                         "printable ASCII (space to '~')")
    return np.fromiter((_IDS[ch] for ch in text), dtype=np.int64, count=len(text))


def decode(ids: np.ndarray) -> str:
    """The text of token ids in [0, 96)."""
    return "".join(VOCAB[int(i)] for i in np.asarray(ids).reshape(-1))


def load_corpus() -> str:
    """The shipped training text (a few KB)."""
    return resources.files("distlesson.transformer").joinpath("corpus.txt").read_text("ascii")
