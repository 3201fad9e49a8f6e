"""``distlesson pipeline``: a pipeline schedule simulated, operation by operation."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from fractions import Fraction

from distlesson.pipeline.schedules import SCHEDULES, build_schedule
from distlesson.pipeline.simulator import Durations, simulate

from ._common import Result, format_figure, number, positive_int

__all__ = ["add", "run"]


_LONGEST = 10**12
"""The longest duration taken, in --fwd's units: beyond it a float overflows long before a
real schedule is described."""


def _duration(name: str) -> Callable[[str], Fraction]:
    """A duration: an exact number, written 2, 1.5 or 1/2; --wgrad may be 0."""
    def convert(text: str) -> Fraction:
        try:
            value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            value = Fraction(-1)
        if value < 0 or (value == 0 and name != "--wgrad") or value > _LONGEST:
            allowed = ">= 0" if name == "--wgrad" else "> 0"
            raise argparse.ArgumentTypeError(
                f"{name}={text!r} must be a number {allowed} and at most {_LONGEST:,}, such "
                "as 2, 1.5 or 1/2")
        return value

    return convert


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stages", type=positive_int("--stages"), required=True,
                        help="pipeline stages (pp)")
    parser.add_argument("--microbatches", type=positive_int("--microbatches"),
                        required=True, help="microbatches per step (m)")
    parser.add_argument("--schedule", choices=list(SCHEDULES), default="1f1b")
    parser.add_argument("--chunks", type=positive_int("--chunks"), default=1,
                        help="model chunks per stage (v), interleaved only")
    parser.add_argument("--fwd", type=_duration("--fwd"), default=Fraction(1),
                        help="forward time of one microbatch on one stage")
    parser.add_argument("--bwd", type=_duration("--bwd"), default=Fraction(2),
                        help="whole backward time (input and weight gradients)")
    parser.add_argument("--wgrad", type=_duration("--wgrad"), default=None,
                        help="weight-gradient part of --bwd (W under zb-h1); default --bwd / 2")


_MAX_PIPELINE_CELLS = 1_000_000  # stages x microbatches x chunks: a few seconds to simulate


def _check_pipeline(args: argparse.Namespace) -> None:
    """The library's rules, worded with the command's option names."""
    cells = args.stages * args.microbatches * args.chunks
    if cells > _MAX_PIPELINE_CELLS:
        raise ValueError(f"--stages x --microbatches x --chunks = {cells:,}; at most "
                         f"{_MAX_PIPELINE_CELLS:,} allowed")
    if args.schedule == "interleaved" and args.chunks < 2:
        raise ValueError(f"--chunks={args.chunks} must be >= 2 with --schedule interleaved")
    if args.schedule != "interleaved" and args.chunks != 1:
        raise ValueError(f"--chunks={args.chunks} is allowed only with --schedule interleaved")
    if args.schedule == "interleaved" and args.microbatches % args.stages:
        raise ValueError(f"--microbatches={args.microbatches} must be a multiple of "
                         f"--stages={args.stages} with --schedule interleaved")


def _pipeline_durations(args: argparse.Namespace) -> Durations:
    wgrad = args.bwd / 2 if args.wgrad is None else args.wgrad
    if wgrad > args.bwd:
        raise ValueError(f"--wgrad={wgrad} must be at most --bwd={args.bwd}")
    return Durations(args.fwd, args.bwd, wgrad)


def run(args: argparse.Namespace) -> Result:
    _check_pipeline(args)
    schedule = build_schedule(args.schedule, args.stages, args.microbatches, args.chunks)
    durations = _pipeline_durations(args)
    timeline = simulate(schedule, durations)
    bubble = timeline.bubble_fraction
    result = {
        "schedule": args.schedule, "stages": args.stages, "microbatches": args.microbatches,
        "chunks": args.chunks,
        "durations": {n: number(getattr(durations, n)) for n in ("fwd", "bwd", "wgrad")},
        "makespan": number(timeline.makespan),
        "bubble_fraction": float(bubble), "bubble_fraction_exact": str(bubble),
        "bubble_over_ideal": float(Fraction(sum(timeline.idle)) / sum(timeline.busy)),
        "busy": [number(t) for t in timeline.busy],
        "idle": [number(t) for t in timeline.idle],
        "peak_activations": [number(a) for a in timeline.peak_activations],
    }
    def count(value: float | Fraction) -> str:
        return format_figure(float(value), "count")

    split = " (B takes bwd - wgrad, W takes wgrad)" if schedule.split_backward else ""
    chunks = f", {args.chunks} chunks per stage" if args.chunks > 1 else ""
    lines = [
        f"{args.schedule}: {args.stages} stages, {args.microbatches} microbatches{chunks}; "
        f"fwd={durations.fwd} bwd={durations.bwd} wgrad={durations.wgrad}{split}",
        f"makespan {count(timeline.makespan)}; bubble {bubble} = "
        f"{format_figure(float(bubble), 'fraction')} of the stage-time",
        "", f"{'stage':>5}{'busy':>10}{'idle':>10}{'peak activations':>19}",
    ]
    for s, (busy, idle, peak) in enumerate(zip(timeline.busy, timeline.idle,
                                               timeline.peak_activations, strict=True)):
        lines.append(f"{s + 1:>5}{count(busy):>10}{count(idle):>10}{count(peak):>19}")
    lines.append("peak activations: microbatches' worth of the stage's activations held at once")
    return result, "\n".join(lines)
