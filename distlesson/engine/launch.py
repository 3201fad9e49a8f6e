"""Starting the lab's ranks and bringing their results back.

Two ways to get ranks, one code path for the checks (the group itself is :mod:`.group`):

- under ``torchrun`` (a cluster, or ``torchrun --nproc-per-node 2`` on a laptop), every
  process reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT from its
  environment (:func:`distlesson.engine.launched_by_torchrun`, :func:`run_in_process`);
- otherwise :func:`spawn_checks` starts ``world_size`` processes on 127.0.0.1 with the
  ``forkserver`` start method: a fresh server process imports torch and the checks once,
  and each rank forks from it and runs the module-level :func:`_worker`. Four ranks cost
  one import of torch, not four, and the calling process imports none: a build runs this
  from a thread beside its pages, which should not spend their time (or the GIL) importing
  torch. It works from a script, a test or a build, but not from a notebook cell. Rank 0
  writes the results to a temporary JSON file that the caller reads back; a rank that fails
  writes its traceback beside it.

The backend follows the hardware: NCCL with one GPU per rank when CUDA is available,
otherwise Gloo on the CPU. The checks never look at which one they got.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import os
import socket
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .report import EngineReport

__all__ = ["free_port", "run_in_process", "spawn_checks"]

_START_METHOD = "forkserver"
"""Not ``fork``: a build or a test runner has threads of its own, which a fork would copy
mid-flight; the fork server is a fresh single-threaded process."""
_PRELOAD = ["distlesson.engine.group", "distlesson.engine.suite"]
"""What the fork server imports before its first fork (torch with them)."""


def run_in_process(groups: Sequence[str]) -> dict[str, Any] | None:
    """Run the checks in this process, a rank started by torchrun; the report's dict on
    rank 0 (without the caller's wall time, which rank 0 fills in), None elsewhere."""
    from .group import setup, teardown
    from .suite import run_suite

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


def _worker(rank: int, world_size: int, port: int, folder: str,
            groups: tuple[str, ...], niceness: int = 0) -> None:
    """One rank: join, run the checks; rank 0 writes the results as JSON, a rank that
    fails its traceback (``error-RANK.txt``) and exits with status 1."""
    status = 0
    try:
        if niceness:
            os.nice(niceness)
        import torch

        from .group import setup, teardown
        from .suite import run_suite

        if torch.cuda.is_available() and torch.cuda.device_count() < world_size:
            raise ValueError(f"world_size={world_size} needs one GPU per rank; this "
                             f"machine has {torch.cuda.device_count()}")
        ctx = setup(rank, world_size, rank, f"tcp://127.0.0.1:{port}")
        try:
            result = run_suite(ctx, groups)
        finally:
            teardown()
        if result is not None:
            Path(folder, "report.json").write_text(json.dumps(result), encoding="utf-8")
    except BaseException:  # reported to the caller, with its traceback
        Path(folder, f"error-{rank}.txt").write_text(traceback.format_exc(), encoding="utf-8")
        status = 1
    # Leave without the interpreter's finalisation: Gloo's worker threads can still be
    # joinable when C++ destructors run at exit, and std::terminate then aborts a rank
    # whose work is done (pytorch/pytorch#179291). The results are written and closed.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def spawn_checks(world_size: int, groups: Sequence[str], *,
                 timeout: float = 600.0, niceness: int = 0) -> EngineReport:
    """Start ``world_size`` ranks on this machine, run ``groups``, return rank 0's report.

    ``wall_seconds`` is measured here, from starting the processes to reading the results.
    RuntimeError if a rank fails (with its traceback: a machine with CUDA but fewer GPUs
    than ranks is one) or the run exceeds ``timeout``. ``niceness`` (0 to 19) lowers the
    ranks' CPU priority: a build runs them beside its pages, which should not wait for them.
    """
    start = time.perf_counter()
    context = multiprocessing.get_context(_START_METHOD)
    # the server imports these before its first fork; a server already running keeps what
    # it preloaded
    context.set_forkserver_preload(_PRELOAD)
    with tempfile.TemporaryDirectory(prefix="distlesson-engine-") as folder:
        port = free_port()
        ranks = [context.Process(target=_worker, name=f"distlesson-rank-{rank}",
                                 args=(rank, world_size, port, folder, tuple(groups),
                                       niceness))
                 for rank in range(world_size)]
        for process in ranks:
            process.start()
        try:
            _wait(ranks, folder, start + timeout, timeout)
        finally:
            for process in ranks:
                if process.is_alive():
                    process.terminate()
                process.join()
        data = json.loads(Path(folder, "report.json").read_text(encoding="utf-8"))
    data["wall_seconds"] = time.perf_counter() - start
    return EngineReport.from_dict(data)


def _wait(ranks: list, folder: str, deadline: float, timeout: float) -> None:
    """Until every rank has exited: RuntimeError at the first that failed, or past the
    deadline."""
    pending = list(enumerate(ranks))
    while pending:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise RuntimeError(f"the engine checks ran past timeout={timeout} s")
        multiprocessing.connection.wait([p.sentinel for _, p in pending], timeout=left)
        for rank, process in list(pending):
            if process.exitcode is None:
                continue
            pending.remove((rank, process))
            if process.exitcode != 0:
                error = Path(folder, f"error-{rank}.txt")
                detail = (error.read_text(encoding="utf-8") if error.exists()
                          else f"no traceback: exit code {process.exitcode}")
                raise RuntimeError(f"engine rank {rank} of {len(ranks)} failed:\n{detail}")
