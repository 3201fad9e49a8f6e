"""``distlesson engine``: the library's numbers checked against torch.distributed.

Starts ``--world-size`` ranks on this machine (Gloo on the CPU, NCCL where there are GPUs),
runs the lab's checks (:mod:`distlesson.engine`) and prints each measured value beside the
library's. On a cluster, run the same checks with ``torchrun ... -m distlesson.engine``.
"""

from __future__ import annotations

import argparse

from distlesson.engine import (
    GROUPS,
    WORLD_SIZES,
    Check,
    EngineReport,
    TorchMissingError,
    launched_by_torchrun,
    run_checks,
)

from ._common import Result, format_figure

__all__ = ["add", "render", "run"]


def _world_size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value not in WORLD_SIZES:
        raise argparse.ArgumentTypeError(
            f"--world-size={text!r}; allowed: {WORLD_SIZES.start} to {WORLD_SIZES.stop - 1}")
    return value


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--world-size", type=_world_size, default=2,
                        help="ranks (processes) to start on this machine, "
                             f"{WORLD_SIZES.start} to {WORLD_SIZES.stop - 1}; default 2")
    parser.add_argument("--checks", nargs="+", choices=GROUPS, default=list(GROUPS),
                        metavar="GROUP", help=f"groups to run: {', '.join(GROUPS)} (default all)")


def _cell(value: object, unit: str) -> str:
    if isinstance(value, tuple):
        if unit == "ops":
            return f"{len(value)} stages"
        return " / ".join(_cell(v, unit) for v in value)
    if isinstance(value, str):
        return value
    if unit == "abs_error":
        return f"{value:.2g}"
    if unit == "bytes":
        return f"{format_figure(float(value), 'count')} B"
    return format_figure(float(value), "count")  # type: ignore[arg-type]


def _agreement(check: Check) -> str:
    if check.agrees:
        verdict = "exact" if check.tolerance is None else f"within {check.tolerance:g}"
    else:
        verdict = "differs"
    if not check.expect_equal:
        verdict += " (a difference the library predicts)" if not check.agrees else \
            " (expected a difference)"
    return verdict if check.passed else f"FAILED: {verdict}"


def render(report: EngineReport) -> str:
    """The report as text: the machine, one line per check, then every op order."""
    lines = [f"torch {report.torch_version}, {report.backend} on {report.device}, "
             f"{report.world_size} ranks, {report.cpu_count} CPUs; "
             f"{report.wall_seconds:.1f} s wall", "",
             f"{'check':<26}{'torch':>22}{'library':>22}  agreement"]
    for check in report.checks:
        lines.append(f"{check.key:<26}{_cell(check.measured, check.unit):>22}"
                     f"{_cell(check.library, check.unit):>22}  {_agreement(check)}")
    for check in report.checks:
        if check.unit == "ops":
            lines += ["", f"{check.key}: {check.label}"]
            for stage, (mine, theirs) in enumerate(zip(check.measured, check.library,
                                                       strict=True)):
                lines += [f"  stage {stage}  torch   {mine}", f"  {'':<7}  library {theirs}"]
    lines += ["", "notes:"] + [f"  {c.key}: {c.note}" for c in report.checks if c.note]
    failed = [c.key for c in report.checks if not c.passed]
    lines += ["", f"{len(report.checks) - len(failed)} of {len(report.checks)} checks as "
              f"expected" + (f"; failed: {', '.join(failed)}" if failed else "")]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> Result:
    if launched_by_torchrun():
        raise ValueError("under torchrun every rank must run the checks: use "
                         "python -m distlesson.engine (torchrun ... -m distlesson.engine)")
    try:
        report = run_checks(args.world_size, groups=args.checks)
    except TorchMissingError as error:
        raise ValueError(str(error)) from None
    return report.as_dict(), render(report)
