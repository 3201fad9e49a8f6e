"""Failures on a cluster: MTBF from Llama 3's interruptions, Young's and Daly's intervals,
goodput, and the step model's failure term built from the checkpoint's bytes."""

import math

import pytest

from distlesson.catalog.models import get_model
from distlesson.catalog.reliability import LLAMA3_CAUSES, LLAMA3_INTERRUPTIONS, TECTONIC
from distlesson.efficiency.checkpoint_io import async_pause, checkpoint_size, write_time
from distlesson.efficiency.failures import (
    FailureModel,
    daly_interval,
    goodput,
    goodput_first_order,
    job_mtbf,
    observed_mtbf,
    young_interval,
)


def test_failures_from_llama3():
    mtbf = job_mtbf(16384, FailureModel().per_gpu_hour)
    assert mtbf == pytest.approx(54 * 24 * 3600 / 419, rel=1e-12)  # about 3.1 hours
    assert young_interval(20, mtbf) == pytest.approx(math.sqrt(2 * 20 * mtbf))
    young = FailureModel(checkpoint_write_time=20)
    tau = young.interval(16384)
    assert young.overhead(16384) == pytest.approx((300 + tau / 2) / mtbf + 20 / tau)
    # Young's interval minimises the first-order overhead
    for other in (tau * 0.8, tau * 1.25):
        assert (FailureModel(checkpoint_write_time=20, checkpoint_interval=other)
                .overhead(16384) > young.overhead(16384))


def test_llama3_observed_mtbf_and_young():
    # 54 days x 86,400 s = 4,665,600 s over 419 interruptions = 11,135.08 s (419 x 11,135 =
    # 4,665,565, remainder 35, 35 / 419 = 0.0835); Young: sqrt(2 x 20 x 11,135.08) =
    # sqrt(445,403.3) = 667.39 s.
    mtbf = observed_mtbf(419, 54)
    assert mtbf == pytest.approx(11_135.08, abs=0.01)
    assert young_interval(20, mtbf) == pytest.approx(667.39, abs=0.01)


def test_daly_interval_by_hand():
    # delta = 20, M = 11,135.08: x = delta / 2M = 8.98063e-4, sqrt(x) = 0.0299677;
    # 667.385 x (1 + 0.0299677 / 3 + 8.98063e-4 / 9) = 667.385 x 1.0100890 = 674.119;
    # less delta: 654.12 s.
    assert daly_interval(20, observed_mtbf(419, 54)) == pytest.approx(654.12, abs=0.01)
    # delta >= 2M: checkpoint once per MTBF
    assert daly_interval(300, 100) == 100


def test_daly_is_near_the_exact_optimum_and_closer_than_young():
    for delta, mtbf in ((20, 11_135.0), (300, 3_600.0), (600, 1_800.0)):
        grid = [mtbf * i / 100_000 for i in range(1, 200_000)]
        best = max(grid, key=lambda tau: goodput(tau, delta, mtbf))
        daly, young = daly_interval(delta, mtbf), young_interval(delta, mtbf)
        assert abs(daly - best) < abs(young - best)
        assert goodput(daly, delta, mtbf) == pytest.approx(goodput(best, delta, mtbf),
                                                           rel=1e-4)


def test_goodput_by_hand():
    # Exact (Daly): tau = 90, delta = 10, M = 1000, R = 0: (tau + delta) / M = 0.1,
    # e^0.1 - 1 = 0.10517092; 90 / 105.17092 = 0.855750.
    assert goodput(90, 10, 1000) == pytest.approx(0.855750, abs=1e-6)
    # R = 100 multiplies the wall time by e^0.1 = 1.10517092: 0.855750 / 1.10517092 = 0.774314
    assert goodput(90, 10, 1000, 100) == pytest.approx(0.774314, abs=1e-6)
    # First order: 1 / (1 + 10/90 + (100 + 45)/1000) = 1 / 1.256111 = 0.796108
    assert goodput_first_order(90, 10, 1000, 100) == pytest.approx(0.796108, abs=1e-6)
    # At Young's interval the write and the lost half-interval cost the same: with R = 0 the
    # overhead is 2 sqrt(delta / 2M) = sqrt(2 delta / M); delta = 20, M = 11,135.08:
    # sqrt(40 / 11,135.08) = 0.059935, goodput 1 / 1.059935 = 0.943453.
    mtbf = observed_mtbf(419, 54)
    assert goodput_first_order(young_interval(20, mtbf), 20, mtbf) == pytest.approx(
        0.943453, abs=1e-6)


def test_llama3_causes_add_up():
    counts = [c.count for c in LLAMA3_CAUSES]
    assert sum(counts) == LLAMA3_INTERRUPTIONS.unexpected == 419
    assert LLAMA3_INTERRUPTIONS.planned == 47
    wrong = [c.key for c in LLAMA3_CAUSES
             if round(c.count / 419, 3) != pytest.approx(c.stated_share, abs=1e-9)]
    assert wrong == ["faulty_gpu"]  # 148 / 419 = 35.3 %, printed 30.1 %


def test_checkpoint_of_llama3_405b():
    # bf16 weights (2) + fp32 master (4) + two fp32 moments (8) = 14 bytes per parameter,
    # no gradients; 405,853,388,800 parameters (the catalog's count, tests/test_models.py)
    params = 405_853_388_800
    size = checkpoint_size(get_model("llama3-405b"), precision="mixed", optimizer="adamw")
    assert size.total == 14 * params  # 5,681,947,443,200 bytes
    assert size.weights == 2 * params and size.master == 4 * params
    # at Tectonic's sustained 2 TB/s: 5.682e12 / 2e12 = 2.841 s
    assert write_time(size.total, TECTONIC.sustained) == pytest.approx(2.840974, abs=1e-6)
    # one GPU of 16,384 copies 1/16,384 of it over PCIe 5 (64 GB/s):
    # 5,681,947,443,200 / 16,384 = 346,798,550 B; / 64e9 = 5.4187 ms
    assert async_pause(size.per_writer(16384), 64e9) == pytest.approx(0.0054187, abs=1e-7)


def test_step_model_takes_the_write_time_from_the_checkpoint():
    model = FailureModel()
    with pytest.raises(ValueError, match="checkpoint_write_time=None"):
        model.interval(16384)
    resolved = model.for_checkpoint(4e12)  # 4 TB at 2 TB/s: 2 s
    assert resolved.write_time == 2.0
    assert FailureModel(checkpoint_write_time=7).for_checkpoint(4e12).write_time == 7


def test_bad_failure_inputs():
    with pytest.raises(ValueError, match="gpus=0"):
        job_mtbf(0, 1e-5)
    with pytest.raises(ValueError, match="checkpoint_write_time=0"):
        young_interval(0, 100)
    with pytest.raises(ValueError, match="interruptions=0"):
        observed_mtbf(0, 54)
    with pytest.raises(ValueError, match="restart_time=-1"):
        goodput(10, 1, 100, -1)
