"""Memory of the course's decoder, read from its live arrays (``nbytes``), never typed.

Two counts: the training states (weights, gradients, master copy, AdamW moments) of a real
training step, in the shape of :class:`distlesson.memory.states.MemoryBreakdown` so that chapter 1
can set a "counted by this project" column beside its formula; and the table of the arrays
a forward saves for the backward, per block and for the head.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from distlesson.catalog.models import Architecture, get_model
from distlesson.checks import check_positive_ints
from distlesson.memory.states import MemoryBreakdown
from distlesson.parallel.toy_mlp import AdamW, AdamWState
from distlesson.transformer import checkpointing
from distlesson.transformer.held import count_held
from distlesson.transformer.params import init_params
from distlesson.transformer.train import TrainState, train_step

__all__ = ["CountedStates", "SavedArray", "count_states", "counted_training_states",
           "sample_tokens", "saved_arrays", "saved_table"]


@dataclass(frozen=True)
class CountedStates:
    """Bytes of the training states of a live run.

    Read like a :class:`~distlesson.memory.states.MemoryBreakdown`: weights, grads, master,
    optimizer (a property: both moments) and total; :meth:`breakdown` converts.
    """

    weights: int
    """Bytes of the weight arrays."""
    grads: int
    """Bytes of the gradient arrays."""
    master: int
    """Bytes of a separate master copy of the weights (0: the weights are the copy)."""
    exp_avg: int
    """Bytes of AdamW's first moments m."""
    exp_avg_sq: int
    """Bytes of AdamW's second moments v."""
    num_params: int
    """Scalars in the weights (equals the architecture's num_params)."""
    dtype: str
    """The weights' dtype name (``float64`` or ``float32``)."""

    @property
    def optimizer(self) -> int:
        """Bytes of the optimizer state: exp_avg + exp_avg_sq."""
        return self.exp_avg + self.exp_avg_sq

    @property
    def total(self) -> int:
        """weights + grads + master + optimizer, bytes."""
        return self.weights + self.grads + self.master + self.optimizer

    def breakdown(self) -> MemoryBreakdown:
        """The same bytes as a :class:`~distlesson.memory.states.MemoryBreakdown`."""
        return MemoryBreakdown(self.weights, self.grads, self.master, self.optimizer)

    def per_param(self) -> MemoryBreakdown:
        """Bytes per parameter, exact: 8 + 8 + 0 + 16 in float64, 4 + 4 + 0 + 8 in float32."""
        return self.breakdown().per_param(self.num_params)


def count_states(state: TrainState) -> CountedStates:
    """Sum the ``nbytes`` of the live arrays of ``state``, each buffer once.

    Assumptions: the gradients of the last step are held (they are, during an update);
    a missing master copy counts 0. Units: bytes.
    """
    if state.grads is None:
        raise ValueError("state.grads is None: count after a step; allowed: a state whose "
                         "gradients are held")
    master = () if state.master is None else state.master.arrays()
    return CountedStates(
        weights=count_held(state.params.arrays()).nbytes,
        grads=count_held(state.grads.arrays()).nbytes,
        master=count_held(master).nbytes,
        exp_avg=count_held(s.exp_avg for s in state.moments).nbytes,
        exp_avg_sq=count_held(s.exp_avg_sq for s in state.moments).nbytes,
        num_params=state.params.num_params,
        dtype=str(state.params.dtype),
    )


def sample_tokens(arch: Architecture, *, batch_size: int, seq_len: int, seed: int = 0,
                  ) -> np.ndarray:
    """Random token ids (B, L) for counting: what is saved depends on the shape only."""
    check_positive_ints(batch_size=batch_size, seq_len=seq_len)
    if seq_len < 2:
        raise ValueError(f"seq_len={seq_len} must be >= 2 (one next-token target)")
    return np.random.default_rng(seed).integers(0, arch.vocab_size, (batch_size, seq_len))


def counted_training_states(arch: Architecture | None = None, *, dtype: type = np.float64,
                            ) -> CountedStates:
    """Run one AdamW step of ``arch`` (``course-tiny``) in ``dtype`` and count its states."""
    arch = get_model("course-tiny") if arch is None else arch
    params = init_params(arch, dtype=dtype)
    state = TrainState(params, tuple(AdamWState.zeros_like(a) for a in params.arrays()))
    tokens = sample_tokens(arch, batch_size=1, seq_len=4)
    _, state = train_step(state, tokens, AdamW())
    return count_states(state)


@dataclass(frozen=True)
class SavedArray:
    """One array a forward keeps for the backward."""

    part: str
    """``embedding``, ``block i`` or ``head``."""
    name: str
    """The tape's name for it (``probs``, ``gate``, ...)."""
    shape: tuple[int, ...]
    """Its shape."""
    dtype: str
    """Its dtype name."""
    scalars: int
    """Elements of its buffer."""
    nbytes: int
    """Bytes of its buffer."""
    share: Fraction
    """Its scalars over those of its part, exact."""


def saved_arrays(tape: checkpointing.CheckpointTape) -> tuple[SavedArray, ...]:
    """The table of a tape: each array, its size and its share of its part, in forward order."""
    rows = [(part, name, array) for part, name, array in tape.arrays()]
    totals: dict[str, int] = {}
    for part in dict.fromkeys(p for p, _, _ in rows):
        totals[part] = count_held(a for p, _, a in rows if p == part).scalars
    table = []
    for part, name, array in rows:
        held = count_held([array])
        table.append(SavedArray(part, name, tuple(array.shape), str(array.dtype), held.scalars,
                                held.nbytes, Fraction(held.scalars, totals[part])))
    return tuple(table)


def saved_table(arch: Architecture | None = None, *, batch_size: int, seq_len: int,
                mode: checkpointing.Mode = "none", dtype: type = np.float64,
                ) -> tuple[SavedArray, ...]:
    """:func:`saved_arrays` of a real forward of ``arch`` (``course-tiny``) on (B, L) tokens."""
    arch = get_model("course-tiny") if arch is None else arch
    tokens = sample_tokens(arch, batch_size=batch_size, seq_len=seq_len)
    _, tape = checkpointing.forward(init_params(arch, dtype=dtype), tokens, mode=mode)
    return saved_arrays(tape)
