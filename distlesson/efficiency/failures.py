"""Failures on a large cluster: the job's mean time between failures, the checkpoint interval,
and the share of time they cost (the step model's ``failures`` term).

Failures are independent across GPUs (a Poisson process per GPU), so the job's MTBF falls as
1 / GPUs. Checkpointing every tau seconds costs a write per tau, and a failure loses the
restart and, on average, half an interval of work; Young (1974) found the tau that minimises
the sum, sqrt(2 x write time x MTBF); Daly (2006) refines it to first order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from distlesson.checks import check_finite_positive, check_positive_int

__all__ = ["LLAMA3_DAYS", "LLAMA3_GPUS", "LLAMA3_INTERRUPTIONS", "FailureModel", "job_mtbf",
           "young_interval"]

# Llama 3 (Grattafiori et al. 2024, section 3.3.4): 419 unexpected interruptions in a
# 54-day snapshot of pre-training on 16,384 H100s.
LLAMA3_INTERRUPTIONS, LLAMA3_DAYS, LLAMA3_GPUS = 419, 54, 16_384


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


@dataclass(frozen=True)
class FailureModel:
    """Failures, restarts and checkpoints: the inputs of the ``failures`` term."""

    per_gpu_hour: float = LLAMA3_INTERRUPTIONS / (LLAMA3_DAYS * 24 * LLAMA3_GPUS)
    """Unexpected interruptions per GPU-hour: Llama 3's 419 in 54 days on 16,384 GPUs."""
    restart_time: float = 300.0
    """Seconds from a failure to training again (detect, reschedule, load): a modelling
    choice; Llama 3 reports automated recovery but no figure."""
    checkpoint_write_time: float = 20.0
    """Seconds a checkpoint blocks training: a modelling choice (asynchronous writes)."""
    checkpoint_interval: float | None = None
    """Seconds between checkpoints; None: Young's optimum for the job's MTBF."""

    def interval(self, gpus: int) -> float:
        """The checkpoint interval used: the input, or Young's optimum."""
        if self.checkpoint_interval is not None:
            return self.checkpoint_interval
        return young_interval(self.checkpoint_write_time, job_mtbf(gpus, self.per_gpu_hour))

    def overhead(self, gpus: int) -> float:
        """Seconds lost per productive second: (restart + interval / 2) / MTBF + write / interval.

        A failure loses the restart and, on average, half an interval of work (Young 1974;
        Daly 2006 to first order); each checkpoint blocks for its write time."""
        tau = self.interval(gpus)
        lost = self.restart_time + tau / 2
        return lost / job_mtbf(gpus, self.per_gpu_hour) + self.checkpoint_write_time / tau
