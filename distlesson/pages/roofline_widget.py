"""The roofline widget: pick a GPU and a decode batch, see where decode and training sit.

The widget looks values up; it computes nothing. At build, :func:`roofline_widget` places
the hardware chapter's matmuls (:mod:`distlesson.pages.hardware`: a decode step through an
h x h weight, a training micro-batch through the MLP's up projection) on the roofline of
every GPU of :data:`distlesson.catalog.hardware.GPUS` with :mod:`distlesson.efficiency.roofline`,
for every
decode batch below, and embeds the results, formatted for the page's language, as JSON in
the page, with the plot's coordinates already in the SVG's units.
``docs/assets/widget-roofline.js`` reads them on a change of a control, fills the outputs
and moves the roof and the two points.
"""

from __future__ import annotations

import functools
import html
import math
from typing import Any

from distlesson.catalog.hardware import GPUS
from distlesson.efficiency.roofline import (
    RooflinePoint,
    decode_shape,
    ridge_point,
    roofline_point,
    roofline_polyline,
    training_shape,
)
from distlesson.pages.hardware import GPU, WORKLOADS, X_RANGE, _tick
from distlesson.pages.hardware_labels import LABELS, POINT_NAMES
from distlesson.pages.widget_html import (
    isolate,
    output,
    select,
    widget,
)
from distlesson.render.numbers import check_locale, format_number, format_percent

__all__ = ["BATCHES", "DEFAULT", "GPU_KEYS", "bound_text", "roofline_widget", "setting_key",
           "widget_data"]

# The grid: every combination is placed on the roofline at build.
GPU_KEYS = tuple(GPUS)
BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
DEFAULT = (GPU, 1)  # the chapter's GPU and its first decode point
_NAME = "roofline"  # data-widget; ids of its controls start with dl-roofline
# the controls every output depends on
_INPUTS = ("gpu", "batch")
_TERA = 1e12  # the y axis in TFLOP/s

# The plot, in the units of its viewBox: log-log, x over the chapter's range of intensities.
WIDTH, HEIGHT = 560, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 30, 12, 46

_WORDS = {
    "widget": {"en": "Roofline explorer", "ca": "Explorador del sostre",
               "fa": "کاوشگر نمودار roofline"},
    "gpu": {"en": "GPU", "ca": "GPU", "fa": "GPU"},
    "batch": {"en": "Decode batch (sequences)", "ca": "Lot de descodificació (seqüències)",
              "fa": "دستهٔ تولید توکن (تعداد دنباله)"},
    "ridge": {"en": "Ridge point (FLOP/byte)", "ca": "Colze (FLOP/byte)",
              "fa": "نقطهٔ شکست (FLOP بر بایت)"},
    "decode_intensity": {"en": "Decode intensity (FLOP/byte)",
                         "ca": "Intensitat de la descodificació (FLOP/byte)",
                         "fa": "شدت حسابی تولید توکن (FLOP بر بایت)"},
    "decode_share": {"en": "Decode, share of peak", "ca": "Descodificació, fracció del pic",
                     "fa": "تولید توکن، سهم از اوج"},
    "training_intensity": {"en": "Training intensity (FLOP/byte)",
                           "ca": "Intensitat de l'entrenament (FLOP/byte)",
                           "fa": "شدت حسابی آموزش (FLOP بر بایت)"},
    "training_share": {"en": "Training, share of peak", "ca": "Entrenament, fracció del pic",
                       "fa": "آموزش، سهم از اوج"},
    "decode_bound": {"en": "Decode is limited by", "ca": "La descodificació està limitada per",
                     "fa": "عامل محدودکنندهٔ تولید توکن"},
    "plot": {"en": "The chosen GPU's roofline on log-log axes, with the decode and the "
                   "training points",
             "ca": "El sostre de la GPU triada en eixos logarítmics, amb els punts de la "
                   "descodificació i de l'entrenament",
             "fa": "نمودار roofline برای GPU انتخاب‌شده روی محورهای لگاریتمی، با نقطه‌های "
                   "تولید توکن و آموزش"},
    "decode": {"en": "Decode", "ca": "Descodificació", "fa": "تولید توکن"},
    "training": {"en": "Training", "ca": "Entrenament", "fa": "آموزش"},
}


def _w(key: str, locale: str) -> str:
    return _WORDS[key][locale]


def setting_key(gpu: str, batch: int) -> str:
    """The JSON key of a setting, as the script builds it from the controls' values."""
    return f"{gpu}/{batch}"


def bound_text(memory_bound: bool, locale: str) -> str:
    """What caps a point, in the hardware chapter's words."""
    return LABELS["memory_bound" if memory_bound else "compute_bound"][check_locale(locale)]


def _y_range() -> tuple[float, float]:
    """TFLOP/s shown: the decade below the lowest roof, the decade above the highest peak."""
    low = min(X_RANGE[0] * g.hbm_bandwidth for g in GPUS.values()) / _TERA
    high = max(g.bf16_dense_flops for g in GPUS.values()) / _TERA
    return 10.0 ** math.floor(math.log10(low)), 10.0 ** math.ceil(math.log10(high))


def _x(value: float) -> float:
    lo, hi = (math.log10(v) for v in X_RANGE)
    return round(LEFT + (math.log10(value) - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT), 2)


def _y(tflops: float) -> float:
    lo, hi = (math.log10(v) for v in _y_range())
    return round(HEIGHT - BOTTOM - (math.log10(tflops) - lo) / (hi - lo)
                 * (HEIGHT - TOP - BOTTOM), 2)


def _xy(point: RooflinePoint) -> list[float]:
    return [_x(float(point.intensity)), _y(float(point.attainable) / _TERA)]


def _intensity(point: RooflinePoint, locale: str) -> str:
    """As the chapter's points table writes it: one decimal below a hundred."""
    return format_number(float(point.intensity), locale,
                         digits=0 if point.intensity >= 100 else 1)


def _share(point: RooflinePoint, locale: str) -> str:
    """Share of the peak to about three significant digits at most: 100% when compute-bound,
    1.31% for a small decode (no false precision on the one, no lost digits on the other)."""
    share = float(point.share_of_peak)
    return format_percent(share, locale, digits=_share_digits(share))


def _share_digits(share: float) -> int:
    """Decimals of a percentage: none from 10%, one from 1%, two below."""
    return 0 if share >= 0.1 else 1 if share >= 0.01 else 2


@functools.cache
def _training(gpu: str) -> RooflinePoint:
    shape = training_shape(WORKLOADS.training_tokens, WORKLOADS.hidden_size,
                           WORKLOADS.ffn_multiple * WORKLOADS.hidden_size)
    return roofline_point(GPUS[gpu], "training", shape)


@functools.cache
def _decode(gpu: str, batch: int) -> RooflinePoint:
    return roofline_point(GPUS[gpu], f"decode_b{batch}",
                          decode_shape(batch, WORKLOADS.hidden_size))


def _roof_path(gpu: str) -> str:
    return "M" + "L".join(f"{_x(x)} {_y(y / _TERA)}"
                          for x, y in roofline_polyline(GPUS[gpu], *X_RANGE))


@functools.cache
def widget_data(locale: str) -> dict[str, Any]:
    """Everything the script shows, for every setting of the grid, formatted for ``locale``."""
    check_locale(locale)
    gpus = {}
    for key in GPU_KEYS:
        training = _training(key)
        ridge = float(ridge_point(GPUS[key]))
        gpus[key] = {"r": format_number(ridge, locale, digits=1), "R": _roof_path(key),
                     "ti": _intensity(training, locale), "ts": _share(training, locale),
                     "T": _xy(training), "rx": _x(ridge)}
    settings = {}
    for key in GPU_KEYS:
        for batch in BATCHES:
            point = _decode(key, batch)
            settings[setting_key(key, batch)] = {
                "i": _intensity(point, locale), "s": _share(point, locale),
                "m": point.memory_bound, "P": _xy(point)}
    return {"w": {"bound": [bound_text(False, locale), bound_text(True, locale)]},
            "g": gpus, "d": settings}


def _plot(locale: str, gpu: dict[str, Any], entry: dict[str, Any]) -> str:
    """The SVG: axes and ticks fixed; the roof, the ridge and the points as the default
    setting has them (the script moves them)."""
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    esc = html.escape
    parts = [f'<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}" stroke="currentColor"/>',
             f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="currentColor"/>']
    lo, hi = (round(math.log2(v)) for v in X_RANGE)
    for e in range(lo, hi + 1, 2):
        v = 2.0 ** e
        parts.append(f'<line x1="{_x(v)}" y1="{y1}" x2="{_x(v)}" y2="{y1 + 4}" '
                     f'stroke="currentColor"/><text x="{_x(v)}" y="{y1 + 16}" '
                     f'text-anchor="middle" class="dl-axis-text">'
                     f"{esc(isolate(_tick(v, locale), locale))}</text>")
    ylo, yhi = (round(math.log10(v)) for v in _y_range())
    for e in range(ylo, yhi + 1):
        v = 10.0 ** e
        parts.append(f'<line x1="{x0 - 4}" y1="{_y(v)}" x2="{x0}" y2="{_y(v)}" '
                     f'stroke="currentColor"/><text x="{x0 - 7}" y="{_y(v)}" '
                     f'text-anchor="end" dominant-baseline="central" class="dl-axis-text">'
                     f"{esc(isolate(_tick(v, locale), locale))}</text>")
    # the axis titles read in the page's direction (the plot itself runs left to right)
    parts.append(f'<text x="{(x0 + x1) / 2}" y="{HEIGHT - 8}" text-anchor="middle" '
                 f'class="dl-axis-text">{esc(isolate(LABELS["xlabel"][locale], locale))}</text>')
    parts.append(f'<text transform="translate(14 {(y0 + y1) / 2}) rotate(-90)" '
                 f'text-anchor="middle" class="dl-axis-text">'
                 f'{esc(isolate(LABELS["ylabel"][locale], locale))}</text>')
    parts.append(f'<line data-plot="ridge" x1="{gpu["rx"]}" y1="{y0}" x2="{gpu["rx"]}" '
                 f'y2="{y1}" class="dl-roof-ridge"/>')
    parts.append(f'<path data-plot="roof" d="{gpu["R"]}" class="dl-roof-line"/>')
    for name, xy, words in (("training", gpu["T"], "training"),
                            ("decode", entry["P"], "decode")):
        parts.append(f'<circle data-plot="{name}" cx="{xy[0]}" cy="{xy[1]}" r="6" '
                     f'class="dl-roof-{name}"><title>{esc(isolate(_w(words, locale), locale))}'
                     f"</title>"
                     f"</circle>")
    return (f'<svg data-out="plot" class="dl-widget-roofline" direction="ltr" role="img" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" aria-label="{esc(_w("plot", locale))}" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>')


def roofline_widget(locale: str) -> str:
    """The widget as an HTML fragment for a page in ``locale``, its data embedded.

    The outputs and the plot already show the default setting (the chapter's H100 at batch
    one), so the page says the right thing before the script runs.
    """
    check_locale(locale)
    data = widget_data(locale)
    gpu_key, batch = DEFAULT
    gpu, first = data["g"][gpu_key], data["d"][setting_key(gpu_key, batch)]
    controls = "".join((
        select(_NAME, "gpu", _w("gpu", locale),
               [(key, GPUS[key].display_name) for key in GPU_KEYS], gpu_key),
        select(_NAME, "batch", _w("batch", locale),
               [(str(b), format_number(b, locale)) for b in BATCHES], str(batch)),
    ))
    outputs = "".join((
        output(_NAME, _INPUTS, "ridge", _w("ridge", locale), gpu["r"]),
        output(_NAME, _INPUTS, "decode-intensity", _w("decode_intensity", locale), first["i"]),
        output(_NAME, _INPUTS, "decode-share", _w("decode_share", locale), first["s"]),
        output(_NAME, _INPUTS, "decode-bound", _w("decode_bound", locale),
               bound_text(first["m"], locale),
               f' data-memory-bound="{str(first["m"]).lower()}"'),
        output(_NAME, _INPUTS, "training-intensity", _w("training_intensity", locale), gpu["ti"]),
        output(_NAME, _INPUTS, "training-share", _w("training_share", locale), gpu["ts"]),
    ))
    tokens = format_number(WORKLOADS.training_tokens, locale)
    legend = "".join(
        f'<li data-legend="{name}"><span class="dl-swatch dl-roof-swatch" '
        f'data-point="{name}" aria-hidden="true"></span>{html.escape(text)}</li>'
        for name, text in (("decode", _w("decode", locale)),
                           ("training", POINT_NAMES["training"][locale].format(t=tokens))))
    return widget(_NAME, locale, _w("widget", locale), controls, outputs,
                  f'<div class="dl-widget-scroll">{_plot(locale, gpu, first)}</div>'
                  f'<ul class="dl-widget-legend">{legend}</ul>', data)
