"""ZeRO-1/2/3 against plain data parallelism and one device; bytes against the closed forms
of :mod:`distlesson.memory.states` and :func:`distlesson.parallel.zero.zero_comm_bytes`."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.parallel.toy_mlp import AdamW, MLPParams, flatten, init_mlp, train_single_device
from distlesson.parallel.zero import train_zero, zero_comm_bytes

D_IN, D_HIDDEN, D_OUT = 5, 7, 3
P = 66  # 5 x 7 + 7 + 7 x 3 + 3: divisible by dp = 1, 2, 3, 6, padded for 4, 5, 7, 8
STEPS = 3
RTOL = 1e-12
ATOL = 1e-15
"""Float64 round-off floor for weights near zero (the weights are O(0.1))."""
FAST = settings(max_examples=25, deadline=None)
SEEDS = st.integers(0, 2**32 - 1)


def _batches(seed: int, batch: int, dtype=np.float64) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal((batch, D_IN)).astype(dtype),  # (B, d_in)
             rng.standard_normal((batch, D_OUT)).astype(dtype))  # (B, d_out)
            for _ in range(STEPS)]


def _assert_close(a: MLPParams, b: MLPParams) -> None:
    for got, want in zip(a.arrays(), b.arrays(), strict=True):
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def _identical(a: MLPParams, b: MLPParams) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.arrays(), b.arrays(), strict=True))


@FAST
@given(batch=st.integers(1, 24), dp=st.integers(1, 8), seed=SEEDS)
def test_every_stage_trains_like_plain_dp_and_like_one_device(batch, dp, seed):
    assume(batch >= dp)
    params = init_mlp(D_IN, D_HIDDEN, D_OUT, seed=seed % 5)
    batches = _batches(seed, batch)
    opt = AdamW()
    reference, reference_losses = train_single_device(params, batches, opt)
    runs = {stage: train_zero(params, batches, dp=dp, stage=stage, opt=opt) for stage in range(4)}
    for run in runs.values():
        _assert_close(run.params, runs[0].params)
        _assert_close(run.params, reference)
        np.testing.assert_allclose(run.losses, reference_losses, rtol=RTOL)
        assert not _identical(run.params, params)  # the steps did move the weights
    # stages 1-3 reduce-scatter the same padded buffer and update the same slices: bit-equal
    assert _identical(runs[1].params, runs[2].params)
    assert _identical(runs[1].params, runs[3].params)


@FAST
@given(batch=st.integers(1, 24), dp=st.integers(1, 8), stage=st.integers(0, 3), seed=SEEDS)
def test_ranks_hold_consistent_states(batch, dp, stage, seed):
    assume(batch >= dp)
    params = init_mlp(D_IN, D_HIDDEN, D_OUT)
    run = train_zero(params, _batches(seed, batch), dp=dp, stage=stage)
    final = flatten(run.params)
    if stage < 3:  # whole replicas, all equal
        assert all(np.array_equal(r.weights[:P], final) for r in run.ranks)
    else:  # the shards, in rank order, are the weights (and then the padding zeros)
        joined = np.concatenate([r.weights for r in run.ranks])
        assert np.array_equal(joined[:P], final) and not joined[P:].any()
    assert all(r.optimizer.step == STEPS for r in run.ranks)


@FAST
@given(dp=st.integers(1, 8), stage=st.integers(0, 3), seed=SEEDS)
def test_measured_bytes_equal_the_memory_model_plus_padding(dp, stage, seed):
    params = init_mlp(D_IN, D_HIDDEN, D_OUT, dtype=np.float32)
    run = train_zero(params, _batches(seed, 8 + dp, np.float32), dp=dp, stage=stage)
    model = per_gpu_states(model_states(P, precision="fp32"), Layout(dp=dp, zero=stage))
    padding = run.padding_bytes()
    shard = -(-P // dp)
    assert run.padding == (0 if stage == 0 else dp * shard - P)
    assert 0 <= run.padding < dp
    for rank in run.ranks:
        measured = rank.memory
        for name in ("weights", "grads", "master", "optimizer"):
            assert getattr(measured, name) == getattr(model, name) + getattr(padding, name)
        if run.padding == 0:
            assert measured == model
    # transient full copies: gathered weights (ZeRO-3 only) and the unreduced local gradient
    full_bytes = (P + run.padding) * 4
    assert run.gathered_weight_bytes == (full_bytes if stage == 3 else 0)
    assert run.local_grad_bytes == full_bytes


@pytest.mark.parametrize("dp", [1, 2, 3, 6])
def test_zero3_holds_exactly_a_dp_th_of_the_states(dp):
    params = init_mlp(D_IN, D_HIDDEN, D_OUT, dtype=np.float32)
    run = train_zero(params, _batches(0, 12, np.float32), dp=dp, stage=3)
    total = model_states(P, precision="fp32").total
    assert all(r.memory.total == Fraction(total, dp) for r in run.ranks)
    assert total == (4 + 4 + 8) * P


@FAST
@given(batch=st.integers(8, 24), dp=st.integers(1, 8), stage=st.integers(0, 3), seed=SEEDS)
def test_bytes_sent_per_step_equal_the_closed_form(batch, dp, stage, seed):
    params = init_mlp(D_IN, D_HIDDEN, D_OUT)
    run = train_zero(params, _batches(seed, batch), dp=dp, stage=stage)
    assert len(run.sent_bytes) == STEPS
    buffer = (P + run.padding) * 8  # gradients and weights both float64
    closed = zero_comm_bytes(buffer, dp, stage)
    for sent in run.sent_bytes:
        assert sum(sent) == dp * closed  # exact, even with uneven ring chunks
        if stage > 0 or P % dp == 0:  # the padded buffer always splits evenly
            assert set(sent) <= {closed}
    expected = {0: ("all_reduce",), 1: ("reduce_scatter", "all_gather"),
                2: ("reduce_scatter", "all_gather"),
                3: ("all_gather", "all_gather", "reduce_scatter")}
    assert run.collectives == expected[stage]


@pytest.mark.parametrize("dp", [2, 4, 5])
def test_zero1_with_all_reduce_sends_half_again_as_much_for_the_same_weights(dp):
    params = init_mlp(D_IN, D_HIDDEN, D_OUT)
    batches = _batches(1, 10)
    new = train_zero(params, batches, dp=dp, stage=1)
    old = train_zero(params, batches, dp=dp, stage=1, zero1_all_reduce=True)
    assert _identical(old.params, new.params)
    assert old.collectives == ("all_reduce", "all_gather")
    assert old.ranks[0].grads.shape == new.ranks[0].grads.shape == (P + new.padding,)
    buffer = (P + new.padding) * 8
    assert set(old.sent_bytes[0]) == {zero_comm_bytes(buffer, dp, 1, zero1_all_reduce=True)}
    assert Fraction(old.sent_bytes[0][0], new.sent_bytes[0][0]) == Fraction(3, 2)


def test_zero_comm_bytes_closed_forms():
    w = 1000
    assert zero_comm_bytes(w, 8, 0) == zero_comm_bytes(w, 8, 1) == zero_comm_bytes(w, 8, 2)
    assert zero_comm_bytes(w, 8, 0) == Fraction(2 * 7 * w, 8)
    assert zero_comm_bytes(w, 8, 3) == Fraction(3 * 7 * w, 8)
    assert zero_comm_bytes(w, 1, 3) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: zero_comm_bytes(8, 2, 4), r"stage=4 is not a ZeRO stage; allowed: \[0, 1, 2, 3\]"),
        (lambda: train_zero(init_mlp(2, 2, 2), [], dp=2, stage=-1), "stage=-1"),
        (lambda: train_zero(init_mlp(2, 2, 2), [], dp=2, stage=0), "batches is empty"),
        (lambda: zero_comm_bytes(8, 2, 2, zero1_all_reduce=True), "only to stage=1, got stage=2"),
        (lambda: train_zero(init_mlp(2, 2, 2), [(np.ones((1, 2)), np.ones((1, 2)))], dp=2,
                            stage=3), "batch=1 over dp=2 ranks leaves a rank without examples"),
    ],
)
def test_errors_name_the_value_and_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message):
        call()
