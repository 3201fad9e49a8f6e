"""Chapter "The hardware in one page": the GPU catalog, the roofline, the links between GPUs.

Every number comes from the catalogs (:mod:`distlesson.catalog.hardware`,
:mod:`distlesson.catalog.interconnects`) and the roofline model
(:mod:`distlesson.efficiency.roofline`,
Williams et al. 2009); the chapter's choices are the inputs below.
"""

from __future__ import annotations

import functools
import math

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.catalog.interconnects import INTERCONNECTS
from distlesson.efficiency.roofline import (
    RooflinePoint,
    Workloads,
    decode_batch_at_ridge,
    decode_shape,
    ridge_point,
    roofline_point,
    roofline_polyline,
    workload_points,
)
from distlesson.pages.hardware_labels import LABELS, POINT_NAMES, SCOPES
from distlesson.render.catalan import feminine_article
from distlesson.render.figure import Figure
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.roofline_plot import Roof, RoofPoint, roofline_svg
from distlesson.render.tables import Table, markdown_table

__all__ = ["catalog_table", "figures", "links_table", "points_table", "roofline_plot"]

# Inputs: the chapter's choices, each stated in the prose.
GPU = "h100-sxm"  # the roofline drawn bold, and the GPU of the points
WORKLOADS = Workloads()  # h = 8192; decode at batches 1 and 64; 8192 training tokens, h -> 4h
X_RANGE = (0.25, 16384.0)  # FLOP per byte shown on the plot: below decode, above training
MOVED_BYTES = 1e9  # the links table: the time to move one GB (1e9 bytes) one way


def _t(key: str, locale: str, **values: str) -> str:
    return LABELS[key][locale].format(**values)


def _name(key: str) -> str:
    """A catalog key as part of a figure name: ``h100-sxm`` -> ``h100_sxm``."""
    return key.replace("-", "_")


@functools.cache
def _points() -> tuple[RooflinePoint, ...]:
    """The chapter's points on the H100, then decode at the batch that reaches the ridge."""
    gpu = get_gpu(GPU)
    at_ridge = decode_batch_at_ridge(gpu, WORKLOADS.hidden_size)
    return (*workload_points(gpu, WORKLOADS),
            roofline_point(gpu, "decode_ridge", decode_shape(at_ridge, WORKLOADS.hidden_size)))


def _point_label(point: RooflinePoint, locale: str) -> str:
    n = format_number(point.shape.m, locale)
    if point.name == "training":
        return POINT_NAMES["training"][locale].format(t=n)
    kind = "ridge" if point.name == "decode_ridge" else "decode"
    return POINT_NAMES[kind][locale].format(b=n)


def catalog_table(locale: str) -> str:
    """Each GPU: memory, bandwidth, dense bf16 and fp8 peaks, ridge point, link in the node."""
    rows = []
    for gpu in GPUS.values():
        fp8 = (format_quantity(gpu.fp8_dense_flops, "TFLOP/s", locale)
               if gpu.fp8_dense_flops is not None else _t("no_fp8", locale))
        link = gpu.intra_node
        rows.append((gpu.display_name, format_quantity(gpu.memory_bytes, "GB", locale),
                     format_quantity(gpu.hbm_bandwidth, "TB/s", locale, digits=2),
                     format_quantity(gpu.bf16_dense_flops, "TFLOP/s", locale), fp8,
                     format_number(float(ridge_point(gpu)), locale),
                     link.display_name, format_quantity(link.bandwidth, "GB/s", locale)))
    headers = (_t("gpu", locale), _t("memory", locale), _t("hbm", locale), _t("bf16", locale),
               _t("fp8", locale), _t("ridge", locale), _t("node_link", locale),
               _t("link_bw", locale))
    numeric = (False, True, True, True, True, True, False, True)
    return markdown_table(Table(headers, tuple(rows), numeric), locale)


def points_table(locale: str) -> str:
    """The chapter's matmuls on the H100: intensity, attainable FLOP/s, share of the peak."""
    gpu = get_gpu(GPU)
    rows = []
    for point in _points():
        shape = " × ".join(format_number(v, locale) for v in
                           (point.shape.m, point.shape.k, point.shape.n))
        digits = 0 if point.intensity >= 100 else 1
        rows.append((_point_label(point, locale), shape,
                     format_number(float(point.intensity), locale, digits=digits),
                     format_quantity(float(point.attainable), "TFLOP/s", locale, digits=1),
                     format_percent(float(point.share_of_peak), locale, digits=2),
                     _t("memory_bound" if point.memory_bound else "compute_bound", locale)))
    headers = (_t("point", locale), _t("matmul", locale), _t("intensity", locale),
               _t("attainable", locale), _t("share", locale, gpu=gpu.display_name,
                  la_gpu=feminine_article(gpu.display_name)),
               _t("bound", locale))
    return markdown_table(Table(headers, tuple(rows), (False, True, True, True, True, False)),
                          locale)


def links_table(locale: str) -> str:
    """Each interconnect: where it sits, its one-way bandwidth, the time to move one GB."""
    rows = tuple((link.display_name, SCOPES[link.scope][locale],
                  format_quantity(link.bandwidth, "GB/s", locale),
                  format_quantity(MOVED_BYTES / link.bandwidth, "ms", locale, digits=2))
                 for link in sorted(INTERCONNECTS.values(), key=lambda k: -k.bandwidth))
    size = format_quantity(MOVED_BYTES, "GB", locale)
    headers = (_t("link", locale), _t("scope", locale), _t("bandwidth", locale),
               _t("move_time", locale, size=size))
    return markdown_table(Table(headers, rows, (False, False, True, True)), locale)


def _tick(value: float, locale: str) -> str:
    """Tick labels of a log axis: whole numbers, or as many decimals as a fraction needs."""
    digits = 0 if value >= 1 else max(0, -math.floor(math.log10(value) + 1e-9))
    return format_number(value, locale, digits=digits)


def roofline_plot(locale: str) -> str:
    """Log-log rooflines of every catalog GPU (the H100 bold) with the chapter's points."""
    tera = 1e12  # the y axis in TFLOP/s
    same: dict[tuple[float, float], list[str]] = {}  # GPUs with one roof share one line
    for g in sorted(GPUS.values(), key=lambda g: g.key != GPU):
        same.setdefault((g.bf16_dense_flops, g.hbm_bandwidth), []).append(g.key)
    comma = "، " if locale == "fa" else ", "
    roofs = [Roof(comma.join(GPUS[k].display_name for k in keys),
                  tuple((x, y / tera) for x, y in roofline_polyline(GPUS[keys[0]], *X_RANGE)),
                  bold=keys[0] == GPU)
             for keys in same.values()]
    shown = [p for p in _points() if p.name != "decode_ridge"]
    points = [RoofPoint(_point_label(p, locale), float(p.intensity), float(p.attainable) / tera)
              for p in shown]
    gpu = get_gpu(GPU)
    corner = _t("corner", locale, gpu=gpu.display_name,
                la_gpu=feminine_article(gpu.display_name),
                x=format_number(float(ridge_point(gpu)), locale))
    return roofline_svg(roofs, points, xlabel=_t("xlabel", locale), ylabel=_t("ylabel", locale),
                        locale=locale, tick_format=lambda v: _tick(v, locale),
                        name=f"hw-roofline-{locale}", title=_t("title", locale),
                        corner_label=corner)


def figures() -> list[Figure]:
    """The numbers the chapter's prose quotes."""
    gpu = get_gpu(GPU)
    decode_1, decode_64, training, at_ridge = _points()
    ridge = float(ridge_point(gpu))
    memories = [g.memory_bytes for g in GPUS.values()]
    bandwidths = [g.hbm_bandwidth for g in GPUS.values()]
    return [
        Figure("hw.peak_h100", gpu.bf16_dense_flops, "TFLOP/s"),
        Figure("hw.hbm_h100", gpu.hbm_bandwidth, "TB/s", digits=2),
        Figure("hw.ridge_h100", ridge, digits=1, doc="FLOP per byte, bf16 dense"),
        *(Figure(f"hw.ridge_{_name(g.key)}", float(ridge_point(g)), digits=1)
          for g in GPUS.values() if g.key != GPU),
        Figure("hw.memory_min", min(memories), "GB"),
        Figure("hw.memory_max", max(memories), "GB"),
        Figure("hw.hbm_min", min(bandwidths), "TB/s", digits=2),
        Figure("hw.hbm_max", max(bandwidths), "TB/s"),
        Figure("hw.hidden", WORKLOADS.hidden_size),
        Figure("hw.ffn_multiple", WORKLOADS.ffn_multiple),
        Figure("hw.flops_per_weight", 2, doc="a multiply and an add per weight and token"),
        Figure("hw.bytes_per_weight", 2, doc="bytes of one bf16 weight"),
        Figure("hw.decode_batch_small", decode_1.shape.m),
        Figure("hw.decode_b1_intensity", float(decode_1.intensity), digits=1,
               doc="h / (h + 2), just below one FLOP per byte"),
        Figure("hw.decode_b1_share", float(decode_1.share_of_peak), "%", digits=2),
        Figure("hw.decode_b1_below_ridge", ridge / float(decode_1.intensity), "x"),
        Figure("hw.decode_batch_large", decode_64.shape.m),
        Figure("hw.decode_b64_intensity", float(decode_64.intensity), digits=1),
        Figure("hw.decode_b64_share", float(decode_64.share_of_peak), "%", digits=1),
        Figure("hw.training_tokens", training.shape.m),
        Figure("hw.training_intensity", float(training.intensity)),
        Figure("hw.training_share", float(training.share_of_peak), "%"),
        Figure("hw.training_over_ridge", float(training.intensity) / ridge, "x", digits=1),
        Figure("hw.batch_at_ridge", at_ridge.shape.m,
               doc="smallest decode batch whose intensity reaches the H100's ridge"),
        Figure("hw.moved_bytes", MOVED_BYTES, "GB"),
        *(f for link in INTERCONNECTS.values() for f in (
            Figure(f"hw.link_{_name(link.key)}_bw", link.bandwidth, "GB/s"),
            Figure(f"hw.link_{_name(link.key)}_time", MOVED_BYTES / link.bandwidth, "ms",
                   digits=2))),
    ]
