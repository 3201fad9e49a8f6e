"""How the saved arrays grow with the sequence length L and the number of layers.

The closed forms below summarise what the tape of :mod:`~distlesson.transformer.block`
holds; the tests check them against arrays counted in live runs (and the crossover is
solved from counted arrays and checked by counting again). Per token of a sequence, with
C hidden_size, K D the key/value width, F ffn_hidden_size, A heads, V vocab_size::

    block, linear in L:  x n1 qr attn h n2 (6C) + kr v (2 K D) + gate up act (3F) + rstd1 rstd2 (2)
    block, quadratic:    probs, A L per token, so A L^2 per sequence and layer
    head:                x n (2C) + probs over the vocabulary (V) + rstd (1) + targets (1)
    embedding:           the tokens (1)

For ``course-tiny`` (C = 32, K D = 32, F = 88, A = 4, V = 96) that is 522 L + 4 L^2 per
block and 163 L for the head and tokens, per sequence. Units: scalars (elements).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from distlesson.catalog.models import Architecture
from distlesson.transformer import checkpointing
from distlesson.transformer.accounting import sample_tokens
from distlesson.transformer.held import count_held
from distlesson.transformer.params import init_params

__all__ = ["Crossover", "PeakScalars", "attention_scalars", "block_linear_scalars",
           "counted_attention_split", "counted_peak", "crossover", "head_linear_scalars",
           "peak_scalars"]


def block_linear_scalars(arch: Architecture) -> int:
    """Scalars one block saves per token, the attention weights aside: 6C + 2KD + 3F + 2."""
    kv = arch.num_kv_heads * arch.head_dim
    return 6 * arch.hidden_size + 2 * kv + 3 * arch.ffn_hidden_size + 2


def head_linear_scalars(arch: Architecture) -> int:
    """Scalars the head and the embedding save per token: 2C + V + 2, plus 1 for the tokens."""
    return 2 * arch.hidden_size + arch.vocab_size + 2 + 1


def attention_scalars(arch: Architecture, *, seq_len: int, batch_size: int = 1) -> int:
    """The quadratic term: layers x heads x L^2 per sequence, the probs of every block."""
    return arch.num_layers * arch.num_heads * seq_len**2 * batch_size


@dataclass(frozen=True)
class PeakScalars:
    """Closed-form saved scalars of a step (the peak defined in :mod:`.checkpointing`)."""

    end_of_forward: int
    """Held by the tape when the forward returns."""
    recomputed: int
    """Added during one block's backward by recomputation."""

    @property
    def peak(self) -> int:
        """end_of_forward + recomputed."""
        return self.end_of_forward + self.recomputed


def peak_scalars(arch: Architecture, *, batch_size: int, seq_len: int,
                 mode: checkpointing.Mode) -> PeakScalars:
    """Saved scalars of one step, with n = num_layers, r = :func:`block_linear_scalars`,
    e = :func:`head_linear_scalars`, B L tokens:

    - none:      B L (n r + e) + n B A L^2, nothing recomputed
    - selective: B L (n r + e), then one block's B A L^2 probs recomputed
    - full:      B L (n C + e), then one block's B L (r - C) + B A L^2 recomputed

    Source: the tape of this model (each array is listed in the module docstring).
    """
    checkpointing.check_mode(mode)
    tokens, n, r = batch_size * seq_len, arch.num_layers, block_linear_scalars(arch)
    e, probs = head_linear_scalars(arch), arch.num_heads * seq_len**2 * batch_size
    if mode == "none":
        return PeakScalars(tokens * (n * r + e) + n * probs, 0)
    if mode == "selective":
        return PeakScalars(tokens * (n * r + e), probs)
    return PeakScalars(tokens * (n * arch.hidden_size + e),
                       tokens * (r - arch.hidden_size) + probs)


def counted_peak(arch: Architecture, *, batch_size: int, seq_len: int,
                 mode: checkpointing.Mode, dtype: type = np.float64,
                 ) -> checkpointing.SavedPeak:
    """Run one forward and backward of ``arch`` under ``mode`` and count what was held."""
    params = init_params(arch, dtype=dtype)
    tokens = sample_tokens(arch, batch_size=batch_size, seq_len=seq_len)
    _, tape = checkpointing.forward(params, tokens, mode=mode)
    return checkpointing.backward(params, tape)[1]


def _is_attention(part: str, name: str) -> bool:
    return part.startswith("block") and name == "probs"  # not the head's vocabulary probs


def counted_attention_split(arch: Architecture, *, seq_len: int, include_head: bool = True,
                            ) -> tuple[int, int]:
    """(attention probs, everything else) saved by a live forward of one sequence, scalars.

    Without ``include_head`` only the blocks count (the head's and tokens' arrays aside).
    """
    tokens = sample_tokens(arch, batch_size=1, seq_len=seq_len)
    _, tape = checkpointing.forward(init_params(arch), tokens, mode="none")
    rows = [(part, name, a) for part, name, a in tape.arrays()
            if include_head or part.startswith("block")]
    attention = count_held(a for part, name, a in rows if _is_attention(part, name))
    rest = count_held(a for part, name, a in rows if not _is_attention(part, name))
    return attention.scalars, rest.scalars


@dataclass(frozen=True)
class Crossover:
    """The shortest sequence at which the attention weights outweigh the rest of the tape."""

    seq_len: int
    """Smallest L with attention(L) > rest(L)."""
    quadratic: int
    """Attention scalars per L^2 (per sequence), from counted arrays."""
    linear: int
    """The rest's scalars per L, from counted arrays."""
    before: tuple[int, int]
    """(attention, rest) counted at seq_len - 1: attention <= rest."""
    at: tuple[int, int]
    """(attention, rest) counted at seq_len: attention > rest."""


def crossover(arch: Architecture, *, include_head: bool = True) -> Crossover:
    """Solve q L^2 > r L from counts at L = 2 and 3, then check by counting at L* - 1 and L*.

    q and r are read from live tapes (q = attention(2) / 4, r = rest(3) - rest(2)); the
    counts at 2 and 3 must fit q L^2 and r L exactly (no constant term), else ValueError.
    Then L* = floor(r / q) + 1, the smallest integer with q L > r. Units: tokens.
    """
    (a2, r2), (a3, r3) = (counted_attention_split(arch, seq_len=s, include_head=include_head)
                          for s in (2, 3))
    q, r = a2 // 4, r3 - r2
    if (a2, a3, r2) != (4 * q, 9 * q, 2 * r):
        raise ValueError(f"counts attention {a2}, {a3} and rest {r2}, {r3} at L = 2, 3 are "
                         "not q L^2 and r L; allowed: a tape without constant terms")
    seq_len = r // q + 1  # r / q >= 6 C / A >= 6, so L* - 1 >= 6 has a next-token target
    before = counted_attention_split(arch, seq_len=seq_len - 1, include_head=include_head)
    at = counted_attention_split(arch, seq_len=seq_len, include_head=include_head)
    if not (before[0] <= before[1] and at[0] > at[1]):
        raise ValueError(f"crossover L={seq_len} is not confirmed by counting: at L-1 "
                         f"{before}, at L {at} (attention, rest)")
    return Crossover(seq_len, q, r, before, at)
