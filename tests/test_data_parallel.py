"""The toy model's hand-written backward, and data parallelism against the full batch."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from distlesson.parallel.collectives import ring_bytes
from distlesson.parallel.data import data_parallel_grads, local_grad_sum, split_batch
from distlesson.parallel.toy_mlp import (
    AdamW,
    AdamWState,
    MLPParams,
    adamw_step,
    flatten,
    init_mlp,
    loss_and_grads,
    unflatten,
)

D_IN, D_HIDDEN, D_OUT = 5, 7, 3
P = D_IN * D_HIDDEN + D_HIDDEN + D_HIDDEN * D_OUT + D_OUT  # 66 parameters
RTOL = 1e-12
ATOL = 1e-15
"""Float64 round-off floor for gradient entries that cancel to ~0 (the entries are O(0.1))."""
FAST = settings(max_examples=40, deadline=None)


def _batch(seed: int, batch: int, dtype=np.float64) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, D_IN)).astype(dtype)  # (B, d_in)
    y = rng.standard_normal((batch, D_OUT)).astype(dtype)  # (B, d_out)
    return x, y


def _assert_close(a: MLPParams, b: MLPParams) -> None:
    for got, want in zip(a.arrays(), b.arrays(), strict=True):
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def test_backward_matches_central_finite_differences():
    params = init_mlp(D_IN, D_HIDDEN, D_OUT, seed=3)
    x, y = _batch(4, 6)
    _, grads = loss_and_grads(params, x, y)
    flat, analytic = flatten(params), flatten(grads)
    h = 1e-6
    numeric = np.empty(P)
    for i in range(P):
        step = np.zeros(P)
        step[i] = h
        up, _ = loss_and_grads(unflatten(flat + step, params), x, y)
        down, _ = loss_and_grads(unflatten(flat - step, params), x, y)
        numeric[i] = (up - down) / (2 * h)
    # central differences: truncation O(h^2) ~ 1e-12, cancellation ~ 1e-16 / h ~ 1e-10
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_flatten_round_trips_and_keeps_the_order():
    params = init_mlp(D_IN, D_HIDDEN, D_OUT)
    flat = flatten(params)
    assert flat.shape == (P,) == (params.num_params,)
    assert np.array_equal(flat[: D_IN * D_HIDDEN], params.w1.ravel())
    back = unflatten(flat, params)
    assert all(np.array_equal(a, b) for a, b in zip(back.arrays(), params.arrays(), strict=True))
    with pytest.raises(ValueError, match=r"shape \(65,\) does not fit a model of 66"):
        unflatten(flat[:-1], params)


@FAST
@given(batch=st.integers(1, 40), dp=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_data_parallel_gradient_is_the_full_batch_gradient(batch, dp, seed):
    assume(batch >= dp)
    params = init_mlp(D_IN, D_HIDDEN, D_OUT, seed=seed % 7)
    x, y = _batch(seed, batch)
    loss, reference = loss_and_grads(params, x, y)
    result = data_parallel_grads(params, x, y, dp=dp)
    _assert_close(result.grads, reference)
    assert result.loss == pytest.approx(loss, rel=1e-12)
    assert result.replicas_agree
    assert result.all_reduces == 1
    buffer = P * 8
    assert sum(result.sent_bytes) == dp * ring_bytes("all_reduce", buffer, dp)
    if P % dp == 0:
        assert set(result.sent_bytes) == {ring_bytes("all_reduce", buffer, dp)}


@FAST
@given(batch=st.integers(1, 40), dp=st.integers(1, 4), k=st.integers(1, 4),
       seed=st.integers(0, 2**32 - 1))
def test_accumulation_gives_the_same_gradient_with_k_times_fewer_all_reduces(batch, dp, k, seed):
    assume(batch >= dp * k)
    params = init_mlp(D_IN, D_HIDDEN, D_OUT, seed=1)
    x, y = _batch(seed, batch)
    _, reference = loss_and_grads(params, x, y)
    accumulated = data_parallel_grads(params, x, y, dp=dp, num_microbatches=k)
    naive = data_parallel_grads(params, x, y, dp=dp, num_microbatches=k,
                                sync_every_microbatch=True)
    _assert_close(accumulated.grads, reference)
    _assert_close(naive.grads, reference)
    assert (accumulated.all_reduces, naive.all_reduces) == (1, k)
    assert naive.sent_bytes == tuple(k * s for s in accumulated.sent_bytes)


def test_uneven_split_needs_weighting_by_shard_size():
    params = init_mlp(D_IN, D_HIDDEN, D_OUT)
    x, y = _batch(0, 5)  # dp=2: shards of 3 and 2 examples
    _, reference = loss_and_grads(params, x, y)
    shards = split_batch(5, 2)
    assert [s.stop - s.start for s in shards] == [3, 2]
    means = [flatten(loss_and_grads(params, x[s], y[s])[1]) for s in shards]
    unweighted = (means[0] + means[1]) / 2  # what averaging over ranks would give
    assert not np.allclose(unweighted, flatten(reference), rtol=1e-3)
    weighted = sum(local_grad_sum(params, x[s], y[s])[0] for s in shards) / 5
    np.testing.assert_allclose(weighted, flatten(reference), rtol=RTOL, atol=ATOL)
    _assert_close(data_parallel_grads(params, x, y, dp=2).grads, reference)


def test_float32_stays_float32():
    params = init_mlp(D_IN, D_HIDDEN, D_OUT, dtype=np.float32)
    x, y = _batch(0, 8, np.float32)
    result = data_parallel_grads(params, x, y, dp=3)
    assert all(a.dtype == np.float32 for a in result.grads.arrays())
    assert sum(result.sent_bytes) == 2 * (3 - 1) * P * 4


def test_adamw_keeps_zero_padding_at_zero_and_matches_per_tensor_updates():
    opt = AdamW()
    w, g = np.array([0.5, -1.0, 0.0]), np.array([0.1, 0.2, 0.0])
    state = AdamWState.zeros_like(w)
    new, state = adamw_step(opt, w, g, state)
    assert new[2] == 0.0 and state.step == 1
    halves = [adamw_step(opt, w[s], g[s], AdamWState.zeros_like(w[s]))[0]
              for s in (slice(0, 1), slice(1, 3))]
    assert np.array_equal(np.concatenate(halves), new)  # elementwise: shards update alike


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: split_batch(3, 4), "batch=3 over dp=4 ranks leaves a rank without examples"),
        (lambda: split_batch(3, 0), "dp=0 must be a positive integer"),
        (lambda: data_parallel_grads(init_mlp(2, 2, 2), np.ones((5, 2)), np.ones((5, 2)),
                                     dp=2, num_microbatches=3), "batch=5 cannot give"),
        (lambda: loss_and_grads(init_mlp(2, 2, 2), np.ones((3, 2)), np.ones((2, 2))),
         "x has 3 examples and y has 2"),
        (lambda: AdamW(lr=0), "lr=0 must be > 0"),
        (lambda: AdamW(beta2=1.0), r"beta2=1.0 must be in \[0, 1\)"),
        (lambda: init_mlp(0, 2, 2), "d_in=0 must be a positive integer"),
    ],
)
def test_errors_name_the_value_and_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message):
        call()
