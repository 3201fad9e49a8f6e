"""``distlesson failures``: a job's MTBF, the checkpoint interval that minimises the loss,
and the share of wall time left for training (goodput).

The MTBF is the job's, on ``--gpus`` GPUs: given (``--mtbf-s``) or observed
(``--interruptions K --days D``: D x 86,400 / K seconds, the counts seen on those GPUs).
Failures being independent per GPU, the per-GPU MTBF is the job's times ``--gpus``; a job
on other GPUs would see it divided by its own count (:func:`distlesson.efficiency.failures.
job_mtbf`). Intervals: Young (1974), Daly (2006); goodput: Daly's exact expected wall time
for exponential failures, and its first-order expansion (the step model's term).
"""

from __future__ import annotations

import argparse

from distlesson.efficiency.failures import (
    daly_interval,
    goodput,
    goodput_first_order,
    observed_mtbf,
    young_interval,
)

from ._common import Result, positive_int
from .mfu import positive_quantity

__all__ = ["add", "run"]

_DAYS_LIMIT = 36_525.0
"""A century: no job has been watched for longer."""


def _seconds(name: str) -> object:
    return positive_quantity(name, limit=3.2e9)  # a century of seconds


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gpus", type=positive_int("--gpus"), required=True,
                        help="GPUs of the job whose failures are given")
    mtbf = parser.add_mutually_exclusive_group(required=True)
    mtbf.add_argument("--mtbf-s", type=_seconds("--mtbf-s"),
                      help="the job's mean time between failures, seconds")
    mtbf.add_argument("--interruptions", type=positive_int("--interruptions"),
                      help="unexpected interruptions the job saw in --days (with --days)")
    parser.add_argument("--days", type=positive_quantity("--days", limit=_DAYS_LIMIT),
                        help="days over which --interruptions were counted")
    parser.add_argument("--checkpoint-s", type=_seconds("--checkpoint-s"), required=True,
                        help="seconds one checkpoint pauses training (delta)")
    parser.add_argument("--restart-s", type=_seconds("--restart-s"), default=None,
                        help="seconds from a failure to training again (default 0)")


def _mtbf(args: argparse.Namespace) -> float:
    if args.interruptions is None:
        if args.days is not None:
            raise ValueError(f"--days={args.days:g} goes with --interruptions, not --mtbf-s; "
                             "give one of --mtbf-s S or --interruptions K --days D")
        return args.mtbf_s
    if args.days is None:
        raise ValueError(f"--interruptions={args.interruptions} needs --days D (the days "
                         "they were counted over)")
    return observed_mtbf(args.interruptions, args.days)


def run(args: argparse.Namespace) -> Result:
    mtbf, delta, restart = _mtbf(args), args.checkpoint_s, args.restart_s or 0.0
    young, daly = young_interval(delta, mtbf), daly_interval(delta, mtbf)
    result = {
        "gpus": args.gpus, "mtbf_s": mtbf, "per_gpu_mtbf_s": mtbf * args.gpus,
        "checkpoint_s": delta, "restart_s": restart,
        "young_interval_s": young, "daly_interval_s": daly,
        "goodput": goodput(daly, delta, mtbf, restart),
        "goodput_at_young": goodput(young, delta, mtbf, restart),
        "goodput_first_order": goodput_first_order(young, delta, mtbf, restart),
    }
    lines = [
        f"{args.gpus:,} GPUs: a failure every {mtbf:,.0f} s ({mtbf / 3600:.2f} h) for the "
        f"job, every {mtbf * args.gpus / 86_400 / 365.25:,.2f} years for one GPU",
        f"checkpoint pause {delta:g} s, restart {restart:g} s",
        f"Young's interval  {young:>12,.1f} s   goodput {result['goodput_at_young']:.4f}",
        f"Daly's interval   {daly:>12,.1f} s   goodput {result['goodput']:.4f}",
        f"first-order goodput at Young's interval: {result['goodput_first_order']:.4f}",
    ]
    return result, "\n".join(lines)
