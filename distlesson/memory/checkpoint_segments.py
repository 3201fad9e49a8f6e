"""Checkpointing every K-th layer: keep one layer input in K, recompute a segment at a time.

Chen et al. 2016 ("Training Deep Nets with Sublinear Memory Cost", sections 3 and 4) cut
the L layers into segments of K consecutive layers. The forward keeps only each segment's
input (a *checkpoint*) and frees everything else; the backward, from the last segment to
the first, reruns a segment's forward from its checkpoint and holds that segment's full
activations while it backpropagates through it. K = 1 is the "full" recomputation of
Korthikanti et al. 2022 (every layer's input kept); K = L keeps only the model's input.

Memory, with c the bytes of one layer's input and a the bytes one layer keeps without
checkpointing (both per micro-batch,
:func:`distlesson.memory.activations.activation_bytes_per_layer`)::

    peak(K) = ceil(L / K) c + K a

the checkpoints of every segment, plus one segment recomputed in full (its own checkpoint
counted twice, an overestimate by c, as in :func:`distlesson.claims.savings.
checkpoint_reduction`, which is peak(1)). The two terms pull opposite ways; their sum is
smallest near K = sqrt(L c / a), Chen et al.'s sqrt(n) when a and c are alike.
:func:`best_every` tries every K and returns the smallest peak exactly.

Compute: every layer's forward runs twice whatever K is, one extra forward of the layers
(:func:`distlesson.efficiency.mfu.recompute_flops_per_token`): K trades memory against memory, not
against time. Units: bytes, exact Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from distlesson.catalog.models import Architecture
from distlesson.memory.activations import activation_bytes_per_layer

__all__ = ["KEPT", "Kept", "SegmentPeak", "best_every", "segment_peak"]

Kept = Literal["none", "selective"]
KEPT: tuple[Kept, ...] = ("none", "selective")
"""What a layer keeps when it is not checkpointed: ``none``, every tensor of Korthikanti
et al.'s eq. 1 (attention scores included); ``selective``, the same without the scores,
which is what a layer using FlashAttention keeps (it never stores them)."""


@dataclass(frozen=True)
class SegmentPeak:
    """The activation peak of one choice of K, split into its two terms."""

    every: int
    """K: a checkpoint every K layers."""
    checkpoints: Fraction
    """ceil(L / K) layer inputs, bytes."""
    segment: Fraction
    """K layers' full activations (the segment being recomputed), bytes."""

    @property
    def total(self) -> Fraction:
        """checkpoints + segment, bytes."""
        return self.checkpoints + self.segment


def _layer_bytes(arch: Architecture, seq_len: int, micro_batch: int,
                 kept: Kept) -> tuple[Fraction, Fraction]:
    """(c, a): one layer's input, and what one layer keeps without checkpointing."""
    if kept not in KEPT:
        raise ValueError(f"kept={kept!r} is not known; allowed: {', '.join(KEPT)}")
    shape = dict(seq_len=seq_len, micro_batch=micro_batch, hidden_size=arch.hidden_size,
                 num_heads=arch.num_heads)
    return (activation_bytes_per_layer(**shape, recompute="full"),
            activation_bytes_per_layer(**shape, recompute=kept))


def segment_peak(arch: Architecture, *, every: int, seq_len: int, micro_batch: int = 1,
                 kept: Kept = "selective") -> SegmentPeak:
    """peak(K) = ceil(L / K) c + K a for ``every`` = K (see the module docstring).

    Assumptions: one GPU holds every layer (no tensor, sequence or pipeline parallelism),
    16-bit activations as in Korthikanti et al. 2022; segments are consecutive layers, the
    last one shorter when K does not divide L (the peak still counts K layers). Units: bytes.
    """
    layers = arch.num_layers
    if not isinstance(every, int) or isinstance(every, bool) or not 1 <= every <= layers:
        raise ValueError(f"every={every!r} must be a whole number of layers from 1 to "
                         f"num_layers={layers} of {arch.key}")
    checkpoint, layer = _layer_bytes(arch, seq_len, micro_batch, kept)
    return SegmentPeak(every, -(-layers // every) * checkpoint, every * layer)


def best_every(arch: Architecture, *, seq_len: int, micro_batch: int = 1,
               kept: Kept = "selective") -> SegmentPeak:
    """The K with the smallest peak, found by trying K = 1 .. L (the smallest K on a tie)."""
    return min((segment_peak(arch, every=k, seq_len=seq_len, micro_batch=micro_batch,
                             kept=kept) for k in range(1, arch.num_layers + 1)),
               key=lambda peak: peak.total)
