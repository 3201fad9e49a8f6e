"""The seven terms of a step, each against a hand derivation; MFU two ways."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.catalog.models import get_model
from distlesson.efficiency.mfu import model_flops_per_token, recompute_flops_per_token
from distlesson.efficiency.step_time import (
    TERMS,
    Cluster,
    DimensionTimes,
    FailureModel,
    Overlap,
    StepInputs,
    StepModel,
    estimate_step,
    fix_largest,
    idle_over_busy,
    job_mtbf,
    link_bandwidths,
    young_interval,
)
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import simulate

H100, NVLINK, IB = 989e12, 450e9, 50e9
ARCH = get_model("llama3-8b")
LAYOUT = Layout(dp=4, tp=2, pp=2, zero=1)
WORK = Workload(seq_len=4096, micro_batch=1, global_batch=32, recompute="full")
CLUSTER = Cluster(gpu="h100-sxm", num_gpus=16, gpus_per_node=8)
INPUTS = StepInputs(kernel_efficiency=0.5, overlap=Overlap(dp=0.75, tp=0.0, pp=0.0, cp=0.5),
                    data_stall=0.1, failures=FailureModel(checkpoint_interval=600.0))


@pytest.fixture(scope="module")
def estimate():
    return estimate_step(ARCH, LAYOUT, WORK, CLUSTER, INPUTS)


def test_compute_terms_by_hand(estimate):
    b = estimate.breakdown
    tokens = 32 * 4096
    useful = model_flops_per_token(ARCH, seq_len=4096) * tokens / 16 / H100
    assert b.useful == pytest.approx(useful, rel=1e-12)
    assert b.below_peak == pytest.approx(useful * (1 / 0.5 - 1), rel=1e-12)
    recompute = recompute_flops_per_token(ARCH, seq_len=4096, recompute="full") * tokens / 16
    assert b.recompute == pytest.approx(recompute / (0.5 * H100), rel=1e-12)
    # 1F1B, p = 2, m = 32 / 4 = 8: idle / busy = (p - 1) / m = 1/8
    assert estimate.num_microbatches == 8
    assert b.bubble == pytest.approx((b.useful + b.below_peak + b.recompute) / 8, rel=1e-12)


def test_communication_by_hand(estimate):
    sent = estimate.sent
    # tp (2 GPUs) and pp (2 x 2 = 4 GPUs) inside a node of 8: NVLink; dp spans 16: InfiniBand
    expected = float(sent.tp) / NVLINK + float(sent.pp) / NVLINK + float(sent.dp) / IB * 0.25
    assert estimate.breakdown.exposed_comm == pytest.approx(expected, rel=1e-12)
    assert sent.cp == 0


def test_data_and_failures_by_hand(estimate):
    b = estimate.breakdown
    assert b.data == 0.1
    mtbf = 3600 / (419 / (54 * 24 * 16384) * 16)
    overhead = (300 + 600 / 2) / mtbf + 20 / 600
    productive = b.total - b.failures
    assert b.failures == pytest.approx(productive * overhead, rel=1e-12)


def test_mfu_two_ways(estimate):
    b = estimate.breakdown
    by_flops = float(estimate.flops.model) / (b.total * 16 * H100)
    assert b.mfu == pytest.approx(by_flops, rel=1e-14)
    assert estimate.mfu_from_flops == pytest.approx(b.mfu, rel=1e-14)
    assert b.total == pytest.approx(sum(getattr(b, t) for t in TERMS), rel=1e-15)


@settings(max_examples=60, deadline=None)
@given(efficiency=st.floats(0.05, 1.0), idle=st.floats(0, 3), comm=st.floats(0, 5),
       data=st.floats(0, 2), overhead=st.floats(0, 0.5), flops=st.floats(1e12, 1e17),
       recompute=st.floats(0, 1e16))
def test_mfu_from_terms_equals_mfu_from_flops(efficiency, idle, comm, data, overhead, flops,
                                              recompute):
    gpus = 64
    model = StepModel(model_flops=flops / gpus, recompute_flops=recompute,
                      peak_flops=H100, kernel_efficiency=efficiency, idle_over_busy=idle,
                      comm=DimensionTimes(comm, 0, 0, 0), data_stall=data,
                      failure_overhead=overhead)
    b = model.breakdown()
    assert b.mfu == pytest.approx(flops / (b.total * gpus * H100), rel=1e-12)


@pytest.mark.parametrize(("schedule", "pp", "m", "chunks"), [
    ("1f1b", 1, 4, 1), ("1f1b", 4, 8, 1), ("1f1b", 16, 16, 1), ("gpipe", 4, 3, 1),
    ("interleaved", 4, 8, 2), ("zb-h1", 4, 8, 1), ("zb-h1", 4, 2, 1)])
def test_idle_over_busy_is_the_simulators(schedule, pp, m, chunks):
    timeline = simulate(build_schedule(schedule, pp, m, chunks))
    assert idle_over_busy(schedule, pp, m, chunks) == Fraction(sum(timeline.idle),
                                                                sum(timeline.busy))


def test_one_f_one_b_idle_over_busy_closed_form():
    assert idle_over_busy("1f1b", 16, 16) == Fraction(15, 16)


def test_links_follow_the_placement():
    node = Cluster(gpu="h100-sxm", num_gpus=64, gpus_per_node=8)
    links = link_bandwidths(node, Layout(tp=2, cp=2, pp=2, dp=8))  # spans 2, 4, 8, 64
    assert (links.tp, links.cp, links.pp, links.dp) == (NVLINK, NVLINK, NVLINK, IB)
    links = link_bandwidths(node, Layout(tp=8, pp=8))
    assert (links.tp, links.pp) == (NVLINK, IB)
    links = link_bandwidths(node, Layout(dp=8, pp=8))  # pp placed before dp: pp in a node
    assert (links.pp, links.dp) == (NVLINK, IB)


def test_cluster_defaults():
    cluster = Cluster(gpu="h100-sxm", num_gpus=8)
    assert cluster.gpus_per_node == 8 and cluster.intra_link == "nvlink4"
    with pytest.raises(ValueError, match="num_gpus=0"):
        Cluster(gpu="h100-sxm", num_gpus=0)


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


def test_fix_largest_reorders(estimate):
    model = estimate.model
    ranked = model.breakdown().ranked()
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    term, fixed = fix_largest(model)
    assert term == ranked[0][0]
    after = fixed.breakdown()
    assert getattr(after, term) == 0
    assert after.total < model.breakdown().total and after.mfu > model.breakdown().mfu


@pytest.mark.parametrize("term", TERMS[1:])
def test_without_removes_the_term(estimate, term):
    after = estimate.model.without(term).breakdown()
    assert getattr(after, term) == 0
    assert after.useful == estimate.breakdown.useful


def test_bad_inputs():
    with pytest.raises(ValueError, match="kernel_efficiency=0 must be in"):
        StepInputs(kernel_efficiency=0)
    with pytest.raises(ValueError, match=r"overlap tp=1\.5 must be in 0\.\.1"):
        Overlap(tp=1.5)
    with pytest.raises(ValueError, match="useful"):
        StepModel(1, 0, 1, 1, 0, DimensionTimes(0, 0, 0, 0), 0, 0).without("useful")
    with pytest.raises(ValueError, match="= 16 != num_gpus 8"):
        estimate_step(ARCH, LAYOUT, WORK, Cluster(gpu="h100-sxm", num_gpus=8), INPUTS)
