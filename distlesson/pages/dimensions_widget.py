"""The five dimensions widget: pick the data, tensor, pipeline and context degrees, the ZeRO
stage and the micro-batches for Llama 3 70B; see what one GPU holds and sends per step, and
the step's pipeline.

The widget looks values up; it computes nothing. At build, :func:`widget_data` asks
:func:`distlesson.parallel.layout.analyse_layout` for every setting of the grid below, on the
chapter's step (:data:`distlesson.pages.parallelism.STEP`, its 128 sequences cut into the
chosen micro-batches by :meth:`~distlesson.parallel.layout.Workload.split`), and simulates
1F1B (:mod:`distlesson.pipeline.simulator`) for the report's stages and micro-batches. A setting
the library refuses carries the reason instead. The grid has 21,000 settings, so each output
is embedded as a table over the controls it depends on (:mod:`distlesson.pages.widget_grid`),
already formatted for the page's language. ``docs/assets/widget-dimensions.js`` reads them on
a change of a control, fills the outputs, draws the stacked bar of memory per GPU with a
mark at the GPU's memory and the pipeline's timeline.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Hashable
from typing import Any

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.memory.states import Layout
from distlesson.pages.dimensions_labels import WORDS, refusal_text
from distlesson.pages.parallelism import BAR_PARTS, GPU, MODEL, STEP, memory_part
from distlesson.pages.parallelism_labels import LABELS
from distlesson.pages.pipeline import _LABELS as PIPE_LABELS
from distlesson.pages.pipeline import TARGET, _run
from distlesson.pages.pipeline_widget import GOAL_STAGES, goal_reached, goal_text, timeline_data
from distlesson.pages.widget_grid import Grid, factored_table, lookup
from distlesson.pages.widget_html import (
    MESSAGE,
    bar_svg,
    output,
    palette_words,
    phase_words,
    select,
    swatch_legend,
    timeline_legend,
    timeline_svg,
    widget,
)
from distlesson.parallel.layout import LayoutReport, analyse_layout
from distlesson.render.numbers import (
    check_locale,
    format_number,
    format_percent,
    format_quantity,
    list_comma,
    numbered,
)
from distlesson.render.palette import MEMORY_PARTS, colours

__all__ = ["CPS", "DEFAULT", "DPS", "GRID", "MICROBATCHES", "PARTS", "PPS", "TPS", "ZEROS",
           "dimensions_widget", "report", "shown", "widget_data"]

# The grid: every combination is analysed at build.
DPS = (1, 2, 4, 8, 16, 32, 64)
TPS = (1, 2, 3, 4, 8)  # 3 does not divide the heads: the widget shows the refusal
PPS = (1, 2, 4, 8, 16)
CPS = (1, 2, 3, 4, 8)  # 3 does not divide the sequence: refused too
ZEROS = (0, 1, 2, 3)
MICROBATCHES = (1, 2, 4, 8, 16, 32)  # per replica; dp x m must divide the step's sequences
GRID = Grid((("dp", DPS), ("tp", TPS), ("pp", PPS), ("cp", CPS), ("zero", ZEROS),
             ("microbatches", MICROBATCHES)))
DEFAULT = (16, 1, 1, 1, 0, 8)  # the strategy table's data parallelism: the chapter's STEP
PARTS = BAR_PARTS  # the bar, left to right, as the chapter's memory plot
COLOURS = tuple(colours(MEMORY_PARTS, PARTS))  # as the static memory plots
BAR_STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)  # the bar's tick spacings, in GB
BAR_TICKS = 12  # at most this many ticks on the bar's axis
_NAME = "dimensions"  # data-widget; ids of its controls start with dl-dimensions
_DIMS = ("dp", "tp", "pp", "cp")  # the traffic, dimension by dimension


def _w(key: str, locale: str, **values: str) -> str:
    return WORDS[key][locale].format(**values)


def _gb(value: float, locale: str, digits: int = 1) -> str:
    return format_quantity(float(value), "GB", locale, digits=digits)


def _memory() -> int:
    return get_gpu(GPU).memory_bytes


@functools.cache
def report(dp: int, tp: int, pp: int, cp: int, zero: int, microbatches: int
           ) -> LayoutReport | ValueError:
    """The library's report of a setting, or its refusal (the ValueError it raised)."""
    try:
        return analyse_layout(get_model(MODEL), Layout(dp=dp, tp=tp, pp=pp, cp=cp, zero=zero),
                              STEP.split(dp, microbatches))
    except ValueError as error:
        return error


# What each table shows of a report, before formatting: computed once for the grid's
# 21,000 settings, then formatted once per distinct value and language.
_RAW: dict[str, Callable[[LayoutReport], Hashable]] = {
    "mem": lambda r: (r.per_gpu_bytes, r.per_gpu_bytes <= _memory(), r.overheads),
    "gpus": lambda r: r.layout.world_size,
    "seq": lambda r: STEP.split(r.layout.dp, r.num_microbatches).micro_batch,
    "states": lambda r: tuple(memory_part(r, p) for p in PARTS[:4]),
    "acts": lambda r: tuple(memory_part(r, p) for p in PARTS[4:6]),
    "pipe": lambda r: (r.layout.pp, r.num_microbatches),
    **{f"sent_{dim}": (lambda r, dim=dim: getattr(r.communication, dim)) for dim in _DIMS},
}


@functools.cache
def _raw_values(table: str) -> dict[tuple, Hashable | None]:
    """``_RAW[table](report)`` for every setting, None where the library refused it."""
    what = _RAW[table]
    return {s: None if isinstance(r := report(*s), ValueError) else what(r)
            for s in GRID.settings()}


def _values(table: str, formatted: Callable[[Any], Hashable]) -> dict[tuple, Hashable | None]:
    """The table's values for every setting, each distinct one formatted once."""
    raw = _raw_values(table)
    shown = {v: formatted(v) for v in set(raw.values()) if v is not None}
    return {s: None if v is None else shown[v] for s, v in raw.items()}


def _pipeline(key: tuple[int, int], locale: str) -> dict[str, Any]:
    run = _run("1f1b", *key)
    return {"b": format_percent(float(run.bubble_fraction), locale, digits=1),
            "g": goal_reached(run), **timeline_data(run)}


def _tables(locale: str) -> dict[str, dict[str, Any]]:
    refusals = {s: refusal_text(r, locale) if isinstance(r := report(*s), ValueError) else ""
                for s in GRID.settings()}

    def parts(values) -> tuple[tuple[float, ...], tuple[str, ...]]:
        values = tuple(values)
        # the bar's lengths in GB, to 10 MB: a twentieth of a pixel on the bar
        return (tuple(round(float(v) / 1e9, 2) for v in values),
                tuple(_gb(v, locale) for v in values))  # the segments' numbers, as shown

    tables = {
        "e": factored_table(GRID, refusals),
        # the total, whether it fits, and the overheads' segment of the bar: all three follow
        # every control, so they share one table
        "mem": factored_table(GRID, _values("mem", lambda v: (
            _gb(v[0], locale), LABELS["yes" if v[1] else "no"][locale],
            *(part[0] for part in parts((v[2],)))))),
        "gpus": factored_table(GRID, _values("gpus", lambda v: format_number(v, locale))),
        "seq": factored_table(GRID, _values("seq", lambda v: format_number(v, locale))),
        "states": factored_table(GRID, _values("states", parts), render=list),
        # without the overheads, which follow every control (in "mem")
        "acts": factored_table(GRID, _values("acts", parts), render=list),
        # the timeline of the report's own stages and micro-batches
        "pipe": factored_table(GRID, _values("pipe", lambda v: v),
                               render=lambda key: _pipeline(key, locale)),
    }
    for dim in _DIMS:
        tables[f"sent_{dim}"] = factored_table(
            GRID, _values(f"sent_{dim}", lambda v: _gb(v, locale)))
    return tables


def shown(locale: str, setting: tuple[int, ...]) -> dict[str, Any]:
    """What the widget shows for ``setting``, read back from its tables as the script does."""
    tables = widget_data(locale)["t"]
    return {name: lookup(table, GRID, setting) for name, table in tables.items()}


def _tick_labels(steps: tuple[int, ...], most: int, locale: str) -> dict[str, str]:
    """Every tick the axis may draw: multiples of a spacing, up to ``most`` of them."""
    return {str(t): format_number(t, locale)
            for step in steps for t in range(0, step * most + 1, step)}


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    longest = max(_run("1f1b", p, m).makespan for p in PPS for m in MICROBATCHES)
    return {
        "a": GRID.as_json(),
        "w": {
            "parts": [LABELS[part][locale] for part in PARTS],
            **palette_words(MEMORY_PARTS, PARTS),
            "phase": phase_words(),
            "ticks": _tick_labels(BAR_STEPS, BAR_TICKS, locale),
            "steps": list(BAR_STEPS),
            "most": BAR_TICKS,
            "axis": LABELS["gb_per_gpu"][locale],
            "limit": _memory() / 1e9,  # where the mark goes, GB
            "limitText": _gb(_memory(), locale, 0),
            # the timeline's words and numbers, as the pipeline widget's
            "stage": [numbered(PIPE_LABELS["stage"][locale], s + 1, locale)
                      for s in range(max(PPS))],
            "n": [format_number(i, locale)
                  for i in range(int(max(longest, max(MICROBATCHES))) + 2)],
            "kind": {"F": PIPE_LABELS["forward"][locale], "B": PIPE_LABELS["backward"][locale]},
            "mb": _w("microbatch", locale),
            "comma": list_comma(locale),
            "time": PIPE_LABELS["time"][locale],
            "goal": [goal_text(False, locale), goal_text(True, locale)],
            "none": "–",
        },
        "t": _tables(locale),
    }


def dimensions_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded.

    The outputs already show the default setting, so the page says the right thing before
    the script runs; the bar and the timeline are drawn by the script.
    """
    check_locale(locale)
    data = widget_data(locale)
    first = shown(locale, DEFAULT)
    inputs = GRID.names
    controls = "".join(
        select(_NAME, name, _w(name, locale),
               [(str(v), format_number(v, locale)) for v in values], str(default))
        for (name, values), default in zip(GRID.axes, DEFAULT, strict=True))
    gb = _gb(_memory(), locale, 0)
    pipe = first["pipe"]
    goal = _w("goal", locale, p=format_number(GOAL_STAGES, locale),
              target=format_percent(float(TARGET), locale))
    outputs = "".join((
        output(_NAME, inputs, "memory", LABELS["total_gpu"][locale], first["mem"][0]),
        output(_NAME, inputs, "fits", LABELS["fits"][locale].format(gb=gb), first["mem"][1]),
        output(_NAME, inputs, "gpus", _w("gpus", locale), first["gpus"]),
        output(_NAME, inputs, "sequences", _w("sequences", locale), first["seq"]),
        *(output(_NAME, inputs, f"sent_{dim}",
                 _w("sent", locale, dim=LABELS[f"dim_{dim}"][locale]), first[f"sent_{dim}"])
          for dim in _DIMS),
        output(_NAME, inputs, "bubble", _w("bubble", locale), pipe["b"]),
        output(_NAME, inputs, "goal", goal, goal_text(pipe["g"], locale),
               f' data-reached="{str(pipe["g"]).lower()}"'),
    ))
    caption = html.escape(_w("step", locale, batch=format_number(STEP.global_batch, locale),
                 seq=format_number(STEP.seq_len, locale)))
    legend = swatch_legend((part, colour, LABELS[part][locale])
                           for part, colour in zip(PARTS, COLOURS, strict=True))
    kinds = {kind: PIPE_LABELS[key][locale]
             for kind, key in (("F", "forward"), ("B", "backward"), ("idle", "idle"))}
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'<p class="dl-widget-caption">{caption}</p>{MESSAGE}'
                  f'{bar_svg(_w("bar", locale, gb=gb))}'
                  f'<ul class="dl-widget-legend">{legend}</ul>'
                  f'{timeline_svg(_w("timeline", locale))}{timeline_legend(kinds)}', data)
