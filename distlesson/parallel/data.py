"""Data parallelism, simulated: split the batch over dp ranks, all-reduce the gradients.

Every rank holds the whole model, computes the gradient of its own shard of the batch, and
a ring all-reduce (:mod:`distlesson.parallel.collectives`) sums the gradients so that every rank
applies the same update. The result is the full-batch gradient up to float round-off.

Uneven splits. The loss is a mean over examples, so rank r's local gradient g_r is a mean
over its b_r examples. Averaging the g_r (what DDP does, dividing by dp) is right only if
every b_r is equal. Here each rank contributes b_r x g_r, the sum of its per-example
gradients; the all-reduce adds them; dividing by the global batch B gives
sum_r b_r g_r / B, the full-batch mean gradient for any split.

Gradient accumulation. With k micro-batches per rank, a rank adds up b x g over its k
micro-batches locally and all-reduces once (DDP's ``no_sync``), instead of once per
micro-batch: the same gradient with k times fewer all-reduces and k times fewer bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from distlesson.checks import check_positive_int
from distlesson.parallel.collectives import ring_all_reduce
from distlesson.parallel.toy_mlp import MLPParams, flatten, loss_and_grads, unflatten

__all__ = [
    "DataParallelResult",
    "data_parallel_grads",
    "local_grad_sum",
    "split_batch",
]


def split_batch(batch: int, dp: int) -> tuple[slice, ...]:
    """The contiguous examples of each rank: ``np.array_split`` sizes, none empty.

    The first batch mod dp ranks get one example more. ValueError if a rank would be empty.
    """
    check_positive_int("dp", dp)
    if not isinstance(batch, int) or batch < dp:
        raise ValueError(f"batch={batch!r} over dp={dp} ranks leaves a rank without examples; "
                         f"allowed: batch >= dp")
    base, extra = divmod(batch, dp)
    bounds = np.cumsum([0] + [base + (r < extra) for r in range(dp)])
    return tuple(slice(int(a), int(b)) for a, b in pairwise(bounds))


def local_grad_sum(params: MLPParams, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """One rank's contribution: (b x its mean gradient, flattened (P,); b x its mean loss).

    b = len(x). Summed over ranks and divided by the global batch, these give the
    full-batch mean gradient and loss, however unevenly the batch was split.
    """
    loss, grads = loss_and_grads(params, x, y)
    b = x.shape[0]
    return b * flatten(grads), b * loss  # (P,), scalar


@dataclass(frozen=True)
class DataParallelResult:
    """The gradient that every rank applies, and what it cost to agree on it."""

    grads: MLPParams
    """The gradient after the all-reduce(s), divided by the global batch (rank 0's copy)."""
    loss: float
    """The full-batch mean loss (a logging scalar: its reduction is not counted as traffic)."""
    all_reduces: int
    """Number of gradient all-reduces."""
    sent_bytes: tuple[int, ...]
    """Per rank: bytes sent by all the all-reduces together."""
    replicas_agree: bool
    """True if every rank ends with a bit-identical gradient (the ring guarantees it)."""


def data_parallel_grads(
    params: MLPParams,
    x: np.ndarray,
    y: np.ndarray,
    *,
    dp: int,
    num_microbatches: int = 1,
    sync_every_microbatch: bool = False,
) -> DataParallelResult:
    """The full-batch gradient, computed by dp simulated ranks and ring all-reduce.

    The batch (B examples) is split over the dp ranks (:func:`split_batch`); each rank's
    shard is split again into ``num_microbatches`` micro-batches. Each rank accumulates
    b x g (see the module docstring) and all-reduces once at the end, or after every
    micro-batch if ``sync_every_microbatch`` (the naive version, k all-reduces).
    Result: grads = sum over ranks and micro-batches of b x g, divided by B.
    Cost: each all-reduce moves 2(dp - 1)/dp x P x itemsize bytes per rank (P parameters).
    """
    batch = x.shape[0]
    if not isinstance(num_microbatches, int) or num_microbatches < 1:
        raise ValueError(f"num_microbatches={num_microbatches!r} must be a positive integer")
    if batch < dp * num_microbatches:
        raise ValueError(
            f"batch={batch} cannot give each of dp={dp} ranks num_microbatches="
            f"{num_microbatches} non-empty micro-batches; allowed: batch >= dp x "
            f"num_microbatches = {dp * num_microbatches}")
    shards = split_batch(batch, dp)
    pending = [np.zeros(params.num_params, params.dtype) for _ in range(dp)]  # dp x (P,)
    synced = [np.zeros(params.num_params, params.dtype) for _ in range(dp)]  # dp x (P,)
    loss_sum = 0.0
    all_reduces, sent = 0, np.zeros(dp, dtype=np.int64)
    for micro in range(num_microbatches):
        for r, shard in enumerate(shards):
            local = split_batch(shard.stop - shard.start, num_microbatches)[micro]
            rows = slice(shard.start + local.start, shard.start + local.stop)
            grad_sum, loss_part = local_grad_sum(params, x[rows], y[rows])
            pending[r] = pending[r] + grad_sum  # (P,)   accumulate locally, no communication
            loss_sum += loss_part
        if sync_every_microbatch or micro == num_microbatches - 1:
            result = ring_all_reduce(pending)
            all_reduces += 1
            sent += result.sent_bytes
            synced = [s + o for s, o in zip(synced, result.outputs, strict=True)]  # dp x (P,)
            pending = [np.zeros_like(p) for p in pending]
    total = synced[0] / batch  # (P,)
    agree = all(np.array_equal(s, synced[0]) for s in synced)
    return DataParallelResult(
        grads=unflatten(total, params),
        loss=loss_sum / batch,
        all_reduces=all_reduces,
        sent_bytes=tuple(int(s) for s in sent),
        replicas_agree=agree,
    )
