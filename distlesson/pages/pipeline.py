"""Chapter section "Pipeline schedules": timelines, tables and worked exercises.

Every timeline is the simulator's (:mod:`distlesson.pipeline.simulator`) run of a schedule built
as data (:mod:`distlesson.pipeline.schedules`); every formula shown beside it is
:mod:`distlesson.pipeline.bubble`'s closed form, which the tests check against the simulator.
"""

from __future__ import annotations

import functools
import os
import time
from fractions import Fraction

from distlesson.pipeline.bubble import bubble_fraction, bubble_over_ideal
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, Timeline, simulate
from distlesson.render.figure import Figure
from distlesson.render.gantt import gantt_svg
from distlesson.render.numbers import format_number, format_percent
from distlesson.render.tables import Table, markdown_table

__all__ = ["BENCH", "EXAMPLE", "bubble_table", "exercise_table", "figures", "gantt",
           "schedule_table"]

# Inputs: the examples of both sources, and the chapter's choices.
EXAMPLE = (4, 8)  # stages, microbatches: the Catalan widget and the Persian exercise
DURATIONS = Durations(fwd=1, bwd=2, wgrad=1)  # the Catalan widget's forward 1, backward 2
CHUNKS = 2  # model chunks per stage for the interleaved schedule
SCHEDULES = ("gpipe", "1f1b", "interleaved", "zb-h1")
SWEEP = (1, 2, 4, 8, 16, 32, 64)  # microbatches for the bubble table
FA_MICROBATCHES = (1, 16)  # the Persian lesson's "75 %" and "about 19 %"
TARGET = Fraction(1, 10)  # the Catalan exercise: a bubble below 10 %
TARGET_STAGES = (2, 4, 8, 16)
BENCH = (64, 1024)  # stages, microbatches of the timed run (interleaved)

_LABELS = {
    "stage": {"en": "stage", "ca": "etapa", "fa": "مرحله"},
    "time": {"en": "time (forward = 1)", "ca": "temps (forward = 1)",
             "fa": "زمان (گذر رو به جلو = ۱)"},
    "forward": {"en": "forward", "ca": "forward", "fa": "رو به جلو"},
    "backward": {"en": "backward", "ca": "backward", "fa": "رو به عقب"},
    "wgrad": {"en": "weight gradient", "ca": "gradient dels pesos", "fa": "گرادیان وزن‌ها"},
    "idle": {"en": "idle (bubble)", "ca": "inactiu (bombolla)", "fa": "بیکار (حباب)"},
    "later_chunks": {"en": "later chunks: lighter", "ca": "trossos posteriors: més clars",
                     "fa": "تکه‌های بعدی: کم‌رنگ‌تر"},
    "schedule": {"en": "Schedule", "ca": "Planificació", "fa": "زمان‌بندی"},
    "makespan": {"en": "Step time", "ca": "Temps del pas", "fa": "زمان گام"},
    "bubble_sim": {"en": "Bubble (simulated)", "ca": "Bombolla (simulada)",
                   "fa": "حباب (شبیه‌سازی)"},
    "bubble_formula": {"en": "Bubble (formula)", "ca": "Bombolla (fórmula)",
                       "fa": "حباب (فرمول)"},
    "peak": {"en": "Peak activations per stage", "ca": "Activacions màximes per etapa",
             "fa": "بیشینهٔ فعال‌سازی‌ها در هر مرحله"},
    "microbatches": {"en": "Microbatches m", "ca": "Microlots m", "fa": "ریزدسته‌ها m"},
    "idle_share": {"en": "Idle share of the step", "ca": "Fracció inactiva del pas",
                   "fa": "سهم بیکاری از گام"},
    "over_ideal": {"en": "Bubble over ideal time", "ca": "Bombolla sobre el temps ideal",
                   "fa": "حباب نسبت به زمان ایده‌آل"},
    "stages": {"en": "Stages p", "ca": "Etapes p", "fa": "مرحله‌ها p"},
    "fewest": {"en": "Fewest microbatches", "ca": "Mínim de microlots",
               "fa": "کمترین تعداد ریزدسته"},
    "bubble": {"en": "Bubble", "ca": "Bombolla", "fa": "حباب"},
    "one_fewer": {"en": "With one fewer", "ca": "Amb un de menys", "fa": "با یکی کمتر"},
}
_NAMES = {
    "gpipe": {"en": "GPipe", "ca": "GPipe", "fa": "GPipe"},
    "1f1b": {"en": "1F1B", "ca": "1F1B", "fa": "1F1B"},
    "interleaved": {"en": "interleaved 1F1B", "ca": "1F1B intercalat",
                    "fa": "1F1B درهم‌تنیده"},
    "zb-h1": {"en": "zero bubble (ZB-H1)", "ca": "Bombolla zero (ZB-H1)",
              "fa": "بی‌حباب (ZB-H1)"},
}
_TITLE = {"en": "{name}: {p} stages, {m} microbatches",
          "ca": "{name}: {p} etapes, {m} microlots",
          "fa": "{name}: {p} مرحله، {m} ریزدسته"}


def _t(key: str, locale: str) -> str:
    return _LABELS[key][locale]


def _chunks(name: str) -> int:
    return CHUNKS if name == "interleaved" else 1


@functools.cache
def _run(name: str, pp: int, m: int) -> Timeline:
    return simulate(build_schedule(name, pp, m, _chunks(name)), DURATIONS)


def gantt(name: str, locale: str) -> str:
    """The simulated timeline of ``name`` for the chapter's example, as an SVG."""
    pp, m = EXAMPLE
    labels = {key: _t(key, locale) for key in ("stage", "time", "forward", "backward",
                                                "wgrad", "idle", "later_chunks")}
    title = _TITLE[locale].format(name=_NAMES[name][locale], p=format_number(pp, locale),
                                  m=format_number(m, locale))
    return gantt_svg(_run(name, pp, m), name=f"pipe-{name}-{locale}", title=title,
                     labels=labels, locale=locale)


def _peaks(timeline: Timeline, locale: str) -> str:
    # Catalan writes decimals with a comma: separate the items with semicolons
    sep = {"fa": "، ", "ca": "; "}.get(locale, ", ")
    return sep.join(format_number(float(a), locale, digits=0 if a == int(a) else 1)
                    for a in timeline.peak_activations)


def schedule_table(locale: str) -> str:
    """The four schedules on the example: step time, bubble two ways, peak activations."""
    pp, m = EXAMPLE
    rows = []
    for name in SCHEDULES:
        run = _run(name, pp, m)
        formula = bubble_fraction(name, pp, m, _chunks(name), DURATIONS)
        span = run.makespan  # exact: 57/2 for interleaved slots of half a forward
        rows.append((_NAMES[name][locale],
                     format_number(float(span), locale, digits=0 if span == int(span) else 1),
                     format_percent(float(run.bubble_fraction), locale, digits=1),
                     format_percent(float(formula), locale, digits=1), _peaks(run, locale)))
    headers = (_t("schedule", locale), _t("makespan", locale), _t("bubble_sim", locale),
               _t("bubble_formula", locale), _t("peak", locale))
    return markdown_table(Table(headers, tuple(rows), (False, True, True, True, False)), locale)


def bubble_table(locale: str) -> str:
    """1F1B on the example's stages: the bubble as m grows, as idle share and over ideal."""
    pp = EXAMPLE[0]
    rows = tuple((format_number(m, locale),
                  format_percent(float(_run("1f1b", pp, m).bubble_fraction), locale, digits=1),
                  format_percent(float(bubble_over_ideal(pp, m)), locale, digits=1))
                 for m in SWEEP)
    headers = (_t("microbatches", locale), _t("idle_share", locale), _t("over_ideal", locale))
    return markdown_table(Table(headers, rows, (True, True, True)), locale)


@functools.cache
def _fewest_microbatches(pp: int) -> int:
    """Smallest m whose simulated 1F1B bubble is below TARGET, searched upward."""
    m = 1
    while _run("1f1b", pp, m).bubble_fraction >= TARGET:
        m += 1
    return m


def exercise_table(locale: str) -> str:
    """The Catalan exercise: the fewest microbatches that bring the bubble below 10 %."""
    rows = []
    for pp in TARGET_STAGES:
        m = _fewest_microbatches(pp)
        rows.append((format_number(pp, locale), format_number(m, locale),
                     format_percent(float(_run("1f1b", pp, m).bubble_fraction), locale, digits=1),
                     format_percent(float(_run("1f1b", pp, m - 1).bubble_fraction), locale,
                                    digits=1)))
    headers = (_t("stages", locale), _t("fewest", locale), _t("bubble", locale),
               _t("one_fewer", locale))
    return markdown_table(Table(headers, tuple(rows), (True,) * 4), locale)


@functools.cache
def _bench_seconds() -> float:
    """Wall time of one simulation of the benchmark size, measured now (best of three)."""
    schedule = build_schedule("interleaved", *BENCH, CHUNKS)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        simulate(schedule, DURATIONS)
        best = min(best, time.perf_counter() - start)
    return best


def figures() -> list[Figure]:
    """The numbers the section's prose quotes."""
    pp, m = EXAMPLE
    one_f = _run("1f1b", pp, m)
    zb = _run("zb-h1", pp, m)
    fa_one, fa_many = (_run("1f1b", pp, n) for n in FA_MICROBATCHES)
    bench_ops = 2 * BENCH[0] * BENCH[1] * CHUNKS
    return [
        Figure("pipe.stages", pp),
        Figure("pipe.microbatches", m),
        Figure("pipe.chunks", CHUNKS),
        Figure("pipe.fwd", DURATIONS.fwd),
        Figure("pipe.bwd", DURATIONS.bwd),
        Figure("pipe.wgrad", DURATIONS.wgrad),
        Figure("pipe.makespan_1f1b", float(one_f.makespan)),
        Figure("pipe.ideal", float(m * (DURATIONS.fwd + DURATIONS.bwd))),
        Figure("pipe.idle_per_stage", float(one_f.idle[0])),
        Figure("pipe.bubble_1f1b", float(one_f.bubble_fraction), "%", digits=1),
        Figure("pipe.peak_first", float(one_f.peak_activations[0])),
        Figure("pipe.peak_last", float(one_f.peak_activations[-1])),
        Figure("pipe.bubble_interleaved", float(_run("interleaved", pp, m).bubble_fraction),
               "%", digits=1),
        Figure("pipe.peak_interleaved_first",
               float(_run("interleaved", pp, m).peak_activations[0]), digits=1),
        Figure("pipe.bubble_zb", float(zb.bubble_fraction), "%", digits=1),
        Figure("pipe.idle_zb", float(zb.idle[0])),
        Figure("pipe.fa_one_bubble", float(fa_one.bubble_fraction), "%"),
        Figure("pipe.fa_many", FA_MICROBATCHES[1]),
        Figure("pipe.fa_many_bubble", float(fa_many.bubble_fraction), "%", digits=1),
        Figure("pipe.fa_many_over_ideal", float(bubble_over_ideal(pp, FA_MICROBATCHES[1])),
               "%", digits=1),
        Figure("pipe.target", float(TARGET), "%"),
        Figure("pipe.fewest_two_stages", _fewest_microbatches(2)),
        Figure("pipe.bench_stages", BENCH[0]),
        Figure("pipe.bench_microbatches", BENCH[1]),
        Figure("pipe.bench_ops", bench_ops),
        Figure("pipe.bench_seconds", _bench_seconds(), "s", digits=2,
               doc="measured at build: varies with the machine", measured=True),
        Figure("pipe.bench_cores", os.cpu_count() or 1, measured=True),
    ]
