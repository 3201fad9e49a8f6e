"""Run the groups of checks in one process group, timing each, and assemble the report.

Every rank runs every group (the checks are collective); only rank 0 gets results.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.distributed as dist

from .group import DistContext
from .report import GROUPS, GroupResult

__all__ = ["MODULES", "run_suite"]

MODULES: dict[str, str] = {
    "ddp": "ddp",
    "zero1": "zero",
    "fsdp": "fsdp",
    "tp": "tensor",
    "pipeline": "pipeline",
}
"""The module of each group; imported only when its group runs (FSDP, DTensor and
pipelining each take a while to import, in every rank)."""


def _runner(group: str) -> Callable[[DistContext], GroupResult]:
    return importlib.import_module(f"{__package__}.{MODULES[group]}").run


def run_suite(ctx: DistContext, groups: Sequence[str]) -> dict[str, Any] | None:
    """Run ``groups`` in order; on rank 0 the report as a dict (without ``wall_seconds``,
    which the caller measures), None on the other ranks."""
    unknown = [g for g in groups if g not in MODULES]
    if unknown:
        raise ValueError(f"unknown check groups {unknown}; allowed: {', '.join(GROUPS)}")
    checks: list[dict[str, Any]] = []
    notes: list[str] = []
    seconds: dict[str, float] = {}
    for name in groups:
        torch.manual_seed(0)  # any torch-side randomness is seeded; data come from numpy
        dist.barrier()  # every rank starts the group together: the time is the group's
        start = time.perf_counter()
        result = _runner(name)(ctx)
        seconds[name] = time.perf_counter() - start
        checks += [c.as_dict() for c in result.checks]
        notes += result.notes
    if ctx.rank != 0:
        return None
    return {"torch_version": torch.__version__, "backend": ctx.backend,
            "device": ctx.device_type, "world_size": ctx.world_size,
            "cpu_count": os.cpu_count() or 1, "check_seconds": seconds, "checks": checks,
            "notes": notes}
