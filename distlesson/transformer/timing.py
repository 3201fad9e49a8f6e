"""Wall-clock cost of the forward, the backward, and the backward's recomputation.

Measured with :func:`time.perf_counter` on the machine that builds the course, best of
``repeats`` runs each (the minimum is the least disturbed by other work on the machine).
These are measurements, not formulas: they vary between machines and runs, and the tests
check only loose bounds. All backwards go through
:func:`distlesson.transformer.checkpointing.backward`, so they do the same bookkeeping and
differ only by what they recompute.

At the course's tiny sizes numpy's elementwise work (the softmax's exp and masking, SwiGLU's
sigmoid) weighs as much as the small matrix products, so the ratios need not follow the
FLOP counts (backward about twice the forward): recomputing only the softmax, as the
selective mode does, is not cheap here as it is on a GPU running a fused attention kernel.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from distlesson.catalog.models import Architecture, get_model
from distlesson.checks import check_positive_int
from distlesson.transformer import checkpointing
from distlesson.transformer.accounting import sample_tokens
from distlesson.transformer.params import init_params

__all__ = ["Timing", "measure_timing"]


@dataclass(frozen=True)
class Timing:
    """Best-of-k seconds of one step's parts, on one batch shape."""

    batch_size: int
    """B of the timed batch."""
    seq_len: int
    """L of the timed batch."""
    repeats: int
    """k: runs per measurement; the fastest is kept."""
    forward_s: float
    """Forward keeping everything (mode ``none``), seconds."""
    backward_s: float
    """Backward without recomputation, seconds."""
    selective_backward_s: float
    """Backward recomputing each block's attention weights, seconds."""
    full_backward_s: float
    """Backward recomputing each block's forward from its input, seconds."""

    @property
    def backward_over_forward(self) -> float:
        """backward_s / forward_s (about 2 in FLOPs for the matrix products; measured here)."""
        return self.backward_s / self.forward_s

    @property
    def full_overhead(self) -> float:
        """(full_backward_s - backward_s) / backward_s: what full recomputation adds."""
        return (self.full_backward_s - self.backward_s) / self.backward_s

    @property
    def selective_overhead(self) -> float:
        """(selective_backward_s - backward_s) / backward_s."""
        return (self.selective_backward_s - self.backward_s) / self.backward_s


def _best(fn: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def measure_timing(arch: Architecture | None = None, *, batch_size: int = 4, seq_len: int = 64,
                   repeats: int = 7, seed: int = 0) -> Timing:
    """Time ``arch`` (``course-tiny``) on random tokens (B, L), float64, best of ``repeats``."""
    check_positive_int("repeats", repeats)
    arch = get_model("course-tiny") if arch is None else arch
    params = init_params(arch, seed=seed)
    tokens = sample_tokens(arch, batch_size=batch_size, seq_len=seq_len, seed=seed)
    tapes = {mode: checkpointing.forward(params, tokens, mode=mode)[1]
             for mode in checkpointing.MODES}
    return Timing(
        batch_size=batch_size, seq_len=seq_len, repeats=repeats,
        forward_s=_best(lambda: checkpointing.forward(params, tokens, mode="none"), repeats),
        backward_s=_best(lambda: checkpointing.backward(params, tapes["none"]), repeats),
        selective_backward_s=_best(
            lambda: checkpointing.backward(params, tapes["selective"]), repeats),
        full_backward_s=_best(lambda: checkpointing.backward(params, tapes["full"]), repeats),
    )
