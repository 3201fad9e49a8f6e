"""The seven terms of a step: sums, MFU two ways, what each policy hides, hand derivations."""

import math
from fractions import Fraction

import pytest

from distlesson.catalog.models import get_model
from distlesson.efficiency.failures import FailureModel
from distlesson.efficiency.kernels import head_times, layer_times
from distlesson.efficiency.mfu import model_flops_per_token
from distlesson.efficiency.overlap import DimensionTimes, LinkContext, OverlapPolicy, pp_exposed
from distlesson.efficiency.step_time import (
    TERMS,
    Cluster,
    StepInputs,
    StepModel,
    estimate_step,
    fix_largest,
    idle_over_busy,
)
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import simulate

H100 = 989e12
ARCH = get_model("llama3-8b")
LAYOUT = Layout(dp=4, tp=2, pp=2, zero=1)
WORK = Workload(seq_len=4096, micro_batch=1, global_batch=32, recompute="full")
CLUSTER = Cluster(gpu="h100-sxm", num_gpus=16, gpus_per_node=8)
INPUTS = StepInputs(kernel_efficiency=0.5, data_stall=0.1,
                    failures=FailureModel(checkpoint_interval=600.0))


@pytest.fixture(scope="module")
def estimate():
    return estimate_step(ARCH, LAYOUT, WORK, CLUSTER, INPUTS)


def test_terms_add_up_and_mfu_two_ways(estimate):
    b = estimate.breakdown
    assert b.total == pytest.approx(sum(getattr(b, t) for t in TERMS), rel=1e-12)
    assert estimate.mfu_from_flops == pytest.approx(b.mfu, rel=1e-12)
    tokens = 32 * 4096
    assert b.useful == pytest.approx(
        model_flops_per_token(ARCH, seq_len=4096) * tokens / 16 / H100, rel=1e-12)
    assert estimate.hfu > estimate.mfu  # full recomputation reruns the forward


def test_one_gpu_by_hand():
    """No parallelism: the step is m micro-batches of every layer and the head."""
    work = Workload(seq_len=2048, micro_batch=1, global_batch=4, recompute="none")
    inputs = StepInputs(kernel_efficiency=0.6, failures=None)
    got = estimate_step(ARCH, Layout(), work, Cluster("h100-sxm", 1), inputs)
    shape = dict(seq_len=2048, micro_batch=1, tp=1, cp=1, gpu="h100-sxm", eta=0.6)
    lt = layer_times(ARCH, **shape)
    head = sum(head_times(ARCH, **shape))
    # and once per step, AdamW's update of Llama 3 8B's 8,030,261,248 parameters in mixed
    # precision: the bf16 gradient read twice (2 x 2 bytes), the fp32 master read and
    # written and the bf16 copy written (2 x 4 + 2), two fp32 moments read and written
    # (2 x 2 x 4): 30 bytes each, at the H100's 3.35 TB/s
    update = 8_030_261_248 * 30 / 3.35e12
    assert got.step_time == pytest.approx(4 * (32 * (lt.forward + lt.backward) + head)
                                          + update)
    b = got.breakdown
    assert b.bubble == pytest.approx(0, abs=1e-12) and b.exposed_comm == 0
    assert b.recompute == 0 and b.failures == 0 and b.data == 0


def test_a_separate_accumulation_pass_by_hand():
    """DeepSpeed's bf16 optimizer adds each micro-batch's gradients into the main ones in a
    pass of its own: 4 micro-batches x Llama 3 8B's 8,030,261,248 parameters x 10 bytes
    (mixed precision: bf16 read, bf16 copy written and read, sum read and written) more, at
    3.35 TB/s; a bad name is refused."""
    work = Workload(seq_len=2048, micro_batch=1, global_batch=4, recompute="none")
    fused, separate = (estimate_step(ARCH, Layout(), work, Cluster("h100-sxm", 1),
                                     StepInputs(kernel_efficiency=0.6, failures=None,
                                                accumulation=a))
                       for a in ("fused", "separate-pass"))
    extra = 4 * 8_030_261_248 * 10 / 3.35e12
    assert separate.step_time - fused.step_time == pytest.approx(extra, rel=1e-9)
    assert separate.breakdown.below_peak - fused.breakdown.below_peak == pytest.approx(
        extra, rel=1e-9)
    with pytest.raises(ValueError, match="accumulation='eager'; allowed: fused, separate"):
        StepInputs(accumulation="eager")


def test_data_and_failures_by_hand(estimate):
    b = estimate.breakdown
    assert b.data == 0.1
    productive = b.total - b.failures
    # the checkpoint: 14 bytes per parameter (bf16 weights, fp32 master and two moments) of
    # Llama 3 8B's 8,030,261,248, written at 2 TB/s: 112.42 GB / 2e12 = 0.056211829 s;
    # MTBF on 16 GPUs: 54 x 86,400 x 16,384 / (419 x 16) = 11,402,325.5 s;
    # overhead = (300 + 600 / 2) / 11,402,325.5 + 0.056211829 / 600
    write = 14 * 8_030_261_248 / 2e12
    mtbf = 54 * 86_400 * 16_384 / (419 * 16)
    assert b.failures == pytest.approx(productive * ((300 + 300) / mtbf + write / 600),
                                       rel=1e-12)
    assert b.failures == pytest.approx(productive * FailureModel(
        checkpoint_interval=600.0, checkpoint_write_time=write).overhead(16), rel=1e-12)


def test_the_pipeline_bubble_is_at_least_the_balanced_one(estimate):
    # uneven work between stages (the head on the last) only adds idle time
    assert estimate.model.idle_over_busy >= float(Fraction(1, 8))  # (p - 1) / m, p=2, m=8


@pytest.mark.parametrize(("schedule", "pp", "m", "chunks"), [
    ("1f1b", 1, 4, 1), ("1f1b", 4, 8, 1), ("1f1b", 16, 16, 1), ("gpipe", 4, 3, 1),
    ("interleaved", 4, 8, 2), ("zb-h1", 4, 8, 1), ("zb-h1", 4, 2, 1)])
def test_idle_over_busy_is_the_simulators(schedule, pp, m, chunks):
    timeline = simulate(build_schedule(schedule, pp, m, chunks))
    assert idle_over_busy(schedule, pp, m, chunks) == Fraction(sum(timeline.idle),
                                                                sum(timeline.busy))


def _comm(policy: OverlapPolicy, layout=LAYOUT, work=WORK) -> DimensionTimes:
    inputs = StepInputs(kernel_efficiency=0.5, overlap=policy, failures=None)
    return estimate_step(ARCH, layout, work, CLUSTER, inputs).model.comm


def test_each_policy_hides_at_most_what_none_exposes():
    none = _comm(OverlapPolicy(dp="none", tp="none", pp="blocking"))
    some = _comm(OverlapPolicy(dp="bucketed", tp="backward", pp="async"))
    most = _comm(OverlapPolicy(dp="bucketed", tp="full", pp="async"))
    assert none.dp >= some.dp and none.pp >= some.pp
    assert none.tp >= some.tp >= most.tp
    assert none.tp > 0 and none.dp > 0


def test_context_parallel_ring_hides_behind_attention():
    layout = Layout(dp=2, tp=2, pp=2, cp=2, zero=1)
    work = Workload(seq_len=32768, micro_batch=1, global_batch=16, recompute="none")
    gather = _comm(OverlapPolicy(cp="all-gather"), layout, work).cp
    ring = _comm(OverlapPolicy(cp="ring"), layout, work).cp
    assert gather > 0 and ring <= gather


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


def test_kernels_at_peak_also_speed_up_the_recomputation(estimate):
    model = estimate.model
    faster = model.without("below_peak")
    assert faster.recompute == pytest.approx(model.recompute * model.kernel_efficiency)


def test_memory_of_the_busiest_stage(estimate):
    assert estimate.per_gpu_bytes == max(s.total for s in estimate.stages)
    assert len(estimate.stages) == 2


def test_cluster_defaults():
    cluster = Cluster(gpu="h100-sxm", num_gpus=8)
    assert cluster.gpus_per_node == 8 and cluster.intra_link == "nvlink4"
    with pytest.raises(ValueError, match="num_gpus=0"):
        Cluster(gpu="h100-sxm", num_gpus=0)
    with pytest.raises(ValueError, match="interconnect='wifi' is not known"):
        Cluster(gpu="h100-sxm", num_gpus=8, inter_link="wifi")


def test_bad_inputs():
    with pytest.raises(ValueError, match="kernel_efficiency=0 must be in"):
        StepInputs(kernel_efficiency=0)
    with pytest.raises(ValueError, match="overlap tp='sometimes'; allowed: backward"):
        OverlapPolicy(tp="sometimes")
    with pytest.raises(ValueError, match="useful"):
        StepModel(1, 0, 1, 0, DimensionTimes(0, 0, 0, 0), 0, 0).without("useful")
    with pytest.raises(ValueError, match="= 16 != num_gpus 8"):
        estimate_step(ARCH, LAYOUT, WORK, Cluster(gpu="h100-sxm", num_gpus=8), INPUTS)
    assert math.isfinite(estimate_step(ARCH, LAYOUT, WORK, CLUSTER).step_time)


def test_a_pipeline_across_nodes_goes_at_its_slowest_hop():
    """BLOOM's layout: tp 4 inside 8-GPU nodes, so pipeline neighbours are 4 ranks apart:
    stages 0 and 1 share a node, 1 and 2 do not. Every send waits for the slowest hop, the
    one between nodes; a pipeline of 2 stages stays inside its node."""
    links = LinkContext(8, "nvlink3", "opa-100x4")
    arch, shape = get_model("gpt3-175b"), dict(seq_len=2048, micro_batch=2,
                                               num_microbatches=8, chunks=1, links=links,
                                               policy=OverlapPolicy(pp="blocking"))
    size = 2048 * 2 * arch.hidden_size * 2 / 4  # bf16 activations, split by tp
    between = links.time("send-recv", size, 2, 8)
    within = links.time("send-recv", size, 2, 4)
    assert between > within
    assert pp_exposed(arch, Layout(tp=4, pp=12, dp=8), **shape) == pytest.approx(
        2 * (8 + 12 - 1) * between)
    assert pp_exposed(arch, Layout(tp=4, pp=2), **shape) == pytest.approx(
        2 * (8 + 2 - 1) * within)
