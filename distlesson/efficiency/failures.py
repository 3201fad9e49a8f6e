"""Failures on a large cluster: the job's mean time between failures, the checkpoint interval,
and the share of time they cost (the step model's ``failures`` term).

Failures are independent across GPUs (a Poisson process per GPU), so the job's MTBF falls as
1 / GPUs. Checkpointing every tau seconds of work costs a write of delta seconds per tau,
and a failure loses the restart R and, on average, half an interval of work. Young (1974)
found the tau that minimises the sum to first order, sqrt(2 delta M); Daly (2006) derived
the expected wall time exactly for exponential failures and a higher-order optimum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from distlesson.catalog.reliability import LLAMA3_INTERRUPTIONS, TECTONIC
from distlesson.checks import check_finite_nonneg, check_finite_positive, check_positive_int
from distlesson.efficiency.checkpoint_io import write_time

__all__ = ["LLAMA3_DAYS", "LLAMA3_GPUS", "LLAMA3_INTERRUPTIONS", "LLAMA3_PER_GPU_HOUR",
           "FailureModel", "daly_interval", "goodput", "goodput_first_order", "job_mtbf",
           "observed_mtbf", "young_interval"]

# Llama 3 (Grattafiori et al. 2024, section 3.3.4): 419 unexpected interruptions in a
# 54-day snapshot of pre-training on 16,384 H100s (distlesson.catalog.reliability).
LLAMA3_DAYS, LLAMA3_GPUS = LLAMA3_INTERRUPTIONS.days, LLAMA3_INTERRUPTIONS.gpus
LLAMA3_PER_GPU_HOUR = LLAMA3_INTERRUPTIONS.unexpected / (LLAMA3_DAYS * 24 * LLAMA3_GPUS)
"""Unexpected interruptions per GPU-hour: 419 / (54 x 24 x 16,384), about 2e-5."""


def observed_mtbf(interruptions: int, days: float) -> float:
    """A job's MTBF from what it saw: days x 86,400 / interruptions, seconds."""
    check_positive_int("interruptions", interruptions)
    check_finite_positive("days", days)
    return days * 86_400 / interruptions


def job_mtbf(gpus: int, per_gpu_hour: float) -> float:
    """Mean time between failures of a job on ``gpus`` GPUs: 3600 / (rate x GPUs), seconds.

    Assumes failures independent across GPUs (a Poisson process per GPU)."""
    check_positive_int("gpus", gpus)
    check_finite_positive("per_gpu_hour", per_gpu_hour)
    mtbf = 3600 / (per_gpu_hour * gpus)
    check_finite_positive("mtbf", mtbf)  # the quotient can underflow to 0
    return mtbf


def young_interval(checkpoint_write_time: float, mtbf: float) -> float:
    """Young's (1974) optimal checkpoint interval sqrt(2 x write time x MTBF), seconds."""
    check_finite_positive("checkpoint_write_time", checkpoint_write_time)
    check_finite_positive("mtbf", mtbf)
    interval = math.sqrt(2 * checkpoint_write_time * mtbf)
    check_finite_positive("interval", interval)  # the product can overflow to inf
    return interval


def daly_interval(checkpoint_write_time: float, mtbf: float) -> float:
    """Daly's (2006) higher-order optimum, seconds of work between checkpoints:

        sqrt(2 delta M) [1 + (1/3) sqrt(delta / 2M) + (1/9) (delta / 2M)] - delta  (delta < 2M)
        M                                                                       (otherwise)

    delta the write time, M the MTBF; exponential failures. It tends to Young's as
    delta / M -> 0."""
    young = young_interval(checkpoint_write_time, mtbf)
    x = checkpoint_write_time / (2 * mtbf)
    if x >= 1:
        return mtbf
    return young * (1 + math.sqrt(x) / 3 + x / 9) - checkpoint_write_time


def goodput(interval: float, checkpoint_write_time: float, mtbf: float,
            restart_time: float = 0.0) -> float:
    """Share of wall time spent on work that is kept, with exponential failures:

        tau / (M e^(R/M) (e^((tau + delta)/M) - 1))

    the work tau of a segment over its expected wall time (Daly 2006: the wall time
    of a run of T_s seconds of work is M e^(R/M) (e^((tau + delta)/M) - 1) T_s / tau)."""
    for name, value in (("interval", interval), ("checkpoint_write_time",
                        checkpoint_write_time), ("mtbf", mtbf)):
        check_finite_positive(name, value)
    check_finite_nonneg("restart_time", restart_time)
    wall = mtbf * math.exp(restart_time / mtbf) * math.expm1((interval + checkpoint_write_time)
                                                             / mtbf)
    return interval / wall if math.isfinite(wall) else 0.0


def goodput_first_order(interval: float, checkpoint_write_time: float, mtbf: float,
                        restart_time: float = 0.0) -> float:
    """1 / (1 + delta / tau + (R + tau / 2) / M): each second of work costs delta / tau of
    writing and, per failure (1 / M per second), a restart and half an interval lost. The
    first-order expansion of :func:`goodput`; the step model's ``failures`` term."""
    for name, value in (("interval", interval), ("checkpoint_write_time",
                        checkpoint_write_time), ("mtbf", mtbf)):
        check_finite_positive(name, value)
    check_finite_nonneg("restart_time", restart_time)
    overhead = checkpoint_write_time / interval + (restart_time + interval / 2) / mtbf
    return 1 / (1 + overhead)


@dataclass(frozen=True)
class FailureModel:
    """Failures, restarts and checkpoints: the inputs of the ``failures`` term."""

    per_gpu_hour: float = LLAMA3_PER_GPU_HOUR
    """Unexpected interruptions per GPU-hour: Llama 3's 419 in 54 days on 16,384 GPUs."""
    restart_time: float = 300.0
    """Seconds from a failure to training again (detect, reschedule, load): a modelling
    choice; Llama 3 reports automated recovery but no figure."""
    checkpoint_write_time: float | None = None
    """Seconds a checkpoint blocks training; None: the checkpoint's bytes over
    ``storage_bandwidth`` (:meth:`for_checkpoint`, which the step model calls with the
    model's states)."""
    storage_bandwidth: float = TECTONIC.sustained
    """Bytes per second the checkpoint is written at: Llama 3's Tectonic, sustained."""
    checkpoint_interval: float | None = None
    """Seconds between checkpoints; None: Young's optimum for the job's MTBF."""

    def __post_init__(self) -> None:
        check_finite_positive("per_gpu_hour", self.per_gpu_hour)
        check_finite_nonneg("restart_time", self.restart_time)
        check_finite_positive("storage_bandwidth", self.storage_bandwidth)
        for name in ("checkpoint_write_time", "checkpoint_interval"):
            if getattr(self, name) is not None:
                check_finite_positive(name, getattr(self, name))

    def for_checkpoint(self, checkpoint_bytes: float) -> FailureModel:
        """The model with its write time set from a checkpoint's bytes (kept if given)."""
        if self.checkpoint_write_time is not None:
            return self
        return replace(self, checkpoint_write_time=write_time(checkpoint_bytes,
                                                              self.storage_bandwidth))

    @property
    def write_time(self) -> float:
        """The write time; ValueError until it is given or set by :meth:`for_checkpoint`."""
        if self.checkpoint_write_time is None:
            raise ValueError("checkpoint_write_time=None: give it, or the checkpoint's bytes "
                             "with for_checkpoint(bytes)")
        return self.checkpoint_write_time

    def mtbf(self, gpus: int) -> float:
        """The job's MTBF on ``gpus`` GPUs, seconds."""
        return job_mtbf(gpus, self.per_gpu_hour)

    def interval(self, gpus: int) -> float:
        """The checkpoint interval used: the input, or Young's optimum."""
        if self.checkpoint_interval is not None:
            return self.checkpoint_interval
        return young_interval(self.write_time, self.mtbf(gpus))

    def overhead(self, gpus: int) -> float:
        """Seconds lost per productive second: (restart + interval / 2) / MTBF + write / interval.

        A failure loses the restart and, on average, half an interval of work (Young 1974;
        Daly 2006 to first order); each checkpoint blocks for its write time. Equal to
        1 / :func:`goodput_first_order` - 1."""
        tau = self.interval(gpus)
        lost = self.restart_time + tau / 2
        return lost / self.mtbf(gpus) + self.write_time / tau
