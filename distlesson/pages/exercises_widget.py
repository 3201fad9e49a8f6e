"""The exercises page: every exercise of the sources, its numeric answers checked in the page.

The page is one widget. At build, :func:`exercises_widget` writes each exercise's question,
its parts and its model answers (hidden in ``<details>`` until the reader asks), with the
texts of :mod:`distlesson.pages.exercise_texts` and their ``{{ name }}`` figures resolved
for the page's language; and it embeds, as JSON, the library's answer of every numeric part
in the unit the reader answers in, with its tolerance. ``docs/assets/widget-exercises.js``
only reads the reader's number in the page's locale and compares it with that value; it
keeps what is solved in the browser (``distlessonWidgets.solved``, widget-core.js), where
the pipeline widgets also mark the bubble goal. Without JavaScript the questions and the
model answers can still be read.
"""

from __future__ import annotations

import functools
import html
import re
from typing import Any

import markdown

from distlesson.chapter_exercises import chapter_exercises
from distlesson.exercises import (
    Exercise,
    GoalPart,
    NumericPart,
    OpenPart,
    Part,
    exercises,
)
from distlesson.pages.exercise_texts import TEXTS
from distlesson.pages.widget_html import data_script, widget_id
from distlesson.render.figure import Figure, Text
from distlesson.render.numbers import (
    UNITS,
    check_locale,
    format_number,
    format_percent,
    to_locale_digits,
)

__all__ = ["MFU_RANKS_SHOWN", "exercises_widget", "figures", "in_answer_unit",
           "render_text", "widget_data"]

_NAME = "exercises"  # data-widget; ids of its inputs start with dl-exercises

_WORDS: dict[str, dict[str, str]] = {
    "widget": {"en": "Exercises", "ca": "Exercicis", "fa": "تمرین‌ها"},
    "exercise": {"en": "Exercise {n}", "ca": "Exercici {n}", "fa": "تمرین {n}"},
    "origin_ca": {"en": "From the Catalan chapter", "ca": "Del capítol català",
                  "fa": "از فصل کاتالانی"},
    "origin_fa": {"en": "From the Persian lesson", "ca": "De la lliçó persa",
                  "fa": "از درس فارسی"},
    "origin_course": {"en": "This chapter's exercise", "ca": "Exercici d'aquest capítol",
                      "fa": "تمرین همین فصل"},
    "count": {"en": "{n} of {m} solved", "ca": "{n} de {m} resolts",
              "fa": "{n} از {m} تمرین حل شده"},
    "reset": {"en": "Reset my answers", "ca": "Esborra les meves respostes",
              "fa": "پاک کردن پاسخ‌هایم"},
    "your_answer": {"en": "Your answer", "ca": "La vostra resposta", "fa": "پاسخ شما"},
    "check": {"en": "Check", "ca": "Comprova", "fa": "بررسی"},
    "show_answer": {"en": "Show the answer", "ca": "Mostra la resposta",
                    "fa": "نمایش پاسخ"},
    "show_model": {"en": "Show a model answer", "ca": "Mostra una resposta model",
                   "fa": "نمایش پاسخ نمونه"},
    "mark_done": {"en": "I have compared my answer: mark it done",
                  "ca": "Ja he comparat la meva resposta: marca-la com a feta",
                  "fa": "پاسخم را مقایسه کردم؛ علامت‌گذاری به‌عنوان حل‌شده"},
    "solved": {"en": "Solved", "ca": "Resolt", "fa": "حل‌شده"},
    "tol_rel": {"en": "Accepted within {tol} of the library's value.",
                "ca": "S'accepta amb un marge del {tol} respecte del valor de la biblioteca.",
                "fa": "پاسخ تا {tol} اختلاف با مقدار کتابخانه پذیرفته می‌شود."},
    "tol_exact": {"en": "A whole number: only the exact value is accepted.",
                  "ca": "Un nombre enter: només s'accepta el valor exacte.",
                  "fa": "یک عدد صحیح: فقط مقدار دقیق پذیرفته می‌شود."},
    "right": {"en": "Right: the library computes {answer}.",
              "ca": "Correcte: la biblioteca calcula {answer}.",
              "fa": "درست است: کتابخانه هم به {answer} می‌رسد."},
    "wrong_rel": {"en": "Not within {tol} of the library's value. Try again, or show the answer.",
                  "ca": "No és dins del marge del {tol} respecte del valor de la biblioteca. "
                        "Torneu-ho a provar o mostreu la resposta.",
                  "fa": "اختلاف این پاسخ با مقدار کتابخانه بیش از {tol} است. دوباره امتحان "
                        "کنید یا پاسخ را ببینید."},
    "wrong_exact": {"en": "Not the exact value. Try again, or show the answer.",
                    "ca": "No és el valor exacte. Torneu-ho a provar o mostreu la resposta.",
                    "fa": "این مقدار دقیق نیست. دوباره امتحان کنید یا پاسخ را ببینید."},
    "unreadable": {"en": "This is not a number I can read: write it like {example}.",
                   "ca": "No puc llegir aquest nombre: escriviu-lo com ara {example}, amb la "
                         "coma per als decimals.",
                   "fa": "این ورودی عدد معتبری نیست: آن را مثلاً به شکل {example} بنویسید."},
    "goal_todo": {"en": "Not reached yet.", "ca": "Encara no s'ha assolit.",
                  "fa": "هنوز به این هدف نرسیده‌اید."},
    "goal_done": {"en": "Reached in a widget: {pp} stages, {m} micro-batches, {schedule}.",
                  "ca": ("Assolit en una figura interactiva: {pp} etapes, {m} microlots, "
                         "{schedule}."),
                  "fa": "در ابزار تعاملی به هدف رسیدید: {pp} مرحله، {m} ریزدسته، {schedule}."},
    "goal_reached": {"en": "Reached in a widget.", "ca": "Assolit en una figura interactiva.",
                     "fa": "در ابزار تعاملی به هدف رسیدید."},
    "goal_bubble": {"en": "Bubble: {bubble}.", "ca": "Bombolla: {bubble}.",
                    "fa": "حباب: {bubble}."},
    "open_done": {"en": "Marked as done.", "ca": "Marcada com a feta.",
                  "fa": "به‌عنوان حل‌شده علامت‌گذاری شد."},
    "noscript": {"en": "Checking the answers and counting them needs JavaScript. The "
                       "questions and their answers can be read without it.",
                 "ca": "Per comprovar les respostes i comptar-les cal JavaScript. Les "
                       "preguntes i les respostes es poden llegir igualment sense JavaScript.",
                 "fa": "بررسی و شمارش پاسخ‌ها به JavaScript نیاز دارد. پرسش‌ها و پاسخ‌ها "
                       "بدون آن هم خواندنی‌اند."},
}
_PART_LABELS = {"en": "abcdefgh", "ca": "abcdefgh",
                "fa": ("الف", "ب", "ج", "د", "ه", "و", "ز", "ح")}
_SCHEDULES = {"gpipe": "GPipe", "1f1b": "1F1B", "zb-h1": "ZB-H1",
              "interleaved": {"en": "interleaved 1F1B", "ca": "1F1B intercalat",
                              "fa": "1F1B درهم‌تنیده"}}
# How a reader writes a number, per locale: the decimal separators and the thousands
# separators the script accepts. Catalan writes "9,93" and "1.960": a point is never a
# decimal point there, so "9.93" is refused rather than read as 993.
_PARSE = {
    "en": {"decimal": ["."], "group": [",", " ", "\u00a0", "\u202f"]},
    "ca": {"decimal": [","], "group": [".", " ", "\u00a0", "\u202f"]},
    "fa": {"decimal": ["٫", ".", "/"], "group": ["٬", ",", "،", " ", "\u00a0", "\u202f"]},
}
WRITING_EXAMPLE = 1234.5  # how a number is written in the page's language: not an answer
_LINK = re.compile(r"\]\(([a-z0-9-]+)\.md(#[A-Za-z0-9_-]+)?\)")


def _w(key: str, locale: str, **values: str) -> str:
    return _WORDS[key][locale].format(**values)


def in_answer_unit(part: NumericPart) -> float:
    """The library's answer in the unit the reader types it in (GB, percent, M$, a count)."""
    if part.unit == "%":
        return float(part.value) * 100
    return float(part.value) / UNITS[part.unit][0]


MFU_RANKS_SHOWN = 4
"""How many of the MFU chapter's losses the low-MFU exercise's model answer lists."""


def _mfu_ranking() -> list[Figure | Text]:
    """The MFU chapter's losses, largest first, as its decomposition ranks them
    (:meth:`~distlesson.efficiency.step_time.StepBreakdown.ranked` of the chapter's step):
    ``ex.mfu_loss_N`` names the N-th, ``ex.mfu_loss_N_share`` its share of the step. The
    low-MFU exercise's model answer cites them, so its order is computed, never typed."""
    from distlesson.pages import mfu

    breakdown = mfu.llama405_step().breakdown
    shares = breakdown.shares()
    result: list[Figure | Text] = []
    for rank, (term, _) in enumerate(breakdown.ranked()[:MFU_RANKS_SHOWN], 1):
        result.append(Text(f"ex.mfu_loss_{rank}", mfu._TERMS[term], doc=term))
        result.append(Figure(f"ex.mfu_loss_{rank}_share", shares[term], "%", digits=1))
    return result


def figures() -> list[Figure | Text]:
    """The numbers the exercises' texts quote: their inputs and their answers, and the
    MFU chapter's ranking of the losses."""
    result: list[Figure | Text] = [Figure("ex.writing_example", WRITING_EXAMPLE, digits=1)]
    for exercise in exercises():
        result += [Figure(f"ex.{q.name}", float(q.value), q.unit, q.digits)
                   for q in exercise.quantities]
        result += [p.as_figure() for p in exercise.parts if isinstance(p, NumericPart)]
    return result + _mfu_ranking()


def _page_link(match: re.Match[str]) -> str:
    """``](pipeline.md#x)`` -> ``](../pipeline/#x)``: links in a widget's HTML are not
    rewritten by MkDocs, and every page (the exercises' too) is a folder of its locale."""
    return f"](../{match[1]}/{match[2] or ''})"


def render_text(text: str, locale: str, *, inline: bool = False) -> str:
    """A text's figures resolved for ``locale``, its Markdown as HTML, its links relative."""
    from distlesson.site.figures import figure_registry
    from distlesson.site.placeholders import resolve_placeholders

    resolved = resolve_placeholders(text, locale, figure_registry(),
                                    where="distlesson/pages/exercise_texts")
    rendered = markdown.markdown(_LINK.sub(_page_link, resolved))
    if inline:
        rendered = re.sub(r"^<p>(.*)</p>$", r"\1", rendered, flags=re.S)
    return rendered


def _tolerance(part: NumericPart, locale: str) -> str:
    return format_percent(part.rel_tol, locale)


def _numeric_data(part: NumericPart, locale: str) -> dict[str, Any]:
    shown = part.as_figure().render(locale)
    exact = part.rel_tol == 0
    tol = _tolerance(part, locale)
    return {
        "v": in_answer_unit(part),
        "t": part.rel_tol,
        "ok": _w("right", locale, answer=shown),
        "no": _w("wrong_exact", locale) if exact else _w("wrong_rel", locale, tol=tol),
    }


def _items(chapter: bool | str) -> tuple[Exercise, ...]:
    """The exercises page's (the sources'), or a chapter's own (:func:`chapter_exercises`;
    True: the communication chapter's)."""
    if chapter is True:
        return chapter_exercises()
    return chapter_exercises(chapter) if chapter else exercises()


@functools.cache
def widget_data(locale: str, chapter: bool | str = False) -> dict[str, Any]:
    """What the script needs: the answers and tolerances, the count's words, the parsing."""
    check_locale(locale)
    items = _items(chapter)
    count = len(items)
    schedules = {key: name if isinstance(name, str) else name[locale]
                 for key, name in _SCHEDULES.items()}
    return {
        "ids": [e.id for e in items],
        "parts": {e.id: [p.id for p in e.parts] for e in items},
        "num": {p.id: _numeric_data(p, locale) for e in items for p in e.parts
                if isinstance(p, NumericPart)},
        "parse": _PARSE[locale],
        "w": {
            "count": [_w("count", locale, n=format_number(n, locale),
                         m=format_number(count, locale)) for n in range(count + 1)],
            "unreadable": _w("unreadable", locale,
                             example=format_number(WRITING_EXAMPLE, locale, digits=1)),
            "goal_todo": _w("goal_todo", locale),
            "goal_done": _w("goal_done", locale, pp="{pp}", m="{m}", schedule="{schedule}"),
            "goal_reached": _w("goal_reached", locale),
            "goal_bubble": _w("goal_bubble", locale, bubble="{bubble}"),
            "open_done": _w("open_done", locale),
            "schedules": schedules,
            "digits": to_locale_digits("0123456789", locale),
        },
    }


def _details(summary: str, body: str) -> str:
    return (f'<details class="success dl-ex-answer" data-answer><summary>{html.escape(summary)}'
            f"</summary>{body}</details>")


def _unit_label(part: NumericPart, locale: str) -> str:
    """What the answer field's unit reads: GB, %, million dollars; nothing for a count."""
    if part.unit == "%":
        return "٪" if locale == "fa" else "%"
    return UNITS[part.unit][1][locale]


def _numeric(part: NumericPart, locale: str, text: dict[str, str]) -> str:
    wid = f"{widget_id(_NAME)}-{part.id}"
    unit = _unit_label(part, locale)
    tolerance = (_w("tol_exact", locale) if part.rel_tol == 0
                 else _w("tol_rel", locale, tol=_tolerance(part, locale)))
    form = (f'<form class="dl-ex-form" data-form hidden>'
            f'<label for="{wid}">{html.escape(_w("your_answer", locale))}</label>'
            f'<input id="{wid}" type="text" inputmode="decimal" autocomplete="off" '
            f'spellcheck="false" data-input>'
            + (f'<span class="dl-ex-unit">{html.escape(unit)}</span>' if unit else "")
            + f'<button type="submit" class="md-button">{html.escape(_w("check", locale))}'
            f"</button></form>")
    return (f'<p class="dl-ex-tolerance">{html.escape(tolerance)}</p>{form}'
            f'<p class="dl-ex-feedback" data-feedback role="status" hidden></p>'
            + _details(_w("show_answer", locale),
                       render_text(text[f"{part.id}.answer"], locale)))


def _open(part: OpenPart, locale: str, text: dict[str, str]) -> str:
    return (_details(_w("show_model", locale), render_text(text[f"{part.id}.answer"], locale))
            + f'<button type="button" class="md-button dl-ex-done" data-done hidden>'
            f'{html.escape(_w("mark_done", locale))}</button>'
            f'<p class="dl-ex-feedback" data-feedback role="status" hidden></p>')


def _goal(part: GoalPart, locale: str, text: dict[str, str]) -> str:
    return (f'<p class="dl-ex-goal" data-goal hidden>{html.escape(_w("goal_todo", locale))}'
            f"</p>" + _details(_w("show_model", locale),
                               render_text(text[f"{part.id}.answer"], locale)))


def _part(exercise: Exercise, index: int, part: Part, locale: str) -> str:
    text = TEXTS[locale][exercise.id]
    label = ""
    if len(exercise.parts) > 1:
        label = f'<span class="dl-ex-label">({_PART_LABELS[locale][index]})</span> '
    body = (_numeric if isinstance(part, NumericPart) else
            _open if isinstance(part, OpenPart) else _goal)(part, locale, text)
    kind = type(part).__name__.removesuffix("Part").lower()
    return (f'<div class="dl-ex-part" data-part="{part.id}" data-kind="{kind}">'
            f'<div class="dl-ex-prompt">{label}{render_text(text[part.id], locale, inline=True)}'
            f"</div>{body}</div>")


def _exercise(number: int, exercise: Exercise, locale: str) -> str:
    text = TEXTS[locale][exercise.id]
    heading = _w("exercise", locale, n=format_number(number, locale))
    parts = "".join(_part(exercise, i, p, locale) for i, p in enumerate(exercise.parts))
    return (
        f'<section class="dl-ex" data-exercise="{exercise.id}" id="ex-{exercise.id}">'
        f'<h2><span class="dl-ex-number">{html.escape(heading)}</span> '
        f'{render_text(text["title"], locale, inline=True)} '
        f'<span class="dl-ex-badge" data-badge hidden>✓ {html.escape(_w("solved", locale))}'
        f"</span></h2>"
        f'<p class="dl-ex-origin">{html.escape(_w("origin_" + exercise.origin, locale))}</p>'
        f'<div class="dl-ex-question">{render_text(text["question"], locale)}</div>'
        f"{parts}</section>")


def exercises_widget(locale: str, *, chapter: bool | str = False) -> str:
    """The whole page's exercises as an HTML fragment for ``locale``, their answers embedded
    (``chapter``: a chapter's own exercises instead, by name; True: "Communication and the
    network")."""
    check_locale(locale)
    data = widget_data(locale, chapter)
    progress = (f'<div class="dl-ex-progress" data-progress hidden>'
                f'<output data-out="count" aria-live="polite">{data["w"]["count"][0]}</output>'
                f'<button type="button" class="md-button" data-out="reset">'
                f'{html.escape(_w("reset", locale))}</button></div>')
    noscript = f'<noscript><p class="dl-ex-noscript">{_w("noscript", locale)}</p></noscript>'
    body = "".join(_exercise(i, e, locale) for i, e in enumerate(_items(chapter), 1))
    return (f'<div class="dl-widget dl-exercises" data-widget="{_NAME}" data-locale="{locale}" '
            f'id="{widget_id(_NAME)}" role="group" '
            f'aria-label="{html.escape(_w("widget", locale))}">'
            f"{progress}{noscript}{body}{data_script(data)}</div>")
