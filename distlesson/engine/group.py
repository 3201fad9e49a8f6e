"""The process group as the checks see it: who this rank is, where its tensors live.

:func:`setup` joins a group and :func:`teardown` leaves it; :mod:`.launch` decides how the
ranks are started (torchrun's environment, or processes spawned here). Kept apart from
:mod:`.launch` so that the checks (:mod:`.suite` and the modules it runs) depend on the
group, never on the launcher that runs them.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import torch
import torch.distributed as dist

__all__ = ["COLLECTIVE_TIMEOUT", "DistContext", "setup", "teardown"]

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
