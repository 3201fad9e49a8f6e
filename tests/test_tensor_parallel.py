"""Tensor parallelism reproduces the single-device layers; its all-reduces match the counts."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.parallel.collectives import ring_bytes
from distlesson.parallel.tensor import (
    AllReduceCount,
    AttentionWeights,
    Communication,
    SwiGLUWeights,
    attention_layer,
    block_allreduce_count,
    column_parallel_linear,
    megatron_attention,
    megatron_block,
    megatron_mlp,
    megatron_mlp_backward,
    row_parallel_linear,
    swiglu_mlp,
    swiglu_mlp_backward,
    tp_bytes_per_layer,
    transformer_block,
)

RTOL, ATOL = 1e-12, 1e-12  # float64 round-off: the ring adds partial sums in another order
seeds = st.integers(0, 2**32 - 1)
tps = st.integers(1, 8)


def _close(actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=ATOL)


def _mlp(rng, hidden, ffn):
    return SwiGLUWeights(rng.standard_normal((hidden, ffn)), rng.standard_normal((hidden, ffn)),
                         rng.standard_normal((ffn, hidden)))


def _attention(rng, hidden, num_heads, num_kv_heads, head_dim):
    def w(*shape):
        return rng.standard_normal(shape) / np.sqrt(shape[0])

    return AttentionWeights(w(hidden, num_heads * head_dim), w(hidden, num_kv_heads * head_dim),
                            w(hidden, num_kv_heads * head_dim), w(num_heads * head_dim, hidden),
                            num_heads, num_kv_heads)


def _check_all_reduce_bytes(comm, buffer_bytes, tp, count):
    """Each all-reduce of the pass sends what the ring closed form says, per rank."""
    assert comm.all_reduces == count
    per_rank = count * ring_bytes("all_reduce", buffer_bytes, tp)
    assert sum(comm.sent_bytes) == tp * per_rank  # exact for any chunking
    if (buffer_bytes // 8) % tp == 0:
        assert comm.sent_bytes == (per_rank,) * tp


@settings(max_examples=80, deadline=None)
@given(seed=seeds, tp=tps, tokens=st.integers(1, 5), d_in=st.integers(1, 6),
       per_rank=st.integers(1, 3))
def test_column_then_row_parallel_linear_equal_the_matmul(seed, tp, tokens, d_in, per_rank):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((tokens, d_in))  # (N, in)
    w = rng.standard_normal((d_in, tp * per_rank))  # (in, out)
    column = column_parallel_linear(x, w, tp)
    _close(np.concatenate(column.rank_outputs, axis=-1), x @ w)
    assert column.comm == Communication(0, (0,) * tp, backward_all_reduces=1)
    # the column outputs are exactly the row-parallel layer's split input
    w2 = rng.standard_normal((tp * per_rank, d_in))  # (out, in)
    row = row_parallel_linear(column.rank_outputs, w2, tp)
    for out in row.rank_outputs:
        _close(out, x @ w @ w2)
    _check_all_reduce_bytes(row.comm, tokens * d_in * 8, tp, count=1)
    assert row.comm.backward_all_reduces == 0


@settings(max_examples=80, deadline=None)
@given(seed=seeds, tp=tps, tokens=st.integers(1, 6), hidden=st.integers(1, 6),
       per_rank=st.integers(1, 3))
def test_megatron_mlp_equals_the_single_device_mlp(seed, tp, tokens, hidden, per_rank):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((tokens, hidden))  # (N, h)
    weights = _mlp(rng, hidden, tp * per_rank)
    result = megatron_mlp(x, weights, tp)
    for out in result.rank_outputs:
        _close(out, swiglu_mlp(x, weights))
    _check_all_reduce_bytes(result.comm, x.nbytes, tp, count=1)  # one g
    assert result.comm.backward_all_reduces == 1  # one f


@settings(max_examples=15, deadline=None)
@given(seed=seeds, tokens=st.integers(1, 3), hidden=st.integers(1, 3), ffn=st.integers(1, 3))
def test_swiglu_backward_equals_central_differences(seed, tokens, hidden, ffn):
    rng = np.random.default_rng(seed)
    x, weights = rng.standard_normal((tokens, hidden)), _mlp(rng, hidden, ffn)
    dy = rng.standard_normal((tokens, hidden))  # (N, h): the loss is sum(dy * y)
    grads = swiglu_mlp_backward(x, weights, dy)
    eps = 1e-6

    def numeric(array, rebuild):
        out = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            plus, minus = array.copy(), array.copy()
            plus[index] += eps
            minus[index] -= eps
            out[index] = (np.sum(dy * rebuild(plus)) - np.sum(dy * rebuild(minus))) / (2 * eps)
        return out

    np.testing.assert_allclose(grads.x, numeric(x, lambda a: swiglu_mlp(a, weights)),
                               rtol=1e-6, atol=1e-7)
    for name in ("gate", "up", "down"):
        parts = {n: getattr(weights, n) for n in ("gate", "up", "down")}

        def rebuild(a, name=name, parts=parts):
            return swiglu_mlp(x, SwiGLUWeights(**{**parts, name: a}))

        np.testing.assert_allclose(getattr(grads.weights, name),
                                   numeric(getattr(weights, name), rebuild),
                                   rtol=1e-6, atol=1e-7)


@settings(max_examples=80, deadline=None)
@given(seed=seeds, tp=tps, tokens=st.integers(1, 6), hidden=st.integers(1, 6),
       per_rank=st.integers(1, 3))
def test_megatron_mlp_backward_equals_the_single_device_backward(seed, tp, tokens, hidden,
                                                                 per_rank):
    rng = np.random.default_rng(seed)
    x, weights = rng.standard_normal((tokens, hidden)), _mlp(rng, hidden, tp * per_rank)
    dy = rng.standard_normal((tokens, hidden))  # (N, h)
    reference = swiglu_mlp_backward(x, weights, dy)
    result = megatron_mlp_backward(x, weights, dy, tp)
    for grad_x in result.grad_input:
        _close(grad_x, reference.x)
    for name, axis in (("gate", 1), ("up", 1), ("down", 0)):
        _close(np.concatenate([getattr(g, name) for g in result.weight_grads], axis=axis),
               getattr(reference.weights, name))
    # the f operator's backward: one real all-reduce, as the forward promised
    assert result.comm.all_reduces == megatron_mlp(x, weights, tp).comm.backward_all_reduces
    _check_all_reduce_bytes(result.comm, x.nbytes, tp, count=1)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, tp=tps, kv_per_rank=st.integers(1, 2), group=st.integers(1, 2),
       head_dim=st.integers(1, 3), seq_len=st.integers(1, 5), hidden=st.integers(1, 6))
def test_megatron_attention_and_block_equal_single_device(seed, tp, kv_per_rank, group,
                                                          head_dim, seq_len, hidden):
    rng = np.random.default_rng(seed)
    num_kv_heads = tp * kv_per_rank
    attention = _attention(rng, hidden, num_kv_heads * group, num_kv_heads, head_dim)
    x = rng.standard_normal((seq_len, hidden))  # (S, h)
    attn = megatron_attention(x, attention, tp)
    for out in attn.rank_outputs:
        _close(out, attention_layer(x, attention))
    _check_all_reduce_bytes(attn.comm, x.nbytes, tp, count=1)
    mlp = _mlp(rng, hidden, tp * 2)
    block = megatron_block(x, attention, mlp, tp)
    for out in block.rank_outputs:
        _close(out, transformer_block(x, attention, mlp))
    _check_all_reduce_bytes(block.comm, x.nbytes, tp, count=2)
    assert block.comm.backward_all_reduces == 2


@pytest.mark.parametrize("tp", [1, 2, 3, 4, 8])
def test_four_all_reduces_per_layer(tp):
    count = block_allreduce_count(tp)
    assert count == AllReduceCount(forward=2, backward=2)
    assert count.per_layer == 4  # Shoeybi et al. 2019, figure 4


@settings(max_examples=40, deadline=None)
@given(seed=seeds, tp=tps, seq_len=st.integers(1, 4), head_dim=st.integers(1, 2))
def test_bytes_per_layer_equal_the_simulated_passes(seed, tp, seq_len, head_dim):
    rng = np.random.default_rng(seed)
    hidden = tp * head_dim  # one head per rank
    attention = _attention(rng, hidden, tp, tp, head_dim)
    mlp, x = _mlp(rng, hidden, tp), rng.standard_normal((seq_len, hidden))
    forward = megatron_block(x, attention, mlp, tp).comm
    mlp_backward = megatron_mlp_backward(x, mlp, rng.standard_normal(x.shape), tp).comm
    # the attention's backward all-reduce (not simulated) moves a gradient of the same
    # (S, h) shape as the MLP's, so it costs what the simulated MLP backward cost
    simulated = [f + 2 * b for f, b in zip(forward.sent_bytes, mlp_backward.sent_bytes,
                                            strict=True)]
    assert simulated == [tp_bytes_per_layer(seq_len, 1, hidden, tp, bytes_per_value=8)] * tp


def test_bytes_per_layer_by_hand():
    # 8 (tp - 1)/tp s b h x 2 bytes: s = 4096, b = 1, h = 8192, tp = 8
    assert tp_bytes_per_layer(4096, 1, 8192, 8) == 7 * 4096 * 8192 * 2
    assert tp_bytes_per_layer(4096, 2, 8192, 1) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: megatron_mlp(np.zeros((2, 4)), _mlp(np.random.default_rng(0), 4, 8), 3),
         "tp=3 must divide ffn_hidden_size=8"),
        (lambda: megatron_attention(np.zeros((2, 4)),
                                    _attention(np.random.default_rng(0), 4, 4, 2, 1), 4),
         "tp=4 must divide num_kv_heads=2"),
        (lambda: megatron_attention(np.zeros((2, 4)),
                                    _attention(np.random.default_rng(0), 4, 6, 6, 1), 4),
         "tp=4 must divide num_heads=6"),
        (lambda: column_parallel_linear(np.zeros((2, 3)), np.zeros((3, 5)), 2),
         "tp=2 must divide out_features=5"),
        (lambda: row_parallel_linear([np.zeros((2, 2))] * 3, np.zeros((4, 5)), 2),
         "len(x_shards)=3 must equal tp=2"),
        (lambda: row_parallel_linear([np.zeros((2, 3))] * 2, np.zeros((4, 5)), 2),
         "x_shards[0] has last dimension 3; allowed: in_features / tp = 2"),
        (lambda: column_parallel_linear(np.zeros((2, 3)), np.zeros((3, 4)), 0),
         "tp=0 must be a positive integer"),
        (lambda: SwiGLUWeights(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3))),
         "allowed (h, f), (h, f), (f, h)"),
        (lambda: AttentionWeights(np.zeros((4, 6)), np.zeros((4, 4)), np.zeros((4, 4)),
                                  np.zeros((6, 4)), 3, 1), "do not fit num_heads=3"),
        (lambda: tp_bytes_per_layer(8, 1, 12, 5), "tp=5 must divide hidden_size=12"),
        (lambda: tp_bytes_per_layer(0, 1, 12, 2), "seq_len=0 must be a positive integer"),
    ],
)
def test_errors_name_the_value_and_what_is_allowed(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value)
