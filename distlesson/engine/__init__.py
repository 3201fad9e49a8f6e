"""The lab: the library's numbers checked against a real engine, torch.distributed.

Each check runs a small model on several ranks with PyTorch's own implementation (DDP,
ZeroRedundancyOptimizer, FSDP2, DTensor tensor parallelism, pipelining), measures a
quantity (gradients, bytes of state or of buckets, collectives, the order of operations)
and sets it beside the value that distlesson computes for the same configuration.

Locally the ranks are processes on 127.0.0.1 with the Gloo backend (:func:`run_checks`);
on GPUs the same code runs with NCCL under ``torchrun ... -m distlesson.engine``. Only
running the checks needs torch (the ``labs`` extra); this package and its results import
without it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .report import (
    GROUPS,
    INSTALL_HINT,
    Check,
    EngineReport,
    GroupResult,
    TorchMissingError,
    require_torch,
)

__all__ = [
    "GROUPS",
    "INSTALL_HINT",
    "WORLD_SIZES",
    "Check",
    "EngineReport",
    "GroupResult",
    "TorchMissingError",
    "launched_by_torchrun",
    "require_torch",
    "run_checks",
]

WORLD_SIZES = range(2, 9)
"""Ranks that :func:`run_checks` may start on one machine: at least two (a pipeline and a
shard need a neighbour); at most eight (each is a process that imports torch)."""
_TORCHRUN_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")


def launched_by_torchrun() -> bool:
    """True when the environment carries torchrun's rendezvous variables."""
    return all(name in os.environ for name in _TORCHRUN_VARIABLES)


def run_checks(world_size: int = 2, *, groups: Sequence[str] = GROUPS,
               timeout: float = 600.0, niceness: int = 0) -> EngineReport:
    """Start ``world_size`` ranks on this machine, run the checks of ``groups``, and return
    rank 0's report. Gloo on the CPU, or NCCL with one GPU per rank where CUDA is available.
    ``niceness`` (0 to 19, as ``nice``) lowers the ranks' CPU priority.

    ValueError for a world size outside :data:`WORLD_SIZES`, an unknown group or a niceness
    outside 0 to 19;
    :class:`TorchMissingError` (one line: how to install) without torch.
    """
    if not isinstance(world_size, int) or isinstance(world_size, bool) or (
            world_size not in WORLD_SIZES):
        raise ValueError(f"world_size={world_size!r}; allowed: {WORLD_SIZES.start} to "
                         f"{WORLD_SIZES.stop - 1}")
    unknown = [g for g in groups if g not in GROUPS]
    if unknown or not groups:
        raise ValueError(f"groups={list(groups)!r}; allowed: one or more of {', '.join(GROUPS)}")
    if not isinstance(niceness, int) or isinstance(niceness, bool) or not 0 <= niceness <= 19:
        raise ValueError(f"niceness={niceness!r}; allowed: a whole number from 0 to 19")
    require_torch()
    from .launch import spawn_checks  # torch only in the ranks it starts

    return spawn_checks(world_size, tuple(groups), timeout=timeout, niceness=niceness)
