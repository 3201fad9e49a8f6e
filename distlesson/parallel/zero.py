"""ZeRO-1/2/3 and FSDP, simulated on a flat parameter vector with exact byte accounting.

Source: Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
Parameter Models" (stages P_os, P_os+g, P_os+g+p); PyTorch FSDP (Zhao et al. 2023) for the
flat, padded parameter vector. Each of dp ranks runs the same AdamW training as
:func:`distlesson.parallel.toy_mlp.train_single_device`, on its shard of every batch; what differs
between stages is which states a rank keeps whole and which collectives keep them in step.

The P parameters are flattened into one vector (FSDP's FlatParameter). Stages 1-3 pad it
with zeros to P' = dp x S, S = ceil(P / dp), so that rank r owns the equal slice
[r S, (r + 1) S); padding has zero weights and gradients and stays zero under AdamW.

What one step does (g_r: rank r's b_r x local mean gradient, see data_parallel):

- stage 0 (plain DP): all-reduce g (P, no padding); every rank updates its full replica.
- stage 1 (optimizer states sharded): reduce-scatter g into the full-size gradient buffer
  (only the own slice ends reduced), update the own slice with the own AdamW moments,
  all-gather the weights. DeepSpeed first all-reduced here (1.5x DP's traffic) and later
  switched to the reduce-scatter ("ZeRO stage 1 with reduced communication", DeepSpeed
  blog, 2020-03-13); ``zero1_all_reduce=True`` simulates the old way.
- stage 2 (gradients sharded too): as stage 1, but a rank keeps only its reduced gradient
  slice; the full local gradient exists only until the reduce-scatter.
- stage 3 (weights sharded too, FSDP FULL_SHARD): all-gather the weights, forward, free the
  gathered copy; all-gather again, backward, free; reduce-scatter g; update the own slice.

Memory is measured from the live arrays (``nbytes``) at rest, after the optimizer step,
with each rank's gradient kept as the step left it; the transient full copies (gathered
weights, unreduced local gradient) are measured separately.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from distlesson.memory.states import MemoryBreakdown
from distlesson.parallel.collectives import (
    CollectiveResult,
    ring_all_gather,
    ring_all_reduce,
    ring_bytes,
    ring_reduce_scatter,
)
from distlesson.parallel.data import split_batch
from distlesson.parallel.toy_mlp import (
    AdamW,
    AdamWState,
    MLPParams,
    adamw_step,
    backward,
    flatten,
    forward,
    unflatten,
)

__all__ = [
    "RankState",
    "ZeroRun",
    "train_zero",
    "zero_comm_bytes",
]

STAGES = (0, 1, 2, 3)


def _check_stage(stage: int, zero1_all_reduce: bool) -> None:
    """ValueError unless ``stage`` is 0..3 and ``zero1_all_reduce`` is only used with stage 1."""
    if stage not in STAGES or isinstance(stage, bool):
        raise ValueError(f"stage={stage!r} is not a ZeRO stage; allowed: {list(STAGES)}")
    if zero1_all_reduce and stage != 1:
        raise ValueError(f"zero1_all_reduce=True applies only to stage=1, got stage={stage}")


def zero_comm_bytes(weight_bytes: int, n: int, stage: int, *,
                    zero1_all_reduce: bool = False) -> Fraction:
    """Bytes each rank sends per training step under ZeRO ``stage`` over n ranks.

    Equation (W = ``weight_bytes``, gradients in the weights' dtype so they also take W):
    stages 0, 1, 2: 2(n - 1)/n x W (all-reduce of gradients, or reduce-scatter of gradients
    plus all-gather of weights, each (n - 1)/n x W); stage 3: 3(n - 1)/n x W (all-gather
    before the forward, again before the backward, reduce-scatter of the gradients);
    stage 1 with ``zero1_all_reduce``: 3(n - 1)/n x W (all-reduce plus all-gather).
    Source: Rajbhandari et al. 2020, section 7 (2 Psi for P_os+g, 3 Psi for P_os+g+p);
    per-collective costs from :func:`~distlesson.parallel.collectives.ring_bytes` (ring algorithms).
    Assumptions: n divides the element count (true for the padded flat vector); no gradient
    accumulation. Units: bytes, exact.
    """
    _check_stage(stage, zero1_all_reduce)
    if stage == 0:
        return ring_bytes("all_reduce", weight_bytes, n)
    if stage == 1 and zero1_all_reduce:
        return ring_bytes("all_reduce", weight_bytes, n) + ring_bytes("all_gather",
                                                                      weight_bytes, n)
    gathers = 2 if stage == 3 else 1
    return (ring_bytes("reduce_scatter", weight_bytes, n)
            + gathers * ring_bytes("all_gather", weight_bytes, n))


@dataclass(frozen=True)
class RankState:
    """What one rank holds at rest, after an optimizer step."""

    weights: np.ndarray
    """The full flat weights (stages 0-2: (P,) or (P',)) or the own slice (stage 3: (S,))."""
    grads: np.ndarray
    """The gradient buffer: full (stages 0-1) or the own reduced slice (stages 2-3)."""
    optimizer: AdamWState
    """AdamW moments: full (stage 0) or of the own slice (stages 1-3)."""

    @property
    def memory(self) -> MemoryBreakdown:
        """Bytes of each state, measured from the arrays (no master copy in fp32)."""
        return MemoryBreakdown(weights=self.weights.nbytes, grads=self.grads.nbytes, master=0,
                               optimizer=self.optimizer.nbytes)


@dataclass(frozen=True)
class ZeroRun:
    """The outcome of a simulated ZeRO training run."""

    stage: int
    """ZeRO stage 0..3."""
    dp: int
    """Number of simulated ranks."""
    params: MLPParams
    """The final weights (stage 3: the shards concatenated, as a checkpoint would)."""
    losses: tuple[float, ...]
    """Full-batch mean loss before each step."""
    ranks: tuple[RankState, ...]
    """Each rank's states at rest after the last step."""
    padding: int
    """Zeros appended to the flat vector: P' - P (0 for stage 0)."""
    sent_bytes: tuple[tuple[int, ...], ...]
    """Per step, per rank: bytes sent by that step's collectives."""
    collectives: tuple[str, ...]
    """The collectives of one step, in order (``ring_bytes`` kinds)."""
    gathered_weight_bytes: int
    """Largest gathered weight copy held transiently (stage 3), 0 if weights stay whole."""
    local_grad_bytes: int
    """Bytes of the full local gradient before its reduction (the toy has one bucket)."""

    @property
    def num_params(self) -> int:
        """P, without padding."""
        return self.params.num_params

    def padding_bytes(self) -> MemoryBreakdown:
        """Bytes a rank holds beyond the unpadded memory model, per state (exact).

        A full padded buffer carries the P' - P padding elements; a shard holds
        S = P'/dp = P/dp + (P' - P)/dp elements, so its excess is (P' - P)/dp elements' worth
        (the zeros sit in the last shard, but every shard is S long). AdamW has two moments.
        """
        item = self.params.dtype.itemsize
        pad = Fraction(self.padding * item)

        def held(sharded_from: int) -> Fraction:
            return pad / self.dp if self.stage >= sharded_from else pad

        return MemoryBreakdown(weights=held(3), grads=held(2), master=0,
                               optimizer=2 * held(1))


def _pad(flat: np.ndarray, length: int) -> np.ndarray:
    """``flat`` followed by zeros up to ``length``, (length,)."""
    return np.concatenate([flat, np.zeros(length - flat.size, flat.dtype)])  # (P',)


def _local_grad(fwd: np.ndarray, bwd: np.ndarray, like: MLPParams, x: np.ndarray,
                y: np.ndarray, length: int) -> tuple[np.ndarray, float]:
    """b x local gradient (length,) and b x local loss, with forward and backward weights."""
    size = like.num_params
    cache = forward(unflatten(fwd[:size], like), x)
    loss, grads = backward(unflatten(bwd[:size], like), cache, y)
    b = x.shape[0]
    return _pad(b * flatten(grads), length), b * loss


class _Ledger:
    """The collectives of one step and the bytes each rank sent in them (internal)."""

    def __init__(self, dp: int) -> None:
        self.kinds: list[str] = []
        self.sent = [0] * dp

    def run(self, kind: str, result: CollectiveResult) -> tuple[np.ndarray, ...]:
        """Record ``result`` as a collective of ``kind``; return its outputs."""
        self.kinds.append(kind)
        self.sent = [a + b for a, b in zip(self.sent, result.sent_bytes, strict=True)]
        return result.outputs


def _reduce_grads(stage: int, local: list[np.ndarray], own: list[slice], batch: int,
                  zero1_all_reduce: bool, ledger: _Ledger) -> tuple[list, list]:
    """(each rank's gradient for its update, each rank's gradient buffer at rest).

    Stage 0 (or stage 1 the old way): all-reduce, every rank has the full reduced gradient.
    Stages 1-3: reduce-scatter; stage 1 keeps the full-size buffer (the own slice reduced,
    the rest stale local sums that nobody reads), stages 2-3 keep only the reduced slice.
    """
    if stage == 0 or (stage == 1 and zero1_all_reduce):
        full = [g / batch for g in ledger.run("all_reduce", ring_all_reduce(local))]  # (P',)
        return [g if stage == 0 else g[o] for g, o in zip(full, own, strict=True)], full
    mine = [c / batch for c in ledger.run("reduce_scatter", ring_reduce_scatter(local))]
    if stage >= 2:
        return mine, mine  # dp x (S,)
    kept = [np.concatenate([g[: o.start], m, g[o.stop:]])  # (P',)
            for g, m, o in zip(local, mine, own, strict=True)]
    return mine, kept


def train_zero(
    params: MLPParams,
    batches: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    dp: int,
    stage: int,
    opt: AdamW | None = None,
    zero1_all_reduce: bool = False,
) -> ZeroRun:
    """Train ``params`` with AdamW, one step per (x, y) batch, over dp ranks at ZeRO ``stage``.

    See the module docstring for what each stage does. Every batch is split over the
    ranks with :func:`~distlesson.parallel.data.split_batch` (ValueError if a rank would get
    no example); gradients are summed as b_r x g_r and divided by the batch, so uneven
    splits still give the full-batch gradient.
    """
    _check_stage(stage, zero1_all_reduce)
    if not batches:
        raise ValueError("batches is empty; allowed: at least one (x, y) batch")
    opt = opt or AdamW()
    size = params.num_params
    shard = -(-size // dp)  # S = ceil(P / dp)
    length = size if stage == 0 else dp * shard  # P, or P' = dp x S
    full = _pad(flatten(params), length)  # (P',)
    own = [slice(r * shard, (r + 1) * shard) if stage else slice(0, size) for r in range(dp)]
    weights = [full[own[r]].copy() if stage == 3 else full.copy() for r in range(dp)]
    moments = [AdamWState.zeros_like(full[own[r]]) for r in range(dp)]  # dp x (S,) or (P,)
    grads: list[np.ndarray] = []
    losses, sent_per_step, kinds = [], [], ()
    gathered_bytes = local_bytes = 0
    for x, y in batches:
        rows = split_batch(x.shape[0], dp)
        ledger = _Ledger(dp)
        if stage == 3:  # forward and backward each on a freshly gathered copy, freed after
            fwd = ledger.run("all_gather", ring_all_gather(weights))  # dp x (P',)
            bwd = ledger.run("all_gather", ring_all_gather(weights))  # dp x (P',)
            gathered_bytes = max(gathered_bytes, fwd[0].nbytes)
        else:
            fwd = bwd = tuple(weights)
        local = [_local_grad(fwd[r], bwd[r], params, x[rows[r]], y[rows[r]], length)
                 for r in range(dp)]
        del fwd, bwd
        local_bytes = local[0][0].nbytes
        losses.append(sum(loss for _, loss in local) / x.shape[0])
        mine, grads = _reduce_grads(stage, [g for g, _ in local], own, x.shape[0],
                                    zero1_all_reduce, ledger)
        # the update: the own slice of the weights with the own moments
        own_weights = [w if stage in (0, 3) else w[own[r]] for r, w in enumerate(weights)]
        updated = [adamw_step(opt, own_weights[r], mine[r], moments[r]) for r in range(dp)]
        weights, moments = [w for w, _ in updated], [m for _, m in updated]
        if stage in (1, 2):  # every rank needs the whole updated weights again
            weights = list(ledger.run("all_gather", ring_all_gather(weights)))  # dp x (P',)
        sent_per_step.append(tuple(ledger.sent))
        kinds = tuple(ledger.kinds)
    final = np.concatenate(weights) if stage == 3 else weights[0]  # (P',)
    return ZeroRun(
        stage=stage, dp=dp, params=unflatten(final[:size], params), losses=tuple(losses),
        ranks=tuple(RankState(weights[r], grads[r], moments[r]) for r in range(dp)),
        padding=length - size, sent_bytes=tuple(sent_per_step), collectives=kinds,
        gathered_weight_bytes=gathered_bytes, local_grad_bytes=local_bytes,
    )
