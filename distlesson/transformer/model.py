"""The course's decoder end to end: embedding, blocks, final norm, tied head, cross-entropy.

``forward(params, tokens)`` returns the mean next-token loss and a :class:`Tape` of every
array kept for the backward; ``backward(params, tape)`` returns gradients with the
structure of the weights. Loss (nats)::

    x0 = E[tokens];  x_{i+1} = block_i(x_i);  n = rmsnorm(x_n) w;  logits = n E^T (tied)
    loss = mean over scored positions of -log softmax(logits)[target]

By default the target of position l is token l + 1 and the last position is not scored
(Hugging Face's label shift), so tokens (B, L) give B (L - 1) predictions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields

import numpy as np

from distlesson.transformer import ops
from distlesson.transformer.block import BlockTape, block_backward, block_forward
from distlesson.transformer.params import BlockParams, Params

__all__ = ["HeadTape", "Tape", "backward", "backward_with", "embed_inputs", "forward",
           "head_forward"]


@dataclass(frozen=True, eq=False)
class HeadTape:
    """What the final norm, the output head and the loss keep for the backward."""

    x: np.ndarray
    """Last block's output, (B, L, C)."""
    rstd: np.ndarray
    """1 / rms of x, (B, L, 1)."""
    n: np.ndarray
    """Normed x, (B, L, C); the head's input."""
    probs: np.ndarray
    """Softmax over the vocabulary, (B, L, V); the loss backward reads it."""
    targets: np.ndarray
    """Next tokens, (B, L) int64, IGNORE where not scored."""

    def arrays(self) -> Iterator[tuple[str, np.ndarray]]:
        """(name, array) in forward order."""
        for field in fields(self):
            yield field.name, getattr(self, field.name)


@dataclass(frozen=True, eq=False)
class Tape:
    """Everything a forward keeps: the tokens (for the embedding), each block's tape, the head's."""

    tokens: np.ndarray
    """Input tokens, (B, L) int64; the embedding backward scatters into their rows."""
    blocks: tuple[BlockTape, ...]
    """One tape per block, input side first."""
    head: HeadTape
    """The final norm's, head's and loss's arrays."""

    def arrays(self) -> Iterator[tuple[str, str, np.ndarray]]:
        """(part, name, array): part is ``embedding``, ``block i`` or ``head``."""
        yield "embedding", "tokens", self.tokens
        for i, block in enumerate(self.blocks):
            for name, array in block.arrays():
                yield f"block {i}", name, array
        for name, array in self.head.arrays():
            yield "head", name, array


def _int_array(values: np.ndarray, name: str, low: int, high: int) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 2 or array.size == 0 or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name} of shape {array.shape} and dtype {array.dtype}: allowed a "
                         "non-empty (B, L) array of integers")
    if array.min() < low or array.max() >= high:
        raise ValueError(f"{name} range [{array.min()}, {array.max()}] outside the allowed "
                         f"[{low}, {high - 1}]")
    return np.array(array, dtype=np.int64)  # an owned copy: the tape holds exactly this


def embed_inputs(params: Params, tokens: np.ndarray, targets: np.ndarray | None = None,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x0, tokens, targets) checked and owned; x0 = E[tokens] (B, L, C)."""
    vocab = params.arch.vocab_size
    tokens = _int_array(tokens, "tokens", 0, vocab)  # (B, L)
    if targets is None:
        targets = np.full_like(tokens, ops.IGNORE)  # (B, L)
        targets[:, :-1] = tokens[:, 1:]  # position l predicts token l + 1
    else:
        targets = _int_array(targets, "targets", ops.IGNORE, vocab)  # (B, L)
        if targets.shape != tokens.shape:
            raise ValueError(f"targets shape {targets.shape} != tokens shape {tokens.shape}")
    return ops.embedding(params.embed, tokens), tokens, targets  # (B, L, C)


def head_forward(params: Params, x: np.ndarray, targets: np.ndarray) -> tuple[float, HeadTape]:
    """(loss, tape) of the final norm, the head and the cross-entropy on x (B, L, C)."""
    n, rstd = ops.rms_norm(x, params.norm)  # (B, L, C), (B, L, 1)
    loss, probs = ops.cross_entropy(ops.linear(n, params.head), targets)  # (B, L, V)
    return loss, HeadTape(x, rstd, n, probs, targets)


def forward(params: Params, tokens: np.ndarray, targets: np.ndarray | None = None,
            ) -> tuple[float, Tape]:
    """(loss, tape) for tokens (B, L) of ints in [0, V); targets default to the next token."""
    x, tokens, targets = embed_inputs(params, tokens, targets)  # (B, L, C)
    tapes = []
    for block in params.blocks:
        x, tape = block_forward(block, x, params.arch.num_heads)  # (B, L, C)
        tapes.append(tape)
    loss, head = head_forward(params, x, targets)
    return loss, Tape(tokens, tuple(tapes), head)


def backward_with(params: Params, tokens: np.ndarray, head: HeadTape,
                  block_tape: Callable[[int], BlockTape]) -> Params:
    """Gradients of the loss, asking ``block_tape(i)`` for block i's full tape when needed.

    The plain backward looks the tape up; checkpointing recomputes it just before block i's
    backward. Either way the same operations run in the same order on the same arrays.
    """
    dlogits = ops.cross_entropy_backward(head.probs, head.targets)  # (B, L, V)
    dn, d_head = ops.linear_backward(dlogits, head.n, params.head)  # (B, L, C), (V, C)
    dx, d_norm = ops.rms_norm_backward(dn, head.x, head.rstd, params.norm)  # (B, L, C), (C,)
    grads: list[BlockParams] = []
    for i in reversed(range(len(params.blocks))):
        dx, block_grads = block_backward(params.blocks[i], block_tape(i), dx)  # (B, L, C)
        grads.insert(0, block_grads)
    d_embed = ops.embedding_backward(dx, tokens, params.arch.vocab_size)  # (V, C)
    if params.lm_head is None:  # tied: the head's gradient lands on the embedding too
        return Params(d_embed + d_head, tuple(grads), d_norm, None, params.arch)
    return Params(d_embed, tuple(grads), d_norm, d_head, params.arch)


def backward(params: Params, tape: Tape) -> Params:
    """Gradients of the loss of :func:`forward` with respect to every weight."""
    return backward_with(params, tape.tokens, tape.head, tape.blocks.__getitem__)
