"""Chapter "The five dimensions of parallelism": the combined view, its tables and plots.

Every number comes from :mod:`distlesson.parallel.layout` (memory and traffic per GPU), the
memory model, the FLOP count and the catalogs; the simulations behind each closed form have
their own section module (:mod:`distlesson.pages.parallelism_sims`).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import get_model
from distlesson.catalog.moe import get_moe_model
from distlesson.efficiency.flops import layer_flops_per_token
from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.pages.parallelism_labels import LABELS, STRATEGY_NAMES
from distlesson.parallel.layout import LayoutReport, Workload, analyse_layout
from distlesson.parallel.tensor import tp_bytes_per_layer
from distlesson.render.figure import Figure
from distlesson.render.numbers import format_number, format_quantity
from distlesson.render.palette import DIMENSIONS, MEMORY_PARTS, colours
from distlesson.render.svg import stacked_barh
from distlesson.render.tables import Table, joined_label, ltr, markdown_table

__all__ = [
    "comm_plot",
    "figures",
    "llama405_table",
    "memory_plot",
    "strategy_table",
    "tp_link_table",
    "zero_table",
]

# Inputs: the choices of the chapter's examples, each stated in the prose.
MODEL = "llama3-70b"  # the sources' "70B model", with its real architecture
DEVICES = 16  # the Catalan table's 16 devices
TP_DEGREE = 8  # one node of eight GPUs
STEP = Workload(seq_len=8192, micro_batch=1, global_batch=128)  # 128 x 8192 = about 1M tokens
ONE_MICROBATCH = Workload(seq_len=8192, micro_batch=8, global_batch=128)  # m = 1 at dp 16
GPU = "h100-sxm"
KERNEL_EFFICIENCY = 0.4  # the Catalan chapter's "40 % of the H100's peak" for a layer's matmuls
LINKS = ("nvlink4", "ib-ndr")
LLAMA405 = "llama3-405b"
LLAMA405_LAYOUT = Layout(tp=8, pp=16, dp=128, zero=1)  # Llama 3 paper, section 3.3.2
LLAMA405_STEP = Workload(seq_len=8192, micro_batch=1, global_batch=2048)  # 16M tokens
DEEPSEEK = "deepseek-v3"
V3_MAX_NODES = 4  # DeepSeek-V3 report, section 2.1.2: each token is sent to at most 4 nodes


def _t(key: str, locale: str, **values: str) -> str:
    return LABELS[key][locale].format(**values)


def _gb(value: float | Fraction, locale: str, digits: int = 1) -> str:
    return format_quantity(float(value), "GB", locale, digits=digits)


def _strategies() -> tuple[tuple[str, Layout], ...]:
    n = DEVICES
    return (
        ("none", Layout()),
        ("dp", Layout(dp=n)),
        ("zero1", Layout(dp=n, zero=1)),
        ("zero2", Layout(dp=n, zero=2)),
        ("zero3", Layout(dp=n, zero=3)),
        ("tp", Layout(tp=TP_DEGREE, dp=n // TP_DEGREE)),
        ("pp", Layout(pp=n)),
    )


def _strategy_name(key: str, layout: Layout, locale: str) -> str:
    n, t, d = (format_number(v, locale) for v in (DEVICES, layout.tp, layout.dp))
    return STRATEGY_NAMES[key][locale].format(n=n, t=t, d=d)


@functools.cache
def _reports() -> tuple[tuple[str, Layout, LayoutReport], ...]:
    arch = get_model(MODEL)
    return tuple((key, layout, analyse_layout(arch, layout, STEP))
                 for key, layout in _strategies())


_PER_MICROBATCH = ("zero2", "zero3")
"""Rows whose traffic assumes DeepSpeed's and FSDP's default under gradient accumulation
(a reduce-scatter after every micro-batch, :func:`distlesson.parallel.layout.step_communication`);
marked with :data:`_MARK` and explained under the table."""
_MARK = "†"


def strategy_table(locale: str) -> str:
    """The same model on 16 GPUs under each strategy: memory and traffic per GPU.

    ZeRO-2 and ZeRO-3's traffic is marked: it is the default policy, one reduce-scatter
    per micro-batch, not the only one (a note under the table says so)."""
    memory = get_gpu(GPU).memory_bytes
    rows = []
    for key, layout, report in _reports():
        total = report.per_gpu_bytes
        sent = _gb(report.communication.total, locale, digits=0)
        name = _strategy_name(key, layout, locale)
        rows.append((
            name if key == "none" else ltr(name, locale),  # «DP × ۱۶», as in the charts
            _gb(report.states.total, locale),
            _gb(report.activations, locale),
            _gb(report.logits + report.overheads, locale),
            _gb(total, locale),
            _t("yes" if total <= memory else "no", locale),
            f"{sent} {_MARK}" if key in _PER_MICROBATCH else sent,
        ))
    headers = (_t("strategy", locale), _t("states_gpu", locale), _t("acts_gpu", locale),
               _t("other_gpu", locale), _t("total_gpu", locale),
               _t("fits", locale, gb=_gb(memory, locale, 0)), _t("comm_step", locale))
    table = markdown_table(
        Table(headers, tuple(rows), (False, True, True, True, True, False, True)), locale)
    return f"{table}\n\n{_MARK} {_t('per_microbatch_note', locale)}"


BAR_PARTS = ("weights", "grads", "master", "optimizer", "activations", "logits", "overheads")
"""What one GPU holds, in the order the memory plot and the widget's bar draw it: the model
states' four parts, then the activations, the logits and the overheads."""


def memory_part(report: LayoutReport, part: str) -> float:
    """Bytes of one of :data:`BAR_PARTS` in ``report``."""
    return float(getattr(report.states if part in BAR_PARTS[:4] else report, part))


def memory_plot(locale: str) -> str:
    """Stacked bars of what one GPU holds under each strategy."""
    reports = _reports()
    stacks = [(_t(part, locale), [float(memory_part(r, part)) / 1e9 for _, _, r in reports])
              for part in BAR_PARTS]
    return stacked_barh(
        [_strategy_name(key, layout, locale) for key, layout, _ in reports], stacks,
        colors=tuple(colours(MEMORY_PARTS, BAR_PARTS)),
        xlabel=_t("gb_per_gpu", locale), locale=locale,
        tick_format=lambda x: format_number(x, locale), name=f"par-memory-{locale}",
        title=_t("memory_title", locale), total_format=lambda x: format_number(x, locale))


def comm_plot(locale: str) -> str:
    """Stacked bars of the bytes one GPU sends per step, by dimension (ZeRO-2 and ZeRO-3
    marked as in :func:`strategy_table`: the default policy under accumulation)."""
    reports = _reports()
    stacks = [(_t(f"dim_{d}", locale),
               [float(getattr(r.communication, d)) / 1e9 for _, _, r in reports])
              for d in ("dp", "tp", "pp")]
    names = [_strategy_name(key, layout, locale) + (f" {_MARK}" if key in _PER_MICROBATCH
                                                     else "")
             for key, layout, _ in reports]
    return stacked_barh(
        names, stacks,
        xlabel=_t("gb_sent", locale), locale=locale,
        tick_format=lambda x: format_number(x, locale), name=f"par-comm-{locale}",
        title=_t("comm_title", locale), total_format=lambda x: format_number(x, locale),
        colors=colours(DIMENSIONS, ("dp", "tp", "pp")))


def _dp_bytes(stage: int, workload: Workload) -> Fraction:
    layout = Layout(dp=DEVICES, zero=stage)
    return analyse_layout(get_model(MODEL), layout, workload).communication.dp


def _zero_reduction(stage: int, n: int) -> Fraction:
    states = model_states(get_model(MODEL))
    return Fraction(states.total) / per_gpu_states(states, Layout(dp=n, zero=stage)).total


def zero_table(locale: str) -> str:
    """ZeRO's reduction of the states per GPU at 16 GPUs, and its limit as n grows."""
    arch = get_model(MODEL)
    per = model_states(arch).per_param(arch.num_params)
    limits = {1: Fraction(per.total, per.weights + per.grads),
              2: Fraction(per.total, per.weights), 3: None}
    rows = []
    for stage in (1, 2, 3):
        limit = limits[stage]
        rows.append((
            f"ZeRO-{stage}",  # a name: its digit stays Latin, as in the prose
            format_quantity(float(_zero_reduction(stage, DEVICES)), "x", locale, digits=2),
            "n" if limit is None else format_quantity(float(limit), "x", locale),
        ))
    headers = (_t("zero_stage", locale),
               _t("reduction", locale) + " " + ltr(f"(n = {format_number(DEVICES, locale)})",
                                                     locale),
               _t("limit", locale))
    return markdown_table(Table(headers, tuple(rows), (False, True, True)), locale)


@functools.cache
def _tp_layer() -> tuple[Fraction, float]:
    """Bytes one GPU sends per layer (four all-reduces), and the layer's compute seconds."""
    arch = get_model(MODEL)
    tokens = STEP.seq_len * STEP.micro_batch
    sent = tp_bytes_per_layer(STEP.seq_len, STEP.micro_batch, arch.hidden_size, TP_DEGREE)
    flops = layer_flops_per_token(arch, seq_len=STEP.seq_len) * tokens / TP_DEGREE
    seconds = flops / (KERNEL_EFFICIENCY * get_gpu(GPU).bf16_dense_flops)
    return sent, seconds


def tp_link_table(locale: str) -> str:
    """One layer's tensor-parallel traffic over NVLink and over InfiniBand, against compute."""
    sent, compute = _tp_layer()
    rows = []
    for key in LINKS:
        link = get_interconnect(key)
        seconds = float(sent) / link.bandwidth
        rows.append((link.display_name, format_quantity(link.bandwidth, "GB/s", locale),
                     format_quantity(seconds, "ms", locale, digits=1),
                     format_quantity(compute, "ms", locale, digits=1),
                     format_quantity(seconds / compute, "x", locale, digits=2)))
    headers = (_t("link", locale), _t("bandwidth", locale), _t("comm_time", locale),
               _t("compute_time", locale), _t("ratio", locale))
    return markdown_table(Table(headers, tuple(rows), (False, True, True, True, True)), locale)


@functools.cache
def _llama405() -> LayoutReport:
    return analyse_layout(get_model(LLAMA405), LLAMA405_LAYOUT, LLAMA405_STEP)


def llama405_table(locale: str) -> str:
    """Llama 3 405B's 3D layout: what one of its 16,384 GPUs holds and sends per step."""
    report = _llama405()
    c = report.communication
    rows = [
        (_t("weights", locale), _gb(report.states.weights, locale)),
        (_t("grads", locale), _gb(report.states.grads, locale)),
        (joined_label(_t("master", locale), _t("optimizer", locale), locale, sep=" + "),
         _gb(report.states.master + report.states.optimizer, locale)),
        (_t("activations", locale), _gb(report.activations, locale)),
        *([(_t("logits", locale), _gb(report.logits, locale))] if report.logits else []),
        (_t("overheads", locale), _gb(report.overheads, locale)),
        (f"**{_t('total_gpu', locale)}**", f"**{_gb(report.per_gpu_bytes, locale)}**"),
        (_t("comm_step", locale) + ": " + _t("dim_dp", locale), _gb(c.dp, locale)),
        (_t("comm_step", locale) + ": " + _t("dim_tp", locale), _gb(c.tp, locale, 0)),
        (_t("comm_step", locale) + ": " + _t("dim_pp", locale), _gb(c.pp, locale)),
    ]
    return markdown_table(Table((_t("quantity", locale), _t("value", locale)), tuple(rows),
                                (False, True)), locale)


def figures() -> list[Figure]:
    """The numbers the chapter's prose quotes."""
    arch = get_model(MODEL)
    reports = {key: report for key, _, report in _reports()}
    sent, compute = _tp_layer()
    nvlink, ib = (get_interconnect(k).bandwidth for k in LINKS)
    llama = get_model(LLAMA405)
    big = _llama405()
    v3 = get_moe_model(DEEPSEEK)
    dense = model_states(arch)
    per = dense.per_param(arch.num_params)
    return [
        Figure("par.devices", DEVICES),
        Figure("par.tp_degree", TP_DEGREE),
        Figure("par.seq_len", STEP.seq_len),
        Figure("par.global_batch", STEP.global_batch),
        Figure("par.step_tokens", STEP.global_batch * STEP.seq_len),
        Figure("par.model_params", arch.num_params, "B params", digits=1),
        Figure("par.states_total", float(dense.total), "GB", digits=0),
        Figure("par.gpu_memory", get_gpu(GPU).memory_bytes, "GB"),
        Figure("par.bpp_total", float(per.total)),
        Figure("par.bpp_sharded_by_zero1", float(per.master + per.optimizer)),
        Figure("par.zero1_at_n", float(_zero_reduction(1, DEVICES)), "x", digits=2),
        Figure("par.zero2_at_n", float(_zero_reduction(2, DEVICES)), "x", digits=2),
        Figure("par.zero1_limit", float(Fraction(per.total, per.weights + per.grads)), "x"),
        Figure("par.zero2_limit", float(Fraction(per.total, per.weights)), "x"),
        Figure("par.zero3_per_gpu", float(reports["zero3"].states.total), "GB", digits=1),
        Figure("par.dp_comm", float(reports["dp"].communication.dp), "GB", digits=0),
        Figure("par.zero3_comm", float(reports["zero3"].communication.dp), "GB", digits=0),
        Figure("par.zero3_over_dp",
               float(_dp_bytes(3, ONE_MICROBATCH) / _dp_bytes(0, ONE_MICROBATCH)), "x",
               digits=1),
        Figure("par.zero3_over_dp_accumulating", float(reports["zero3"].communication.dp
                                                       / reports["dp"].communication.dp),
               "x", digits=0),
        Figure("par.zero2_over_dp_accumulating", float(reports["zero2"].communication.dp
                                                       / reports["dp"].communication.dp),
               "x", digits=1),
        Figure("par.microbatches_per_replica", reports["dp"].num_microbatches),
        Figure("par.full_grads", float(dense.grads), "GB", digits=0,
               doc="the whole bf16 gradient, which accumulating unsharded keeps on each GPU"),
        Figure("par.tp_comm", float(reports["tp"].communication.tp), "TB", digits=1),
        Figure("par.pp_comm", float(reports["pp"].communication.pp), "GB", digits=1),
        Figure("par.kernel_efficiency", KERNEL_EFFICIENCY, "%"),
        Figure("par.tp_layer_bytes", float(sent), "GB", digits=2),
        Figure("par.tp_layer_compute", compute, "ms", digits=1),
        Figure("par.tp_nvlink_share", float(sent) / nvlink / compute, "%"),
        Figure("par.tp_ib_ratio", float(sent) / ib / compute, "x", digits=2),
        Figure("par.nvlink_bw", nvlink, "GB/s"),
        Figure("par.ib_bw", ib, "GB/s"),
        Figure("par.llama405_params", llama.num_params, "B params", digits=1),
        Figure("par.llama405_gpus", LLAMA405_LAYOUT.world_size),
        Figure("par.llama405_tp", LLAMA405_LAYOUT.tp),
        Figure("par.llama405_pp", LLAMA405_LAYOUT.pp),
        Figure("par.llama405_dp", LLAMA405_LAYOUT.dp),
        Figure("par.llama405_layers", llama.num_layers),
        Figure("par.llama405_layers_per_stage", -(-llama.num_layers // LLAMA405_LAYOUT.pp)),
        Figure("par.llama405_tokens", LLAMA405_STEP.global_batch * LLAMA405_STEP.seq_len,
               "M params", digits=1),
        Figure("par.llama405_microbatches", big.num_microbatches),
        Figure("par.llama405_per_gpu", float(big.per_gpu_bytes), "GB", digits=1),
        Figure("par.llama405_states_total", float(model_states(llama).total), "TB", digits=2),
        Figure("par.v3_total", v3.num_params, "B params", digits=0),
        Figure("par.v3_active", v3.active_params, "B params", digits=1),
        Figure("par.v3_active_share", v3.active_params / v3.num_params, "%", digits=1),
        Figure("par.v3_experts", v3.routed_experts),
        Figure("par.v3_top_k", v3.experts_per_token),
        Figure("par.v3_max_nodes", V3_MAX_NODES),
        Figure("par.v3_states", float(model_states(v3.num_params).total), "TB", digits=1),
        Figure("par.v3_total_over_active", v3.num_params / v3.active_params, "x", digits=1),
        Figure("par.llama405_over_v3_flops", llama.num_params / v3.active_params, "x", digits=0,
               doc="6 FLOPs per (active) weight and token for both; attention not counted"),
    ]
