"""Chapter "Communication and the network": latency and bandwidth, nccl-tests' bandwidths,
topology, each dimension's traffic on a real cluster, and overlap as a timeline.

Every time is :mod:`distlesson.parallel.alpha_beta`'s (fixed by the 8 x H100 measurement
of :mod:`distlesson.catalog.achieved`); the topology's figures are
:mod:`distlesson.catalog.topology`'s and :mod:`distlesson.catalog.interconnects`'; the
dimensions' costs are the step model's (:mod:`distlesson.efficiency.step_time`) on the MFU
chapter's step; the timeline is :mod:`distlesson.efficiency.bucket_overlap`'s. The
figures its prose quotes are in :mod:`distlesson.pages.communication_figures`.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import get_model, parameter_tensors
from distlesson.catalog.topology import get_domain, get_fabric
from distlesson.efficiency.bucket_overlap import BucketTimeline, bucket_sizes, bucket_timeline
from distlesson.efficiency.overlap import OverlapPolicy, group_placement
from distlesson.efficiency.step_time import (
    Cluster,
    StepEstimate,
    StepInputs,
    estimate_step,
)
from distlesson.memory.states import Layout
from distlesson.pages import mfu
from distlesson.pages.communication_labels import label as _label
from distlesson.pages.widget_html import isolate
from distlesson.parallel.alpha_beta import CollectiveTime, group_collective
from distlesson.parallel.layout import Workload
from distlesson.render.lines import loglog_lines
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.streams import streams_svg
from distlesson.render.tables import Table, markdown_table
from distlesson.render.topology_diagram import topology_diagram

__all__ = ["GPU", "INTER", "NODE", "all_reduce", "dimension_table",
           "latency_plot", "nccl_table", "overlap_timeline", "overlap_timelines",
           "topology_figure", "topology_table"]

# Inputs: the chapter's cluster and examples.
GPU = "h100-sxm"
INTRA = get_gpu(GPU).intra_node_link  # NVLink 4
NODE = get_gpu(GPU).gpus_per_node  # 8 GPUs per HGX server
INTER = "ib-ndr"  # one 400 Gb/s InfiniBand port per GPU, as in DGX H100
NODES = 8  # the plot's multi-node group: 8 servers of 8
PLOT_SIZES = tuple(2**k for k in range(3, 34, 4))  # 8 B .. 2 GiB
TABLE_SIZES = (8, 2**10, 2**16, 2**20, 2**24, 2**28, 2**30, 2**33)  # nccl-tests' -b 8 -e 8G
FLOAT = 4  # nccl-tests' default type, float: the "count" column is size / 4
GIB = 2**30
BUCKET = OverlapPolicy().bucket_bytes  # PyTorch DDP's 25 MiB
OVERLAP_MODEL, OVERLAP_SEQ, OVERLAP_BATCH = "gpt2-small", 1024, 4  # GPT-2's context
SPREAD = 16  # the timeline's second case: 16 GPUs, one per node
PREFETCH_MODEL = "llama3-70b"


def label(key: str, locale: str) -> str:
    """The word ``key``; on a right-to-left page inside a right-to-left isolate, so that the
    Latin names and digits in it fall in place in plots drawn left to right."""
    return isolate(_label(key, locale), locale)


def all_reduce(size: float, ranks: int, per_node: int, algorithm: str = "auto"
               ) -> CollectiveTime:
    """An all-reduce on the chapter's cluster (H100 servers, InfiniBand NDR between them)."""
    return group_collective("all-reduce", size, ranks, min(ranks, per_node), intra=INTRA,
                            inter=INTER, algorithm=algorithm)  # type: ignore[arg-type]


def _bytes_tick(value: float, locale: str) -> str:
    for unit in ("GiB", "MiB", "KiB"):
        if value >= 2**{"GiB": 30, "MiB": 20, "KiB": 10}[unit]:
            return format_quantity(value, unit, locale)
    return format_quantity(value, "B", locale)


def _size_symbol(value: float, locale: str) -> str:
    """A short tick: the binary symbol (KiB, MiB, GiB, B) in every language, so that the
    plot's eight ticks fit side by side; Catalan writes «bytes», no longer than «512 MiB»
    (a bare «B» reads as billions there: termbase concept byte)."""
    for symbol, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if value >= scale:
            return f"{format_number(value / scale, locale)}\u00a0{symbol}"
    return f"{format_number(value, locale)}\u00a0{'bytes' if locale == 'ca' else 'B'}"


def _time_tick(value: float, locale: str) -> str:
    unit = "s" if value >= 1 else "ms" if value >= 1e-3 else "µs"
    return format_quantity(value, unit, locale, digits=0 if value >= 1e-6 else 1)


def latency_plot(locale: str) -> str:
    """All-reduce time against size, log-log: ring and tree, one node and several."""
    n, k = NODE, NODES

    def series(key: str, ranks: int, algorithm: str) -> tuple[str, list[float]]:
        name = label(key, locale).format(n=format_number(ranks, locale),
                                          k=format_number(k, locale))
        return name, [all_reduce(s, ranks, NODE, algorithm).time for s in PLOT_SIZES]

    lines = [series("ring_node", n, "ring"), series("tree_node", n, "tree"),
             series("ring_nodes", n * k, "ring"), series("tree_nodes", n * k, "tree")]
    return loglog_lines(PLOT_SIZES, lines, xlabel=label("size", locale),
                        ylabel=label("time", locale), locale=locale,
                        tick_format=lambda v: _size_symbol(v, locale),
                        ytick_format=lambda v: _time_tick(v, locale),
                        name=f"comm-regimes-{locale}", title=_label("plot_title", locale))


def nccl_table(locale: str) -> str:
    """What ``all_reduce_perf -b 8 -e 8G -f 2 -g 8`` would print on one H100 server, per the
    model, for a few of its rows."""
    rows = []
    for size in TABLE_SIZES:
        c = all_reduce(size, NODE, NODE)
        rows.append((format_number(size, locale), format_number(size // FLOAT, locale),
                     format_number(c.time * 1e6, locale, digits=1),
                     format_number(c.algbw / 1e9, locale, digits=2),
                     format_number(c.busbw / 1e9, locale, digits=2),
                     _label(c.algorithm, locale), c.protocol))
    headers = tuple(_label(k, locale) for k in ("bytes", "count", "time_us", "algbw", "busbw",
                                              "algorithm", "protocol"))
    return markdown_table(Table(headers, tuple(rows), (True,) * 5 + (False, False)), locale)


def _per_gpu(value: float, locale: str) -> str:
    return format_quantity(value, "GB/s", locale)


def topology_table(locale: str) -> str:
    """The NVLink domains and fabrics of the catalog: GPUs, bandwidth per GPU, a note."""
    llama = get_fabric("llama3-roce")
    ratio = format_quantity(llama.oversubscription, "x", locale)
    if locale == "fa":  # Persian states an oversubscription as a ratio, «۷ به ۱», not «۷ برابر»
        ratio = (f"{format_number(llama.oversubscription, locale)} به "
                 f"{format_number(1, locale)}")
    rows = (
        (_label("domain_hgx", locale), format_number(get_domain("hgx-h100").gpus, locale),
         _per_gpu(get_domain("hgx-h100").bandwidth, locale), _label("note_hgx", locale)),
        (_label("domain_nvl72", locale), format_number(get_domain("gb200-nvl72").gpus, locale),
         _per_gpu(get_domain("gb200-nvl72").bandwidth, locale), _label("note_nvl72", locale)),
        (_label("fabric_superpod", locale), _label("none", locale),
         _per_gpu(get_fabric("superpod-h100").bandwidth(1), locale),
         _label("note_superpod", locale)),
        (_label("fabric_llama", locale), format_number(llama.full_bisection_gpus, locale),
         _per_gpu(llama.bandwidth(1), locale), _label("note_llama", locale).format(x=ratio)),
    )
    headers = tuple(_label(k, locale) for k in ("what", "gpus", "per_gpu", "note"))
    return markdown_table(Table(headers, rows, (False, True, True, False)), locale)


def topology_figure(locale: str) -> str:
    """Two H100 servers on a rail-optimised InfiniBand fabric, as an SVG."""
    words = {k: _label(k, locale) for k in ("spine", "leaf", "server", "gpu", "nvswitch")}
    words["nvlink"] = _label("nvlink_line", locale).format(
        bw=_per_gpu(get_interconnect(INTRA).bandwidth, locale))
    words["port"] = _label("port_line", locale).format(
        bw=_per_gpu(get_interconnect(INTER).bandwidth, locale))
    words["note"] = _label("note_line", locale)
    return topology_diagram(NODE, locale=locale, words=words, name=f"comm-topology-{locale}",
                            title=_label("diagram_title", locale))


# --- each dimension on a real cluster: the MFU chapter's step ------------------------------
_NO_OVERLAP = OverlapPolicy(dp="none", tp="none", pp="blocking")


@functools.cache
def _unhidden_step() -> StepEstimate:
    """The MFU chapter's step with nothing overlapped: every byte on the critical path."""
    inputs = replace(mfu.INPUTS, overlap=_NO_OVERLAP)
    return estimate_step(get_model(mfu.MODEL), mfu.LAYOUT, mfu.WORKLOAD, mfu.CLUSTER, inputs)


def _stride(dim: str) -> int:
    layout, stride = mfu.LAYOUT, 1
    for d in ("tp", "cp", "pp", "dp"):  # overlap.PLACEMENT: innermost first
        if d == dim:
            return stride
        stride *= getattr(layout, d)
    raise ValueError(f"dim={dim!r}; allowed: tp, cp, pp, dp")


def dimension_table(locale: str) -> str:
    """Per dimension of Llama 3.1 405B's layout: its group's link, the seconds of its traffic
    without overlap and exposed under the step model's policy, and the share of the step."""
    step, bare = mfu.llama405_step(), _unhidden_step()
    cluster, rows = mfu.CLUSTER, []
    for dim in ("dp", "tp", "pp", "cp"):
        degree = getattr(mfu.LAYOUT, dim)
        if degree == 1:  # no group, no traffic
            rows.append((_label(f"dim_{dim}", locale), format_number(degree, locale))
                        + (_label("none", locale),) * 4)
            continue
        if group_placement(degree, _stride(dim), cluster.gpus_per_node) > 1:
            where = _label("in_node", locale)
        else:
            where = _label("across", locale).format(
                link=get_interconnect(cluster.inter_link).display_name)
        exposed = getattr(step.model.comm, dim)
        rows.append((_label(f"dim_{dim}", locale), format_number(degree, locale), where,
                     format_quantity(getattr(bare.model.comm, dim), "s", locale, digits=2),
                     format_quantity(exposed, "s", locale, digits=2),
                     format_percent(exposed / step.step_time, locale, digits=1)))
    headers = tuple(_label(k, locale) for k in ("dimension", "degree", "link", "unhidden",
                                              "exposed", "share"))
    return markdown_table(Table(headers, tuple(rows), (False, True, False, True, True, True)),
                          locale)


# --- overlap: DDP's buckets during the backward ---------------------------------------------
@functools.cache
def _backward() -> float:
    """One micro-batch's backward for GPT-2 small on one H100: two thirds of its compute
    (two matrix products per forward one), from the step model's kernel times."""
    step = estimate_step(get_model(OVERLAP_MODEL), Layout(), Workload(
        seq_len=OVERLAP_SEQ, micro_batch=OVERLAP_BATCH, global_batch=OVERLAP_BATCH,
        recompute="none"), Cluster(GPU, 1), StepInputs(failures=None))
    return 2 / 3 * (step.model.useful + step.model.below_peak)


def _grad_bytes() -> float:
    return 2 * get_model(OVERLAP_MODEL).num_params  # bf16 gradients


@functools.cache
def overlap_timelines() -> tuple[BucketTimeline, BucketTimeline]:
    """The backward's buckets reduced in one node of 8, and over 16 GPUs one per node."""
    sizes = bucket_sizes(_grad_bytes(), BUCKET)
    node = bucket_timeline(_backward(), sizes, lambda s: all_reduce(s, NODE, NODE).time)
    spread = bucket_timeline(_backward(), sizes, lambda s: all_reduce(s, SPREAD, 1).time)
    return node, spread


def overlap_timeline(locale: str) -> str:
    """The two cases of :func:`overlap_timelines` as compute and network streams."""
    node, spread = overlap_timelines()
    ms = functools.partial(format_quantity, unit="ms", locale=locale, digits=2)
    panels = [
        (label("panel_node", locale).format(n=format_number(NODE, locale),
                                            t=ms(node.exposed)), node),
        (label("panel_spread", locale).format(
            n=format_number(SPREAD, locale), link=get_interconnect(INTER).display_name,
            t=ms(spread.exposed)), spread),
    ]
    labels = {"compute": label("compute", locale), "network": label("network", locale),
              "time": label("time_ms", locale), "exposed": label("waits", locale)}
    return streams_svg(panels, name=f"comm-overlap-{locale}",
                       title=_label("overlap_title", locale), labels=labels, locale=locale)


def _layer_bytes(model: str) -> float:
    """bf16 bytes of one transformer layer's weights (layer 0's tensors)."""
    return 2 * sum(t.numel for t in parameter_tensors(get_model(model))
                   if t.name.startswith("layers.0."))
