"""Starting the lab's ranks and bringing their results back.

Two ways to get ranks, one code path for the checks (the group itself is :mod:`.group`):

- under ``torchrun`` (a cluster, or ``torchrun --nproc-per-node 2`` on a laptop), every
  process reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT from its
  environment (:func:`distlesson.engine.launched_by_torchrun`, :func:`run_in_process`);
- otherwise :func:`spawn_checks` starts ``world_size`` processes on 127.0.0.1 with
  ``torch.multiprocessing`` (start method ``forkserver``: a fresh server process imports
  this module, and torch with it, once, and each rank forks from it and runs the
  module-level :func:`_worker`; so it works from a script, a test or a build, but not from
  a notebook cell, and four ranks cost one import of torch, not four). Rank 0 writes the
  results to a temporary JSON file that the caller reads back.

The backend follows the hardware: NCCL with one GPU per rank when CUDA is available,
otherwise Gloo on the CPU. The checks never look at which one they got.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
import torch.multiprocessing as mp

from .group import setup, teardown
from .report import EngineReport
from .suite import run_suite

__all__ = ["free_port", "run_in_process", "spawn_checks"]

_START_METHOD = "forkserver"
"""Not ``fork``: a build or a test runner has threads of its own, which a fork would copy
mid-flight; the fork server is a fresh single-threaded process."""


def run_in_process(groups: Sequence[str]) -> dict[str, Any] | None:
    """Run the checks in this process, a rank started by torchrun; the report's dict on
    rank 0 (without the caller's wall time, which rank 0 fills in), None elsewhere."""
    start = time.perf_counter()
    ctx = setup(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]),
                int(os.environ["LOCAL_RANK"]), "env://")
    try:
        result = run_suite(ctx, groups)
    finally:
        teardown()
    if result is not None:
        result["wall_seconds"] = time.perf_counter() - start
    return result


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now (the OS picks it; rank 0 binds it next)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _worker(rank: int, world_size: int, port: int, out_path: str,
            groups: tuple[str, ...], niceness: int = 0) -> None:
    """One spawned rank: join, run the checks, rank 0 writes the results as JSON."""
    if niceness:
        os.nice(niceness)
    ctx = setup(rank, world_size, rank, f"tcp://127.0.0.1:{port}")
    try:
        result = run_suite(ctx, groups)
    finally:
        teardown()
    if result is not None:
        Path(out_path).write_text(json.dumps(result), encoding="utf-8")
    # Leave without the interpreter's finalisation: Gloo's worker threads can still be
    # joinable when C++ destructors run at exit, and std::terminate then aborts a rank
    # whose work is done (pytorch/pytorch#179291). The results are written and closed.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def spawn_checks(world_size: int, groups: Sequence[str], *,
                 timeout: float = 600.0, niceness: int = 0) -> EngineReport:
    """Start ``world_size`` ranks on this machine, run ``groups``, return rank 0's report.

    ``wall_seconds`` is measured here, from starting the processes to reading the results.
    RuntimeError if a rank fails (with its traceback) or the run exceeds ``timeout``.
    ``niceness`` (0 to 19) lowers the ranks' CPU priority: a build runs them beside its
    pages, which should not wait for them.
    """
    if torch.cuda.is_available() and torch.cuda.device_count() < world_size:
        raise ValueError(f"world_size={world_size} needs one GPU per rank; this machine "
                         f"has {torch.cuda.device_count()}")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="distlesson-engine-") as folder:
        out_path = Path(folder) / "report.json"
        # the server imports this module (and torch) before its first fork; a server
        # already running keeps what it preloaded
        multiprocessing.get_context(_START_METHOD).set_forkserver_preload([__name__])
        context = mp.start_processes(
            _worker, args=(world_size, free_port(), str(out_path), tuple(groups), niceness),
            nprocs=world_size, join=False, start_method=_START_METHOD)
        while not context.join(timeout=1.0):  # raises, with the traceback, if a rank fails
            if time.perf_counter() - start > timeout:
                for process in context.processes:
                    process.terminate()
                raise RuntimeError(f"the engine checks ran past timeout={timeout} s")
        data = json.loads(out_path.read_text(encoding="utf-8"))
    data["wall_seconds"] = time.perf_counter() - start
    return EngineReport.from_dict(data)
