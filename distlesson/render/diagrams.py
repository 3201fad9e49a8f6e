"""Diagrams of the parallelisms, drawn at build time as inline SVG: the public facade.

Each diagram is a function ``(..., *, locale, labels=None) -> str``: the words come from a
table per locale (``en``, ``ca``, ``fa``; ``labels`` overrides any of them), numbers go
through :func:`~distlesson.render.numbers.format_number`, and the SVG is written by
:func:`~distlesson.render.svg.to_svg` (text stays text; ink is ``currentColor``; fills are
Okabe-Ito colours), so a diagram follows the page's language and its light or dark scheme.
This module draws data parallelism, FSDP and the 3D layout; the ring all-reduce, drawn from
the simulation, and the drawing kit (:class:`~distlesson.render.diagram_ring.Canvas`) are in
:mod:`distlesson.render.diagram_ring`, re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

import matplotlib

from distlesson.render.diagram_ring import (
    Canvas,
    check_count,
    ring_allreduce_diagram,
    unit_fraction,
    words,
)
from distlesson.render.palette import DIMENSIONS, MEMORY_PARTS, YELLOW, colours
from distlesson.render.svg import INK, STYLE

__all__ = [
    "BLOCK_WORDS",
    "data_parallel_diagram",
    "fsdp_diagram",
    "layout_3d_diagram",
    "ring_allreduce_diagram",
]

BLOCK_WORDS: dict[str, dict[str, dict[str, str]]] = {
    "data_parallel": {
        "title": {"en": "Data parallelism on {n} GPUs", "ca": "Paral·lelisme de dades en {n} GPU",
                  "fa": "موازی‌سازی داده روی {n} GPU"},
        "batch": {"en": "One batch, cut into {n} slices", "ca": "Un lot, partit en {n} porcions",
                  "fa": "یک دسته، بریده به {n} برش"},
        "slice": {"en": "slice {k}", "ca": "porció {k}", "fa": "برش {k}"},
        "model": {"en": "full model", "ca": "model sencer", "fa": "مدل کامل"},
        "fwd_bwd": {"en": "forward, backward", "ca": "forward i backward",
                    "fa": "گذر رو به جلو و رو به عقب"},
        "local_grad": {"en": "local gradient", "ca": "gradient local", "fa": "گرادیان محلی"},
        "all_reduce": {"en": "all-reduce: the average of the {n} gradients",
                       "ca": "all-reduce: la mitjana dels {n} gradients",
                       "fa": "all-reduce: میانگین {n} گرادیان"},
        "avg_grad": {"en": "average gradient", "ca": "gradient mitjà",
                     "fa": "گرادیان میانگین"},
        "update": {"en": "optimizer step", "ca": "pas de l'optimitzador",
                   "fa": "گام بهینه‌ساز"},
        "same": {"en": "The same averaged gradient on every GPU: the copies stay identical",
                 "ca": "El mateix gradient mitjà a cada GPU: les còpies continuen idèntiques",
                 "fa": "همان گرادیان میانگین روی همهٔ GPUها: نسخه‌ها یکسان می‌مانند"},
    },
    "fsdp": {
        "title": {"en": "FSDP (ZeRO-3) on one layer over {n} GPUs",
                  "ca": "FSDP (ZeRO-3) en una capa amb {n} GPU",
                  "fa": "FSDP (ZeRO-3) برای یک لایه روی {n} GPU"},
        "start": {"en": "its own\nshard", "ca": "el seu\nfragment", "fa": "شارد\nخودش"},
        "all_gather": {"en": "all-gather", "ca": "all-gather", "fa": "all-gather"},
        "forward": {"en": "forward on\nthe full layer", "ca": "forward\namb tota la capa",
                    "fa": "گذر رو به جلو\nبا لایهٔ کامل"},
        "free": {"en": "free the\nother shards", "ca": "allibera els\naltres fragments",
                 "fa": "آزادسازی\nشاردهای دیگر"},
        "backward": {"en": "backward on\nthe full layer", "ca": "backward\namb tota la capa",
                     "fa": "گذر رو به عقب\nبا لایهٔ کامل"},
        "reduce_scatter": {"en": "reduce-scatter", "ca": "reduce-scatter", "fa": "reduce-scatter"},
        "update": {"en": "update\nits own shard", "ca": "actualitza\nel seu fragment",
                   "fa": "به‌روزرسانی\nشارد خودش"},
        "time": {"en": "time", "ca": "temps", "fa": "زمان"},
        "weights": {"en": "weights", "ca": "pesos", "fa": "وزن‌ها"},
        "grads": {"en": "gradients", "ca": "gradients", "fa": "گرادیان‌ها"},
        "optimizer": {"en": "optimizer states", "ca": "estats de l'optimitzador",
                      "fa": "حالت‌های بهینه‌ساز"},
        "not_held": {"en": "not held", "ca": "no hi és", "fa": "در اختیار نیست"},
        "note": {"en": "Each GPU keeps {frac} of the layer; the full layer exists only "
                       "between an all-gather and the next free.",
                 "ca": "Cada GPU guarda {frac} de la capa; la capa sencera només existeix "
                       "entre un all-gather i el següent alliberament.",
                 "fa": "هر GPU فقط {frac} از لایه را نگه می‌دارد؛ لایهٔ کامل تنها میان "
                       "یک all-gather و آزادسازی بعدی وجود دارد."},
    },
    "layout_3d": {
        "title": {"en": "3D parallelism: {tp} × {pp} × {dp} = {gpus} GPUs",
                  "ca": "Paral·lelisme 3D: {tp} × {pp} × {dp} = {gpus} GPU",
                  "fa": "موازی‌سازی سه‌بعدی: {tp} × {pp} × {dp} = {gpus} GPU"},
        "pipeline": {"en": "One pipeline: {pp} nodes of {tp} GPUs, {gpus} GPUs",
                     "ca": "Un pipeline: {pp} nodes de {tp} GPU, {gpus} GPU",
                     "fa": "یک خط لوله: {pp} گره با {tp} GPU، روی هم {gpus} GPU"},
        "stage": {"en": "stage {k}", "ca": "etapa {k}", "fa": "مرحلهٔ {k}"},
        "replicas": {"en": "× {dp} replicas", "ca": "× {dp} rèpliques", "fa": "{dp} نسخه"},
        "tp_note": {"en": "a node of {tp} GPUs: tensor parallel inside the node (NVLink)",
                    "ca": "un node de {tp} GPU: paral·lelisme de tensors dins del node (NVLink)",
                    "fa": "یک گره با {tp} GPU: موازی‌سازی تنسوری درون گره (NVLink)"},
        "pp_note": {"en": "pipeline across nodes (InfiniBand or RoCE): the layers in {pp} stages",
                    "ca": "pipeline entre nodes (InfiniBand o RoCE): les capes en {pp} etapes",
                    "fa": "خط لوله میان گره‌ها (InfiniBand یا RoCE): لایه‌ها در {pp} مرحله"},
        "dp_note": {"en": "{dp} replicas of the pipeline: data parallel",
                    "ca": "{dp} rèpliques del pipeline: paral·lelisme de dades",
                    "fa": "{dp} نسخه از خط لوله: موازی‌سازی داده"},
        "total": {"en": "{tp} × {pp} × {dp} = {gpus} GPUs",
                  "ca": "{tp} × {pp} × {dp} = {gpus} GPU",
                  "fa": "{tp} × {pp} × {dp} = {gpus} GPU"},
    },
}
"""Per diagram, its words per locale; ``{n}``, ``{k}``, ``{tp}``... are filled in."""


def data_parallel_diagram(n: int = 4, *, locale: str,
                          labels: Mapping[str, str] | None = None) -> str:
    """Data parallelism over ``n`` GPUs, top to bottom: a batch cut into ``n`` slices; on
    every GPU a full model copy runs its slice to a local gradient; one all-reduce averages
    the ``n`` gradients; every GPU gets the same average and takes the same optimizer step.
    """
    check_count("n", n, 2, 5)
    w = words(BLOCK_WORDS["data_parallel"], locale, labels)
    width, size = 7.4, 10
    lane = (width - 0.2) / n  # GPU g's lane: x from 0.1 + g * lane, 0.1 inch apart
    inner = lane - 0.3  # the boxes inside a lane
    with matplotlib.rc_context(STYLE):
        c = Canvas.new(width, 5.3, locale)
        c.text(width / 2, 5.15, w["batch"].format(n=c.num(n)), size=10)
        for g in range(n):
            left = c.along(0.1 + g * lane, lane - 0.1)  # GPU 1 where the page's lines start
            mid = left + (lane - 0.1) / 2
            c.box(mid - inner / 2, 4.6, inner, 0.3, fill=YELLOW, round_=0.02)
            c.text(mid, 4.75, w["slice"].format(k=c.num(g + 1)), size=size)
            c.arrow((mid, 4.58), (mid, 4.3), shrink=1)
            c.box(left, 0.5, lane - 0.1, 3.8, dashed=True, round_=0.08)
            c.text(mid, 4.1, f"GPU {c.num(g + 1)}", size=10, weight="bold")
            c.box(mid - inner / 2, 3.5, inner, 0.4, fill=MEMORY_PARTS["weights"].fill)
            c.text(mid, 3.7, w["model"], size=size)
            side = 1 if c.rtl else -1  # the arrow on the side where the label starts
            x = mid + side * (inner / 2 - 0.12)
            c.arrow((x, 3.48), (x, 3.12), shrink=1)
            c.text(x - side * 0.08, 3.3, w["fwd_bwd"], size=size,
                   ha="right" if c.rtl else "left")
            c.box(mid - inner / 2, 2.7, inner, 0.4, fill=MEMORY_PARTS["grads"].fill)
            c.text(mid, 2.9, w["local_grad"], size=size)
            c.arrow((mid, 2.68), (mid, 2.38), shrink=1)
            c.arrow((mid, 1.88), (mid, 1.58), shrink=1)
            c.box(mid - inner / 2, 1.15, inner, 0.4, fill=MEMORY_PARTS["grads"].fill)
            c.text(mid, 1.35, w["avg_grad"], size=size)
            c.arrow((mid, 1.13), (mid, 0.9), shrink=1)
            c.text(mid, 0.72, w["update"], size=size)
        c.box(0.05, 1.9, width - 0.1, 0.46, fill=DIMENSIONS["dp"].fill, alpha=0.35)
        c.text(width / 2, 2.13, w["all_reduce"].format(n=c.num(n)), size=10)
        c.text(width / 2, 0.25, w["same"], size=10)
        return c.svg(name=f"data-parallel-{locale}", title=w["title"].format(n=c.num(n)))


# FSDP: (phase, what each GPU holds of weights, gradients, optimizer states). "own" is its
# 1/n shard, "all" the full layer, "" nothing; a collective phase spans every GPU.
_FSDP_PHASES = (
    ("start", ("own", "", "own")),
    ("all_gather", None),
    ("forward", ("all", "", "own")),
    ("free", ("own", "", "own")),
    ("all_gather", None),
    ("backward", ("all", "all", "own")),
    ("reduce_scatter", None),
    ("update", ("own", "own", "own")),
)
# the memory parts' colours, as in the page's memory plots and widgets
_STATE_COLOURS = tuple(colours(MEMORY_PARTS, ("weights", "grads", "optimizer")))


def fsdp_diagram(n: int = 4, *, locale: str, labels: Mapping[str, str] | None = None) -> str:
    """FSDP (ZeRO-3) on one layer: GPUs as rows, phases left to right in time. Each cell
    shows, per GPU, the n shards of the layer's weights, gradients and optimizer states
    (filled: held; dashed: not held). Gather to forward, free, gather to backward,
    reduce-scatter the gradients, update the own shard."""
    check_count("n", n, 2, 8)
    w = words(BLOCK_WORDS["fsdp"], locale, labels)
    row_h, left, col_w, coll_w = 0.62, 0.7, 1.08, 0.42
    top = 1.1 + n * row_h  # the top edge of the first GPU row
    height = top + 0.55
    with matplotlib.rc_context(STYLE):
        c = Canvas.new(7.4, height, locale)
        for g in range(n):
            c.text(left - 0.1, top - (g + 0.5) * row_h, f"GPU {c.num(g + 1)}", ha="right")
        x = left
        for phase, held in _FSDP_PHASES:
            if held is None:  # a collective: one box over all GPUs
                c.box(x + 0.04, top - n * row_h, coll_w - 0.08, n * row_h,
                      fill=DIMENSIONS["dp"].fill, alpha=0.3)
                c.text(x + coll_w / 2, top - n * row_h / 2, w[phase], rotation=90, size=10)
                x += coll_w
                continue
            c.text(x + col_w / 2, top + 0.25, w[phase], size=10)
            for g in range(n):
                for k, (holds, colour) in enumerate(zip(held, _STATE_COLOURS, strict=True)):
                    _shard_bar(c, x + 0.1, top - g * row_h - 0.14 - k * 0.15, col_w - 0.2,
                               n, g, holds, colour)
            x += col_w
        c.arrow((left, 0.9), (x, 0.9), width=0.8)  # time runs to the right in every language
        c.text(x - 0.05, 0.77, w["time"], ha="right", size=10)
        c.legend((left + x) / 2, 0.58, [(w["weights"], _STATE_COLOURS[0]),
                                        (w["grads"], _STATE_COLOURS[1]),
                                        (w["optimizer"], _STATE_COLOURS[2]),
                                        (w["not_held"], None)])
        note = w["note"].format(frac=unit_fraction(Fraction(1, n), c))
        c.text((left + x) / 2, 0.2, note, size=10)
        return c.svg(name=f"fsdp-{locale}", title=w["title"].format(n=c.num(n)))


def _shard_bar(c: Canvas, x: float, y: float, width: float, n: int, g: int, holds: str,
               colour: str) -> None:
    """n shards in a row, top edge at y: filled where GPU g holds them, dashed where not."""
    seg = width / n
    for s in range(n):
        held = holds == "all" or (holds == "own" and s == g)
        c.box(x + s * seg + 0.01, y - 0.11, seg - 0.02, 0.11, fill=colour if held else None,
              alpha=0.75, dashed=not held, round_=0.01)


def layout_3d_diagram(tp: int = 8, pp: int = 16, dp: int = 128, *, locale: str,
                      labels: Mapping[str, str] | None = None) -> str:
    """A 3D layout, drawn compactly: one pipeline of ``pp`` nodes (stages) of ``tp`` GPUs
    each, stacked shadows for its ``dp`` replicas, and the counts tp x pp x dp. The defaults
    are Llama 3 405B's pre-training layout on 16,384 GPUs (Grattafiori et al. 2024, "The
    Llama 3 Herd of Models", section 3.3.2: TP 8, PP 16, DP 128); NVLink joins the 8 GPUs of
    a server, and that run's network between servers is RoCE (section 3.3.1), which is why
    the key names both InfiniBand and RoCE."""
    check_count("tp", tp, 1, 16)
    check_count("pp", pp, 1, 64)
    check_count("dp", dp, 1, 1_000_000)
    w = words(BLOCK_WORDS["layout_3d"], locale, labels)
    cols = min(pp, 4)
    rows = math.ceil(pp / cols)
    node_w, node_h, gap_x, gap_y = 1.4, 0.5, 0.25, 0.3
    grid_w = cols * node_w + (cols - 1) * gap_x
    panel = (0.15, 1.45, grid_w + 0.3, rows * node_h + (rows - 1) * gap_y + 0.55)
    height = panel[1] + panel[3] + 0.65
    with matplotlib.rc_context(STYLE):
        c = Canvas.new(7.4, height, locale)
        px, py, pw, ph = panel
        shadows = min(dp - 1, 3)
        for j in range(shadows, 0, -1):  # replicas behind: only the edges that show
            d, e = 0.09 * j, 0.09 * (j - 1)
            c.ax.plot([px + d, px + d, px + pw + d, px + pw + d, px + pw + e],
                      [py + ph + e, py + ph + d, py + ph + d, py + d, py + d],
                      color=INK, linewidth=0.8, alpha=1 - 0.2 * j)
        c.box(px, py, pw, ph, fill=DIMENSIONS["dp"].fill, alpha=0.12, round_=0.06)
        c.text(px + pw - 0.15 if c.rtl else px + 0.15, py + ph - 0.2,
               w["pipeline"].format(pp=c.num(pp), tp=c.num(tp), gpus=c.num(pp * tp)),
               ha="right" if c.rtl else "left", size=10)
        c.text(px + pw + 0.09 * shadows, py + ph + 0.09 * shadows + 0.17,
               w["replicas"].format(dp=c.num(dp)), ha="right", size=10, weight="bold")
        for s in range(pp):
            row, col = divmod(s, cols)
            # a snake that starts where the page's lines start: the next row runs back
            forward = (row % 2 == 0) != c.rtl  # this row runs left to right
            col = col if forward else cols - 1 - col
            x = px + 0.15 + col * (node_w + gap_x)
            y = py + ph - 0.4 - (row + 1) * node_h - row * gap_y
            _node(c, x, y, node_w, node_h, tp, w["stage"].format(k=c.num(s + 1)))
            if s + 1 < pp:
                if (s + 1) % cols:  # the next stage is beside this one
                    step = node_w if forward else 0.0
                    sign = 1 if forward else -1
                    c.arrow((x + step, y + node_h / 2), (x + step + sign * gap_x,
                                                         y + node_h / 2), shrink=1)
                else:  # the next stage is below
                    c.arrow((x + node_w / 2, y), (x + node_w / 2, y - gap_y), shrink=1)
        _key(c, w, tp, pp, dp, py - 0.25)
        return c.svg(name=f"layout-3d-{locale}", title=w["title"].format(
            tp=c.num(tp), pp=c.num(pp), dp=c.num(dp), gpus=c.num(tp * pp * dp)))


def _node(c: Canvas, x: float, y: float, w: float, h: float, tp: int, label: str) -> None:
    """One node: a box with its stage label and its ``tp`` GPUs in a row."""
    c.box(x, y, w, h, fill=DIMENSIONS["tp"].fill, alpha=0.12)
    c.text(x + w / 2, y + h - 0.12, label, size=10)
    size = (w - 0.12) / tp
    for g in range(tp):
        c.box(x + 0.06 + g * size + 0.01, y + 0.06, size - 0.02, min(size - 0.02, 0.2),
              fill=DIMENSIONS["tp"].fill, alpha=0.7, round_=0.015)


def _key(c: Canvas, w: Mapping[str, str], tp: int, pp: int, dp: int, y: float) -> None:
    """Below the panel: what each dimension is, and the product of the three; the marks
    stand where the lines start (on the right for fa)."""

    def at(x: float, width: float = 0.0) -> float:  # x from the side where lines start
        return c.width - x - width if c.rtl else x

    notes = (w["tp_note"].format(tp=c.num(tp)), w["pp_note"].format(pp=c.num(pp)),
             w["dp_note"].format(dp=c.num(dp)))
    for i, text in enumerate(notes):
        yy = y - i * 0.27
        if i == 0:  # a node: its GPUs in a row
            c.box(at(0.2, 0.5), yy - 0.09, 0.5, 0.18, fill=DIMENSIONS["tp"].fill, alpha=0.12,
                  round_=0.02)
            for g in range(tp):
                c.box(at(0.22, 0.46) + (g + 0.1) * 0.46 / tp, yy - 0.05, 0.8 * 0.46 / tp,
                      0.1, fill=DIMENSIONS["tp"].fill, alpha=0.7, round_=0.005)
        elif i == 1:  # the link from one stage to the next
            c.arrow((at(0.2, 0.5), yy), (at(0.2, 0.5) + 0.5, yy), width=1.0)
        else:  # replicas
            for j in (2, 1, 0):
                c.box(at(0.2 + 0.06 * j, 0.38), yy - 0.1 + 0.06 * j, 0.38, 0.12,
                      fill=DIMENSIONS["dp"].fill, alpha=0.3, round_=0.02)
        c.line(yy, text, margin=0.85)
    total = w["total"].format(tp=c.num(tp), pp=c.num(pp), dp=c.num(dp),
                              gpus=c.num(tp * pp * dp))
    c.line(y - 3 * 0.27 - 0.05, total, margin=0.2, size=10.5, weight="bold")
