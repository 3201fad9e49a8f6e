"""The all-reduce widget: pick the array size, the GPUs and how many share a node; see the
time, nccl-tests' algbw and busbw, and which term of the alpha-beta model dominates.

The widget looks values up; it computes nothing. At build, :func:`communication_widget`
runs :func:`distlesson.pages.communication.all_reduce` (the alpha-beta model of
:mod:`distlesson.parallel.alpha_beta`, hierarchical across nodes, NCCL's choice of ring or
tree) for every setting of the grid below and embeds the results, formatted for the page's
language, as JSON in the page, with the two bar segments' lengths in the SVG's units.
``docs/assets/widget-communication.js`` reads them on a change of a control.
"""

from __future__ import annotations

import functools
import html
from typing import Any

from distlesson.pages.communication import NODE, _bytes_tick, all_reduce
from distlesson.pages.communication_labels import label
from distlesson.pages.widget_html import output, select, widget
from distlesson.parallel.alpha_beta import CollectiveTime
from distlesson.render.numbers import check_locale, format_number, format_percent, format_quantity

__all__ = ["DEFAULT", "PER_NODE", "RANKS", "SIZES", "communication_widget", "dominant",
           "setting_key", "widget_data"]

# The grid: every combination is modelled at build.
SIZES = tuple(2**k for k in range(3, 35, 2))  # 8 B .. 16 GiB
RANKS = tuple(2**k for k in range(1, 11))  # 2 .. 1,024 GPUs
PER_NODE = (1, 2, 4, 8)  # GPUs of the group in one node (8: a whole HGX server)
DEFAULT = (2**27, NODE, NODE)  # 128 MiB on one server: bandwidth-bound
_NAME = "communication"  # data-widget; ids of its controls start with dl-communication
_INPUTS = ("size", "ranks", "node")

# The bar, in the units of its viewBox: latency then transfer, their sum the full width.
WIDTH, BAR = 560, 26

_WORDS = {
    "widget": {"en": "All-reduce on a real cluster", "ca": "All-reduce en un clúster real",
               "fa": "all-reduce روی یک خوشهٔ واقعی"},
    "size": {"en": "Array size", "ca": "Mida de l'array", "fa": "اندازهٔ آرایه"},
    "ranks": {"en": "GPUs", "ca": "GPU", "fa": "تعداد GPU"},
    "node": {"en": "GPUs per node", "ca": "GPU per node", "fa": "GPU در هر گره"},
    "time": {"en": "Time", "ca": "Temps", "fa": "زمان"},
    "algorithm": {"en": "Algorithm (across nodes)", "ca": "Algorisme (entre nodes)",
                  "fa": "الگوریتم (میان گره‌ها)"},
    "algbw": {"en": "Algorithm bandwidth (algbw)", "ca": "Amplada de banda de l'algorisme (algbw)",
              "fa": "پهنای باند الگوریتم (algbw)"},
    "busbw": {"en": "Bus bandwidth (busbw)", "ca": "Amplada de banda de bus (busbw)",
              "fa": "پهنای باند گذرگاه (busbw)"},
    "latency": {"en": "Latency's share of the time", "ca": "Part del temps que és latència",
                "fa": "سهم تأخیر از زمان"},
    "dominant": {"en": "Dominant term", "ca": "Terme dominant", "fa": "جملهٔ غالب"},
    "is_latency": {"en": "latency (T₀ + steps × α)", "ca": "latència (T₀ + passos × α)",
                   "fa": "تأخیر (T₀ + گام‌ها × α)"},
    "is_bandwidth": {"en": "bandwidth (bytes / β)", "ca": "amplada de banda (bytes / β)",
                     "fa": "پهنای باند (بایت‌ها / β)"},
    "bar": {"en": "The time split into its latency and bandwidth terms",
            "ca": "El temps repartit entre el terme de latència i el d'amplada de banda",
            "fa": "زمان، تقسیم‌شده میان جملهٔ تأخیر و جملهٔ پهنای باند"},
}


def _w(key: str, locale: str) -> str:
    return _WORDS[key][locale]


def setting_key(size: int, ranks: int, per_node: int) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{size}-{ranks}-{per_node}"


def dominant(c: CollectiveTime) -> str:
    """``latency`` or ``bandwidth``: the larger term (the bandwidth one on a tie)."""
    return "latency" if c.latency > c.transfer else "bandwidth"


def _time(seconds: float, locale: str) -> str:
    unit = "s" if seconds >= 1 else "ms" if seconds >= 1e-3 else "µs"
    return format_quantity(seconds, unit, locale, digits=2 if unit != "µs" else 1)


def _rate(value: float, locale: str) -> str:
    return format_quantity(value, "GB/s", locale, digits=2 if value < 10e9 else 1)


def _entry(size: int, ranks: int, per_node: int, locale: str) -> dict[str, Any]:
    c = all_reduce(size, ranks, per_node)
    share = c.latency / c.time
    latency_width = round(WIDTH * share, 2)
    return {"t": _time(c.time, locale), "a": label(c.algorithm, locale),
            "g": _rate(c.algbw, locale), "b": _rate(c.busbw, locale),
            "l": format_percent(share, locale, digits=1),
            "d": 0 if dominant(c) == "latency" else 1,
            "W": [latency_width, round(WIDTH - latency_width, 2)]}


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    settings = {setting_key(s, n, k): _entry(s, n, k, locale)
                for s in SIZES for n in RANKS for k in PER_NODE}
    return {"w": {"dominant": [_w("is_latency", locale), _w("is_bandwidth", locale)]},
            "d": settings}


def _bar(locale: str, entry: dict[str, Any]) -> str:
    """One bar: the latency segment from the left, the bandwidth segment after it."""
    latency, transfer = entry["W"]
    name = html.escape(_w("bar", locale))
    return (f'<svg data-out="bar" class="dl-widget-bars" direction="ltr" role="img" '
            f'viewBox="0 0 {WIDTH} {BAR}" aria-label="{name}" '
            f'xmlns="http://www.w3.org/2000/svg">'
            f'<rect data-bar="latency" x="0" y="0" width="{latency}" height="{BAR}"/>'
            f'<rect data-bar="bandwidth" x="{latency}" y="0" width="{transfer}" '
            f'height="{BAR}"/></svg>')


def communication_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded; the
    outputs already show the default setting."""
    check_locale(locale)
    data = widget_data(locale)
    size, ranks, per_node = DEFAULT
    first = data["d"][setting_key(size, ranks, per_node)]
    controls = "".join((
        select(_NAME, "size", _w("size", locale),
               [(str(s), _bytes_tick(s, locale)) for s in SIZES], str(size)),
        select(_NAME, "ranks", _w("ranks", locale),
               [(str(n), format_number(n, locale)) for n in RANKS], str(ranks)),
        select(_NAME, "node", _w("node", locale),
               [(str(k), format_number(k, locale)) for k in PER_NODE], str(per_node)),
    ))
    outputs = "".join((
        output(_NAME, _INPUTS, "time", _w("time", locale), first["t"]),
        output(_NAME, _INPUTS, "algbw", _w("algbw", locale), first["g"]),
        output(_NAME, _INPUTS, "busbw", _w("busbw", locale), first["b"]),
        output(_NAME, _INPUTS, "algorithm", _w("algorithm", locale), first["a"]),
        output(_NAME, _INPUTS, "latency", _w("latency", locale), first["l"]),
        output(_NAME, _INPUTS, "dominant", _w("dominant", locale),
               data["w"]["dominant"][first["d"]],
               f' data-term="{"latency" if first["d"] == 0 else "bandwidth"}"'),
    ))
    legend = (f'<ul class="dl-widget-legend"><li data-legend="latency">'
              f'<span class="dl-swatch" data-bar="latency" aria-hidden="true"></span>'
              f'{html.escape(_w("is_latency", locale))}</li><li data-legend="bandwidth">'
              f'<span class="dl-swatch" data-bar="bandwidth" aria-hidden="true"></span>'
              f'{html.escape(_w("is_bandwidth", locale))}</li></ul>')
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'<div class="dl-widget-scroll">{_bar(locale, first)}</div>{legend}', data)
