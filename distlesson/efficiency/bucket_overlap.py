"""Gradient buckets reduced during the backward: the two streams of a data-parallel step.

PyTorch DDP (Li et al. 2020, VLDB, section 3.2.3) groups gradients into buckets
(``bucket_cap_mb`` = 25 MiB by default) in the reverse order of the layers. The backward
fills them from the last layer to the first; as soon as a bucket is full its all-reduce is
launched on the network stream while the backward goes on computing. This module simulates
those two streams, bucket by bucket:

    compute: bucket i is ready at (i + 1) x backward / B
    network: bucket i's all-reduce starts at max(ready_i, end of bucket i - 1's), lasts t_i

The step waits for the last reduction: ``exposed`` = end of the network stream - end of the
backward. When every reduction is shorter than the compute of a bucket, only the last
bucket's is exposed (the ``last_bucket`` term of :func:`distlesson.efficiency.overlap.dp_exposed`);
otherwise the reductions queue up and the excess adds.

Assumptions: the backward's time is spread over the buckets in proportion to their bytes;
one reduction at a time on the network stream (NCCL runs a process group's collectives in
order); reductions do not slow the compute down.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

__all__ = ["BucketTimeline", "Interval", "bucket_sizes", "bucket_timeline"]


@dataclass(frozen=True)
class Interval:
    """One box of the timeline."""

    stream: Literal["compute", "network"]
    bucket: int
    """Bucket index, 0 = the first one filled (the last layers')."""
    start: float
    """Seconds from the start of the backward."""
    end: float


@dataclass(frozen=True)
class BucketTimeline:
    """The backward and the reductions of its buckets."""

    intervals: tuple[Interval, ...]
    backward: float
    """Seconds of the backward (the compute stream)."""

    @property
    def end(self) -> float:
        """When the last reduction finishes (or the backward, if later)."""
        return max(self.backward, *(i.end for i in self.intervals))

    @property
    def exposed(self) -> float:
        """Seconds the step waits for the network after the backward."""
        return self.end - self.backward


def bucket_sizes(grad_bytes: float, bucket_bytes: float) -> tuple[float, ...]:
    """Bytes of each bucket: full buckets of ``bucket_bytes``, the remainder last."""
    if not (grad_bytes > 0 and bucket_bytes > 0):
        raise ValueError(f"grad_bytes={grad_bytes!r} and bucket_bytes={bucket_bytes!r} must "
                         "be positive")
    full = math.floor(grad_bytes / bucket_bytes)
    rest = grad_bytes - full * bucket_bytes
    return (bucket_bytes,) * full + ((rest,) if rest > 0 else ())


def bucket_timeline(backward: float, sizes: tuple[float, ...],
                    reduce_time: Callable[[float], float]) -> BucketTimeline:
    """Simulate the two streams: ``backward`` seconds of compute, buckets of ``sizes`` bytes,
    each reduced in ``reduce_time(bytes)`` seconds (see the module docstring)."""
    if not backward > 0:
        raise ValueError(f"backward={backward!r} must be positive seconds")
    if not sizes:
        raise ValueError("sizes is empty: a backward fills at least one bucket")
    total = math.fsum(sizes)
    intervals: list[Interval] = []
    ready = network_free = 0.0
    for i, size in enumerate(sizes):
        start_compute = ready
        ready += backward * size / total  # compute: proportional to the bucket's bytes
        intervals.append(Interval("compute", i, start_compute, ready))
        start = max(ready, network_free)  # network: in order, one at a time
        network_free = start + reduce_time(size)
        intervals.append(Interval("network", i, start, network_free))
    return BucketTimeline(tuple(intervals), backward)
