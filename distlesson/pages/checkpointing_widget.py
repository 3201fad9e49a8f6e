"""The activation checkpointing widget: pick layers and a sequence length, see what a step
keeps with and without recomputation.

The widget looks values up; it computes nothing. At build, :func:`checkpointing_widget`
counts the saved scalars of the chapter's model (``course-tiny``, its layers replaced as
:mod:`distlesson.pages.checkpointing` does) with
:func:`distlesson.transformer.peak_scalars` and
:func:`distlesson.transformer.attention_scalars` for every setting of the grid below, and
embeds the results, formatted for the page's language, as JSON in the page.
``docs/assets/widget-checkpointing.js`` reads them on a change of a control, fills the
outputs and sizes the two bars.
"""

from __future__ import annotations

import dataclasses
import functools
import html
from typing import Any

from distlesson.catalog.models import get_model
from distlesson.pages.checkpointing import BATCH, LAYER_COUNTS, MODEL, SEQ_LEN, SWEEP
from distlesson.pages.savings_labels import CKPT_LABELS
from distlesson.pages.widget_html import (
    isolate,
    output,
    select,
    widget,
)
from distlesson.render.numbers import (
    check_locale,
    format_number,
    format_percent,
    format_quantity,
)
from distlesson.transformer import attention_scalars, peak_scalars

__all__ = ["DEFAULT", "LAYERS", "SEQ_LENS", "checkpointing_widget", "counts", "setting_key",
           "widget_data"]

# The grid: the chapter's layer counts and sequence lengths, every combination counted.
LAYERS = LAYER_COUNTS
SEQ_LENS = SWEEP
DEFAULT = (get_model(MODEL).num_layers, SEQ_LEN)  # the chapter's model, L = 128
_NAME = "checkpointing"  # data-widget; ids of its controls start with dl-checkpointing
# the controls every output depends on
_INPUTS = ("layers", "seq")

# The bars, in the units of the SVG's viewBox.
WIDTH, LABEL, BAR, GAP, VALUE = 560, 190, 26, 12, 110

_WORDS = {
    "widget": {"en": "Activation checkpointing", "ca": "Recàlcul d'activacions",
               "fa": "چک‌پوینت فعال‌سازی‌ها"},
    "layers": {"en": "Layers", "ca": "Capes", "fa": "تعداد لایه‌ها"},
    "seq": {"en": "Sequence length", "ca": "Longitud de seqüència", "fa": "طول دنباله"},
    "none": {"en": "Saved scalars without checkpointing",
             "ca": "Escalars desats sense recàlcul",
             "fa": "اسکالرهای ذخیره‌شده بدون چک‌پوینت"},
    "full": {"en": "With checkpointing (peak)", "ca": "Amb recàlcul (pic)",
             "fa": "با چک‌پوینت (اوج)"},
    "reduction": {"en": "Reduction", "ca": "Reducció", "fa": "ضریب کاهش"},
    "attention": {"en": "Attention weights' share (without)",
                  "ca": "Part dels pesos d'atenció (sense recàlcul)",
                  "fa": "سهم وزن‌های توجه (بدون چک‌پوینت)"},
    "bars": {"en": "Saved scalars without and with checkpointing, as two bars",
             "ca": "Escalars desats sense recàlcul i amb recàlcul, en dues barres",
             "fa": "اسکالرهای ذخیره‌شده بدون چک‌پوینت و با آن، در دو میله"},
}


def _w(key: str, locale: str) -> str:
    return _WORDS[key][locale]


def setting_key(layers: int, seq_len: int) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{layers}-{seq_len}"


@functools.cache
def counts(layers: int, seq_len: int) -> tuple[int, int, int]:
    """Peak saved scalars without and with full checkpointing, and the attention weights'."""
    arch = dataclasses.replace(get_model(MODEL), num_layers=layers)
    none = peak_scalars(arch, batch_size=BATCH, seq_len=seq_len, mode="none").peak
    full = peak_scalars(arch, batch_size=BATCH, seq_len=seq_len, mode="full").peak
    return none, full, attention_scalars(arch, seq_len=seq_len, batch_size=BATCH)


def _width(value: int, largest: int) -> float:
    return round((WIDTH - LABEL - VALUE) * value / largest, 2)


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    settings = {}
    for layers in LAYERS:
        for seq_len in SEQ_LENS:
            none, full, attention = counts(layers, seq_len)
            settings[setting_key(layers, seq_len)] = {
                "n": format_number(none, locale), "f": format_number(full, locale),
                "r": format_quantity(none / full, "x", locale, digits=1),
                "a": format_percent(attention / none, locale, digits=1),
                # bar lengths: without checkpointing is the longer bar, the full width
                "W": [_width(none, max(none, full)), _width(full, max(none, full))]}
    return {"d": settings}


def _bars(locale: str, entry: dict[str, Any]) -> str:
    """Two horizontal bars, without then with checkpointing, their values at their ends."""
    parts = []
    for row, (name, key, value) in enumerate((("none", "line_none", entry["n"]),
                                              ("full", "line_full", entry["f"]))):
        y = GAP + row * (BAR + GAP)
        width = entry["W"][row]
        parts.append(
            f'<text x="{LABEL - 8}" y="{y + BAR / 2}" text-anchor="end" '
            f'dominant-baseline="central" class="dl-axis-text">'
            f"{html.escape(isolate(CKPT_LABELS[key][locale], locale))}</text>"
            f'<rect data-bar="{name}" x="{LABEL}" y="{y}" width="{width}" height="{BAR}"/>'
            f'<text data-bar-value="{name}" x="{LABEL + width + 6}" y="{y + BAR / 2}" '
            f'dominant-baseline="central" class="dl-axis-text">{html.escape(value)}</text>')
    height = GAP + 2 * (BAR + GAP)
    return (f'<svg data-out="bars" class="dl-widget-bars" direction="ltr" role="img" '
            f'viewBox="0 0 {WIDTH} {height}" aria-label="{html.escape(_w("bars", locale))}" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>')


def checkpointing_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded.

    The outputs and the bars already show the default setting (the chapter's model at
    L = 128), so the page says the right thing before the script runs.
    """
    check_locale(locale)
    data = widget_data(locale)
    layers, seq_len = DEFAULT
    first = data["d"][setting_key(layers, seq_len)]
    controls = "".join((
        select(_NAME, "layers", _w("layers", locale),
               [(str(n), format_number(n, locale)) for n in LAYERS], str(layers)),
        select(_NAME, "seq", _w("seq", locale),
               [(str(n), format_number(n, locale)) for n in SEQ_LENS], str(seq_len)),
    ))
    outputs = "".join((
        output(_NAME, _INPUTS, "none", _w("none", locale), first["n"]),
        output(_NAME, _INPUTS, "full", _w("full", locale), first["f"]),
        output(_NAME, _INPUTS, "reduction", _w("reduction", locale), first["r"]),
        output(_NAME, _INPUTS, "attention", _w("attention", locale), first["a"]),
    ))
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'<div class="dl-widget-scroll">{_bars(locale, first)}</div>', data)
