"""The optimizer memory widget: pick an optimizer, a precision recipe and a model.

The widget looks values up; it computes nothing. At build, :func:`optimizer_widget` asks the
memory model (:func:`distlesson.memory.states.bytes_per_param`,
:func:`~distlesson.memory.states.model_states`,
:func:`~distlesson.memory.states.min_gpus`) for every setting of the grid below and embeds the
results, already formatted for the page's language, as JSON in the page.
``docs/assets/widget-optimizer.js`` reads them on a change of a control, fills the outputs
and draws the stacked bar of bytes per parameter.
"""

from __future__ import annotations

import functools
from typing import Any

from distlesson.catalog.models import get_model
from distlesson.memory.states import bytes_per_param, min_gpus, model_states
from distlesson.pages.fit import _bpp, _gb, _gpu_memory
from distlesson.pages.fit_labels import LABELS, OPTIMIZER_NAMES, PRESET_NAMES
from distlesson.pages.widget_html import (
    bar_svg,
    output,
    palette_words,
    select,
    swatch_legend,
    widget,
)
from distlesson.render.numbers import check_locale, format_number
from distlesson.render.palette import MEMORY_PARTS, colours

__all__ = ["DEFAULT", "MODELS", "OPTIMIZERS", "PARTS", "PRESETS", "optimizer_widget",
           "setting_key", "widget_data"]

# The grid: every combination is computed at build.
OPTIMIZERS = ("adamw", "adam8bit", "adafactor", "lion", "sgd")
PRESETS = ("mixed", "mixed-no-master", "mixed-fp32-grads", "fp32")
MODELS = ("gpt2-small", "llama3-8b", "llama3-70b", "llama3-405b")
PARTS = ("weights", "grads", "master", "optimizer")  # the bar's segments, left to right
COLOURS = tuple(colours(MEMORY_PARTS, PARTS))  # as the static memory plots
DEFAULT = ("adamw", "mixed", "llama3-70b")  # the chapter's case
_NAME = "optimizer"  # data-widget; ids of its controls start with dl-optimizer
# the controls every output depends on
_INPUTS = ("optimizer", "precision", "model")

_WORDS = {
    "widget": {"en": "Optimizer memory", "ca": "Memòria de l'optimitzador",
               "fa": "حافظهٔ بهینه‌ساز"},
    "precision": {"en": "Precision", "ca": "Precisió", "fa": "دقت"},
    "states": {"en": "Model states", "ca": "Estats del model", "fa": "حالت‌های مدل"},
    "bar": {"en": "Bytes per parameter, state by state, from left to right",
            "ca": "Bytes per paràmetre, estat per estat, d'esquerra a dreta",
            "fa": "بایت به‌ازای هر پارامتر، حالت به حالت، از چپ به راست"},
}


def _w(key: str, locale: str) -> str:
    return _WORDS[key][locale]


def setting_key(optimizer: str, precision: str, model: str) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{optimizer}|{precision}|{model}"


def _setting(optimizer: str, precision: str, model: str, locale: str) -> dict[str, Any]:
    arch = get_model(model)
    per = bytes_per_param(arch, optimizer=optimizer, precision=precision)
    states = model_states(arch, optimizer=optimizer, precision=precision)
    parts = [getattr(per, part) for part in PARTS]
    return {
        "b": _bpp(per.total, locale),
        "s": _gb(states.total, locale, 1),
        "g": format_number(min_gpus(states.total, _gpu_memory()), locale),
        "p": [float(value) for value in parts],  # the bar's lengths
        "q": [_bpp(value, locale) for value in parts],  # the segments' numbers, as shown
    }


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    settings = {setting_key(o, p, m): _setting(o, p, m, locale)
                for o in OPTIMIZERS for p in PRESETS for m in MODELS}
    longest = max(sum(s["p"]) for s in settings.values())
    return {
        "w": {
            "parts": [LABELS[part][locale] for part in PARTS],
            **palette_words(MEMORY_PARTS, PARTS),
            "n": [format_number(i, locale) for i in range(int(longest) + 2)],
            "axis": LABELS["bpp"][locale],
        },
        "d": settings,
    }


def optimizer_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded.

    The outputs already show the default setting, so the page says the right thing before
    the script runs; the bar is drawn by the script.
    """
    check_locale(locale)
    data = widget_data(locale)
    optimizer, precision, model = DEFAULT
    first = data["d"][setting_key(*DEFAULT)]
    controls = "".join((
        select(_NAME, "optimizer", LABELS["opt"][locale],
               [(key, OPTIMIZER_NAMES[key][locale]) for key in OPTIMIZERS], optimizer),
        select(_NAME, "precision", _w("precision", locale),
               [(key, PRESET_NAMES[key][locale]) for key in PRESETS], precision),
        select(_NAME, "model", LABELS["model"][locale],
               [(key, get_model(key).display_name) for key in MODELS], model),
    ))
    gpus = LABELS["gpus80"][locale].format(gb=_gb(_gpu_memory(), locale))
    outputs = "".join((
        output(_NAME, _INPUTS, "bpp", LABELS["bpp"][locale], first["b"]),
        output(_NAME, _INPUTS, "states", _w("states", locale), first["s"]),
        output(_NAME, _INPUTS, "gpus", gpus, first["g"]),
    ))
    legend = swatch_legend((part, colour, LABELS[part][locale])
                           for part, colour in zip(PARTS, COLOURS, strict=True))
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'{bar_svg(_w("bar", locale))}<ul class="dl-widget-legend">{legend}</ul>',
                  data)

