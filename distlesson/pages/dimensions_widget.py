"""The five dimensions widget: pick the data, tensor and pipeline degrees and the ZeRO stage
for Llama 3 70B, see what one GPU holds and sends per step.

The widget looks values up; it computes nothing. At build, :func:`dimensions_widget` asks
:func:`distlesson.parallel_layout.analyse_layout` for every setting of the grid below, on the
chapter's step (:data:`distlesson.pages.parallelism.STEP`), and embeds the results, already
formatted for the page's language, as JSON in the page; a setting the library refuses
carries the reason instead. ``docs/assets/widget-dimensions.js`` reads them on a change of a
control, fills the outputs and draws the stacked bar of memory per GPU with a mark at the
GPU's memory.
"""

from __future__ import annotations

import functools
from typing import Any

from distlesson.hardware import get_gpu
from distlesson.memory import Layout
from distlesson.models import get_model
from distlesson.pages.parallelism import GPU, MODEL, STEP
from distlesson.pages.parallelism_labels import LABELS
from distlesson.pages.widget_html import (
    MESSAGE,
    bar_svg,
    output,
    select,
    swatch_legend,
    widget,
)
from distlesson.parallel_layout import analyse_layout
from distlesson.render.numbers import check_locale, format_number, format_quantity

__all__ = ["DEFAULT", "DPS", "PARTS", "PPS", "TPS", "ZEROS", "dimensions_widget", "report",
           "setting_key", "widget_data"]

# The grid: every combination is analysed at build.
DPS = (1, 2, 4, 8, 16, 32, 64)
TPS = (1, 2, 3, 4, 8)  # 3 does not divide the heads: the widget shows the refusal
PPS = (1, 2, 4, 8, 16)
ZEROS = (0, 1, 2, 3)
PARTS = ("weights", "grads", "master", "optimizer", "activations")  # the bar, left to right
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9")  # Okabe-Ito
DEFAULT = (16, 1, 1, 0)  # the strategy table's data parallelism over its 16 GPUs
_NAME = "dimensions"  # data-widget; ids of its controls start with dl-dimensions
_INPUTS = ("dp", "tp", "pp", "zero")  # the controls every output depends on

_WORDS = {
    "widget": {"en": "The five dimensions: Llama 3 70B", "ca": "Les cinc dimensions: Llama 3 70B",
               "fa": "پنج بُعد: Llama 3 70B"},
    "dp": {"en": "Data parallel (dp)", "ca": "Paral·lelisme de dades (dp)",
           "fa": "موازی‌سازی داده (dp)"},
    "tp": {"en": "Tensor parallel (tp)", "ca": "Paral·lelisme de tensors (tp)",
           "fa": "موازی‌سازی تانسور (tp)"},
    "pp": {"en": "Pipeline stages (pp)", "ca": "Etapes de pipeline (pp)",
           "fa": "مرحله‌های خط لوله (pp)"},
    "zero": {"en": "ZeRO stage", "ca": "Etapa de ZeRO", "fa": "مرحلهٔ ZeRO"},
    "gpus": {"en": "GPUs (dp × tp × pp)", "ca": "GPU (dp × tp × pp)",
             "fa": "تعداد GPU (dp × tp × pp)"},
    "sent": {"en": "Sent per step and GPU, {dim}", "ca": "Enviat per pas i GPU, {dim}",
             "fa": "ارسال در هر گام و هر GPU، {dim}"},
    "bar": {"en": "Memory per GPU, part by part from left to right, with a mark at {gb}",
            "ca": "Memòria per GPU, part per part d'esquerra a dreta, amb una marca a {gb}",
            "fa": "حافظهٔ هر GPU، بخش به بخش از چپ به راست، با نشانی در {gb}"},
    "refused": {"en": "",  # English shows the library's own message
                "ca": "La biblioteca no accepta aquesta configuració "
                      "(dp = {dp}, tp = {tp}, pp = {pp}, ZeRO {zero}).",
                "fa": "کتابخانه این پیکربندی را نمی‌پذیرد "
                      "(dp = {dp}، tp = {tp}، pp = {pp}، ZeRO {zero})."},
}


def _w(key: str, locale: str, **values: str) -> str:
    return _WORDS[key][locale].format(**values)


def _gb(value: float, locale: str, digits: int = 1) -> str:
    return format_quantity(float(value), "GB", locale, digits=digits)


def _memory() -> int:
    return get_gpu(GPU).memory_bytes


def setting_key(dp: int, tp: int, pp: int, zero: int) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{dp}|{tp}|{pp}|{zero}"


def report(dp: int, tp: int, pp: int, zero: int):
    """The library's report of a setting (raises ValueError where the library refuses it)."""
    return analyse_layout(get_model(MODEL), Layout(dp=dp, tp=tp, pp=pp, zero=zero), STEP)


def refusal_text(error: ValueError, dp: int, tp: int, pp: int, zero: int, locale: str) -> str:
    """Why the library refused a setting: its own words in English, a sentence elsewhere."""
    if locale == "en":
        return str(error)
    n = {name: format_number(value, locale)
         for name, value in (("dp", dp), ("tp", tp), ("pp", pp), ("zero", zero))}
    return _w("refused", locale, **n)


def _setting(dp: int, tp: int, pp: int, zero: int, locale: str) -> dict[str, Any]:
    try:
        r = report(dp, tp, pp, zero)
    except ValueError as error:
        return {"e": refusal_text(error, dp, tp, pp, zero, locale)}
    total = r.per_gpu_bytes
    parts = [getattr(r.states, part) for part in PARTS[:-1]] + [r.activations]
    c = r.communication
    return {
        "m": _gb(total, locale),
        "f": LABELS["yes" if total <= _memory() else "no"][locale],
        "g": format_number(dp * tp * pp, locale),
        "c": [_gb(getattr(c, dim), locale) for dim in ("dp", "tp", "pp")],
        "p": [round(float(value) / 1e9, 3) for value in parts],  # the bar's lengths, GB
        "q": [_gb(value, locale) for value in parts],  # the segments' numbers, as shown
    }


def _isolated(text: str, locale: str) -> str:
    """Persian text inside the left-to-right chart, kept in its own right-to-left order
    (Unicode right-to-left isolate), so "GPU" and the digits stay where a reader expects."""
    return f"\u2067{text}\u2069" if locale == "fa" else text


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    settings = {setting_key(d, t, p, z): _setting(d, t, p, z, locale)
                for d in DPS for t in TPS for p in PPS for z in ZEROS}
    longest = max(sum(s["p"]) for s in settings.values() if "p" in s)
    return {
        "w": {
            "parts": [LABELS[part][locale] for part in PARTS],
            "colours": list(COLOURS),
            "n": [format_number(i, locale) for i in range(int(longest) + 2)],
            "axis": _isolated(LABELS["gb_per_gpu"][locale], locale),
            "limit": _memory() / 1e9,  # where the mark goes, GB
            "limitText": _isolated(_gb(_memory(), locale, 0), locale),
        },
        "d": settings,
    }


def dimensions_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded.

    The outputs already show the default setting, so the page says the right thing before
    the script runs; the bar is drawn by the script.
    """
    check_locale(locale)
    data = widget_data(locale)
    first = data["d"][setting_key(*DEFAULT)]
    controls = "".join(
        select(_NAME, name, _w(name, locale),
               [(str(v), format_number(v, locale)) for v in values], str(default))
        for name, values, default in zip(_INPUTS, (DPS, TPS, PPS, ZEROS), DEFAULT, strict=True))
    gb = _gb(_memory(), locale, 0)
    outputs = "".join((
        output(_NAME, _INPUTS, "memory", LABELS["total_gpu"][locale], first["m"]),
        output(_NAME, _INPUTS, "fits", LABELS["fits"][locale].format(gb=gb), first["f"]),
        output(_NAME, _INPUTS, "gpus", _w("gpus", locale), first["g"]),
        *(output(_NAME, _INPUTS, f"sent_{dim}",
                 _w("sent", locale, dim=LABELS[f"dim_{dim}"][locale]), first["c"][i])
          for i, dim in enumerate(("dp", "tp", "pp"))),
    ))
    legend = swatch_legend((part, colour, LABELS[part][locale])
                           for part, colour in zip(PARTS, COLOURS, strict=True))
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'{MESSAGE}{bar_svg(_w("bar", locale, gb=gb))}'
                  f'<ul class="dl-widget-legend">{legend}</ul>', data)
