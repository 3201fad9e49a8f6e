"""Process groups for the lab: set up, tear down, start ranks, bring results back.

Two ways to get ranks, one code path for the checks:

- under ``torchrun`` (a cluster, or ``torchrun --nproc-per-node 2`` on a laptop), every
  process reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT from its
  environment (:func:`distlesson.engine.launched_by_torchrun`, :func:`run_in_process`);
- otherwise :func:`spawn_checks` starts ``world_size`` processes on 127.0.0.1 with
  ``torch.multiprocessing`` (start method ``spawn``: each child imports this module and
  runs the module-level :func:`_worker`, so it works from a script, a test or a build, but
  not from a notebook cell). Rank 0 writes the results to a temporary JSON file that the
  caller reads back.

The backend follows the hardware: NCCL with one GPU per rank when CUDA is available,
otherwise Gloo on the CPU. The checks never look at which one they got.
"""

from __future__ import annotations

import gc
import json
import os
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from .report import EngineReport

__all__ = ["DistContext", "free_port", "run_in_process", "setup", "spawn_checks", "teardown"]

COLLECTIVE_TIMEOUT = timedelta(seconds=120)
"""A rank that waits this long in a collective fails instead of hanging a build."""


@dataclass(frozen=True)
class DistContext:
    """Who this process is in the process group, and where its tensors live."""

    rank: int
    """Global rank, 0 .. world_size - 1."""
    world_size: int
    """Number of ranks."""
    local_rank: int
    """Rank within the machine: the GPU index under NCCL."""
    backend: str
    """``gloo`` or ``nccl``."""
    device: str
    """``cpu`` or ``cuda:<local_rank>``: where models and batches are placed."""

    @property
    def device_type(self) -> str:
        """``cpu`` or ``cuda``, for ``init_device_mesh``."""
        return self.device.split(":")[0]

    def gather(self, obj: Any) -> list[Any] | None:
        """Every rank's ``obj``, in rank order, on rank 0 (None on the other ranks).

        ``all_gather_object`` rather than ``gather_object``: it works alike on Gloo and NCCL.
        """
        gathered: list[Any] = [None] * self.world_size
        dist.all_gather_object(gathered, obj)
        return gathered if self.rank == 0 else None


def setup(rank: int, world_size: int, local_rank: int, init_method: str) -> DistContext:
    """Join the process group; NCCL and this rank's GPU if CUDA is available, else Gloo."""
    cuda = torch.cuda.is_available()
    if cuda:
        torch.cuda.set_device(local_rank)
    else:
        torch.set_num_threads(1)  # ranks share the CPU cores: one thread each, no contention
    backend = "nccl" if cuda else "gloo"
    dist.init_process_group(backend, init_method=init_method, rank=rank,
                            world_size=world_size, timeout=COLLECTIVE_TIMEOUT)
    return DistContext(rank, world_size, local_rank, backend,
                       f"cuda:{local_rank}" if cuda else "cpu")


def teardown() -> None:
    """Leave the process group (every rank must call it).

    The models, DDP reducers and pipeline stages of the checks hold the group in reference
    cycles: collect them first, so that their Gloo work is released while the group and
    the interpreter are still whole.
    """
    gc.collect()
    if dist.is_initialized():
        dist.destroy_process_group()


def run_in_process(groups: Sequence[str]) -> dict[str, Any] | None:
    """Run the checks in this process, a rank started by torchrun; the report's dict on
    rank 0 (without the caller's wall time, which rank 0 fills in), None elsewhere."""
    from .suite import run_suite  # the checks import torch's distributed packages

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
            groups: tuple[str, ...]) -> None:
    """One spawned rank: join, run the checks, rank 0 writes the results as JSON."""
    from .suite import run_suite

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
                 timeout: float = 600.0) -> EngineReport:
    """Start ``world_size`` ranks on this machine, run ``groups``, return rank 0's report.

    ``wall_seconds`` is measured here, from starting the processes to reading the results.
    RuntimeError if a rank fails (with its traceback) or the run exceeds ``timeout``.
    """
    if torch.cuda.is_available() and torch.cuda.device_count() < world_size:
        raise ValueError(f"world_size={world_size} needs one GPU per rank; this machine "
                         f"has {torch.cuda.device_count()}")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="distlesson-engine-") as folder:
        out_path = Path(folder) / "report.json"
        context = mp.spawn(_worker, args=(world_size, free_port(), str(out_path),
                                          tuple(groups)), nprocs=world_size, join=False)
        while not context.join(timeout=1.0):  # raises, with the traceback, if a rank fails
            if time.perf_counter() - start > timeout:
                for process in context.processes:
                    process.terminate()
                raise RuntimeError(f"the engine checks ran past timeout={timeout} s")
        data = json.loads(out_path.read_text(encoding="utf-8"))
    data["wall_seconds"] = time.perf_counter() - start
    return EngineReport.from_dict(data)
