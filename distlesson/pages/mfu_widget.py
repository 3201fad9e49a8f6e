"""The MFU widget: change the step model's inputs for the chapter's Llama 3.1 405B layout.

The widget looks values up; it computes nothing. At build, :func:`mfu_widget` runs
:func:`distlesson.efficiency.step_time.estimate_step` on the chapter's model, layout, cluster
and software (:mod:`distlesson.pages.mfu`) for every setting of the grid below, with the
memory of the busiest GPU it reports, and embeds the results, already formatted for the
page's language, as JSON in the page. ``docs/assets/widget-mfu.js`` reads them on a change of a
control, fills the outputs and draws the seven terms as one stacked bar.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import Any

from distlesson.catalog.achieved import gemm_efficiency
from distlesson.catalog.models import get_model
from distlesson.efficiency.step_time import TERMS, StepEstimate, estimate_step
from distlesson.pages.mfu import _TERMS, CHUNKS, CLUSTER, INPUTS, LAYOUT, MODEL, WORKLOAD
from distlesson.pages.widget_html import (
    MESSAGE,
    bar_svg,
    output,
    palette_words,
    select,
    swatch_legend,
    widget,
)
from distlesson.parallel.layout import Workload
from distlesson.render.numbers import check_locale, format_number, format_percent, format_quantity
from distlesson.render.palette import MFU_TERMS, colours

__all__ = ["DEFAULT", "EFFICIENCIES", "MICROBATCHES", "RECOMPUTE", "SCHEDULES", "mfu_widget",
           "setting_key", "step", "widget_data", "workload"]

# The grid: every combination is estimated at build. The efficiency is that of large
# matrix products; the calibrated value (the chapter's scenario) is one of the choices.
CALIBRATED = gemm_efficiency(CLUSTER.gpu)
EFFICIENCIES = tuple(sorted({0.4, 0.5, CALIBRATED, 0.6, 0.7, 0.8}))
MICROBATCHES = (8, 16, 32, 64)  # per pipeline, per step
SCHEDULES = ("1f1b", "interleaved")
RECOMPUTE = ("none", "full")
DEFAULT = (CALIBRATED, WORKLOAD.global_batch // LAYOUT.dp, "interleaved", "none")
"""The chapter's scenario."""
COLOURS = tuple(colours(MFU_TERMS, TERMS))  # the static chart's (mfu.step_bar) colours
_NAME = "mfu"  # data-widget; ids of its controls start with dl-mfu
# the controls every output depends on
_INPUTS = ("efficiency", "microbatches", "schedule", "recompute")

_WORDS = {
    "widget": {"en": "Step time and MFU", "ca": "Temps del pas i MFU",
               "fa": "زمان گام و MFU"},
    "efficiency": {"en": "Large matmuls' share of peak",
                   "ca": "Fracció del pic (productes de matrius grans)",
                   "fa": "سهم ضرب‌های ماتریسی بزرگ از اوج"},
    "microbatches": {"en": "Micro-batches per pipeline", "ca": "Microlots per pipeline",
                     "fa": "ریزدسته‌ها در هر خط لوله"},
    "schedule": {"en": "Schedule", "ca": "Planificació", "fa": "زمان‌بندی"},
    "recompute": {"en": "Recomputation", "ca": "Recàlcul", "fa": "بازمحاسبه"},
    "1f1b": {"en": "1F1B", "ca": "1F1B", "fa": "1F1B"},
    "interleaved": {"en": "Interleaved, {v} chunks", "ca": "Intercalada, {v} trossos",
                    "fa": "درهم‌تنیده، {v} تکه"},
    "full": {"en": "Full", "ca": "Complet", "fa": "کامل"},
    "none": {"en": "None", "ca": "Cap", "fa": "بدون"},
    "memory": {"en": "Busiest GPU's memory", "ca": "Memòria de la GPU més carregada",
               "fa": "حافظهٔ پرکارترین GPU"},
    "memory_value": {"en": "{need} of {have}", "ca": "{need} de {have}",
                     "fa": "{need} از {have}"},
    "memory_over": {"en": "{need} of {have}: over", "ca": "{need} de {have}: no hi cap",
                    "fa": "{need} از {have}: جا نمی‌شود"},
    "mfu": {"en": "MFU", "ca": "MFU", "fa": "MFU"},
    "step": {"en": "Step time", "ca": "Temps del pas", "fa": "زمان گام"},
    "largest": {"en": "Largest loss", "ca": "On es perd més temps",
                "fa": "بزرگ‌ترین اتلاف"},
    "largest_value": {"en": "{term} ({share})", "ca": "{term} ({share})",
                      "fa": "{term}، {share}"},  # the term may end in a parenthesis
    "axis": {"en": "seconds of one step", "ca": "segons d'un pas", "fa": "زمان گام (ثانیه)"},
    "bar": {"en": "The step's seven terms, stacked from left to right",
            "ca": "Els set termes del pas, apilats d'esquerra a dreta",
            "fa": "هفت جزء گام، از چپ به راست روی هم"},
    "schedule_refused": {
        "en": "The interleaved schedule needs the micro-batches to be a multiple of the "
              "stages: {m} is not a multiple of {p}. Pick more micro-batches or 1F1B.",
        "ca": "La planificació intercalada necessita que el nombre de microlots sigui "
              "múltiple del nombre d'etapes: {m} no és múltiple de {p}. Trieu més microlots "
              "o 1F1B.",
        "fa": "در زمان‌بندی درهم‌تنیده، تعداد ریزدسته‌ها باید مضربی از تعداد مرحله‌ها باشد: "
              "{m} مضربی از {p} نیست. ریزدسته‌های بیشتر یا 1F1B را انتخاب کنید.",
    },
}
_NONE = "—"  # shown in the outputs for a setting the estimate refuses


def _w(key: str, locale: str) -> str:
    return _WORDS[key][locale]


def setting_key(efficiency: float, microbatches: int, schedule: str, recompute: str) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{efficiency}|{microbatches}|{schedule}|{recompute}"


def workload(microbatches: int, recompute: str) -> Workload:
    """The chapter's workload, its global batch giving ``microbatches`` per pipeline."""
    return replace(WORKLOAD, recompute=recompute,
                   global_batch=microbatches * LAYOUT.dp * WORKLOAD.micro_batch)


def step(efficiency: float, microbatches: int, schedule: str, recompute: str) -> StepEstimate:
    """The library's estimate of one setting (raises ValueError where it refuses it)."""
    inputs = replace(INPUTS, kernel_efficiency=efficiency, schedule=schedule,
                     chunks=CHUNKS if schedule == "interleaved" else 1)
    return estimate_step(get_model(MODEL), LAYOUT, workload(microbatches, recompute),
                         CLUSTER, inputs)


def _seconds(value: float, locale: str) -> str:
    return format_quantity(value, "s", locale, digits=2)


def _gb(value: float, locale: str) -> str:
    return format_quantity(value, "GB", locale, digits=1)


@functools.cache
def _estimate(efficiency: float, m: int, schedule: str, recompute: str
              ) -> StepEstimate | str:
    """The estimate, or "schedule" where Megatron-LM's rule refuses the interleaving."""
    if schedule == "interleaved" and m % LAYOUT.pp:
        return "schedule"
    return step(efficiency, m, schedule, recompute)


def _setting(efficiency: float, m: int, schedule: str, recompute: str,
             locale: str) -> dict[str, Any]:
    estimate = _estimate(efficiency, m, schedule, recompute)
    if estimate == "schedule":
        return {"e": _w("schedule_refused", locale).format(
            m=format_number(m, locale), p=format_number(LAYOUT.pp, locale))}
    assert isinstance(estimate, StepEstimate)
    need, have = estimate.per_gpu_bytes, CLUSTER.spec.memory_bytes
    b = estimate.breakdown
    term, _ = b.ranked()[0]
    terms = [getattr(b, t) for t in TERMS]
    return {
        "m": format_percent(b.mfu, locale, digits=1),
        "t": _seconds(b.total, locale),
        "l": _w("largest_value", locale).format(
            term=_TERMS[term][locale], share=format_percent(b.shares()[term], locale, digits=1)),
        "g": _w("memory_over" if need > have else "memory_value", locale).format(
            need=_gb(need, locale), have=_gb(have, locale)),
        "p": terms,  # the bar's lengths, in seconds
        "q": [_seconds(v, locale) for v in terms],  # the segments' numbers, as shown
    }


def _grid() -> list[tuple[float, int, str, str]]:
    return [(k, m, s, r) for k in EFFICIENCIES for m in MICROBATCHES for s in SCHEDULES
            for r in RECOMPUTE]


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    settings = {setting_key(*s): _setting(*s, locale) for s in _grid()}
    longest = max(math.fsum(s["p"]) for s in settings.values() if "p" in s)
    return {
        "w": {
            "terms": [_TERMS[t][locale] for t in TERMS],
            **palette_words(MFU_TERMS, TERMS),
            "n": [format_number(i, locale) for i in range(math.ceil(longest) + 1)],
            "axis": _w("axis", locale),
            "none": _NONE,
        },
        "d": settings,
    }


def mfu_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded.

    The outputs already show the default setting (the chapter's scenario), so the page says
    the right thing before the script runs; the bar is drawn by the script.
    """
    check_locale(locale)
    data = widget_data(locale)
    efficiency, m, schedule, recompute = DEFAULT
    first = data["d"][setting_key(*DEFAULT)]
    schedules = [("1f1b", _w("1f1b", locale)),
                 ("interleaved", _w("interleaved", locale).format(
                     v=format_number(CHUNKS, locale)))]
    controls = "".join((
        select(_NAME, "efficiency", _w("efficiency", locale),
               [(str(k), format_percent(k, locale)) for k in EFFICIENCIES], str(efficiency)),
        select(_NAME, "microbatches", _w("microbatches", locale),
               [(str(n), format_number(n, locale)) for n in MICROBATCHES], str(m)),
        select(_NAME, "schedule", _w("schedule", locale), schedules, schedule),
        select(_NAME, "recompute", _w("recompute", locale),
               [(r, _w(r, locale)) for r in RECOMPUTE], recompute),
    ))
    outputs = "".join((
        output(_NAME, _INPUTS, "mfu", _w("mfu", locale), first["m"]),
        output(_NAME, _INPUTS, "step", _w("step", locale), first["t"]),
        output(_NAME, _INPUTS, "largest", _w("largest", locale), first["l"]),
        output(_NAME, _INPUTS, "memory", _w("memory", locale), first["g"]),
    ))
    legend = swatch_legend((term, colour, _TERMS[term][locale])
                           for term, colour in zip(TERMS, COLOURS, strict=True))
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'{MESSAGE}{bar_svg(_w("bar", locale))}'
                  f'<ul class="dl-widget-legend">{legend}</ul>', data)
