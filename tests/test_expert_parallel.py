"""Expert parallelism reproduces the single-device MoE layer; its bytes follow the routing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.parallel.collectives import ring_bytes
from distlesson.parallel.expert import (
    ep_bytes_per_layer,
    expert_parallel_moe,
    moe_layer,
    route,
    routed_bytes,
)
from distlesson.parallel.tensor import SwiGLUWeights

RTOL, ATOL = 1e-12, 1e-12  # float64 round-off: results are added in another order


def _experts(rng, num_experts, hidden, ffn):
    return [SwiGLUWeights(rng.standard_normal((hidden, ffn)), rng.standard_normal((hidden, ffn)),
                          rng.standard_normal((ffn, hidden))) for _ in range(num_experts)]


def _bytes_by_loop(routings, num_experts, ep, hidden, bytes_per_value):
    """Per rank, (copies leaving it, results going back from it), token by token."""
    owner = num_experts // ep
    sent = [0] * ep
    for i, routing in enumerate(routings):
        for expert in routing.experts.ravel():
            j = int(expert) // owner
            if j != i:
                sent[i] += hidden * bytes_per_value  # dispatch: i sends the token to j
                sent[j] += hidden * bytes_per_value  # combine: j sends the result back
    return tuple(sent)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ep=st.integers(1, 8), per_rank=st.integers(1, 3),
       data=st.data(), hidden=st.integers(1, 4), ffn=st.integers(1, 3),
       normalize=st.booleans())
def test_expert_parallel_equals_the_single_device_layer(seed, ep, per_rank, data, hidden, ffn,
                                                        normalize):
    num_experts = ep * per_rank
    top_k = data.draw(st.integers(1, num_experts), label="top_k")
    tokens = data.draw(st.lists(st.integers(0, 6), min_size=ep, max_size=ep), label="tokens")
    rng = np.random.default_rng(seed)
    x_shards = [rng.standard_normal((t, hidden)) for t in tokens]  # ep x (T_i, h)
    router = rng.standard_normal((hidden, num_experts))  # (h, E)
    experts = _experts(rng, num_experts, hidden, ffn)
    result = expert_parallel_moe(x_shards, router, experts, top_k, ep, normalize=normalize)
    for x, y in zip(x_shards, result.rank_outputs, strict=True):
        np.testing.assert_allclose(y, moe_layer(x, router, experts, top_k, normalize=normalize),
                                   rtol=RTOL, atol=ATOL)
    # bytes: exactly what the routing implies, counted two ways
    assert result.sent_bytes == routed_bytes(result.routings, num_experts, hidden, 8)
    assert result.sent_bytes == _bytes_by_loop(result.routings, num_experts, ep, hidden, 8)
    assert result.dispatch.total_sent == result.combine.total_sent
    # every token-expert assignment is processed once, by the rank holding the expert
    assert sum(result.expert_load) == sum(tokens) * top_k
    # the count exchange: E/ep int64 counts to each other rank
    assert result.counts.sent_bytes == ((ep - 1) * per_rank * 8,) * ep


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ep=st.integers(1, 6), per_rank=st.integers(1, 3),
       data=st.data(), rounds=st.integers(1, 3))
def test_evenly_spread_routing_sends_exactly_the_closed_form(seed, ep, per_rank, data, rounds):
    """Token t picks experts (t k + j) mod E: every rank's copies spread evenly over E."""
    num_experts = ep * per_rank
    top_k = data.draw(st.integers(1, num_experts), label="top_k")
    tokens = rounds * num_experts  # so that E divides T k
    hidden = num_experts  # x @ identity router = the logits we choose
    rng = np.random.default_rng(seed)
    x_shards = []
    for rank in range(ep):
        logits = np.zeros((tokens, num_experts))  # (T, E)
        for t in range(tokens):
            for j in range(top_k):
                logits[t, (t * top_k + j + rank) % num_experts] = 1.0 + top_k - j  # > 0
        x_shards.append(logits)
    experts = _experts(rng, num_experts, hidden, 2)
    result = expert_parallel_moe(x_shards, np.eye(num_experts), experts, top_k, ep)
    closed = ep_bytes_per_layer(tokens, top_k, hidden, ep, bytes_per_value=8)
    assert result.sent_bytes == (closed,) * ep
    assert result.expert_load == (tokens * top_k,) * ep
    # the closed form is the all-to-all ring form, twice, of a rank's T k h buffer
    assert closed == 2 * ring_bytes("all_to_all", tokens * top_k * hidden * 8, ep)


def test_routing_keeps_the_top_k_probabilities():
    rng = np.random.default_rng(1)
    x, router = rng.standard_normal((5, 3)), rng.standard_normal((3, 8))
    routing = route(x, router, 3)
    logits = x @ router
    probs = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    np.testing.assert_array_equal(routing.experts, np.argsort(-probs, axis=-1)[:, :3])
    np.testing.assert_allclose(routing.gates, np.sort(probs, axis=-1)[:, ::-1][:, :3],
                               rtol=RTOL)
    normalized = route(x, router, 3, normalize=True)
    np.testing.assert_allclose(normalized.gates.sum(axis=-1), 1.0, rtol=RTOL)
    # ties (a zero router: all experts equally likely) go to the lower index
    tied = route(x, np.zeros((3, 8)), 2)
    np.testing.assert_array_equal(tied.experts, np.tile([0, 1], (5, 1)))


def test_bytes_by_hand_for_a_deepseek_v3_sized_layer():
    # 4096 tokens per rank, top-8, hidden 7168, ep = 64, bf16: 2 x 4096 x 8 x 7168 x 2 x 63/64
    assert ep_bytes_per_layer(4096, 8, 7168, 64) == 924_844_032
    assert ep_bytes_per_layer(4096, 8, 7168, 1) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: expert_parallel_moe([np.zeros((2, 2))] * 3, np.zeros((2, 8)),
                                     _experts(np.random.default_rng(0), 8, 2, 1), 2, 3),
         "ep=3 must divide num_experts=8"),
        (lambda: expert_parallel_moe([np.zeros((2, 2))] * 3, np.zeros((2, 8)),
                                     _experts(np.random.default_rng(0), 8, 2, 1), 2, 2),
         "len(x_shards)=3 must equal ep=2"),
        (lambda: route(np.zeros((2, 2)), np.zeros((2, 4)), 5),
         "top_k=5 must be at most num_experts=4"),
        (lambda: route(np.zeros((2, 2)), np.zeros((2, 4)), 0), "top_k=0 must be a positive"),
        (lambda: ep_bytes_per_layer(8, 2, 4, 0), "ep=0 must be a positive integer"),
    ],
)
def test_errors_name_the_value_and_what_is_allowed(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value)
