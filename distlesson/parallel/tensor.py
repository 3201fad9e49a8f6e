"""Tensor parallelism (Megatron-LM): each weight matrix split over tp ranks.

Source: Shoeybi et al. 2019, "Megatron-LM", section 3 and figures 3-4. A column-parallel
linear splits W (in, out) by output columns: rank r computes x W_r, its slice of the
output, without communicating. A row-parallel linear splits W by input rows and takes x
split along its last dimension: rank r computes x_r W_r, a partial sum, and an all-reduce
adds them. Column then row needs nothing in between: the activation (elementwise) and
attention (per head) act on each rank's slice alone. Megatron's conjugate operators: f is
the identity forward and an all-reduce of the input gradient backward; g is an all-reduce
forward and the identity backward. A sublayer is f -> column -> local -> row -> g: one
all-reduce forward, one backward; a block (attention + MLP) has 2 + 2.

The MLP is SwiGLU (Shazeer 2020), that of Llama 3 and DeepSeek-V3: gate and up are both
column-parallel with the same split, so their elementwise product stays local (GELU splits
the same way, but exact GELU needs erf, which numpy lacks).

Simulation: float64 numpy per rank; all-reduces run through
:func:`~distlesson.parallel.collectives.ring_all_reduce`, which counts the bytes each rank sends.
A shard of the weights is itself a smaller MLP or attention layer, so a rank's partial
output is the single-device function applied to its shard. Omitted: layer norms (each
rank computes them on the whole activation) and sequence parallelism (Korthikanti et al.
2022: each all-reduce becomes a reduce-scatter and an all-gather, same bytes).
Shapes: activations (tokens, hidden_size); attention takes one sequence (seq_len, hidden_size).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np

from distlesson.checks import check_positive_int, check_positive_ints
from distlesson.parallel.collectives import ring_all_reduce, ring_bytes
from distlesson.parallel.context import causal_attention
from distlesson.parallel.swiglu import SwiGLUGrads, SwiGLUWeights, swiglu_mlp, swiglu_mlp_backward

__all__ = [
    "AllReduceCount",
    "AttentionWeights",
    "Communication",
    "SwiGLUGrads",
    "SwiGLUWeights",
    "TPBackward",
    "TPResult",
    "attention_layer",
    "block_allreduce_count",
    "column_parallel_linear",
    "megatron_attention",
    "megatron_block",
    "megatron_mlp",
    "megatron_mlp_backward",
    "row_parallel_linear",
    "swiglu_mlp",
    "swiglu_mlp_backward",
    "tp_bytes_per_layer",
    "transformer_block",
]


def _check_divides(tp: int, dim_name: str, dim: int) -> None:
    check_positive_int("tp", tp)
    if dim % tp:
        raise ValueError(f"tp={tp} must divide {dim_name}={dim}")


@dataclass(frozen=True)
class Communication:
    """The all-reduces a simulated pass ran over the tp ranks, and what they cost."""

    all_reduces: int
    """All-reduces run in this pass (the g operators in a forward, the f in a backward)."""
    sent_bytes: tuple[int, ...]
    """Per rank, bytes sent in those all-reduces (``nbytes`` of the simulated pieces)."""
    backward_all_reduces: int = 0
    """f operators crossed in a forward: each all-reduces an input gradient in the backward."""

    def __add__(self, other: Communication) -> Communication:
        return Communication(
            self.all_reduces + other.all_reduces,
            tuple(a + b for a, b in zip(self.sent_bytes, other.sent_bytes, strict=True)),
            self.backward_all_reduces + other.backward_all_reduces)


@dataclass(frozen=True, eq=False)
class TPResult:
    """Per-rank outputs of a tensor-parallel forward, and its communication."""

    rank_outputs: tuple[np.ndarray, ...]
    """Rank r's output: its column slice (column-parallel) or the whole sum (all-reduced)."""
    comm: Communication


def _all_reduce(partials: Sequence[np.ndarray], *, f_operators: int) -> TPResult:
    """A g operator: all-reduce the partial outputs of a row-parallel linear."""
    reduced = ring_all_reduce(partials)
    return TPResult(reduced.outputs, Communication(1, reduced.sent_bytes, f_operators))


def column_parallel_linear(x: np.ndarray, w: np.ndarray, tp: int) -> TPResult:
    """x W with W (in, out) split by output columns: rank r returns x W_r, (..., out/tp).

    Concatenated in rank order the outputs equal x W. No forward communication; the
    input gradient needs one all-reduce in the backward (the f operator in front).
    """
    _check_divides(tp, "out_features", w.shape[1])
    outputs = tuple(x @ w_r for w_r in np.split(w, tp, axis=1))  # tp x (..., out/tp)
    return TPResult(outputs, Communication(0, (0,) * tp, backward_all_reduces=1))


def row_parallel_linear(x_shards: Sequence[np.ndarray], w: np.ndarray, tp: int) -> TPResult:
    """x W with W (in, out) split by input rows and x split by its last dimension.

    Rank r computes x_r W_r, (..., out); an all-reduce sums them, so every rank ends with
    x W. ``x_shards[r]`` is (..., in/tp).
    """
    _check_divides(tp, "in_features", w.shape[0])
    if len(x_shards) != tp:
        raise ValueError(f"len(x_shards)={len(x_shards)} must equal tp={tp}")
    w_shards = np.split(w, tp, axis=0)  # tp x (in/tp, out)
    for r, (x_r, w_r) in enumerate(zip(x_shards, w_shards, strict=True)):
        if x_r.shape[-1] != w_r.shape[0]:
            raise ValueError(f"x_shards[{r}] has last dimension {x_r.shape[-1]}; allowed: "
                             f"in_features / tp = {w_r.shape[0]}")
    return _all_reduce([x_r @ w_r for x_r, w_r in zip(x_shards, w_shards, strict=True)],
                       f_operators=0)


Shard = TypeVar("Shard", "SwiGLUWeights", "AttentionWeights")


def _sublayer(function: Callable[[np.ndarray, Shard], np.ndarray],
              inputs: Sequence[np.ndarray], shards: Sequence[Shard]) -> TPResult:
    """f -> column -> local -> row -> g: rank r applies ``function`` to its own input copy
    and its shard (a partial sum), then one all-reduce; one f owed to the backward."""
    return _all_reduce([function(x_r, s) for x_r, s in zip(inputs, shards, strict=True)],
                       f_operators=1)


def megatron_mlp(x: np.ndarray, weights: SwiGLUWeights, tp: int) -> TPResult:
    """The tensor-parallel SwiGLU MLP: one all-reduce; every rank ends with the output."""
    return _sublayer(swiglu_mlp, [x] * tp, weights.shard(tp))


@dataclass(frozen=True, eq=False)
class TPBackward:
    """Per-rank gradients of a tensor-parallel backward, and its communication."""

    grad_input: tuple[np.ndarray, ...]
    """Per rank, the gradient of the input after the f operator's all-reduce: (N, h)."""
    weight_grads: tuple[SwiGLUWeights, ...]
    """Per rank, the gradients of its own shard of the weights."""
    comm: Communication


def megatron_mlp_backward(x: np.ndarray, weights: SwiGLUWeights, grad_output: np.ndarray,
                          tp: int) -> TPBackward:
    """The backward of :func:`megatron_mlp`: g passes ``grad_output`` to every rank as is;
    each rank differentiates its shard; f all-reduces the partial input gradients."""
    grads = [swiglu_mlp_backward(x, s, grad_output) for s in weights.shard(tp)]
    reduced = ring_all_reduce([g.x for g in grads])  # tp x (N, h) partial sums
    return TPBackward(reduced.outputs, tuple(g.weights for g in grads),
                      Communication(1, reduced.sent_bytes))


@dataclass(frozen=True, eq=False)
class AttentionWeights:
    """Causal self-attention weights (no biases); heads are contiguous column blocks."""

    q: np.ndarray
    """(hidden_size, num_heads x head_dim)."""
    k: np.ndarray
    """(hidden_size, num_kv_heads x head_dim)."""
    v: np.ndarray
    """(hidden_size, num_kv_heads x head_dim)."""
    o: np.ndarray
    """(num_heads x head_dim, hidden_size)."""
    num_heads: int
    num_kv_heads: int
    """Equal to num_heads for multi-head attention, fewer for grouped-query attention."""

    def __post_init__(self) -> None:
        width, kv_width = self.q.shape[1], self.k.shape[1]
        if (width % self.num_heads or kv_width * self.num_heads != width * self.num_kv_heads
                or self.v.shape != self.k.shape or self.o.shape != self.q.shape[::-1]
                or self.k.shape[0] != self.q.shape[0]):
            raise ValueError(f"q {self.q.shape}, k {self.k.shape}, v {self.v.shape}, o "
                             f"{self.o.shape} do not fit num_heads={self.num_heads} and "
                             f"num_kv_heads={self.num_kv_heads}")

    def shard(self, tp: int) -> tuple[AttentionWeights, ...]:
        """Rank r's heads: its q, k, v columns and the matching rows of o."""
        _check_divides(tp, "num_heads", self.num_heads)
        _check_divides(tp, "num_kv_heads", self.num_kv_heads)
        q, k, v = (np.split(w, tp, axis=1) for w in (self.q, self.k, self.v))
        o = np.split(self.o, tp, axis=0)
        return tuple(AttentionWeights(q[r], k[r], v[r], o[r], self.num_heads // tp,
                                      self.num_kv_heads // tp) for r in range(tp))


def attention_layer(x: np.ndarray, weights: AttentionWeights) -> np.ndarray:
    """Single-device causal self-attention of one sequence x (seq_len, hidden_size)."""
    seq_len, head_dim = x.shape[0], weights.q.shape[1] // weights.num_heads

    def heads(w: np.ndarray) -> np.ndarray:
        return (x @ w).reshape(seq_len, -1, head_dim).transpose(1, 0, 2)  # (heads, S, D)

    context = causal_attention(heads(weights.q), heads(weights.k), heads(weights.v))
    return context.transpose(1, 0, 2).reshape(seq_len, -1) @ weights.o  # (S, hidden)


def megatron_attention(x: np.ndarray, weights: AttentionWeights, tp: int) -> TPResult:
    """Tensor-parallel attention: heads split over ranks, one all-reduce after o."""
    return _sublayer(attention_layer, [x] * tp, weights.shard(tp))


def transformer_block(x: np.ndarray, attention: AttentionWeights,
                      mlp: SwiGLUWeights) -> np.ndarray:
    """Single-device block without norms: h = x + attention(x); h + mlp(h). (S, hidden)."""
    h = x + attention_layer(x, attention)  # (S, hidden)
    return h + swiglu_mlp(h, mlp)


def megatron_block(x: np.ndarray, attention: AttentionWeights, mlp: SwiGLUWeights,
                   tp: int) -> TPResult:
    """Tensor-parallel :func:`transformer_block`: each rank adds the residual to its own
    copy of the attention output and feeds that copy to its MLP shard."""
    attn = _sublayer(attention_layer, [x] * tp, attention.shard(tp))
    h = [x + a_r for a_r in attn.rank_outputs]  # tp x (S, hidden), equal copies
    out = _sublayer(swiglu_mlp, h, mlp.shard(tp))
    return TPResult(tuple(h_r + o_r for h_r, o_r in zip(h, out.rank_outputs, strict=True)),
                    attn.comm + out.comm)


@dataclass(frozen=True)
class AllReduceCount:
    """All-reduces of one transformer block under tensor parallelism, per step."""

    forward: int
    """The g operators: after attention's output projection and after the MLP's down."""
    backward: int
    """The f operators: the input gradients of the QKV projection and of the MLP's up/gate."""

    @property
    def per_layer(self) -> int:
        return self.forward + self.backward


@functools.cache
def block_allreduce_count(tp: int = 2) -> AllReduceCount:
    """Counted by running :func:`megatron_block` on a tiny block over tp ranks: forward =
    all-reduces it ran; backward = f operators it crossed (the simulated MLP backward
    shows each f costs one all-reduce). Shoeybi et al. 2019, figure 4: 4 per layer."""
    rng = np.random.default_rng(0)
    square = [rng.standard_normal((2 * tp, 2 * tp)) for _ in range(4)]  # 4 x (h, h)
    attention = AttentionWeights(*square, num_heads=tp, num_kv_heads=tp)  # head_dim 2
    mlp = SwiGLUWeights(square[0][:, :tp], square[1][:, :tp], square[2][:tp])  # f = tp
    comm = megatron_block(square[3][:3], attention, mlp, tp).comm  # x (3, h)
    return AllReduceCount(comm.all_reduces, comm.backward_all_reduces)


def tp_bytes_per_layer(seq_len: int, micro_batch: int, hidden_size: int, tp: int,
                       bytes_per_value: int = 2) -> Fraction:
    """Bytes each GPU sends for tensor parallelism, per transformer layer per step.

    Equation: 4 all-reduces (:func:`block_allreduce_count`) of an activation (or its
    gradient) of s b h values, each sending 2 (tp - 1)/tp of the buffer per rank (ring
    all-reduce, :func:`~distlesson.parallel.collectives.ring_bytes`): 8 (tp - 1)/tp s b h
    bytes_per_value.
    Sources: Shoeybi et al. 2019, figure 4; Korthikanti et al. 2022, section 4.2.2.
    Assumptions: forward and backward, no recomputation (which repeats the forward's 2),
    no sequence parallelism (same bytes), bf16 activations (bytes_per_value = 2).
    Units: bytes, a Fraction.
    """
    check_positive_ints(seq_len=seq_len, micro_batch=micro_batch, hidden_size=hidden_size,
                        bytes_per_value=bytes_per_value)
    _check_divides(tp, "hidden_size", hidden_size)  # also checks tp is a positive integer
    buffer = seq_len * micro_batch * hidden_size * bytes_per_value
    return block_allreduce_count().per_layer * ring_bytes("all_reduce", buffer, tp)
