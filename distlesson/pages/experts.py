"""Chapter "Mixture of experts": the catalog's MoE models, DeepSeek-V3's memory per GPU at its
published layout, one layer's all-to-all, and load balance under a skewed router.

Counts are :mod:`distlesson.catalog.moe`'s; memory and bytes
:mod:`distlesson.parallel.expert_layout`'s; times the alpha-beta model's
(:mod:`distlesson.parallel.alpha_beta`); the balance simulation
:mod:`distlesson.parallel.expert_balance`'s. The figures the prose quotes are in
:mod:`distlesson.pages.experts_figures`.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.moe import MOE_MODELS, LatentAttention, MoEArchitecture, get_moe_model
from distlesson.pages.experts_labels import label as _label
from distlesson.pages.widget_html import isolate
from distlesson.parallel.expert_balance import (
    DEEPSEEK_V3_GAMMA,
    BalanceHistory,
    SkewedRouter,
    bias_balancing,
    dropped_fraction,
    expert_load,
    rank_imbalance,
    select,
)
from distlesson.parallel.expert_layout import (
    DEEPSEEK_V3_LAYOUT,
    DEEPSEEK_V3_WORKLOAD,
    ExpertMemory,
    ExpertWorkload,
    all_to_all_bytes,
    all_to_all_times,
    expert_memory,
)
from distlesson.render.numbers import (
    format_number,
    format_percent,
    format_quantity,
    list_comma,
)
from distlesson.render.svg import OKABE_ITO, STYLE, WIDTH_INCHES, legend_above, to_svg
from distlesson.render.tables import Table, ltr, markdown_table

__all__ = ["A2A_CASES", "CAPACITY_FACTORS", "ROUTER", "SIM_EP", "STEPS", "TAIL",
           "all_to_all_table", "balance", "drops", "drops_plot", "imbalance_plot",
           "load_plot", "memory_table", "params_table", "v3_memory"]

# Inputs: the simulation's router and how long it runs.
ROUTER = SkewedRouter()  # DeepSeek-V3's 256 experts, top-8; Zipf popularity; 1024 tokens a step
SIM_EP = 64  # DeepSeek-V3's expert-parallel degree: 4 experts per GPU
STEPS = 600  # enough for gamma = 0.001 to even the load
TAIL = 50  # the last steps, averaged for "after"; the router alone on the same tokens: "before"
CAPACITY_FACTORS = (1.0, 1.25, 2.0)
PLOT_FACTORS = tuple(0.5 + 0.25 * i for i in range(11))  # 0.5 .. 3.0
A2A_CASES = (  # (model, ep, gpu): across 8 H800 nodes, inside one, Mixtral in one H100 node
    ("deepseek-v3", 64, "h800-sxm"), ("deepseek-v3", 8, "h800-sxm"),
    ("mixtral-8x7b", 8, "h100-sxm"))


def label(key: str, locale: str, **values: str) -> str:
    """The word ``key``, isolated on a right-to-left page (plots are drawn left to right)."""
    return isolate(_label(key, locale, **values), locale)


def _params(value: float, locale: str, digits: int = 1) -> str:
    return format_quantity(value, "B params", locale, digits=digits)


def params_table(locale: str) -> str:
    """The catalog's MoE models: shapes, total and active parameters, the published figures."""
    w = functools.partial(_label, locale=locale)
    columns = []
    for m in MOE_MODELS.values():
        attention = w("mla" if isinstance(m.attention, LatentAttention) else "gqa")
        # Persian names k in the header («متخصص‌های هر توکن») and keeps the cell to two
        # numbers, «۲۵۶، ۸»: a Latin «top-» beside Persian digits reads as neither language
        k = format_number(m.experts_per_token, locale)
        top_k = (f"{format_number(m.routed_experts, locale)}{list_comma(locale)}"
                 + (k if locale == "fa" else ltr(f"top-{k}", locale)))
        columns.append((
            attention,
            f"{format_number(m.dense_layers, locale)} + {format_number(m.moe_layers, locale)}",
            top_k,
            format_number(m.shared_experts, locale),
            _params(m.num_params, locale, 2), _params(m.active_params, locale, 2),
            _params(m.active_params_with_embedding, locale, 2),
            f"{_params(m.published_params, locale)} / {_params(m.published_active, locale)}",
            format_percent(m.active_params / m.num_params, locale, digits=1),
        ))
    # one column per model, a row per quantity: ten columns did not fit the text column in
    # Catalan and Persian
    labels = (w("attention"), w("layers"), w("experts"), w("shared"), w("total"),
              f'{w("active")}{list_comma(locale)}{w("without_embedding")}',
              f'{w("active")}{list_comma(locale)}{w("with_embedding")}', w("published"),
              w("share"))
    rows = tuple((label, *(column[i] for column in columns)) for i, label in enumerate(labels))
    headers = (w("model"), *(m.display_name for m in MOE_MODELS.values()))
    return markdown_table(Table(headers, rows, (False, *(True for _ in columns))), locale)


@functools.cache
def v3_memory() -> ExpertMemory:
    """DeepSeek-V3's busiest GPU at its published layout (report section 3.2)."""
    return expert_memory(get_moe_model("deepseek-v3"), DEEPSEEK_V3_LAYOUT)


def memory_table(locale: str) -> str:
    """DeepSeek-V3's busiest GPU, state by state, dense parameters against routed experts."""
    w = functools.partial(_label, locale=locale)
    m = v3_memory()
    gb = functools.partial(format_quantity, unit="GB", locale=locale, digits=2)
    rows = [(w(part), gb(float(getattr(m.dense, part))), gb(float(getattr(m.experts, part))),
             gb(float(getattr(m.dense, part) + getattr(m.experts, part))))
            for part in ("weights", "grads", "master", "optimizer")]
    rows.append((w("activations"), "", "", gb(m.activations)))
    rows.append((f"**{w('gpu_total')}**", gb(float(m.dense.total)), gb(float(m.experts.total)),
                 f"**{gb(m.total)}**"))
    headers = (w("state"), w("dense"), w("routed"), w("sum"))
    return markdown_table(Table(headers, tuple(rows), (False, True, True, True)), locale)


def _a2a(model: str, ep: int, gpu: str) -> tuple[MoEArchitecture, ExpertWorkload, float,
                                                 tuple[float, float]]:
    arch = get_moe_model(model)
    workload = DEEPSEEK_V3_WORKLOAD if model == "deepseek-v3" else ExpertWorkload()
    return (arch, workload, float(all_to_all_bytes(arch, ep, workload)),
            all_to_all_times(arch, ep, workload, gpu))


def all_to_all_table(locale: str) -> str:
    """One MoE layer's forward all-to-alls on one GPU, one micro-batch: bytes and times."""
    w = functools.partial(_label, locale=locale)
    rows = []
    for model, ep, gpu in A2A_CASES:
        arch, workload, volume, (dispatch, combine) = _a2a(model, ep, gpu)
        node = get_gpu(gpu)
        if ep <= node.gpus_per_node:
            where = w("one_node", link=get_interconnect(node.intra_node_link).display_name)
        else:
            where = w("nodes", k=format_number(ep // node.gpus_per_node, locale),
                      link=get_interconnect("ib-ndr").display_name)
        fmt = "fp8" if workload.dispatch_bytes < 2 else "bf16"
        case = (ltr(arch.display_name, locale) + list_comma(locale)
                + ltr(f"ep = {format_number(ep, locale)}", locale))
        rows.append((case, where,
                     f"{fmt}: {format_quantity(dispatch, 'ms', locale, digits=2)}",
                     f"bf16: {format_quantity(combine, 'ms', locale, digits=2)}",
                     format_quantity(volume, "MB", locale, digits=1),
                     format_quantity(dispatch + combine, "ms", locale, digits=2)))
    headers = (w("case"), w("where"), w("dispatch"), w("combine"), w("bytes"), w("time"))
    return markdown_table(Table(headers, tuple(rows),
                                (False, False, True, True, True, True)), locale)


# --- load balance -------------------------------------------------------------------------
@functools.cache
def balance() -> BalanceHistory:
    """The bias balancing of the chapter's router, DeepSeek-V3's gamma."""
    return bias_balancing(ROUTER, STEPS, DEEPSEEK_V3_GAMMA)


@functools.cache
def _loads() -> tuple[np.ndarray, np.ndarray]:
    """(TAIL, E) loads of the last TAIL steps' tokens: the router alone, and balanced."""
    steps = range(STEPS - TAIL, STEPS)
    alone = np.array([expert_load(select(ROUTER.affinities(s), None, ROUTER.top_k),
                                  ROUTER.num_experts) for s in steps])
    return alone, balance().loads[-TAIL:]


def drops(capacity_factor: float) -> tuple[float, float]:
    """Mean share of assignments dropped at ``capacity_factor``: router alone, balanced."""
    return tuple(float(np.mean([dropped_fraction(load, capacity_factor, ROUTER.top_k)
                                for load in loads])) for loads in _loads())  # type: ignore


def imbalances(ep: int = SIM_EP) -> tuple[float, float]:
    """Mean busiest GPU over the mean: router alone, balanced."""
    return tuple(float(np.mean([rank_imbalance(load, ep) for load in loads]))
                 for loads in _loads())  # type: ignore[return-value]


def expert_imbalances() -> tuple[float, float]:
    """Mean busiest expert over the mean: router alone, balanced."""
    return tuple(float(np.mean(loads.max(axis=1) / loads.mean(axis=1)))
                 for loads in _loads())  # type: ignore[return-value]


def drops_table(locale: str) -> str:
    """Dropped assignments at the capacity factors of the text, before and after."""
    w = functools.partial(_label, locale=locale)
    rows = tuple((format_number(cf, locale, digits=2),
                  *(format_percent(d, locale, digits=1) for d in drops(cf)))
                 for cf in CAPACITY_FACTORS)
    return markdown_table(Table((w("capacity"), w("dropped_before"), w("dropped_after")),
                                rows, (True, True, True)), locale)


def _axes() -> tuple[plt.Figure, plt.Axes]:
    return plt.subplots(figsize=(WIDTH_INCHES, 4.2), layout="constrained")


def _fmt(locale: str, digits: int = 0) -> FuncFormatter:
    return FuncFormatter(lambda v, _: format_number(v, locale, digits=digits))


def load_plot(locale: str) -> str:
    """Each expert's load over the mean, experts by popularity: before and after."""
    order = np.argsort(-ROUTER.popularity)  # most popular first
    alone, balanced = (loads.mean(axis=0)[order] / loads.mean() for loads in _loads())
    x = np.arange(1, ROUTER.num_experts + 1)
    with matplotlib.rc_context(STYLE):
        fig, ax = _axes()
        ax.plot(x, alone, color=OKABE_ITO[5], label=label("router_alone", locale))
        ax.plot(x, balanced, color=OKABE_ITO[0], linestyle="--",
                label=label("balanced", locale))
        ax.axhline(1.0, color=STYLE["axes.edgecolor"], linewidth=0.6)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(_fmt(locale))
        ax.yaxis.set_major_formatter(_fmt(locale, 1))
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
        ax.set_xlabel(label("expert_rank", locale))
        ax.set_ylabel(label("load_axis", locale))
        legend_above(ax, 2, locale=locale)
        return to_svg(fig, name="moe-load", title=_label("load_title", locale), locale=locale)


def imbalance_plot(locale: str) -> str:
    """Busiest GPU and busiest expert over the mean, at every step of the balancing."""
    h = balance()
    steps = np.arange(STEPS)
    with matplotlib.rc_context(STYLE):
        fig, ax = _axes()
        ax.plot(steps, h.expert_imbalance(), color=OKABE_ITO[5],
                label=label("busiest_expert", locale,
                            e=format_number(ROUTER.num_experts, locale)))
        ax.plot(steps, h.rank_imbalance(SIM_EP), color=OKABE_ITO[0], linestyle="--",
                label=label("busiest_rank", locale, ep=format_number(SIM_EP, locale)))
        ax.axhline(1.0, color=STYLE["axes.edgecolor"], linewidth=0.6)
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(_fmt(locale))
        ax.yaxis.set_major_formatter(_fmt(locale))
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
        ax.set_xlabel(label("step", locale))
        ax.set_ylabel(label("imbalance_axis", locale))
        legend_above(ax, 2, locale=locale)
        return to_svg(fig, name="moe-imbalance", title=_label("imbalance_title", locale),
                      locale=locale)


def drops_plot(locale: str) -> str:
    """Share of assignments dropped against the capacity factor, before and after."""
    before, after = zip(*(drops(cf) for cf in PLOT_FACTORS), strict=True)
    with matplotlib.rc_context(STYLE):
        fig, ax = _axes()
        ax.plot(PLOT_FACTORS, before, color=OKABE_ITO[5], marker="o",
                label=label("router_alone", locale))
        ax.plot(PLOT_FACTORS, after, color=OKABE_ITO[0], marker="s", linestyle="--",
                label=label("balanced", locale))
        ax.xaxis.set_major_formatter(_fmt(locale, 1))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: format_percent(v, locale)))
        ax.set_xlabel(label("capacity", locale))
        ax.set_ylabel(label("dropped_axis", locale))
        legend_above(ax, 2, locale=locale)
        return to_svg(fig, name="moe-drops", title=_label("drops_title", locale),
                      locale=locale)


def a2a_case(index: int) -> tuple[float, tuple[float, float]]:
    """Bytes and (dispatch, combine) seconds of :data:`A2A_CASES`' case ``index``."""
    _, _, volume, times = _a2a(*A2A_CASES[index])
    return volume, times


def v3_active_share() -> Fraction:
    """DeepSeek-V3's active parameters over its total."""
    v3 = get_moe_model("deepseek-v3")
    return Fraction(v3.active_params, v3.num_params)
