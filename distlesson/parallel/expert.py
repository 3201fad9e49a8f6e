"""Expert parallelism: a mixture-of-experts layer's experts spread over ep ranks.

A router scores each token against the E experts, keeps the top k, and the layer's output
is the gate-weighted sum of those experts' MLPs (Shazeer et al. 2017; GShard, Lepikhin et
al. 2021; Switch Transformer, Fedus et al. 2022, top-1; DeepSeek-V3, DeepSeek-AI 2024,
top-8 of 256 routed experts). Under expert parallelism each of the ep ranks holds E/ep
experts and its own T tokens. A first all-to-all (dispatch) sends each token to the ranks
that hold its experts, one copy per chosen expert; each rank runs its experts on what it
received; a second all-to-all (combine) sends the results back, and the token's own rank
adds them with the gate weights. The sizes of the pieces depend on the routing, so the
ranks first exchange how many tokens each sends to each expert (a third, small
all-to-all of counts, as in Megatron-LM's all-to-all token dispatcher).

Assumptions: dropless routing (no capacity factor, no token dropped); a token choosing
two experts on one rank is sent twice (no deduplication, unlike DeepSeek-V3's node-limited
dispatch); experts are placed contiguously, expert e on rank e // (E/ep); experts are
SwiGLU MLPs (:func:`~distlesson.parallel.tensor.swiglu_mlp`). Forward only.
Shapes: each rank's tokens are (T, hidden_size); the router is (hidden_size, E).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from distlesson.checks import check_positive_int
from distlesson.parallel.collectives import CollectiveResult, all_to_all
from distlesson.parallel.tensor import SwiGLUWeights, swiglu_mlp

__all__ = [
    "EPResult",
    "Routing",
    "ep_bytes_per_layer",
    "expert_parallel_moe",
    "moe_layer",
    "route",
    "routed_bytes",
]


@dataclass(frozen=True, eq=False)
class Routing:
    """The router's choice for each token: which experts, with which gate weights."""

    experts: np.ndarray
    """(T, top_k) expert indices, highest probability first (ties: lower index first)."""
    gates: np.ndarray
    """(T, top_k) gate weights: the softmax probabilities of the chosen experts."""


def route(x: np.ndarray, router: np.ndarray, top_k: int, *,
          normalize: bool = False) -> Routing:
    """Top-k softmax routing: p = softmax(x W_router); keep the k largest p per token.

    Gates are the kept probabilities (GShard, Switch); ``normalize=True`` rescales them to
    sum to 1 per token (Mixtral; DeepSeek-V3 normalizes its sigmoid affinities likewise).
    Deterministic: ties go to the lower expert index.
    """
    num_experts = router.shape[1]
    check_positive_int("top_k", top_k)
    if top_k > num_experts:
        raise ValueError(f"top_k={top_k} must be at most num_experts={num_experts}")
    logits = x @ router  # (T, E)
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))  # (T, E)
    probs /= probs.sum(axis=-1, keepdims=True)
    experts = np.argsort(-probs, axis=-1, kind="stable")[:, :top_k]  # (T, k)
    gates = np.take_along_axis(probs, experts, axis=-1)  # (T, k)
    if normalize:
        gates = gates / gates.sum(axis=-1, keepdims=True)
    return Routing(experts, gates)


def moe_layer(x: np.ndarray, router: np.ndarray, experts: Sequence[SwiGLUWeights],
              top_k: int, *, normalize: bool = False) -> np.ndarray:
    """Single-device MoE layer, the reference: y_t = sum_j g_tj MLP_{e_tj}(x_t). (T, h)."""
    routing = route(x, router, top_k, normalize=normalize)
    y = np.zeros_like(x)  # (T, h)
    for e, weights in enumerate(experts):
        tokens, slot = np.nonzero(routing.experts == e)  # each token picks e at most once
        y[tokens] += routing.gates[tokens, slot][:, None] * swiglu_mlp(x[tokens], weights)
    return y


@dataclass(frozen=True, eq=False)
class EPResult:
    """What a simulated expert-parallel MoE forward leaves on each rank, and what it cost."""

    rank_outputs: tuple[np.ndarray, ...]
    """Per rank, the layer's output for its own tokens: (T, hidden_size)."""
    routings: tuple[Routing, ...]
    """Per rank, the routing of its own tokens."""
    dispatch: CollectiveResult
    """The all-to-all that sends token copies to their experts' ranks."""
    combine: CollectiveResult
    """The all-to-all that sends the experts' outputs back."""
    counts: CollectiveResult
    """The small all-to-all of per-expert token counts (int64) that sizes the other two."""
    expert_load: tuple[int, ...]
    """Per rank, token-expert assignments its experts processed (the compute balance)."""

    @property
    def sent_bytes(self) -> tuple[int, ...]:
        """Per rank, bytes of activations sent: dispatch + combine (counts excluded)."""
        return tuple(a + b for a, b in zip(self.dispatch.sent_bytes, self.combine.sent_bytes,
                                           strict=True))


def _check_ep(num_experts: int, ep: int) -> int:
    """Experts per rank; ValueError unless ep divides num_experts."""
    check_positive_int("ep", ep)
    if num_experts % ep:
        raise ValueError(f"ep={ep} must divide num_experts={num_experts}")
    return num_experts // ep


def expert_parallel_moe(x_shards: Sequence[np.ndarray], router: np.ndarray,
                        experts: Sequence[SwiGLUWeights], top_k: int, ep: int, *,
                        normalize: bool = False) -> EPResult:
    """The MoE layer over ep simulated ranks: route, dispatch, experts, combine.

    Rank i holds ``x_shards[i]`` (T_i, h) and experts [i E/ep, (i + 1) E/ep). Each rank
    sorts its token copies by expert (then token), sends to rank j the copies for j's
    experts, and keeps the order to put the returned results back. Equals
    :func:`moe_layer` on each rank's tokens to round-off.
    """
    per_rank = _check_ep(len(experts), ep)
    if len(x_shards) != ep:
        raise ValueError(f"len(x_shards)={len(x_shards)} must equal ep={ep}")
    routings = tuple(route(x, router, top_k, normalize=normalize) for x in x_shards)
    plans, send, counts = [], [], []
    for x, routing in zip(x_shards, routings, strict=True):
        flat_experts = routing.experts.ravel()  # (T k,)
        flat_tokens = np.repeat(np.arange(x.shape[0]), top_k)  # (T k,)
        order = np.lexsort((flat_tokens, flat_experts))  # by expert, then token
        expert, token = flat_experts[order], flat_tokens[order]  # (T k,), (T k,)
        gate = routing.gates.ravel()[order]  # (T k,)
        dest = expert // per_rank  # (T k,) the rank holding each copy's expert
        plans.append([(token[dest == j], gate[dest == j]) for j in range(ep)])
        send.append([x[token[dest == j]] for j in range(ep)])  # ep x (n_ij, h)
        counts.append([np.bincount(expert[dest == j] - j * per_rank, minlength=per_rank)
                       for j in range(ep)])  # ep x (E/ep,)
    dispatch, count_exchange = all_to_all(send), all_to_all(counts)
    returned, load = [], []
    for j in range(ep):  # rank j runs its experts on what each rank i sent it
        row = []
        for rows, sizes in zip(dispatch.outputs[j], count_exchange.outputs[j], strict=True):
            bounds = np.cumsum(sizes)[:-1]
            row.append(np.concatenate(  # (n_ij, h)
                [swiglu_mlp(part, experts[j * per_rank + e])
                 for e, part in enumerate(np.split(rows, bounds))], axis=0))
        returned.append(row)
        load.append(sum(len(rows) for rows in dispatch.outputs[j]))
    combine = all_to_all(returned)  # returned[j][i]: from rank j back to rank i
    outputs = []
    for i, x in enumerate(x_shards):
        y = np.zeros_like(x)  # (T, h)
        for (token, gate), results in zip(plans[i], combine.outputs[i], strict=True):
            np.add.at(y, token, gate[:, None] * results)  # a token may return several times
        outputs.append(y)
    return EPResult(tuple(outputs), routings, dispatch, combine, count_exchange, tuple(load))


def routed_bytes(routings: Sequence[Routing], num_experts: int, hidden_size: int,
                 bytes_per_value: int = 2) -> tuple[int, ...]:
    """Per rank, the bytes a routing makes it send: dispatch + combine.

    Equation: rank i sends (copies of its tokens routed to other ranks' experts + copies
    of other ranks' tokens routed to its experts) x hidden_size x bytes_per_value, with
    the experts placed contiguously over ep = len(routings) ranks. Units: bytes.
    """
    ep = len(routings)
    per_rank = _check_ep(num_experts, ep)
    leaving = [np.bincount((r.experts.ravel() // per_rank), minlength=ep) for r in routings]
    totals = []
    for i in range(ep):
        dispatched = sum(int(leaving[i][j]) for j in range(ep) if j != i)
        returned = sum(int(leaving[j][i]) for j in range(ep) if j != i)
        totals.append((dispatched + returned) * hidden_size * bytes_per_value)
    return tuple(totals)


def ep_bytes_per_layer(tokens: int, top_k: int, hidden_size: int, ep: int,
                       bytes_per_value: int = 2) -> Fraction:
    """Expected bytes each rank sends in one MoE layer's forward, under uniform routing.

    Equation: 2 (dispatch and combine) x T x k x hidden_size x bytes_per_value x
    (ep - 1)/ep: each of the T k token-expert assignments of a rank picks an expert on
    another rank with probability (ep - 1)/ep, and by symmetry a rank returns as many
    results as it dispatches. Exact, not just expected, when every rank's assignments
    spread evenly over the experts. Sources: the dispatch and combine all-to-alls of
    GShard (Lepikhin et al. 2021); the all-to-all closed form of
    :func:`~distlesson.parallel.collectives.ring_bytes` ("all_to_all"). Assumptions: T tokens on
    every rank, dropless, no deduplication, activations in bf16 (bytes_per_value = 2); the
    backward sends as much again. Units: bytes, a Fraction.
    """
    for name, value in (("tokens", tokens), ("top_k", top_k), ("hidden_size", hidden_size),
                        ("ep", ep), ("bytes_per_value", bytes_per_value)):
        check_positive_int(name, value)
    return 2 * tokens * top_k * hidden_size * bytes_per_value * Fraction(ep - 1, ep)
