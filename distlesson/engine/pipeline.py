"""Pipeline parallelism with ``torch.distributed.pipelining`` against the library's tables.

Every rank is one stage (a Linear and a tanh) of a pipeline of pp = n stages, fed
m = max(8, 2 pp) microbatches: the pipeline chapter's 4 stages and 8 microbatches at n = 4. The
stage's ``forward_one_chunk`` and ``backward_one_chunk`` are wrapped to record the order
in which the schedule really calls them, for ``ScheduleGPipe`` and ``Schedule1F1B``; the
library's :mod:`distlesson.pipeline.schedules` gives its table for the same pp and m.

- 1F1B: torch runs exactly the library's order on every stage. Torch's code calls
  pp - s forwards "warm-up" where the library (and Megatron-LM) says pp - s - 1 and counts
  the next forward as the first of the steady state: the same ops, named differently.
- GPipe: torch runs the library's table with the backwards in microbatch order, where the
  library has them in reverse (the GPipe paper's figure, last in first out): the check
  predicts torch's order exactly. The library's simulator, fed torch's order, gives the
  same step time: the difference moves no idle slot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributed.pipelining import PipelineStage, Schedule1F1B, ScheduleGPipe

from distlesson.pipeline.schedules import Op, Schedule, build_schedule
from distlesson.pipeline.simulator import Durations, simulate

from .config import SEED, num_microbatches
from .group import DistContext
from .report import Check, GroupResult

__all__ = ["run"]

HIDDEN = 8
MICROBATCH_EXAMPLES = 2
_TORCH_SCHEDULES: dict[str, Callable[..., Any]] = {"gpipe": ScheduleGPipe,
                                                   "1f1b": Schedule1F1B}


def _stage_module(stage: int, device: str) -> nn.Sequential:
    rng = np.random.default_rng(SEED + stage)  # each stage its own weights, seeded
    layer = nn.Linear(HIDDEN, HIDDEN, dtype=torch.float32)
    with torch.no_grad():
        layer.weight.copy_(torch.from_numpy(rng.standard_normal((HIDDEN, HIDDEN)) / 3))
        layer.bias.zero_()
    return nn.Sequential(layer, nn.Tanh()).to(device)


def _record(stage: PipelineStage, log: list[str]) -> None:
    """Wrap the stage's two compute calls so that each appends ``F3`` or ``B3`` to ``log``
    (kind and microbatch) when the schedule runs it."""
    forward, backward = stage.forward_one_chunk, stage.backward_one_chunk

    def forward_one_chunk(chunk: int, *args: Any, **kwargs: Any) -> Any:
        log.append(f"F{chunk}")
        return forward(chunk, *args, **kwargs)

    def backward_one_chunk(chunk: int, *args: Any, **kwargs: Any) -> Any:
        log.append(f"B{chunk}")
        return backward(chunk, *args, **kwargs)

    stage.forward_one_chunk = forward_one_chunk  # type: ignore[method-assign]
    stage.backward_one_chunk = backward_one_chunk  # type: ignore[method-assign]


def _mse(output: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return ((output - target) ** 2).mean()


def _run_schedule(name: str, ctx: DistContext) -> list[str]:
    """One training step of schedule ``name``; the ops this rank's stage ran, in order."""
    pp, m = ctx.world_size, num_microbatches(ctx.world_size)
    stage = PipelineStage(_stage_module(ctx.rank, ctx.device), ctx.rank, pp,
                          torch.device(ctx.device))
    log: list[str] = []
    _record(stage, log)
    schedule = _TORCH_SCHEDULES[name](stage, m, loss_fn=_mse)
    rng = np.random.default_rng(SEED)
    x, y = (torch.tensor(rng.standard_normal((m * MICROBATCH_EXAMPLES, HIDDEN)),
                         dtype=torch.float32, device=ctx.device) for _ in range(2))
    inputs = (x,) if ctx.rank == 0 else ()  # the first stage reads the batch
    schedule.step(*inputs, target=y if ctx.rank == pp - 1 else None)  # the last, targets
    return log


def _rows(ops: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """Per stage, its ops as one line: ``F0 F1 B0``."""
    return tuple(" ".join(row) for row in ops)


def _in_microbatch_order(ops: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Per stage, the same ops with the backwards in microbatch order, each where the
    table has a backward: what ScheduleGPipe runs (its backward loop counts up)."""
    def reorder(row: tuple[str, ...]) -> tuple[str, ...]:
        backwards = iter(sorted((op for op in row if op.startswith("B")),
                                key=lambda op: int(op[1:])))
        return tuple(next(backwards) if op.startswith("B") else op for op in row)

    return tuple(reorder(row) for row in ops)


def _table(pp: int, m: int, ops: tuple[tuple[str, ...], ...]) -> Schedule:
    """The recorded ops as a library schedule table, for the simulator."""
    return Schedule("gpipe (torch's order)", pp, m, 1, False, tuple(
        tuple(Op(op[0], int(op[1:])) for op in row) for row in ops))  # type: ignore[arg-type]


def _makespan(table: Schedule) -> int | float:
    """Step time of ``table`` in the library's simulator (forward 1, backward 2)."""
    span = simulate(table, Durations()).makespan
    return int(span) if span == int(span) else float(span)


def run(ctx: DistContext) -> GroupResult:
    logs = {name: _run_schedule(name, ctx) for name in _TORCH_SCHEDULES}
    gathered = ctx.gather(logs)
    if gathered is None:
        return GroupResult()
    pp, m = ctx.world_size, num_microbatches(ctx.world_size)
    measured = {name: tuple(tuple(g[name]) for g in gathered) for name in _TORCH_SCHEDULES}
    library = {name: tuple(tuple(f"{op.kind}{op.microbatch}" for op in row)
                           for row in build_schedule(name, pp, m).stages)
               for name in _TORCH_SCHEDULES}
    shape = f"{pp} stages x {m} microbatches"
    checks = (
        Check("pipe.1f1b.order", f"Schedule1F1B's order of ops per stage, {shape} = the "
              "library's 1F1B table", "ops", _rows(measured["1f1b"]),
              _rows(library["1f1b"]),
              note="torch's code calls all pp - s forwards before the first backward "
              "warm-up; the library, after Megatron-LM, calls pp - s - 1 warm-up and the "
              "next the first steady-state forward: the same order"),
        Check("pipe.gpipe.order", f"ScheduleGPipe's order of ops per stage, {shape} = the "
              "library's GPipe table with the backwards in microbatch order", "ops",
              _rows(measured["gpipe"]), _rows(_in_microbatch_order(library["gpipe"])),
              note="the forwards are the library's; torch runs the backwards B0 ... B(m-1), "
              "the library's table (the GPipe paper's figure) last microbatch first"),
        Check("pipe.gpipe.makespan", "step time in the library's simulator: torch's GPipe "
              "order = the library's GPipe table", "time",
              _makespan(_table(pp, m, measured["gpipe"])),
              _makespan(build_schedule("gpipe", pp, m)),
              note="forward 1, backward 2: the backward order moves no idle slot"),
    )
    return GroupResult(checks)
