"""The step-by-step simulation of a pipeline schedule: when each operation runs.

Model (the assumptions every closed form in :mod:`distlesson.pipeline.bubble` is checked against):

* Every stage runs its operations strictly in the order the schedule lists them, one at a
  time, each as early as possible: at max(the stage is free, its dependency has finished).
* Dependencies, with k = chunk * pp + stage the virtual stage: F of (microbatch, k) needs
  F of (microbatch, k - 1); B of (microbatch, k) needs B of (microbatch, k + 1), or on the
  last virtual stage F of (microbatch, k); W of (microbatch, k) needs B of (microbatch, k).
* Communication between stages is instantaneous (no send/receive time, no overlap limits).
* Every stage takes the same time for the same operation (balanced stages); a chunk takes
  1/v of its stage's time under interleaving with v chunks.

Times are exact: the durations are ints or Fractions, and the simulation counts whole
"ticks" of one common unit, so the bubble comes out as an exact Fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cached_property

from distlesson.pipeline.schedules import Op, Schedule

__all__ = ["Durations", "Slot", "Time", "Timeline", "simulate"]

Time = int | Fraction
"""An exact duration or instant, in the caller's time unit (any unit: the maths is linear)."""


@dataclass(frozen=True)
class Durations:
    """How long one microbatch's work takes on one (whole) stage, in any one time unit.

    The defaults are the usual ratios: a backward costs about twice a forward, since for
    each matrix product of the forward it computes two (the gradient with respect to the
    input and to the weights), each as costly as the forward one (the FLOP count in the
    appendix of Narayanan et al. 2021, SC'21; Qi et al. 2024 draw T_F = T_B = T_W).
    """

    fwd: Time = 1
    """The forward (F); > 0."""
    bwd: Time = 2
    """The whole backward, input and weight gradients together; > 0. Under a split
    backward, B takes ``bwd - wgrad`` and W takes ``wgrad``."""
    wgrad: Time = 1
    """The weight-gradient part of ``bwd`` (W under a split backward); 0 <= wgrad <= bwd."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int | Fraction):
                raise ValueError(f"{field.name}={value!r} must be exact: an int or a Fraction")
        if self.fwd <= 0 or self.bwd <= 0:
            raise ValueError(f"fwd={self.fwd} and bwd={self.bwd} must be > 0")
        if not 0 <= self.wgrad <= self.bwd:
            raise ValueError(f"wgrad={self.wgrad} must be between 0 and bwd={self.bwd}")

    def op_time(self, kind: str, *, chunks: int = 1, split_backward: bool = False) -> Time:
        """The time of one op of ``kind`` on one of ``chunks`` chunks of a stage."""
        if kind == "F":
            total = self.fwd
        elif kind == "B":
            total = self.bwd - self.wgrad if split_backward else self.bwd
        elif kind == "W" and split_backward:
            total = self.wgrad
        else:
            raise ValueError(f"op kind={kind!r}: allowed F, B, and W with a split backward")
        return _exact(Fraction(total) / chunks)


def _exact(value: Fraction) -> Time:
    return int(value) if value.denominator == 1 else value


@dataclass(frozen=True)
class Slot:
    """One operation placed in time: stage ``stage`` runs ``op`` from ``start`` to ``end``."""

    stage: int
    op: Op
    start: Time
    end: Time


@dataclass(frozen=True)
class Timeline:
    """The simulated run of a schedule. Times are in the unit of the :class:`Durations`."""

    schedule: Schedule
    durations: Durations
    tick: Fraction
    """The common unit of the integer ``start_ticks`` (every op time is a whole number)."""
    start_ticks: tuple[tuple[int, ...], ...]
    """Per stage, the start of each op of ``schedule.stages[s]``, in ticks."""
    makespan: Time
    """From the first start to the last end, on all stages."""
    busy: tuple[Time, ...]
    """Per stage, the time spent computing."""
    peak_activations: tuple[int | Fraction, ...]
    """Per stage, the most microbatches whose forward has run there and whose activations
    are not yet freed: freed after B, or after W with a split backward (W still needs the
    stored inputs). Under interleaving each (microbatch, chunk) counts 1/v: the unit is
    one microbatch's activations of the whole stage."""

    @property
    def idle(self) -> tuple[Time, ...]:
        """Per stage, makespan - busy."""
        return tuple(self.makespan - b for b in self.busy)

    @property
    def bubble_fraction(self) -> Fraction:
        """Idle share of all stage-time: sum of idle / (pp x makespan), exact."""
        return Fraction(sum(self.idle)) / (self.schedule.pp * self.makespan)

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        """Every op with its start and end, stage by stage in each stage's order."""
        sched, cache = self.schedule, {}

        def at(ticks: int) -> Time:  # few distinct instants: convert each once
            if ticks not in cache:
                cache[ticks] = _exact(ticks * self.tick)
            return cache[ticks]

        cost = {kind: int(self.durations.op_time(kind, chunks=sched.chunks,
                                                 split_backward=sched.split_backward)
                          / self.tick)
                for kind in ("F", "B", "W") if kind != "W" or sched.split_backward}
        return tuple(Slot(s, op, at(t), at(t + cost[op.kind]))
                     for s, (row, starts) in enumerate(zip(sched.stages, self.start_ticks,
                                                           strict=True))
                     for op, t in zip(row, starts, strict=True))


_KIND_INDEX = {"F": 0, "B": 1, "W": 2}


def _check_ops(schedule: Schedule) -> None:
    """Every stage lists each of its (kind, microbatch, chunk) exactly once, nothing else."""
    m, v, split = schedule.num_microbatches, schedule.chunks, schedule.split_backward
    kinds = ("F", "B", "W") if split else ("F", "B")
    for s, row in enumerate(schedule.stages):
        seen = bytearray(3 * v * m)
        for op in row:
            if op.microbatch >= m or op.chunk >= v or op.kind not in kinds:
                raise ValueError(
                    f"stage {s}: unexpected op {op}; allowed kinds {', '.join(kinds)}, "
                    f"microbatches 0..{m - 1}, chunks 0..{v - 1}")
            key = (_KIND_INDEX[op.kind] * v + op.chunk) * m + op.microbatch
            if seen[key]:
                raise ValueError(f"stage {s}: op {op} is listed twice")
            seen[key] = 1
        if len(row) != len(kinds) * v * m:
            missing = next(Op(k, i, c) for k in kinds for c in range(v) for i in range(m)
                           if not seen[(_KIND_INDEX[k] * v + c) * m + i])
            raise ValueError(f"stage {s}: op {missing} is missing")


def _peak_activations(schedule: Schedule) -> tuple[int | Fraction, ...]:
    """Per stage, the most (microbatch, chunk) pairs held at once, divided by chunks."""
    frees = "W" if schedule.split_backward else "B"
    peaks = []
    for row in schedule.stages:
        held = peak = 0
        for op in row:
            if op.kind == "F":
                held += 1
                peak = max(peak, held)
            elif op.kind == frees:
                held -= 1
        peaks.append(_exact(Fraction(peak, schedule.chunks)))
    return tuple(peaks)


def simulate(schedule: Schedule, durations: Durations | None = None) -> Timeline:
    """Run ``schedule`` with ``durations`` (default :class:`Durations`) in the model above.

    Raises ValueError, naming the stage and the op, if a stage misses or repeats an op,
    lists an op before one it needs from the same stage, or if the stages deadlock.
    Each op is placed once and a stage is revisited only when the op it waits for ends,
    so the cost is proportional to the number of ops.
    """
    if not isinstance(schedule, Schedule):
        raise TypeError(f"schedule={schedule!r} must be a Schedule (build one with "
                        "build_schedule(name, pp, num_microbatches))")
    if durations is not None and not isinstance(durations, Durations):
        raise TypeError(f"durations={durations!r} must be a Durations")
    durations = durations or Durations()
    _check_ops(schedule)
    pp, m, v = schedule.pp, schedule.num_microbatches, schedule.chunks
    split, last = schedule.split_backward, v * pp - 1
    times = {k: Fraction(durations.op_time(k, chunks=v, split_backward=split))
             for k in ("F", "B", "W")[: 3 if split else 2]}
    tick = Fraction(1, math.lcm(*(t.denominator for t in times.values())))
    cost = {k: int(t / tick) for k, t in times.items()}

    def key(kind: int, microbatch: int, k: int) -> int:
        return (kind * (last + 1) + k) * m + microbatch

    end = [-1] * (3 * (last + 1) * m)  # end tick of each (kind, virtual stage, microbatch)
    waiter = [-1] * len(end)  # the stage waiting on it, if any
    starts = [[0] * len(row) for row in schedule.stages]
    position, free = [0] * pp, [0] * pp
    work = list(range(pp))
    while work:
        s = work.pop()
        row, at, now = schedule.stages[s], position[s], free[s]
        while at < len(row):
            op = row[at]
            k, i = op.chunk * pp + s, op.microbatch
            if op.kind == "F":
                needs = key(0, i, k - 1) if k else -1
            elif op.kind == "B":
                needs = key(1, i, k + 1) if k < last else key(0, i, k)
            else:
                needs = key(1, i, k)
            if needs >= 0:
                ready = end[needs]
                if ready < 0:
                    if (needs // m) % (last + 1) % pp == s:
                        raise ValueError(f"stage {s}: op {op} is listed before "
                                         f"{_describe(needs, m, pp, last)}, which it needs")
                    waiter[needs] = s
                    break
                now = max(now, ready)
            starts[s][at] = now
            now += cost[op.kind]
            done = key(_KIND_INDEX[op.kind], i, k)
            end[done] = now
            if waiter[done] >= 0:
                work.append(waiter[done])
                waiter[done] = -1
            at += 1
        position[s], free[s] = at, now
    for s, row in enumerate(schedule.stages):
        if position[s] < len(row):
            needs = waiter.index(s)
            raise ValueError(f"deadlock: no stage can proceed; stage {s} waits with op "
                             f"{row[position[s]]} for {_describe(needs, m, pp, last)}")
    busy = sum(cost[op.kind] for op in schedule.stages[0]) * tick  # same ops on every stage
    return Timeline(
        schedule=schedule, durations=durations, tick=tick,
        start_ticks=tuple(tuple(row) for row in starts),
        makespan=_exact(max(free) * tick), busy=(_exact(busy),) * pp,
        peak_activations=_peak_activations(schedule))


def _describe(key: int, m: int, pp: int, last: int) -> str:
    """The op behind a dependency key, with its stage: ``F of microbatch 3 on stage 1``."""
    rest, microbatch = divmod(key, m)
    kind, k = divmod(rest, last + 1)
    chunk, stage = divmod(k, pp)
    return f"{Op('FBW'[kind], microbatch, chunk)} on stage {stage}"
