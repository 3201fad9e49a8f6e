"""The pipeline simulator widget: pick stages, microbatches and a schedule, see the step.

The widget looks values up; it computes nothing. At build, :func:`pipeline_widget` runs the
library's simulator (:mod:`distlesson.pipeline.simulator` on a schedule of
:mod:`distlesson.pipeline.schedules`, the chapter's durations) for every setting of the grid below
and embeds the results, already formatted for the page's language, as JSON in the page.
``docs/assets/widgets.js`` reads them on a change of a control, fills the outputs and draws
the timeline from the simulated slots.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from distlesson.pages.pipeline import (
    _LABELS,
    _NAMES,
    CHUNKS,
    DURATIONS,
    EXAMPLE,
    SCHEDULES,
    TARGET,
    _peaks,
    _run,
)
from distlesson.pages.widget_html import (
    MESSAGE,
    output,
    phase_words,
    select,
    timeline_legend,
    timeline_svg,
    widget,
)
from distlesson.pipeline.schedules import check_schedule_args
from distlesson.pipeline.simulator import Timeline
from distlesson.render.numbers import (
    check_locale,
    format_number,
    format_percent,
    list_comma,
    numbered,
)

__all__ = ["DEFAULT", "GOAL_STAGES", "MICROBATCHES", "SCHEDULES", "STAGES", "goal_reached",
           "goal_text", "pipeline_widget", "setting_key", "timeline_data", "widget_data"]

# The grid: every combination is simulated at build.
STAGES = (2, 3, 4, 6, 8)
MICROBATCHES = (1, 2, 4, 8, 12, 16, 24, 32)
GOAL_STAGES = 2  # the Catalan exercise: "with at least two pipeline stages"
DEFAULT = (*EXAMPLE, "1f1b")  # the chapter's example: 4 stages, 8 microbatches, 1F1B
_NAME = "pipeline"  # data-widget; ids of its controls start with dl-pipeline
# the controls every output depends on
_INPUTS = ("stages", "microbatches", "schedule")

_WORDS = {
    "widget": {"en": "Pipeline simulator", "ca": "Simulador del pipeline",
               "fa": "شبیه‌ساز خط لوله"},
    "makespan": {"en": "{label} (forward = {one})", "ca": "{label} (forward = {one})",
                 "fa": "{label} (گذر رو به جلو = {one})"},
    "goal": {"en": "Goal: a bubble below {target}",
             "ca": "Objectiu: una bombolla per sota del {target}",
             "fa": "هدف: حبابی کمتر از {target}"},
    "reached": {"en": "reached", "ca": "assolit", "fa": "برآورده شد"},
    "not_yet": {"en": "not yet", "ca": "encara no", "fa": "هنوز نه"},
    "option_interleaved": {"en": "{name}, {v} chunks", "ca": "{name}, {v} trossos",
                           "fa": "{name}، {v} تکه"},
    "invalid": {
        "en": "{name} needs the microbatches to be a multiple of the stages: {m} is not a "
              "multiple of {p}. Pick other numbers or another schedule.",
        "ca": "{name} necessita que el nombre de microlots sigui múltiple del nombre "
              "d'etapes: {m} no és múltiple de {p}. Trieu altres valors o una altra "
              "planificació.",
        "fa": "در {name}، تعداد ریزدسته‌ها باید مضربی از تعداد مرحله‌ها باشد: {m} مضربی از "
              "{p} نیست. عدد دیگری یا زمان‌بندی دیگری انتخاب کنید.",
    },
    "microbatch": {"en": "microbatch", "ca": "microlot", "fa": "ریزدسته"},
    "chunk": {"en": "chunk", "ca": "tros", "fa": "تکه"},
    "timeline": {"en": "Timeline of the step: one row per stage, time from left to right",
                 "ca": "Cronograma del pas: una fila per etapa, el temps d'esquerra a dreta",
                 "fa": "خط زمانی گام: هر سطر یک مرحله، زمان از چپ به راست"},
}
_NONE = "—"  # shown in the outputs for a setting the schedule does not allow


def _w(key: str, locale: str) -> str:
    return _WORDS[key][locale]


def setting_key(stages: int, microbatches: int, schedule: str) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{stages}-{microbatches}-{schedule}"


def goal_text(reached: bool, locale: str) -> str:
    """The goal output's words: reached, or not yet."""
    return _w("reached" if reached else "not_yet", check_locale(locale))


def _chunks(name: str) -> int:
    return CHUNKS if name == "interleaved" else 1


def _valid(name: str, pp: int, m: int) -> bool:
    try:
        check_schedule_args(name, pp, m, _chunks(name))
    except ValueError:
        return False
    return True


def _exact_number(value: int | Fraction) -> int | float:
    """A time for JSON: an int when whole (shorter), else a float (halves are exact)."""
    return int(value) if value == int(value) else float(value)


def _span(timeline: Timeline, locale: str) -> str:
    span = timeline.makespan
    return format_number(float(span), locale, digits=0 if span == int(span) else 1)


def goal_reached(timeline: Timeline) -> bool:
    """The Catalan exercise: at least :data:`GOAL_STAGES` stages, a bubble below
    :data:`~distlesson.pages.pipeline.TARGET`."""
    return timeline.schedule.pp >= GOAL_STAGES and timeline.bubble_fraction < TARGET


def timeline_data(timeline: Timeline) -> dict[str, Any]:
    """What widget-core.js's ``timeline`` draws: the makespan ``T`` and the operations ``o``,
    one column per field (shorter than one array per operation): stage, kind, microbatch,
    start, end, and the chunk only where the schedule has several; the library's 0-based
    counts (the script numbers stages and microbatches from 1 for the reader)."""
    slots = timeline.slots
    ops: dict[str, Any] = {"s": [slot.stage for slot in slots],
                           "k": "".join(slot.op.kind for slot in slots),
                           "m": [slot.op.microbatch for slot in slots],
                           "a": [_exact_number(slot.start) for slot in slots],
                           "z": [_exact_number(slot.end) for slot in slots]}
    if timeline.schedule.chunks > 1:
        ops["c"] = [slot.op.chunk for slot in slots]
    return {"T": _exact_number(timeline.makespan), "o": ops}


def _setting(name: str, pp: int, m: int, locale: str) -> dict[str, Any]:
    if not _valid(name, pp, m):
        return {"e": _w("invalid", locale).format(
            name=_NAMES[name][locale], m=format_number(m, locale), p=format_number(pp, locale))}
    run = _run(name, pp, m)
    return {
        "b": format_percent(float(run.bubble_fraction), locale, digits=1),
        "t": _span(run, locale),
        "p": _peaks(run, locale),
        "g": goal_reached(run),
        **timeline_data(run),
    }


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    settings = {setting_key(pp, m, name): _setting(name, pp, m, locale)
                for pp in STAGES for m in MICROBATCHES for name in SCHEDULES}
    longest = max(s["T"] for s in settings.values() if "T" in s)
    return {
        "w": {
            "stage": [numbered(_LABELS["stage"][locale], s + 1, locale)
                      for s in range(max(STAGES))],
            # integers as the page writes them: time ticks and microbatch numbers
            "n": [format_number(i, locale) for i in range(int(longest) + 2)],
            "kind": {"F": _LABELS["forward"][locale], "B": _LABELS["backward"][locale],
                     "W": _LABELS["wgrad"][locale]},
            "mb": _w("microbatch", locale),
            "chunk": _w("chunk", locale),
            "comma": list_comma(locale),
            "phase": phase_words(),
            "time": _LABELS["time"][locale],
            "goal": [goal_text(False, locale), goal_text(True, locale)],
            "none": _NONE,
        },
        "d": settings,
    }


def pipeline_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded.

    The outputs already show the default setting (the chapter's example), so the page says
    the right thing before the script runs; the timeline is drawn by the script.
    """
    check_locale(locale)
    data = widget_data(locale)
    pp, m, name = DEFAULT
    first = data["d"][setting_key(pp, m, name)]

    def schedule_option(key: str) -> str:
        if key != "interleaved":
            return _NAMES[key][locale]
        return _w("option_interleaved", locale).format(
            name=_NAMES[key][locale], v=format_number(CHUNKS, locale))

    controls = "".join((
        select(_NAME, "stages", _LABELS["stages"][locale],
               [(str(p), format_number(p, locale)) for p in STAGES], str(pp)),
        select(_NAME, "microbatches", _LABELS["microbatches"][locale],
               [(str(n), format_number(n, locale)) for n in MICROBATCHES], str(m)),
        select(_NAME, "schedule", _LABELS["schedule"][locale],
               [(key, schedule_option(key)) for key in SCHEDULES], name),
    ))
    makespan_label = _w("makespan", locale).format(
        label=_LABELS["makespan"][locale], one=format_number(DURATIONS.fwd, locale))
    goal_label = _w("goal", locale).format(target=format_percent(float(TARGET), locale))
    outputs = "".join((
        output(_NAME, _INPUTS, "bubble", _LABELS["bubble_sim"][locale], first["b"]),
        output(_NAME, _INPUTS, "makespan", makespan_label, first["t"]),
        output(_NAME, _INPUTS, "peaks", _LABELS["peak"][locale], first["p"]),
        output(_NAME, _INPUTS, "goal", goal_label, goal_text(first["g"], locale),
               f' data-reached="{str(first["g"]).lower()}"'),
    ))
    kinds = {kind: _LABELS[key][locale] for kind, key in (
        ("F", "forward"), ("B", "backward"), ("W", "wgrad"), ("idle", "idle"))}
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'{MESSAGE}{timeline_svg(_w("timeline", locale))}{timeline_legend(kinds)}',
                  data)
