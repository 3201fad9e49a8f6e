"""The combined view: states, activations and traffic per GPU, against hand derivations."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from distlesson.catalog.models import get_model
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload, analyse_layout, step_communication
from tests.hand_counts import llama_layer_bytes_per_token

L70 = get_model("llama3-70b")  # 80 layers, h 8192, 64 heads, 8 kv heads of 128
N70 = 70_553_706_496
STEP = Workload(seq_len=8192, micro_batch=1, global_batch=128)
ACT = 8192 * 8192 * 2  # one activation s b h in bf16


@given(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128]))
def test_dp_replicates_and_zero3_divides_exactly(dp):
    alone = analyse_layout(L70, Layout(), STEP)
    replicas = analyse_layout(L70, Layout(dp=dp), STEP)
    sharded = analyse_layout(L70, Layout(dp=dp, zero=3), STEP)
    assert replicas.states == alone.states
    assert replicas.activations == alone.activations
    assert sharded.states.total == Fraction(alone.states.total, dp)


def test_dp_traffic_by_hand():
    # bf16 gradients and weights: G = W = 2 N bytes; 128 sequences over 16 replicas: m = 8
    g, m = 2 * N70, 8
    # stage 0 and 1 accumulate gradients locally and reduce once; stage 2 reduce-scatters
    # every micro-batch; stage 3 also gathers the weights twice per micro-batch
    for zero, units in ((0, 2), (1, 2), (2, m + 1), (3, 3 * m)):
        comm = step_communication(L70, Layout(dp=16, zero=zero), STEP)
        assert comm.dp == units * Fraction(15, 16) * g
        assert comm.tp == comm.pp == comm.cp == 0
    # one micro-batch per step: Rajbhandari et al.'s 2 Psi, 2 Psi, 2 Psi and 3 Psi
    one = Workload(seq_len=8192, micro_batch=8, global_batch=128)
    for zero, units in ((0, 2), (1, 2), (2, 2), (3, 3)):
        assert step_communication(L70, Layout(dp=16, zero=zero), one).dp == (
            units * Fraction(15, 16) * g)


def test_fp32_grads_cost_more_than_bf16_weights_in_zero():
    step = Workload(seq_len=8192, micro_batch=1, global_batch=128, precision="mixed-fp32-grads")
    comm = step_communication(L70, Layout(dp=4, zero=2), step)
    m = 128 // 4  # micro-batches per replica, each reduce-scattered in fp32
    assert comm.dp == Fraction(3, 4) * (m * 4 * N70 + 2 * N70)


def test_tp_traffic_by_hand():
    # 4 all-reduces per layer (no recompute), each 2 (t-1)/t of one activation
    step = Workload(seq_len=8192, micro_batch=1, global_batch=2, recompute="selective")
    comm = step_communication(L70, Layout(tp=8, dp=2), step)
    per_layer = 4 * 2 * Fraction(7, 8) * ACT
    assert per_layer == 939_524_096
    assert comm.tp == per_layer * 80 * 1  # 80 layers, one micro-batch per replica
    # full recomputation runs the forward's two all-reduces again
    full = step_communication(L70, Layout(tp=8, dp=2), Workload(8192, 1, 2))
    assert full.tp == Fraction(6, 4) * comm.tp


def test_pp_traffic_by_hand():
    comm = step_communication(L70, Layout(pp=16), STEP)
    assert comm.pp == 2 * ACT * 128  # one activation forward, one gradient back, 128 micro-batches
    sliced = step_communication(L70, Layout(pp=4, tp=8), Workload(8192, 1, 128))
    assert sliced.pp == 2 * Fraction(ACT, 8) * 128


def test_cp_traffic_by_hand():
    step = Workload(seq_len=8192, micro_batch=1, global_batch=1, recompute="selective")
    comm = step_communication(L70, Layout(cp=4), step)
    # forward: K and V, 3 passes of 2048 positions x 8 kv heads x 128 x 2 bytes; backward x2
    forward = 2 * 3 * 2048 * 8 * 128 * 2
    assert comm.cp == 3 * forward * 80


V, H, KV, F, HEADS = 128_256, 8192, 8 * 128, 28_672, 64
LAYER = (N70 - 2 * V * H - H) // 80  # one layer's parameters: the count less both vocab matrices
REBUILT_PER_TOKEN = llama_layer_bytes_per_token(H, KV, F, HEADS)  # one layer, all tensors


def test_memory_of_the_busiest_stage_by_hand():
    report = analyse_layout(L70, Layout(tp=8, pp=4, dp=2, zero=1), Workload(8192, 1, 64))
    # the first stage is the busiest: 20 layers and the embedding, 4 micro-batches in flight
    assert (report.stage.stage, report.stage.layers) == (0, 20)
    params = 20 * LAYER + V * H
    # bf16 weights and grads split by tp 8; master and moments (12 bytes) also by dp 2
    assert report.states.total == Fraction(4 * params, 8) + Fraction(12 * params, 8 * 2)
    # full recompute with sp: each layer keeps its input, 2 s b h / t, for the 4 micro-batches
    # in flight under 1F1B; one layer is rebuilt in the backward with all its tensors
    assert report.activations == (Fraction(2 * 8192 * H, 8) * 20 * 4
                                  + Fraction(REBUILT_PER_TOKEN * 8192, 8))
    assert report.logits == 0  # the head is on the last stage
    allocated = report.states.total + report.activations
    assert report.per_gpu_bytes == pytest.approx(allocated / 0.95 + 2e9, rel=1e-12)


@pytest.mark.parametrize(("layout", "workload", "message"), [
    (Layout(dp=3), STEP, "global_batch=128 must be a multiple of dp=3 x micro_batch=1"),
    (Layout(tp=3), STEP, "tp=3 must divide num_heads=64"),
    (Layout(cp=3), STEP, "cp=3 must divide seq_len=8192"),
])
def test_bad_layouts_are_refused(layout, workload, message):
    with pytest.raises(ValueError, match=message):
        analyse_layout(L70, layout, workload)


def test_bad_workload_is_refused():
    with pytest.raises(ValueError, match="recompute='some' is not known"):
        Workload(8192, 1, 8, recompute="some")
    with pytest.raises(ValueError, match="micro_batch=0 must be a positive integer"):
        Workload(8192, 0, 8)


def test_split_keeps_the_step_and_sets_the_microbatches():
    # 128 sequences over dp = 4 replicas in m = 8 micro-batches: four sequences each
    step = STEP.split(4, 8)
    assert (step.micro_batch, step.global_batch, step.seq_len) == (4, 128, 8192)
    report = analyse_layout(L70, Layout(dp=4, pp=4), step)
    assert report.num_microbatches == 8
    # 1F1B's first stage holds min(pp, m) = 4 micro-batches of 4 sequences, 20 layers
    one = analyse_layout(L70, Layout(dp=4, pp=4), STEP.split(4, 32))
    assert report.activations == 4 * one.activations
    # the tensor-parallel bytes of a whole step depend on the tokens, not on how they are cut
    layout = Layout(dp=4, tp=8, pp=2)
    assert (step_communication(L70, layout, STEP.split(4, 1)).tp
            == step_communication(L70, layout, STEP.split(4, 32)).tp)
    assert STEP.split(128, 1).micro_batch == 1


@pytest.mark.parametrize(("dp", "m", "message"), [
    (64, 4, r"dp=64 x num_microbatches=4 = 256 must divide global_batch=128"),
    (3, 1, r"dp=3 x num_microbatches=1 = 3 must divide global_batch=128"),
    (2, 0, r"num_microbatches=0 must be a positive integer"),
])
def test_split_refuses_what_does_not_divide_the_step(dp, m, message):
    with pytest.raises(ValueError, match=message):
        STEP.split(dp, m)
