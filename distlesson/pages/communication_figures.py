"""The numbers the chapter "Communication and the network" quotes in its prose (``comm.*``),
each computed by the library: the alpha-beta model's parameters and regimes, nccl-tests'
bandwidths of a 1 GiB all-reduce, the topology's figures, each dimension's cost on the MFU
chapter's step, and the overlap timeline's waits."""

from __future__ import annotations

import functools
import math

from distlesson.catalog.achieved import LINK_MEASUREMENT
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.nccl_tuning import HOP_LATENCY, ll_cap
from distlesson.catalog.topology import get_domain, get_fabric
from distlesson.chapter_exercises import chapter_exercises
from distlesson.exercises import NumericPart
from distlesson.pages import communication as chapter
from distlesson.pages import mfu
from distlesson.parallel.alpha_beta import bus_factor, link_model
from distlesson.render.figure import Figure

__all__ = ["crossovers", "figures"]


def _first_size(predicate, low: float, high: float) -> float:
    """The smallest array size in [low, high] where ``predicate`` turns true (it is false at
    ``low`` and true at ``high``), to a thousandth, by bisection on the logarithm."""
    for _ in range(60):
        mid = math.sqrt(low * high)
        low, high = (low, mid) if predicate(mid) else (mid, high)
    return high


@functools.cache
def crossovers() -> tuple[float, float, float, float]:
    """Array sizes, bytes, where the chapter's all-reduces change regime:

    * on one server with the Simple protocol, where the latency (a call's base and
      2(n-1) steps of alpha) equals the bytes' time, 2(n-1)/n S / beta;
    * on one server, where NCCL's choice moves from LL to LL128 and from LL128 to Simple;
    * on the chapter's 8 servers, where the tree stops beating the ring across nodes."""
    model, n = link_model(chapter.INTRA), chapter.NODE
    latency = model.base_latency + 2 * (n - 1) * model.latency
    simple = latency * model.bandwidth / bus_factor("all-reduce", n)

    def protocol(size: float) -> str:
        return chapter.all_reduce(size, n, n).protocol

    leave_ll = _first_size(lambda s: protocol(s) != "LL", 8, 2**34)
    leave_ll128 = _first_size(lambda s: protocol(s) == "Simple", 8, 2**34)
    ranks = n * chapter.NODES
    tree = _first_size(lambda s: chapter.all_reduce(s, ranks, n).algorithm == "ring", 8, 2**34)
    return simple, leave_ll, leave_ll128, tree


def _step_figures() -> list[Figure]:
    step, bare = mfu.llama405_step(), chapter._unhidden_step()
    exposed, unhidden = step.model.comm.total, bare.model.comm.total
    return [
        Figure("comm.step", step.step_time, "s", digits=2),
        Figure("comm.exposed_total", exposed, "s", digits=2),
        Figure("comm.exposed_share", exposed / step.step_time, "%", digits=1),
        Figure("comm.unhidden_total", unhidden, "s", digits=2),
        Figure("comm.unhidden_step", bare.step_time, "s", digits=2),
        Figure("comm.tp_exposed", step.model.comm.tp, "s", digits=2),
        Figure("comm.cluster_gpus", mfu.CLUSTER.num_gpus),
    ]


def _overlap_figures() -> list[Figure]:
    node, spread = chapter.overlap_timelines()
    sizes = [i for i in node.intervals if i.stream == "network"]
    per_bucket = chapter._backward() * chapter.BUCKET / chapter._grad_bytes()
    return [
        Figure("comm.bucket_mib", chapter.BUCKET, "MiB"),
        Figure("comm.buckets", len(sizes)),
        Figure("comm.grad_bytes", chapter._grad_bytes(), "MB"),
        Figure("comm.backward", chapter._backward(), "ms", digits=1),
        Figure("comm.bucket_compute", per_bucket, "ms", digits=2),
        Figure("comm.bucket_node", chapter.all_reduce(chapter.BUCKET, chapter.NODE,
                                                      chapter.NODE).time, "ms", digits=2),
        Figure("comm.bucket_spread", chapter.all_reduce(chapter.BUCKET, chapter.SPREAD,
                                                        1).time, "ms", digits=2),
        Figure("comm.node_exposed", node.exposed, "ms", digits=2),
        Figure("comm.spread_exposed", spread.exposed, "ms", digits=2),
        Figure("comm.spread_ranks", chapter.SPREAD),
        Figure("comm.layer_bytes", chapter._layer_bytes(chapter.PREFETCH_MODEL), "GB",
               digits=1),
    ]


def _topology_figures() -> list[Figure]:
    nvlink, ib = (get_interconnect(k).bandwidth for k in (chapter.INTRA, chapter.INTER))
    llama = get_fabric("llama3-roce")
    gib = chapter.GIB
    node = chapter.all_reduce(gib, chapter.NODE, chapter.NODE)
    spread = chapter.all_reduce(gib, chapter.NODE, 1)
    hier = chapter.all_reduce(gib, chapter.NODE * chapter.NODES, chapter.NODE)
    return [
        Figure("comm.ib", ib, "GB/s"),
        Figure("comm.ib_busbw", link_model(chapter.INTER).bandwidth, "GB/s",
               doc="what NCCL achieves on one InfiniBand NDR port"),
        Figure("comm.a100_busbw", link_model("nvlink3").bandwidth, "GB/s",
               doc="what NCCL achieves on an A100 node's NVLink"),
        Figure("comm.nvlink_over_ib", nvlink / ib, "x"),
        Figure("comm.nvl72_gpus", get_domain("gb200-nvl72").gpus),
        Figure("comm.nvlink5", get_domain("gb200-nvl72").bandwidth, "GB/s"),
        Figure("comm.su_gpus", get_fabric("superpod-h100").full_bisection_gpus),
        Figure("comm.pod_gpus", llama.full_bisection_gpus),
        Figure("comm.oversub", llama.oversubscription),
        Figure("comm.across_pods", llama.bandwidth(llama.full_bisection_gpus + 1), "GB/s",
               digits=1),
        Figure("comm.spread_ratio", spread.time / node.time, "x", digits=1),
        Figure("comm.hier_ranks", chapter.NODE * chapter.NODES),
        Figure("comm.nodes", chapter.NODES),
        Figure("comm.hier_time", hier.time, "ms", digits=1),
        Figure("comm.hier_busbw", hier.busbw, "GB/s"),
        Figure("comm.spread_time", spread.time, "ms", digits=1),
    ]


def _model_figures() -> list[Figure]:
    model, n = link_model(chapter.INTRA), chapter.NODE
    gib = chapter.all_reduce(chapter.GIB, n, n)
    tiny = chapter.all_reduce(chapter.PLOT_SIZES[0], n, n)
    ring_cross, leave_ll, leave_ll128, tree_cross = crossovers()
    mid = chapter.all_reduce(LINK_MEASUREMENT.mid_bytes, n, n)
    nvlink = get_interconnect(chapter.INTRA).bandwidth
    m = LINK_MEASUREMENT
    return [
        Figure("comm.alpha", model.latency, "µs", digits=1),
        Figure("comm.simple_base", model.base_latency, "µs", digits=1),
        Figure("comm.simple_latency", model.base_latency + 2 * (n - 1) * model.latency, "µs",
               digits=0, doc="a Simple ring's latency on one server"),
        Figure("comm.ll_hop", HOP_LATENCY["nvlink"]["ring"]["LL"], "µs", digits=1),
        Figure("comm.ll_cap", ll_cap(1), "GB/s", digits=1),
        Figure("comm.ll_switch", leave_ll, "MB", digits=1,
               doc="where NCCL's choice leaves LL on one server"),
        Figure("comm.ll128_switch", leave_ll128, "MB", digits=1,
               doc="where NCCL's choice moves to Simple on one server"),
        Figure("comm.model_mid", mid.busbw, "GB/s", doc="the model at the measured mid size"),
        Figure("comm.mid_error", mid.busbw / LINK_MEASUREMENT.mid_busbw - 1, "%",
               doc="the model's bus bandwidth against the measured one, mid size"),
        Figure("comm.beta", model.bandwidth, "GB/s"),
        Figure("comm.nvlink", nvlink, "GB/s"),
        Figure("comm.nvlink_both", 2 * nvlink, "GB/s"),
        Figure("comm.measured_large", m.large_busbw, "GB/s"),
        Figure("comm.measured_mid", m.mid_busbw, "GB/s"),
        Figure("comm.measured_mid_bytes", m.mid_bytes, "MB", digits=1),
        Figure("comm.achieved_share", model.bandwidth / nvlink, "%"),
        Figure("comm.node_gpus", n),
        Figure("comm.ring_steps", 2 * (n - 1)),
        Figure("comm.tree_steps", 2 * int(math.log2(chapter.NODES))),
        Figure("comm.tree_ring_steps", 2 * (chapter.NODES - 1)),
        Figure("comm.bus_factor", bus_factor("all-reduce", n), digits=2),
        Figure("comm.gather_factor", bus_factor("all-gather", n), digits=3),
        Figure("comm.ring_crossover", ring_cross, "MB", digits=1),
        Figure("comm.tree_crossover", tree_cross, "MB", digits=1),
        Figure("comm.tiny_bytes", chapter.PLOT_SIZES[0], "B"),
        Figure("comm.tiny_time", tiny.time, "µs"),
        Figure("comm.gib_time", gib.time, "ms", digits=2),
        Figure("comm.gib_latency", gib.latency, "µs", digits=0),
        Figure("comm.gib_algbw", gib.algbw, "GB/s"),
        Figure("comm.gib_busbw", gib.busbw, "GB/s"),
        Figure("comm.gib_share", gib.busbw / nvlink, "%"),
    ]


def figures() -> list[Figure]:
    """Every ``comm.*`` figure, and the answers of the chapter's exercises (``ex.*``)."""
    answers = [p.as_figure() for e in chapter_exercises() for p in e.parts
               if isinstance(p, NumericPart)]
    quantities = [Figure(f"ex.{q.name}", float(q.value), q.unit, q.digits)
                  for e in chapter_exercises() for q in e.quantities]
    return (_model_figures() + _topology_figures() + _step_figures() + _overlap_figures()
            + answers + quantities)
