"""Ring attention equals causal attention; its bytes and per-rank work equal the closed forms."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.parallel.context import (
    causal_attention,
    causal_work_per_rank,
    ring_attention,
    ring_attention_bytes,
    sequence_chunks,
)

RTOL = ATOL = 1e-12  # float64 round-off: the blockwise sum adds in another order


def _qkv(seed, num_heads, num_kv_heads, seq_len, head_dim, scale=1.0):
    rng = np.random.default_rng(seed)
    q = scale * rng.standard_normal((num_heads, seq_len, head_dim))  # (H, S, D)
    k = rng.standard_normal((num_kv_heads, seq_len, head_dim))  # (Hkv, S, D)
    v = rng.standard_normal((num_kv_heads, seq_len, head_dim))  # (Hkv, S, D)
    return q, k, v


def _loop_attention(q, k, v):
    """Causal attention one query at a time, in plain Python loops: the reference's oracle."""
    num_heads, seq_len, head_dim = q.shape
    group = num_heads // k.shape[0]
    out = np.zeros_like(q)
    for h in range(num_heads):
        for i in range(seq_len):
            scores = [float(q[h, i] @ k[h // group, j]) / math.sqrt(head_dim)
                      for j in range(i + 1)]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            out[h, i] = sum(w * v[h // group, j] for j, w in enumerate(weights)) / sum(weights)
    return out


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kv=st.integers(1, 2), group=st.integers(1, 2),
       seq_len=st.integers(1, 9), head_dim=st.integers(1, 4))
def test_reference_equals_a_loop_over_queries(seed, kv, group, seq_len, head_dim):
    q, k, v = _qkv(seed, kv * group, kv, seq_len, head_dim)
    np.testing.assert_allclose(causal_attention(q, k, v), _loop_attention(q, k, v),
                               rtol=RTOL, atol=ATOL)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cp=st.integers(1, 8), per_chunk=st.integers(1, 3),
       kv=st.integers(1, 2), group=st.integers(1, 3), head_dim=st.integers(1, 5),
       layout=st.sampled_from(["contiguous", "zigzag"]))
def test_ring_attention_equals_causal_attention(seed, cp, per_chunk, kv, group, head_dim,
                                                layout):
    chunks_per_rank = 2 if layout == "zigzag" else 1
    seq_len = cp * chunks_per_rank * per_chunk
    q, k, v = _qkv(seed, kv * group, kv, seq_len, head_dim)
    result = ring_attention(q, k, v, cp, layout=layout)
    np.testing.assert_allclose(result.output, causal_attention(q, k, v), rtol=RTOL, atol=ATOL)
    # communication: every rank sends and receives cp - 1 K/V blocks, as the closed form says
    closed = ring_attention_bytes(seq_len, kv, head_dim, cp, bytes_per_value=8)  # float64
    assert result.sent_bytes == result.received_bytes == (closed,) * cp
    assert result.steps == cp - 1
    # work: the blocks computed on each rank, as the closed form says
    assert result.score_entries == causal_work_per_rank(seq_len, cp, layout)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cp=st.integers(2, 6))
def test_online_softmax_is_stable_for_large_scores(seed, cp):
    q, k, v = _qkv(seed, 2, 1, 4 * cp, 3, scale=300.0)  # scores in the thousands: exp overflows
    result = ring_attention(q, k, v, cp, layout="zigzag")
    assert np.all(np.isfinite(result.output))
    np.testing.assert_allclose(result.output, causal_attention(q, k, v), rtol=1e-10, atol=1e-10)


def test_rank_outputs_are_the_rows_of_their_queries():
    q, k, v = _qkv(0, 2, 2, 12, 3)
    result = ring_attention(q, k, v, 3, layout="zigzag")
    reference = causal_attention(q, k, v)
    for rank, held in enumerate(sequence_chunks(12, 3, "zigzag")):
        rows = [p for chunk in held for p in chunk]
        np.testing.assert_allclose(result.rank_outputs[rank], reference[:, rows],
                                   rtol=RTOL, atol=ATOL)


@given(cp=st.integers(1, 16), per_chunk=st.integers(1, 8))
def test_zigzag_evens_out_the_work_the_contiguous_split_skews(cp, per_chunk):
    seq_len = 2 * cp * per_chunk
    contiguous = causal_work_per_rank(seq_len, cp, "contiguous")
    zigzag = causal_work_per_rank(seq_len, cp, "zigzag")
    assert len(set(zigzag)) == 1
    assert contiguous == tuple(sorted(contiguous))  # the last rank works most
    assert Fraction(max(contiguous) * cp, sum(contiguous)) == Fraction(2 * cp, cp + 1)
    assert max(contiguous) == cp * min(contiguous)
    # both compute every causal pair at least once (diagonal blocks are computed whole)
    assert sum(zigzag) >= seq_len * (seq_len + 1) // 2
    assert sum(contiguous) >= seq_len * (seq_len + 1) // 2


def test_sequence_chunks_cover_the_sequence_once():
    for layout in ("contiguous", "zigzag"):
        positions = [p for rank in sequence_chunks(24, 4, layout) for c in rank for p in c]
        assert sorted(positions) == list(range(24))
    assert sequence_chunks(8, 2, "zigzag") == ((range(0, 2), range(6, 8)),
                                               (range(2, 4), range(4, 6)))


def test_bytes_by_hand_for_a_long_llama3_sequence():
    # 128K tokens, 8 kv heads of 128, cp = 16, bf16: 2 x 15 x 8192 x 8 x 128 x 2 bytes
    assert ring_attention_bytes(131_072, 8, 128, 16) == 503_316_480
    assert ring_attention_bytes(1000, 8, 128, 1) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: sequence_chunks(10, 3), "cp=3 must divide seq_len=10"),
        (lambda: sequence_chunks(10, 2, "zigzag"), "2 x cp=4 must divide seq_len=10"),
        (lambda: sequence_chunks(8, 2, "striped"), "layout='striped'; allowed: contiguous"),
        (lambda: sequence_chunks(8, 0), "cp=0 must be a positive integer"),
        (lambda: ring_attention_bytes(8, 1, 4, 2, bytes_per_value=0),
         "bytes_per_value=0 must be a positive integer"),
        (lambda: ring_attention(*_qkv(0, 3, 2, 4, 2), 2), "num_kv_heads=2 must divide num_heads=3"),
        (lambda: causal_attention(np.zeros((1, 4, 2)), np.zeros((1, 5, 2)), np.zeros((1, 5, 2))),
         "must equal q's"),
        (lambda: ring_attention(*_qkv(0, 2, 2, 6, 2), 4), "cp=4 must divide seq_len=6"),
    ],
)
def test_errors_name_the_value_and_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
