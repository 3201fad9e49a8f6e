"""What a training checkpoint holds, and how long writing it takes.

A checkpoint holds what training needs to resume exactly: the weights, the master copy and
the optimizer's state (:func:`distlesson.memory.states.model_states`), not the gradients,
which the next step recomputes. With bf16 weights, an fp32 master copy and AdamW's two fp32
moments that is 2 + 4 + 8 = 14 bytes per parameter. The ranks write their shards in
parallel, so the shared storage's bandwidth, not one rank's, sets the time of a synchronous
write: bytes / storage bandwidth. An asynchronous checkpoint pauses training only while
each GPU copies its shard to host memory over PCIe; the host writes it while training goes
on (Llama 3 reports per-GPU shards of 1 MB to 4 GB, section 3.3.1).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

from distlesson.catalog.models import Architecture
from distlesson.checks import check_finite_positive, check_positive_int
from distlesson.memory.states import model_states

__all__ = ["CheckpointSize", "async_pause", "checkpoint_size", "write_time"]


@dataclass(frozen=True)
class CheckpointSize:
    """Bytes of one checkpoint, by state (the whole model, one copy)."""

    weights: float
    master: float
    """0 when the weights are their own master copy (fp32 training)."""
    optimizer: float

    @property
    def total(self) -> float:
        """weights + master + optimizer."""
        return sum(astuple(self))

    def per_writer(self, writers: int) -> float:
        """Bytes each of ``writers`` ranks writes when the checkpoint is split evenly."""
        check_positive_int("writers", writers)
        return self.total / writers


def checkpoint_size(model: Architecture | float | int, *, precision: str = "mixed",
                    optimizer: str = "adamw") -> CheckpointSize:
    """The checkpoint of ``model``'s states: weights, master copy and optimizer state (no
    gradients), bytes. Every data-parallel replica holds the same states, so one copy is
    written, whatever the layout."""
    states = model_states(model, optimizer=optimizer, precision=precision)
    return CheckpointSize(float(states.weights), float(states.master),
                          float(states.optimizer))


def write_time(checkpoint_bytes: float, bandwidth: float) -> float:
    """Seconds to write ``checkpoint_bytes`` at ``bandwidth`` bytes/s: bytes / bandwidth.

    Assumes enough ranks write in parallel to saturate the storage (Llama 3: 16,384 GPUs
    against 2 TB/s sustained, about 122 MB/s each, far below one NIC)."""
    check_finite_positive("checkpoint_bytes", checkpoint_bytes)
    check_finite_positive("bandwidth", bandwidth)
    return checkpoint_bytes / bandwidth


def async_pause(bytes_per_gpu: float, host_link_bandwidth: float) -> float:
    """Seconds an asynchronous checkpoint pauses training: each GPU's shard copied to host
    memory over its host link (PCIe), all GPUs at once; the write to storage overlaps the
    steps that follow."""
    return write_time(bytes_per_gpu, host_link_bandwidth)
