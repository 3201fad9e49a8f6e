"""The parallelism chapter's simulations, as tables: each closed form next to the run it sums.

Every row runs a numpy simulation of the library on small arrays (ranks are Python lists,
bytes are ``nbytes`` of what was sent) and sets it beside the closed form the chapter uses
at scale. Runs are cached: the three languages of a page share them.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.pages.parallelism_labels import SIM_LABELS
from distlesson.parallel.collectives import (
    all_to_all,
    ring_all_gather,
    ring_all_reduce,
    ring_bytes,
    ring_reduce_scatter,
)
from distlesson.parallel.context import (
    causal_attention,
    causal_work_per_rank,
    ring_attention,
    ring_attention_bytes,
)
from distlesson.parallel.data import data_parallel_grads
from distlesson.parallel.expert import (
    ep_bytes_per_layer,
    expert_parallel_moe,
    moe_layer,
    routed_bytes,
)
from distlesson.parallel.tensor import (
    SwiGLUWeights,
    megatron_mlp,
    megatron_mlp_backward,
    swiglu_mlp,
)
from distlesson.parallel.toy_mlp import flatten, init_mlp, loss_and_grads
from distlesson.parallel.zero import train_zero, zero_comm_bytes
from distlesson.render.figure import Figure
from distlesson.render.numbers import format_number, format_quantity, format_scientific
from distlesson.render.tables import Table, group_header, markdown_table

__all__ = ["accumulation_table", "collectives_table", "cp_table", "dp_table", "ep_table",
           "figures", "tp_table", "zero_sim_table"]

# Sizes of the simulated runs: small enough to run at every build, large enough to split.
RANKS = 4
BUFFER_VALUES = 4096  # float32 values in the collectives' buffer (16 KiB)
MLP_SHAPE = (8, 16, 4)  # in, hidden, out of the toy MLP: 212 parameters, divisible by 4
BATCH = 64  # examples per step (the Persian lesson's demo batch)
DP_DEGREES = (1, 2, 3, 4, 8)  # 3 splits the batch unevenly
MICRO_STEPS = (1, 2, 4, 8)
ZERO_STEPS = 3
TP_DEGREES = (1, 2, 4, 8)
TP_SHAPE = (6, 64, 128)  # tokens, hidden, ffn
CP_DEGREES = (1, 2, 4, 8)
CP_SHAPE = (4, 64, 8)  # heads, sequence, head_dim
EP_DEGREES = (1, 2, 4, 8)
EP_SHAPE = (32, 16, 32, 8, 2)  # tokens per rank, hidden, expert ffn, experts, top-k


def _t(key: str, locale: str) -> str:
    return SIM_LABELS[key][locale]


def _bytes(value: float | Fraction, locale: str) -> str:
    return format_quantity(float(value), "B", locale)


def _difference(value: float, locale: str) -> str:
    return format_number(0, locale) if value == 0 else format_scientific(value, locale)


def _relative(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def _rng() -> np.random.Generator:
    return np.random.default_rng(2024)


@functools.cache
def _collective_runs() -> tuple[tuple[str, int, Fraction, int], ...]:
    """(kind, simulated bytes rank 0 sent, closed form, buffer bytes) per collective."""
    rng = _rng()
    buffers = [rng.standard_normal(BUFFER_VALUES).astype(np.float32) for _ in range(RANKS)]
    size = buffers[0].nbytes
    shards = np.split(buffers[0], RANKS)
    pieces = [np.split(b, RANKS) for b in buffers]
    runs = (("all_reduce", ring_all_reduce(buffers)), ("reduce_scatter",
            ring_reduce_scatter(buffers)), ("all_gather", ring_all_gather(shards)),
            ("all_to_all", all_to_all(pieces)))
    gathered = size  # all-gather's buffer is the gathered whole, as in ring_bytes
    return tuple((kind, result.sent_bytes[0],
                  ring_bytes(kind, gathered if kind == "all_gather" else size, RANKS), size)
                 for kind, result in runs)


def collectives_table(locale: str) -> str:
    """The four collectives on a simulated ring: bytes sent against the closed form."""
    rows = tuple((_t(kind, locale), _t(f"ends_{kind}", locale), _bytes(sent, locale),
                  _bytes(formula, locale),
                  format_number(float(Fraction(sent, size)), locale, digits=2))
                 for kind, sent, formula, size in _collective_runs())
    headers = (_t("collective", locale), _t("ends_with", locale), _t("sent_sim", locale),
               _t("sent_formula", locale), _t("of_buffer", locale))
    return markdown_table(Table(headers, rows, (False, False, True, True, True)), locale)


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = _rng()
    return (rng.standard_normal((BATCH, MLP_SHAPE[0])),  # (B, in)
            rng.standard_normal((BATCH, MLP_SHAPE[2])))  # (B, out)


@functools.cache
def _dp_runs() -> tuple[tuple[int, float, int, int], ...]:
    params = init_mlp(*MLP_SHAPE, seed=1)
    x, y = _data()
    _, full = loss_and_grads(params, x, y)
    rows = []
    for dp in DP_DEGREES:
        result = data_parallel_grads(params, x, y, dp=dp)
        rows.append((dp, _relative(flatten(result.grads), flatten(full)), result.all_reduces,
                     result.sent_bytes[0]))
    return tuple(rows)


def dp_table(locale: str) -> str:
    """Data parallelism on the toy MLP: the averaged gradient against the full batch."""
    rows = tuple((format_number(dp, locale), _difference(diff, locale),
                  format_number(count, locale), _bytes(sent, locale))
                 for dp, diff, count, sent in _dp_runs())
    headers = (_t("ranks", locale), _t("max_error", locale), _t("all_reduces", locale),
               _t("sent_rank", locale))
    return markdown_table(Table(headers, rows, (True, True, True, True)), locale)


@functools.cache
def _accumulation_runs() -> tuple[tuple[int, tuple[int, int], tuple[int, int], float], ...]:
    params = init_mlp(*MLP_SHAPE, seed=1)
    x, y = _data()
    rows = []
    for k in MICRO_STEPS:
        naive = data_parallel_grads(params, x, y, dp=RANKS, num_microbatches=k,
                                    sync_every_microbatch=True)
        lean = data_parallel_grads(params, x, y, dp=RANKS, num_microbatches=k)
        rows.append((k, (naive.all_reduces, naive.sent_bytes[0]),
                     (lean.all_reduces, lean.sent_bytes[0]),
                     _relative(flatten(lean.grads), flatten(naive.grads))))
    return tuple(rows)


def _grouped(group: str, label: str, locale: str) -> str:
    # Catalan names the column, then qualifies it: «All-reduces (un per micropas)».
    return f"{label} ({group})" if locale == "ca" else group_header(group, label, locale)


def accumulation_table(locale: str) -> str:
    """Gradient accumulation: the same gradient with k times fewer all-reduces."""
    rows = tuple((format_number(k, locale), format_number(naive[0], locale),
                  _bytes(naive[1], locale), format_number(lean[0], locale),
                  _bytes(lean[1], locale), _difference(diff, locale))
                 for k, naive, lean, diff in _accumulation_runs())
    every, once = _t("every_micro", locale), _t("accumulated", locale)
    headers = (_t("micro_steps", locale),
               *(_grouped(group, _t(label, locale), locale)
                 for group in (every, once) for label in ("all_reduces", "sent_rank")),
               _t("same_gradient", locale))
    return markdown_table(Table(headers, rows, (True,) * 6), locale)


def _batches(dtype: type) -> list[tuple[np.ndarray, np.ndarray]]:
    x, y = _data()
    return [(x.astype(dtype), y.astype(dtype))] * ZERO_STEPS


@functools.cache
def _zero_runs() -> tuple[tuple[int, tuple[int, int, int], Fraction, int, Fraction, float], ...]:
    """Per stage: measured bytes (w, g, opt), memory model, sent per step, closed form, diff."""
    rows = []
    plain = train_zero(init_mlp(*MLP_SHAPE, seed=1), _batches(np.float64), dp=RANKS, stage=0)
    for stage in range(4):
        run = train_zero(init_mlp(*MLP_SHAPE, seed=1, dtype=np.float32), _batches(np.float32),
                         dp=RANKS, stage=stage)
        exact = train_zero(init_mlp(*MLP_SHAPE, seed=1), _batches(np.float64), dp=RANKS,
                           stage=stage)
        memory = run.ranks[0].memory
        model = per_gpu_states(model_states(run.num_params, precision="fp32"),
                               Layout(dp=RANKS, zero=stage))
        weight_bytes = run.num_params * 4 + run.padding * 4
        rows.append((stage, (memory.weights, memory.grads, memory.optimizer),
                     Fraction(model.total), run.sent_bytes[0][0],
                     zero_comm_bytes(weight_bytes, RANKS, stage),
                     _relative(flatten(exact.params), flatten(plain.params))))
    return tuple(rows)


def zero_sim_table(locale: str) -> str:
    """ZeRO stages 0-3 trained on the toy MLP: bytes measured per rank, and the result."""
    rows = tuple((
        f"ZeRO-{stage}", *(_bytes(b, locale) for b in measured),
        _bytes(model, locale), _bytes(sent, locale), _bytes(formula, locale),
        _difference(diff, locale),
    ) for stage, measured, model, sent, formula, diff in _zero_runs())
    headers = (_t("stage", locale), _t("weights_rank", locale), _t("grads_rank", locale),
               _t("optimizer_rank", locale), _t("model_says", locale), _t("sent_step", locale),
               _t("sent_formula", locale), _t("vs_dp", locale))
    return markdown_table(Table(headers, rows, (False,) + (True,) * 7), locale)


@functools.cache
def _tp_runs() -> tuple[tuple[int, float, int, int], ...]:
    tokens, hidden, ffn = TP_SHAPE
    rng = _rng()
    weights = SwiGLUWeights(rng.standard_normal((hidden, ffn)) / 8,
                            rng.standard_normal((hidden, ffn)) / 8,
                            rng.standard_normal((ffn, hidden)) / 8)
    x = rng.standard_normal((tokens, hidden))  # (N, h)
    grad_out = rng.standard_normal((tokens, hidden))  # (N, h)
    reference = swiglu_mlp(x, weights)
    rows = []
    for tp in TP_DEGREES:
        forward = megatron_mlp(x, weights, tp)
        backward = megatron_mlp_backward(x, weights, grad_out, tp)
        rows.append((tp, _relative(forward.rank_outputs[0], reference),
                     forward.comm.all_reduces, backward.comm.all_reduces))
    return tuple(rows)


def tp_table(locale: str) -> str:
    """The Megatron MLP over tp simulated ranks: exact, one all-reduce each way."""
    rows = tuple((format_number(tp, locale), _difference(diff, locale),
                  format_number(fwd, locale), format_number(bwd, locale))
                 for tp, diff, fwd, bwd in _tp_runs())
    headers = (_t("tp_degree", locale), _t("max_error", locale), _t("fwd_ar", locale),
               _t("bwd_ar", locale))
    return markdown_table(Table(headers, rows, (True, True, True, True)), locale)


@functools.cache
def _cp_runs() -> tuple[tuple[int, float, int, Fraction, float, float], ...]:
    heads, seq, dim = CP_SHAPE
    rng = _rng()
    q, k, v = (rng.standard_normal(CP_SHAPE) for _ in range(3))  # (H, S, D) each
    reference = causal_attention(q, k, v)
    rows = []
    for cp in CP_DEGREES:
        result = ring_attention(q, k, v, cp)
        balance = [max(w) / (sum(w) / len(w))
                   for w in (causal_work_per_rank(seq, cp, layout)
                             for layout in ("contiguous", "zigzag"))]
        rows.append((cp, _relative(result.output, reference), result.sent_bytes[0],
                     ring_attention_bytes(seq, heads, dim, cp, bytes_per_value=8), *balance))
    return tuple(rows)


def cp_table(locale: str) -> str:
    """Ring attention over cp simulated ranks: exact, its bytes, and its load balance."""
    rows = tuple((format_number(cp, locale), _difference(diff, locale), _bytes(sent, locale),
                  _bytes(formula, locale), format_number(contiguous, locale, digits=2),
                  format_number(zigzag, locale, digits=2))
                 for cp, diff, sent, formula, contiguous, zigzag in _cp_runs())
    sep = "، " if locale == "fa" else ": "  # Persian: «نسبت بار …، تقسیم پیوسته»
    headers = (_t("cp_degree", locale), _t("max_error", locale), _t("sent_sim", locale),
               _t("sent_formula", locale),
               f"{_t('busiest', locale)}{sep}{_t('contiguous', locale)}",
               f"{_t('busiest', locale)}{sep}{_t('zigzag', locale)}")
    return markdown_table(Table(headers, rows, (True,) * 6), locale)


@functools.cache
def _ep_runs() -> tuple[tuple[int, float, float, float, Fraction], ...]:
    tokens, hidden, ffn, num_experts, top_k = EP_SHAPE
    rng = _rng()
    router = rng.standard_normal((hidden, num_experts))  # (h, E)
    experts = [SwiGLUWeights(*(rng.standard_normal(shape) / 4 for shape in
                               ((hidden, ffn), (hidden, ffn), (ffn, hidden))))
               for _ in range(num_experts)]
    x = rng.standard_normal((max(EP_DEGREES) * tokens, hidden))  # (ranks x T, h)
    reference = moe_layer(x, router, experts, top_k)
    rows = []
    for ep in EP_DEGREES:
        shards = np.split(x[: ep * tokens], ep)  # ep x (T, h)
        result = expert_parallel_moe(shards, router, experts, top_k, ep)
        output = np.concatenate(result.rank_outputs)
        routed = routed_bytes(result.routings, num_experts, hidden, bytes_per_value=8)
        rows.append((ep, _relative(output, reference[: ep * tokens]),
                     float(np.mean(result.sent_bytes)), float(np.mean(routed)),
                     ep_bytes_per_layer(tokens, top_k, hidden, ep, bytes_per_value=8)))
    return tuple(rows)


def ep_table(locale: str) -> str:
    """A mixture-of-experts layer over ep simulated ranks: exact, and its all-to-all bytes."""
    rows = tuple((format_number(ep, locale), _difference(diff, locale), _bytes(sent, locale),
                  _bytes(routed, locale), _bytes(uniform, locale))
                 for ep, diff, sent, routed, uniform in _ep_runs())
    headers = (_t("ep_degree", locale), _t("max_error", locale), _t("a2a_sim", locale),
               _t("a2a_routing", locale), _t("a2a_uniform", locale))
    return markdown_table(Table(headers, rows, (True,) * 5), locale)


FA_WIDTH = 8192  # the Persian lesson's square weight matrix
FA_TP = 4  # split four ways


def figures() -> list[Figure]:
    """The numbers the chapter's prose quotes about its simulations."""
    return [
        Figure("parsim.ranks", RANKS),
        Figure("parsim.batch", BATCH),
        Figure("parsim.zero_steps", ZERO_STEPS),
        Figure("parsim.doctest_buffer", 8 * np.dtype(np.float32).itemsize, "bytes"),
        Figure("parsim.fa_width", FA_WIDTH),
        Figure("parsim.fa_shard", FA_WIDTH // FA_TP),
        Figure("parsim.ep_experts", EP_SHAPE[3]),
        Figure("parsim.ep_top_k", EP_SHAPE[4]),
        Figure("parsim.ep_tokens", EP_SHAPE[0]),
    ]
