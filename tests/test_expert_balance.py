"""Load balance of an MoE layer: the skewed router's statistics, capacity and drops by hand,
and DeepSeek-V3's bias balancing bringing the busiest rank towards the mean."""

import numpy as np
import pytest

from distlesson.parallel.expert_balance import (
    SkewedRouter,
    balance_loss,
    bias_balancing,
    capacity,
    dropped_fraction,
    expert_load,
    rank_imbalance,
    rank_load,
    select,
)


def test_capacity_and_drops_by_hand():
    # 4096 tokens x top-8 over 256 experts: 128 each on average; c = 1.25 gives 160 slots
    assert capacity(1.25, 4096, 8, 256) == 160 and capacity(1.0, 4096, 8, 256) == 128
    # 8 tokens, top-1, 4 experts: capacity 2 at c = 1; loads 6, 2, 0, 0 drop 4 of 8
    load = np.array([6, 2, 0, 0])
    assert dropped_fraction(load, 1.0, 1) == 0.5
    assert dropped_fraction(load, 2.0, 1) == 0.25  # 4 slots: 2 dropped
    assert dropped_fraction(load, 3.0, 1) == 0.0  # 6 slots


def test_rank_load_places_experts_contiguously():
    load = np.array([5, 1, 2, 2, 0, 2])
    assert rank_load(load, 3).tolist() == [6, 4, 2]
    assert rank_imbalance(load, 3) == 6 / 4  # busiest 6 over the mean 4
    assert rank_imbalance(load, 1) == 1.0
    with pytest.raises(ValueError, match="ep=4 must divide num_experts=6"):
        rank_load(load, 4)


def test_top1_choices_follow_zipf():
    # Gumbel-max: the top-1 choice picks e with probability softmax(mu)_e, Zipf's 1/r
    router = SkewedRouter(num_experts=8, top_k=1, tokens=40_000, skew=1.0, seed=3)
    ranks = 1 / router.popularity  # proportional to the popularity ranks 1..8
    assert sorted(np.round(ranks / ranks.min()).astype(int).tolist()) == list(range(1, 9))
    shares = expert_load(select(router.affinities(0), None, 1), 8) / 40_000
    np.testing.assert_allclose(shares, router.popularity, atol=0.01)  # ~5 sigma at 40k


def test_a_uniform_router_is_balanced_up_to_noise():
    router = SkewedRouter(skew=0.0)
    load = expert_load(select(router.affinities(0), None, 8), 256)
    assert load.sum() == 1024 * 8
    # 128 assignments per rank on average, about 11 of noise: the busiest under 1.3 x mean
    assert rank_imbalance(load, 64) < 1.3


def test_balance_loss_is_one_when_balanced():
    scores = np.ones((4, 4))
    experts = np.array([[0], [1], [2], [3]])  # one token per expert, top-1
    assert balance_loss(scores, experts) == pytest.approx(1.0)
    skewed = np.array([[0], [0], [0], [0]])
    # f = (4, 0, 0, 0), P = 1/4 each: sum f P = 1 still: the loss needs P to follow f
    assert balance_loss(scores, skewed) == pytest.approx(1.0)
    peaked = np.array([[1.0, 0, 0, 0]] * 4)
    assert balance_loss(peaked, skewed) == pytest.approx(4.0)  # f_0 = 4, P_0 = 1


def test_bias_balancing_evens_the_load():
    router = SkewedRouter(tokens=512)
    history = bias_balancing(router, 400, 0.001)
    ranks = history.rank_imbalance(64)
    assert ranks[0] > 3  # Zipf-skewed router: the busiest rank several times the mean
    assert ranks[-50:].mean() < 0.5 * ranks[0]
    assert history.dropped(1.0, 8)[-50:].mean() < 0.5 * history.dropped(1.0, 8)[0]
    assert (history.biases[0] == 0).all()
    # the popular experts were pushed down, the unpopular ones up
    top, bottom = np.argmax(router.popularity), np.argmin(router.popularity)
    assert history.biases[-1][top] < 0 < history.biases[-1][bottom]
    # each step moves every bias by gamma at most (float32 biases: to its round-off)
    assert np.abs(np.diff(history.biases, axis=0)).max() == pytest.approx(0.001, rel=1e-5)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: SkewedRouter(top_k=9, num_experts=8), "top_k=9 must be at most num_experts=8"),
    (lambda: SkewedRouter(skew=-1.0), "skew=-1.0 must be a finite number >= 0"),
    (lambda: capacity(0.0, 8, 1, 4), "capacity_factor"),
    (lambda: bias_balancing(SkewedRouter(), 0, 0.1), "steps=0"),
])
def test_errors_name_the_value(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()
