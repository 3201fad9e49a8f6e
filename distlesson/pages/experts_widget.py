"""The expert-parallelism widget: pick the model, the expert-parallel degree and the
capacity factor; see the experts per GPU, one layer's all-to-all and its time, and the
busiest GPU's memory.

The widget looks values up; it computes nothing. At build, :func:`experts_widget` runs
:mod:`distlesson.parallel.expert_layout` for every setting of the grid below and embeds the
results, formatted for the page's language, as JSON in the page;
``docs/assets/widget-experts.js`` reads them on a change of a control. A setting the layout
refuses (ep not dividing the experts, or the GPUs of a stage) carries the reason.
"""

from __future__ import annotations

import functools
from typing import Any

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.moe import get_moe_model
from distlesson.memory.precision import get_preset
from distlesson.pages.widget_html import output, select, widget
from distlesson.parallel.expert_layout import (
    DEEPSEEK_V3_LAYOUT,
    DEEPSEEK_V3_RECIPE,
    DEEPSEEK_V3_WORKLOAD,
    ExpertLayout,
    ExpertWorkload,
    all_to_all_bytes,
    all_to_all_times,
    expert_memory,
)
from distlesson.render.numbers import check_locale, format_number, format_quantity

__all__ = ["CAPACITY", "DEFAULT", "EP", "MODELS", "experts_widget", "setting_key",
           "widget_data"]

# The grid: every combination is computed at build.
MODELS = ("deepseek-v3", "mixtral-8x7b")
EP = (1, 2, 4, 8, 16, 32, 64, 128, 256)
CAPACITY = ("none", "1.0", "1.25", "2.0")  # none: dropless
DEFAULT = ("deepseek-v3", 64, "none")
_NAME = "experts"  # data-widget; ids of its controls start with dl-experts
_INPUTS = ("model", "ep", "capacity")
# Each model's setting: DeepSeek-V3's published layout (its ep varied); Mixtral on one
# server of 8 H100s, no pipeline, ZeRO-1, the library's mixed precision.
_SETUP = {
    "deepseek-v3": (DEEPSEEK_V3_LAYOUT, DEEPSEEK_V3_WORKLOAD, DEEPSEEK_V3_RECIPE, "h800-sxm"),
    "mixtral-8x7b": (ExpertLayout(dp=8, zero=1), ExpertWorkload(), get_preset("mixed"),
                     "h100-sxm"),
}

_WORDS = {
    "widget": {"en": "Expert parallelism: what one GPU holds and sends",
               "ca": "Paral·lelisme d'experts: què guarda i què envia una GPU",
               "fa": "موازی‌سازی متخصص‌ها: یک GPU چه نگه می‌دارد و چه می‌فرستد"},
    "model": {"en": "Model", "ca": "Model", "fa": "مدل"},
    "ep": {"en": "Expert-parallel GPUs (ep)", "ca": "GPU d'experts (ep)",
           "fa": "درجهٔ موازی‌سازی متخصص‌ها (ep)"},
    "capacity": {"en": "Capacity factor", "ca": "Factor de capacitat", "fa": "ضریب ظرفیت"},
    "dropless": {"en": "none (dropless)", "ca": "cap (sense descartar)",
                 "fa": "نامحدود (بدون حذف)"},
    "experts": {"en": "Experts per GPU and layer", "ca": "Experts per GPU i capa",
                "fa": "متخصص در هر GPU و لایه"},
    "bytes": {"en": "All-to-all per GPU and layer", "ca": "All-to-all per GPU i capa",
              "fa": "all-to-all هر GPU در هر لایه"},
    "time": {"en": "Its time (alpha-beta model)", "ca": "El seu temps (model alfa-beta)",
             "fa": "زمان آن (مدل آلفا-بتا)"},
    "memory": {"en": "Busiest GPU's memory", "ca": "Memòria de la GPU més carregada",
               "fa": "حافظهٔ پرکارترین GPU"},
    "fits": {"en": "Fits in {gpu}'s {memory}?", "ca": "Cap als {memory} de l'{gpu}?",
             "fa": "در {memory}ِ {gpu} جا می‌شود؟"},
    "yes": {"en": "yes", "ca": "sí", "fa": "بله"},
    "no": {"en": "no", "ca": "no", "fa": "خیر"},
    "not_experts": {"en": "not a layout: ep must divide the {n} experts",
                    "ca": "no és possible: ep ha de dividir els {n} experts",
                    "fa": "ممکن نیست: {n} متخصص باید بر ep بخش‌پذیر باشد"},
    "not_stage": {"en": "not a layout: ep must divide the {n} GPUs of a stage",
                  "ca": "no és possible: ep ha de dividir les {n} GPU d'una etapa",
                  "fa": "ممکن نیست: {n} GPU یک مرحله باید بر ep بخش‌پذیر باشد"},
    "dash": {"en": "—", "ca": "—", "fa": "—"},
}
_NAMES = {"deepseek-v3": "DeepSeek-V3", "mixtral-8x7b": "Mixtral 8x7B"}


def _w(key: str, locale: str, **values: str) -> str:
    return _WORDS[key][locale].format(**values)


def setting_key(model: str, ep: int, capacity: str) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{model}-{ep}-{capacity}"


def _entry(model: str, ep: int, capacity: str, locale: str) -> dict[str, Any]:
    arch = get_moe_model(model)
    base, workload, recipe, gpu = _SETUP[model]
    cf = None if capacity == "none" else float(capacity)
    # the two refusals of the library (expert_layout), in the page's words
    if arch.routed_experts % ep:
        return {"x": _w("not_experts", locale, n=format_number(arch.routed_experts, locale))}
    if (base.dp * base.tp) % ep:
        return {"x": _w("not_stage", locale, n=format_number(base.dp * base.tp, locale))}
    layout = ExpertLayout(dp=base.dp, tp=base.tp, pp=base.pp, ep=ep, zero=base.zero,
                          dualpipe=base.dualpipe)
    memory = expert_memory(arch, layout, workload, recipe)
    volume = float(all_to_all_bytes(arch, ep, workload, cf))
    seconds = sum(all_to_all_times(arch, ep, workload, gpu, cf))
    return {"e": format_number(memory.experts_per_gpu, locale),
            "b": format_quantity(volume, "MB", locale, digits=1),
            "t": format_quantity(seconds, "ms", locale, digits=2),
            "m": format_quantity(memory.total, "GB", locale, digits=1),
            "f": _w("yes" if memory.total <= get_gpu(gpu).memory_bytes else "no", locale)}


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    return {"d": {setting_key(m, e, c): _entry(m, e, c, locale)
                  for m in MODELS for e in EP for c in CAPACITY},
            "w": {"dash": _w("dash", locale),
                  "fits": {m: _fits_label(m, locale) for m in MODELS}}}


def _fits_label(model: str, locale: str) -> str:
    gpu = get_gpu(_SETUP[model][3])
    return _w("fits", locale, gpu=gpu.display_name,
              memory=format_quantity(gpu.memory_bytes, "GB", locale))


def experts_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded; the
    outputs already show the default setting."""
    check_locale(locale)
    data = widget_data(locale)
    model, ep, capacity = DEFAULT
    first = data["d"][setting_key(model, ep, capacity)]
    capacities = [("none", _w("dropless", locale))] + [
        (c, format_number(float(c), locale, digits=2)) for c in CAPACITY[1:]]
    controls = "".join((
        select(_NAME, "model", _w("model", locale), [(m, _NAMES[m]) for m in MODELS], model),
        select(_NAME, "ep", _w("ep", locale), [(str(e), format_number(e, locale)) for e in EP],
               str(ep)),
        select(_NAME, "capacity", _w("capacity", locale), capacities, capacity),
    ))
    outputs = "".join((
        output(_NAME, _INPUTS, "experts", _w("experts", locale), first["e"]),
        output(_NAME, _INPUTS, "bytes", _w("bytes", locale), first["b"]),
        output(_NAME, _INPUTS, "time", _w("time", locale), first["t"]),
        output(_NAME, _INPUTS, "memory", _w("memory", locale), first["m"]),
        output(_NAME, _INPUTS, "fits", data["w"]["fits"][model], first["f"]),
    ))
    return widget(_NAME, locale, _w("widget", locale), controls, outputs, "", data)
