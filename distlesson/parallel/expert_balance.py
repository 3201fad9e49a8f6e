"""Load balance of a mixture-of-experts layer: a skewed router, capacity, and bias balancing.

A router that prefers some experts overloads them. With a capacity factor c each expert
takes at most ``floor(c x T k / E)`` of the T k token-expert assignments of a step (GShard,
Lepikhin et al. 2021; Switch Transformer, Fedus et al. 2022): the rest are dropped (they
skip the layer through the residual connection). Without a capacity, nothing is dropped,
but the step waits for the busiest expert-parallel rank. DeepSeek-V3 (DeepSeek-AI 2024,
section 2.1.2) balances without an auxiliary loss: a bias b_e per expert is added to the
affinity for the top-k choice only (the gate still uses the affinity), and after each step
b_e falls by gamma if expert e was overloaded and rises by gamma if underloaded.

The simulated router (assumptions): token t's logit for expert e is mu_e + g_te, with g
standard Gumbel noise, so that a top-1 choice picks e with probability softmax(mu)_e; mu_e
= -skew x log(r_e) for a random rank r_e in 1..E of the expert's popularity, Zipf's law for
the top-1 choice. The affinity is DeepSeek-V3's sigmoid of the logit. The router does not
learn: its preferences stay fixed while the bias adapts (a stationary router). Experts are
placed contiguously, expert e on rank e // (E/ep). Numpy, seeded: every run is the same.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from distlesson.checks import check_finite_positive, check_positive_int

__all__ = ["DEEPSEEK_V3_GAMMA", "BalanceHistory", "SkewedRouter", "balance_loss", "bias_balancing",
           "capacity", "dropped_fraction", "expert_load", "rank_imbalance", "rank_load",
           "select"]


DEEPSEEK_V3_GAMMA = 0.001
"""DeepSeek-V3's bias update speed: 0.001 for the first 14.3T training tokens, then 0
(report section 4.2)."""


@dataclass(frozen=True)
class SkewedRouter:
    """A stationary router whose experts are unequally popular (see the module docstring)."""

    num_experts: int = 256
    """E: routed experts of the layer (DeepSeek-V3's 256)."""
    top_k: int = 8
    """k: experts per token (DeepSeek-V3's 8)."""
    tokens: int = 1024
    """T: tokens routed per step (a small batch: the simulation runs at every build)."""
    skew: float = 1.0
    """Zipf exponent of the top-1 popularity: 0 is uniform, 1 Zipf's law."""
    seed: int = 0
    """Seed of the popularity order and of every step's tokens."""

    def __post_init__(self) -> None:
        check_positive_int("num_experts", self.num_experts)
        check_positive_int("top_k", self.top_k)
        check_positive_int("tokens", self.tokens)
        if self.top_k > self.num_experts:
            raise ValueError(f"top_k={self.top_k} must be at most "
                             f"num_experts={self.num_experts}")
        if not (math.isfinite(self.skew) and self.skew >= 0):
            raise ValueError(f"skew={self.skew!r} must be a finite number >= 0")

    @functools.cached_property
    def popularity(self) -> np.ndarray:
        """(E,) the top-1 choice's probabilities, softmax(mu): Zipf over a random order."""
        ranks = np.random.default_rng(self.seed).permutation(self.num_experts) + 1  # (E,)
        weights = ranks.astype(float) ** -self.skew
        return weights / weights.sum()

    def affinities(self, step: int) -> np.ndarray:
        """(T, E) sigmoid affinities of step ``step``'s tokens (fresh tokens each step)."""
        rng = np.random.default_rng([self.seed, step])
        uniform = rng.random((self.tokens, self.num_experts), dtype=np.float32)  # (T, E)
        gumbel = -np.log(-np.log(uniform + np.float32(1e-12)))  # (T, E)
        return 1.0 / (1.0 + np.exp(-(self._log_popularity + gumbel)))

    @functools.cached_property
    def _log_popularity(self) -> np.ndarray:
        return np.log(self.popularity).astype(np.float32)  # (E,) mu


def select(scores: np.ndarray, bias: np.ndarray | None, top_k: int) -> np.ndarray:
    """(T, k) the experts each token is sent to: the top k of ``scores + bias`` (the bias
    only chooses; DeepSeek-V3's gate values still come from the unbiased affinity)."""
    biased = scores if bias is None else scores + bias  # (T, E)
    return np.argpartition(-biased, top_k - 1, axis=-1)[:, :top_k]


def expert_load(experts: np.ndarray, num_experts: int) -> np.ndarray:
    """(E,) token-expert assignments per expert."""
    return np.bincount(experts.ravel(), minlength=num_experts)


def capacity(capacity_factor: float, tokens: int, top_k: int, num_experts: int) -> int:
    """Slots per expert: floor(c x T k / E), the even share scaled by the capacity factor."""
    check_finite_positive("capacity_factor", capacity_factor)
    return math.floor(capacity_factor * tokens * top_k / num_experts)


def dropped_fraction(load: np.ndarray, capacity_factor: float, top_k: int) -> float:
    """Share of the T k assignments beyond their expert's capacity: sum max(0, load - C)
    / (T k). A dropped assignment skips that expert; the token keeps its others."""
    assignments = int(load.sum())
    cap = capacity(capacity_factor, assignments // top_k, top_k, len(load))
    return float(np.maximum(load - cap, 0).sum()) / assignments


def rank_load(load: np.ndarray, ep: int) -> np.ndarray:
    """(ep,) assignments per expert-parallel rank, experts placed contiguously."""
    check_positive_int("ep", ep)
    if len(load) % ep:
        raise ValueError(f"ep={ep} must divide num_experts={len(load)}")
    return load.reshape(ep, -1).sum(axis=1)


def rank_imbalance(load: np.ndarray, ep: int) -> float:
    """The busiest rank's assignments over the mean: how much longer the expert compute of
    the step takes than with perfect balance (the step waits for the busiest rank)."""
    ranks = rank_load(load, ep)
    return float(ranks.max() / ranks.mean())


def balance_loss(scores: np.ndarray, experts: np.ndarray) -> float:
    """The auxiliary balance loss over its weight alpha: sum_i f_i P_i, with f_i = E/(k T)
    x (tokens sent to i) and P_i the mean over tokens of i's normalised affinity
    (DeepSeek-V3's complementary sequence-wise loss, equation 17 ff.; the Switch
    Transformer's with softmax probabilities). 1 when both are uniform; larger when the
    popular experts also get the load."""
    tokens, top_k = experts.shape
    num_experts = scores.shape[1]
    f = expert_load(experts, num_experts) * num_experts / (top_k * tokens)  # (E,)
    p = (scores / scores.sum(axis=1, keepdims=True)).mean(axis=0)  # (E,)
    return float(f @ p)


@dataclass(frozen=True, eq=False)
class BalanceHistory:
    """Step by step, what the bias balancing does to the load."""

    loads: np.ndarray
    """(steps, E) assignments per expert at each step, before that step's bias update."""
    biases: np.ndarray
    """(steps, E) the bias used at each step."""
    balance_losses: np.ndarray
    """(steps,) :func:`balance_loss` of each step's routing."""

    def expert_imbalance(self) -> np.ndarray:
        """(steps,) the busiest expert's load over the mean."""
        return self.loads.max(axis=1) / self.loads.mean(axis=1)

    def rank_imbalance(self, ep: int) -> np.ndarray:
        """(steps,) the busiest rank's load over the mean (:func:`rank_imbalance`)."""
        return np.array([rank_imbalance(load, ep) for load in self.loads])

    def dropped(self, capacity_factor: float, top_k: int) -> np.ndarray:
        """(steps,) :func:`dropped_fraction` at each step."""
        return np.array([dropped_fraction(load, capacity_factor, top_k)
                         for load in self.loads])


def bias_balancing(router: SkewedRouter, steps: int, gamma: float) -> BalanceHistory:
    """DeepSeek-V3's auxiliary-loss-free balancing on ``router`` for ``steps`` steps.

    Each step: choose the top k of affinity + bias; count each expert's load; then
    b_e -= gamma if load_e > mean, b_e += gamma if load_e < mean (b_e += gamma x
    sign(mean - load_e)). Step 0 has no bias: it is the router alone.
    """
    check_positive_int("steps", steps)
    check_finite_positive("gamma", gamma)
    bias = np.zeros(router.num_experts, dtype=np.float32)  # (E,)
    loads, biases, losses = [], [], []
    for step in range(steps):
        scores = router.affinities(step)  # (T, E)
        experts = select(scores, bias, router.top_k)  # (T, k)
        load = expert_load(experts, router.num_experts)  # (E,)
        loads.append(load)
        biases.append(bias.copy())
        losses.append(balance_loss(scores, experts))
        bias += np.float32(gamma) * np.sign(load.mean() - load).astype(np.float32)
    return BalanceHistory(np.array(loads), np.array(biases), np.array(losses))
