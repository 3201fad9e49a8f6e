"""A simulated pipeline as a Gantt chart: one row per stage, one box per operation.

Drawn with matplotlib and written through :func:`distlesson.render.svg.to_svg`, in its
style: text stays text, ink follows the page's colour scheme, data colours are Okabe-Ito.
Forward, backward and weight-gradient boxes take the first three palette colours; idle
time is hatched in the ink colour. Under interleaving, later chunks are drawn lighter.
Stages and microbatches are numbered from 1 for the reader (the library counts from 0).
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import FuncFormatter, MaxNLocator

from distlesson.pipeline.simulator import Timeline
from distlesson.render.numbers import check_locale, format_number, numbered
from distlesson.render.palette import SCHEDULE_PHASES, Swatch, lighter
from distlesson.render.svg import (
    INK,
    MIN_TEXT_POINTS,
    STYLE,
    WIDTH_INCHES,
    legend_above,
    to_svg,
)

__all__ = ["LABEL_KEYS", "box_fill", "gantt_svg"]

LABEL_KEYS = ("stage", "time", "forward", "backward", "wgrad", "idle")
"""The words a page passes in ``labels``, in its own language; ``later_chunks`` too, if it
draws an interleaved schedule, names the lighter boxes of a stage's later chunks."""

_COLOURS = {kind: swatch.fill for kind, swatch in SCHEDULE_PHASES.items()}  # as the widgets
_LEGEND = {"F": "forward", "B": "backward", "W": "wgrad"}
_ROW_HEIGHT = 0.7  # of the 1.0 between rows
_AXIS_POINTS = WIDTH_INCHES * 72 - 110  # about the axes' width, in points (less the labels)
_FONT_POINTS = MIN_TEXT_POINTS  # box labels


def box_fill(kind: str, chunk: int, chunks: int) -> Swatch:
    """The fill of an op's box and the ink of its label: later chunks of an interleaved
    schedule lighter (up to half white), opaque, so the ink is chosen on what shows."""
    white = 0.0 if chunks == 1 else 0.5 * chunk / (chunks - 1)
    return Swatch(lighter(_COLOURS[kind], white))


def _tick(value: float, locale: str) -> str:
    """A time tick: whole numbers without decimals, others with one."""
    return format_number(value, locale, digits=0 if value == round(value) else 1)


def _fits(width: float, makespan: float, text: str) -> bool:
    """Whether ``text`` fits in a box ``width`` long on an axis ``makespan`` long."""
    return width / makespan * _AXIS_POINTS >= 0.65 * _FONT_POINTS * len(text) + 3


def _idle_gaps(timeline: Timeline) -> list[tuple[int, float, float]]:
    """(stage, start, length) of every interval in which a stage computes nothing."""
    gaps = []
    ends: dict[int, float] = {}
    for slot in timeline.slots:  # stage by stage, in each stage's (time) order
        last = ends.get(slot.stage, 0.0)
        if slot.start > last:
            gaps.append((slot.stage, last, float(slot.start) - last))
        ends[slot.stage] = float(slot.end)
    makespan = float(timeline.makespan)
    gaps += [(s, end, makespan - end) for s, end in ends.items() if end < makespan]
    return gaps


def gantt_svg(timeline: Timeline, *, name: str, title: str, labels: Mapping[str, str],
              locale: str = "en") -> str:
    """The timeline as an inline SVG Gantt chart.

    ``labels`` maps each of :data:`LABEL_KEYS` to the page's word for it; ``locale`` (en,
    ca, fa) formats the numbers drawn (Persian digits for ``fa``). ``name`` keeps the SVG's
    ids unique on a page: box i of the ops has id ``{name}-op{i}``, idle box j
    ``{name}-idle{j}``. The same timeline and arguments always give the same string.
    """
    check_locale(locale)
    missing = [key for key in LABEL_KEYS if key not in labels]
    if missing:
        raise ValueError(f"labels lack {', '.join(missing)}; needed: {', '.join(LABEL_KEYS)}")
    schedule = timeline.schedule
    pp, v, makespan = schedule.pp, schedule.chunks, float(timeline.makespan)
    with matplotlib.rc_context(STYLE):
        height = 0.45 * pp + 1.5  # inches; the axes take about 77% of it
        fig, ax = plt.subplots(figsize=(WIDTH_INCHES, height), layout="constrained")
        for i, slot in enumerate(timeline.slots):
            y, width = pp - 1 - slot.stage, float(slot.end - slot.start)
            fill = box_fill(slot.op.kind, slot.op.chunk, v)
            box = Rectangle((float(slot.start), y - _ROW_HEIGHT / 2), width, _ROW_HEIGHT,
                            facecolor=fill.fill, edgecolor=INK, linewidth=0.3)
            box.set_gid(f"{name}-op{i}")
            ax.add_patch(box)
            text = format_number(slot.op.microbatch + 1, locale)
            if _fits(width, makespan, text):
                ax.text(float(slot.start) + width / 2, y, text, ha="center", va="center",
                        fontsize=_FONT_POINTS, color=fill.ink)
        for j, (stage, start, length) in enumerate(_idle_gaps(timeline)):
            gap = Rectangle((start, pp - 1 - stage - _ROW_HEIGHT / 2), length, _ROW_HEIGHT,
                            facecolor="none", edgecolor=INK, hatch="///", linewidth=0,
                            alpha=0.35)
            gap.set_gid(f"{name}-idle{j}")
            ax.add_patch(gap)
        ax.set_xlim(0, makespan)
        ax.set_ylim(-0.6, pp - 0.4)
        ax.set_yticks(range(pp), [numbered(labels['stage'], pp - y, locale)
                                  for y in range(pp)])
        ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=makespan >= 10))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: _tick(x, locale)))
        ax.set_xlabel(labels["time"])
        kinds = ("F", "B", "W") if schedule.split_backward else ("F", "B")
        handles = [Patch(facecolor=_COLOURS[k], label=labels[_LEGEND[k]]) for k in kinds]
        if v > 1 and "later_chunks" in labels:  # the lighter boxes get a key too
            handles.append(Patch(facecolor=lighter(_COLOURS["F"], 0.5), edgecolor=INK,
                                 linewidth=0.3, label=labels["later_chunks"]))
        handles.append(Patch(facecolor="none", edgecolor=INK, hatch="///", linewidth=0,
                             alpha=0.35, label=labels["idle"]))
        legend_above(ax, len(handles), handles, locale=locale)
        return to_svg(fig, name=name, title=title, locale=locale)
