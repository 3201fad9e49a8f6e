"""Activation checkpointing: keep less in the forward, recompute it in the backward.

Three modes, for the same forward and the same backward operations:

- ``none``: every block keeps its whole :class:`~distlesson.transformer.block.BlockTape`.
- ``selective`` (Korthikanti et al. 2022, section 5): every block keeps its tape except the
  attention weights ``probs`` (B, A, L, L), the part quadratic in L; just before a block's
  backward they are recomputed from the kept rotated qr and kr.
- ``full`` (Chen et al. 2016, "Training Deep Nets with Sublinear Memory Cost"): every block
  keeps only its input x; just before its backward the block's forward runs again from x.

The recomputation repeats the same numpy operations on the same arrays, so the gradients
are bitwise identical to those of :func:`distlesson.transformer.model.backward`.

Peak, as counted here: the largest number of scalars (and bytes) held in saved arrays at
any moment of the step, where the moments are the end of the forward and each block's
backward. The tape returned by the forward is held for the whole backward (the head's
arrays and the tokens included, nothing is freed early), and a recomputed block's arrays
are held only during that block's backward. So the peak is: the tape at the end of the
forward, plus for ``selective`` one block's probs, plus for ``full`` one block's whole tape
minus its input x (already held as the checkpoint). Transient arrays that no backward
reads (raw scores, the logits, the gradients themselves) are not saved arrays and are not
counted. Each buffer counts once (:mod:`~distlesson.transformer.held`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from distlesson.transformer import ops
from distlesson.transformer.block import BlockTape, block_forward
from distlesson.transformer.held import Held, count_held
from distlesson.transformer.model import HeadTape, backward_with, embed_inputs, head_forward
from distlesson.transformer.params import Params

__all__ = ["MODES", "CheckpointTape", "Mode", "SavedPeak", "backward", "check_mode", "forward"]

Mode = Literal["none", "selective", "full"]
MODES: tuple[Mode, ...] = ("none", "selective", "full")


@dataclass(frozen=True, eq=False)
class CheckpointTape:
    """What a forward keeps under a checkpointing mode."""

    mode: Mode
    """``none``, ``selective`` or ``full``."""
    tokens: np.ndarray
    """Input tokens, (B, L) int64."""
    blocks: tuple[BlockTape | np.ndarray, ...]
    """Per block: the whole tape (``none``), the tape with probs None (``selective``), or
    only the block's input x (B, L, C) (``full``)."""
    head: HeadTape
    """The head's arrays, kept in every mode."""

    def arrays(self) -> Iterator[tuple[str, str, np.ndarray]]:
        """(part, name, array) for every array held: part ``embedding``, ``block i``, ``head``."""
        yield "embedding", "tokens", self.tokens
        for i, block in enumerate(self.blocks):
            if isinstance(block, np.ndarray):
                yield f"block {i}", "x", block
            else:
                for name, array in block.arrays():
                    yield f"block {i}", name, array
        for name, array in self.head.arrays():
            yield "head", name, array


@dataclass(frozen=True)
class SavedPeak:
    """Saved-array memory of one training step under a mode, counted from live arrays."""

    mode: Mode
    """The checkpointing mode."""
    end_of_forward: Held
    """What the tape holds when the forward returns (held through the whole backward)."""
    recomputed: Held
    """The most that one block's recomputation adds during its backward (0 for ``none``)."""

    @property
    def peak(self) -> Held:
        """end_of_forward + recomputed: the largest amount held at any moment of the step."""
        return self.end_of_forward + self.recomputed


def check_mode(mode: str) -> None:
    """ValueError unless ``mode`` is one of :data:`MODES`."""
    if mode not in MODES:
        raise ValueError(f"mode={mode!r} is not known; allowed: {', '.join(MODES)}")


def forward(params: Params, tokens: np.ndarray, targets: np.ndarray | None = None, *,
            mode: Mode = "full") -> tuple[float, CheckpointTape]:
    """(loss, tape) with each block keeping what ``mode`` allows; same loss in every mode."""
    check_mode(mode)
    x, tokens, targets = embed_inputs(params, tokens, targets)  # (B, L, C)
    kept: list[BlockTape | np.ndarray] = []
    for block in params.blocks:
        x_in = x
        x, tape = block_forward(block, x_in, params.arch.num_heads)  # (B, L, C)
        if mode == "full":
            kept.append(x_in)  # the checkpoint; the rest of the tape is dropped here
        elif mode == "selective":
            kept.append(replace(tape, probs=None))  # drop the (B, A, L, L) weights
        else:
            kept.append(tape)
    loss, head = head_forward(params, x, targets)
    return loss, CheckpointTape(mode, tokens, tuple(kept), head)


def backward(params: Params, tape: CheckpointTape) -> tuple[Params, SavedPeak]:
    """(gradients, saved-array peak): each block's tape is completed just before its backward.

    The gradients equal (np.array_equal) those of the plain backward after the plain forward.
    """
    check_mode(tape.mode)
    held_tape = [array for _, _, array in tape.arrays()]
    extra = Held(0, 0)

    def block_tape(i: int) -> BlockTape:
        nonlocal extra
        kept = tape.blocks[i]
        if tape.mode == "none":
            return kept
        if tape.mode == "full":  # recompute the whole block from its input
            _, full = block_forward(params.blocks[i], kept, params.arch.num_heads)
        else:  # recompute only the attention weights, from the kept rotated q and k
            full = replace(kept, probs=ops.attention_probs(kept.qr, kept.kr))  # (B, A, L, L)
        added = count_held((a for _, a in full.arrays()), besides=held_tape)
        extra = max(extra, added, key=lambda h: h.nbytes)
        return full

    grads = backward_with(params, tape.tokens, tape.head, block_tape)
    return grads, SavedPeak(tape.mode, count_held(held_tape), extra)
