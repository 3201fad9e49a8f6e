"""Pipeline-parallel schedules as data: per stage, the ordered operations it runs.

A schedule is a table, not a program: each function below returns, for every stage, the
tuple of :class:`Op` it executes in that order, and nothing else. The simulator
(:mod:`distlesson.pipeline.simulator`) turns the table into times; the closed forms
(:mod:`distlesson.pipeline.bubble`) summarise what the simulator finds; the Gantt renderer draws it.

Vocabulary: ``pp`` stages (0-based ``s``), ``num_microbatches`` = m microbatches (0-based),
``chunks`` = v model chunks per stage under interleaving. Chunk ``c`` on stage ``s`` is the
*virtual stage* ``c * pp + s``: a microbatch's forward visits virtual stages 0, 1, ...,
v * pp - 1 in order and its backward visits them in reverse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from distlesson.checks import check_nonneg_int, check_positive_ints

__all__ = [
    "KINDS",
    "SCHEDULES",
    "Op",
    "Schedule",
    "build_schedule",
    "check_schedule_args",
    "gpipe",
    "interleaved_1f1b",
    "one_f_one_b",
    "zb_h1",
]

Kind = Literal["F", "B", "W"]
KINDS: tuple[Kind, ...] = ("F", "B", "W")
"""F: forward. B: backward (the whole backward, or with a split backward only the gradient
with respect to the input). W: gradient with respect to the weights (split backward only)."""


@dataclass(frozen=True, slots=True)
class Op:
    """One operation of one microbatch on one model chunk of a stage."""

    kind: Kind
    """``"F"``, ``"B"`` or ``"W"`` (see :data:`KINDS`)."""
    microbatch: int
    """Which microbatch, 0-based."""
    chunk: int = 0
    """Which model chunk of the stage, 0-based; always 0 except under interleaving."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"op kind={self.kind!r} is not one of {', '.join(KINDS)}")
        for name in ("microbatch", "chunk"):
            check_nonneg_int(f"op {name}", getattr(self, name))

    def __str__(self) -> str:
        chunk = f" chunk {self.chunk}" if self.chunk else ""
        return f"{self.kind} of microbatch {self.microbatch}{chunk}"


@dataclass(frozen=True)
class Schedule:
    """A named pipeline schedule: ``stages[s]`` is the ordered tuple of stage ``s``'s ops."""

    name: str
    """The key of :data:`SCHEDULES` that built it (free text for a hand-written one)."""
    pp: int
    """Number of pipeline stages."""
    num_microbatches: int
    """Microbatches per step (m)."""
    chunks: int
    """Model chunks per stage (v); 1 unless interleaved."""
    split_backward: bool
    """True when the backward is split into B (input gradient) and W (weight gradient)."""
    stages: tuple[tuple[Op, ...], ...]
    """Per stage, the operations in the order the stage runs them."""

    def __post_init__(self) -> None:
        _check_sizes(self.pp, self.num_microbatches, self.chunks)
        if len(self.stages) != self.pp:
            raise ValueError(f"schedule {self.name!r}: {len(self.stages)} stage rows for "
                             f"pp={self.pp}; need one row per stage")


MAX_OPERATIONS = 10**7
"""The most operations a schedule may list (stages x micro-batches x chunks x 2 or 3): far
beyond any real step, and small enough that building and simulating it ends in seconds."""


def _check_sizes(pp: int, num_microbatches: int, chunks: int = 1) -> None:
    check_positive_ints(pp=pp, num_microbatches=num_microbatches, chunks=chunks)
    operations = 3 * pp * num_microbatches * chunks
    if operations > MAX_OPERATIONS:
        raise ValueError(f"pp={pp} x num_microbatches={num_microbatches} x chunks={chunks} "
                         f"gives about {operations:.3g} operations; allowed: up to "
                         f"{MAX_OPERATIONS:.0e}")


def gpipe(pp: int, num_microbatches: int) -> Schedule:
    """GPipe (Huang et al. 2019, Fig. 2c): every forward, then every backward.

    The backwards run in reverse microbatch order (last in, first out), as in the figure
    and as autograd would run them over the concatenated microbatches. The order does not
    change the step time: the last stage finishes the last forward last, so it can start
    any backward at that moment. Every stage holds all m microbatches' activations.
    """
    _check_sizes(pp, num_microbatches)
    m = num_microbatches
    row = (
        # fill: all forwards, in microbatch order
        *(Op("F", i) for i in range(m)),
        # drain: all backwards, last microbatch first
        *(Op("B", i) for i in reversed(range(m))),
    )
    return Schedule("gpipe", pp, m, 1, False, (row,) * pp)


def _warmup_steady_cooldown(forwards: list[Op], backwards: list[Op], warmup: int,
                            *, weights: bool = False) -> tuple[Op, ...]:
    """warmup forwards, then (forward, backward) pairs, then the remaining backwards."""
    row: list[Op] = []
    # warmup: fill the pipeline with forwards
    row.extend(forwards[:warmup])
    # steady state: one forward, one backward
    for f, b in zip(forwards[warmup:], backwards, strict=False):
        row += (f, b)
    # cooldown: drain the backwards still owed
    row.extend(backwards[len(forwards) - warmup:])
    return tuple(row)


def one_f_one_b(pp: int, num_microbatches: int) -> Schedule:
    """1F1B, PipeDream-flush (Narayanan et al. 2021, "Memory-efficient pipeline-parallel
    DNN training"; Megatron-LM's ``forward_backward_pipelining_without_interleaving``).

    Stage s runs ``min(pp - s - 1, m)`` warmup forwards, then alternates one forward and one
    backward, then drains the remaining backwards. Stage s holds at most
    ``min(pp - s, m)`` microbatches' activations instead of GPipe's m.
    """
    _check_sizes(pp, num_microbatches)
    m = num_microbatches
    forwards = [Op("F", i) for i in range(m)]
    backwards = [Op("B", i) for i in range(m)]
    rows = tuple(_warmup_steady_cooldown(forwards, backwards, min(pp - s - 1, m))
                 for s in range(pp))
    return Schedule("1f1b", pp, m, 1, False, rows)


def interleaved_1f1b(pp: int, num_microbatches: int, chunks: int) -> Schedule:
    """Interleaved 1F1B of Megatron-LM (Narayanan et al. 2021, SC'21, Section 2.2.2;
    ``forward_backward_pipelining_with_interleaving``), v = ``chunks`` chunks per stage.

    A stage runs its v * m (microbatch, chunk) pairs as "virtual microbatches" k = 0, 1, ...:
    in groups of pp microbatches, chunk 0 of the group, then chunk 1, and so on (backwards
    visit the chunks in reverse). Warmup on stage s is ``2 (pp - s - 1) + (v - 1) pp``
    virtual microbatches, capped at v * m (then the stage runs all forwards, then all
    backwards), as in Megatron-LM with ``microbatch_group_size_per_vp_stage = pp``. (Older
    Megatron-LM ran all forwards first on every stage when m == pp; the simulated bubble is
    the same, later stages just held more.) Requires m % pp == 0, as Megatron-LM does.
    """
    _check_sizes(pp, num_microbatches, chunks)
    m, v = num_microbatches, chunks
    if m % pp:
        raise ValueError(f"num_microbatches={m} must be a multiple of pp={pp} for the "
                         "interleaved schedule (as in Megatron-LM)")

    def op(kind: Kind, k: int) -> Op:
        group, within = divmod(k, pp * v)
        chunk = within // pp if kind == "F" else v - 1 - within // pp
        return Op(kind, group * pp + within % pp, chunk)

    forwards = [op("F", k) for k in range(v * m)]
    backwards = [op("B", k) for k in range(v * m)]
    rows = tuple(
        _warmup_steady_cooldown(forwards, backwards, min(2 * (pp - s - 1) + (v - 1) * pp, v * m))
        for s in range(pp))
    return Schedule("interleaved", pp, m, v, False, rows)


def zb_h1(pp: int, num_microbatches: int) -> Schedule:
    """ZB-H1 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, Fig. 3).

    The backward is split into B (input gradient, on the critical path) and W (weight
    gradient, needed only by the optimizer step). Stage s runs, at steps x = 0, 1, ...,
    m + pp - 2, the ops ``F[x]``, ``B[x - (pp - 1 - s)]``, ``W[x - (pp - 1)]`` that exist
    (index in 0..m-1). So it warms up with the same ``pp - 1 - s`` forwards as 1F1B, then
    runs s (F, B) pairs whose W is deferred, then (F, B, W) triples, and finally drains
    the deferred Ws, which fill the tail bubble. Each stage holds at most pp microbatches
    until their W: the peak over stages equals 1F1B's (stage 0 holds pp in both).
    """
    _check_sizes(pp, num_microbatches)
    m = num_microbatches
    rows = []
    for s in range(pp):
        row: list[Op] = []
        for x in range(m + pp - 1):
            for kind, i in (("F", x), ("B", x - (pp - 1 - s)), ("W", x - (pp - 1))):
                if 0 <= i < m:
                    row.append(Op(kind, i))
        rows.append(tuple(row))
    return Schedule("zb-h1", pp, m, 1, True, tuple(rows))


SCHEDULES: dict[str, Callable[..., Schedule]] = {
    "gpipe": gpipe,
    "1f1b": one_f_one_b,
    "interleaved": interleaved_1f1b,
    "zb-h1": zb_h1,
}
"""Schedule name -> the function that builds it (``interleaved`` also takes ``chunks``)."""


def check_schedule_args(name: str, pp: int, num_microbatches: int, chunks: int = 1) -> None:
    """Raise ValueError, naming the value and what is allowed, unless ``name`` can be built
    for ``pp`` stages, ``num_microbatches`` and ``chunks`` chunks per stage."""
    if name not in SCHEDULES:
        raise ValueError(f"schedule={name!r} is not one of {', '.join(SCHEDULES)}")
    _check_sizes(pp, num_microbatches, chunks)
    if name != "interleaved" and chunks != 1:
        raise ValueError(f"chunks={chunks} is only for the 'interleaved' schedule; "
                         f"{name!r} runs one chunk per stage (chunks=1)")
    if name == "interleaved" and chunks < 2:
        raise ValueError(f"chunks={chunks} must be >= 2 for the interleaved schedule "
                         "(one chunk per stage is '1f1b')")
    if name == "interleaved" and num_microbatches % pp:
        raise ValueError(f"num_microbatches={num_microbatches} must be a multiple of "
                         f"pp={pp} for the interleaved schedule (as in Megatron-LM)")


def build_schedule(name: str, pp: int, num_microbatches: int, chunks: int = 1) -> Schedule:
    """The schedule ``name`` (a key of :data:`SCHEDULES`), validated by
    :func:`check_schedule_args`: ``chunks`` (v >= 2) is for ``interleaved`` only."""
    check_schedule_args(name, pp, num_microbatches, chunks)
    if name == "interleaved":
        return interleaved_1f1b(pp, num_microbatches, chunks)
    return SCHEDULES[name](pp, num_microbatches)
