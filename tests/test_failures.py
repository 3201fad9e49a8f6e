"""Failures on a cluster: MTBF from Llama 3's interruptions, Young's interval, the overhead."""

import math

import pytest

from distlesson.efficiency.failures import FailureModel, job_mtbf, young_interval


def test_failures_from_llama3():
    mtbf = job_mtbf(16384, FailureModel().per_gpu_hour)
    assert mtbf == pytest.approx(54 * 24 * 3600 / 419, rel=1e-12)  # about 3.1 hours
    assert young_interval(20, mtbf) == pytest.approx(math.sqrt(2 * 20 * mtbf))
    young = FailureModel()
    tau = young.interval(16384)
    assert young.overhead(16384) == pytest.approx((300 + tau / 2) / mtbf + 20 / tau)
    # Young's interval minimises the first-order overhead
    for other in (tau * 0.8, tau * 1.25):
        assert FailureModel(checkpoint_interval=other).overhead(16384) > young.overhead(16384)


def test_bad_failure_inputs():
    with pytest.raises(ValueError, match="gpus=0"):
        job_mtbf(0, 1e-5)
    with pytest.raises(ValueError, match="checkpoint_write_time=0"):
        young_interval(0, 100)
