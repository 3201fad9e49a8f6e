"""Section "FP8 training" of the chapter "Saving memory": the formats, what an outlier does
to each way of scaling, and what fp8 buys in time (:mod:`distlesson.memory.fp8`)."""

from __future__ import annotations

import functools
import math

import ml_dtypes

from distlesson.catalog.hardware import get_gpu
from distlesson.chapter_exercises import chapter_exercises
from distlesson.efficiency.cost import run_cost
from distlesson.exercises import NumericPart
from distlesson.memory.fp8 import (
    BLOCK,
    FORMATS,
    OUTLIER_SHAPE,
    OutlierCase,
    outlier_case,
    spacing_at_one,
)
from distlesson.render.figure import Figure
from distlesson.render.numbers import format_number, format_percent, format_scientific
from distlesson.render.tables import Table, markdown_table

__all__ = ["OUTLIERS", "figures", "formats_table", "outlier_table"]

OUTLIERS = (1e2, 1e3, 1e4, 1e5)
"""Outliers of a hundred to a hundred thousand times the other values' standard deviation:
LLM activations hold such values (a few channels or tokens far above the rest)."""
GPU = "h100-sxm"
DEEPSEEK_GPU = "h800-sxm"

_L: dict[str, dict[str, str]] = {
    "format": {"en": "Format", "ca": "Format", "fa": "قالب"},
    "exponent": {"en": "Exponent bits", "ca": "Bits d'exponent", "fa": "بیت‌های نما"},
    "mantissa": {"en": "Mantissa bits", "ca": "Bits de mantissa", "fa": "بیت‌های مانتیس"},
    "max": {"en": "Largest value", "ca": "Valor màxim", "fa": "بزرگ‌ترین مقدار"},
    "normal": {"en": "Smallest normal", "ca": "Normal més petit", "fa": "کوچک‌ترین عدد نرمال"},
    "subnormal": {"en": "Smallest subnormal", "ca": "Subnormal més petit",
                  "fa": "کوچک‌ترین عدد زیرنرمال"},
    "spacing": {"en": "Spacing above one", "ca": "Separació per sobre d'u",
                "fa": "فاصلهٔ مقدارها بالای یک"},
    "outlier": {"en": "Outlier (× std)", "ca": "Valor atípic (× desv.)",
                "fa": "مقدار پرت (× انحراف معیار)"},
    "per_tensor": {"en": "e4m3, per tensor", "ca": "e4m3, per tensor", "fa": "e4m3، هر تنسور"},
    "tiles": {"en": "e4m3, {one} × {b} tiles", "ca": "e4m3, tessel·les {one} × {b}",
              "fa": "e4m3، کاشی‌های {one} × {b}"},
    "blocks": {"en": "e4m3, {b} × {b} blocks", "ca": "e4m3, blocs {b} × {b}",
               "fa": "e4m3، بلوک‌های {b} × {b}"},
    "e5m2": {"en": "e5m2, per tensor", "ca": "e5m2, per tensor", "fa": "e5m2، هر تنسور"},
    "flushed": {"en": "Rounded to zero (e4m3, per tensor)",
                "ca": "Arrodonits a zero (e4m3, per tensor)",
                "fa": "گردشده به صفر (e4m3، هر تنسور)"},
}


def _l(key: str, locale: str) -> str:
    return _L[key][locale].format(one=format_number(1, locale), b=format_number(BLOCK, locale))


@functools.cache
def _cases() -> tuple[OutlierCase, ...]:
    return tuple(outlier_case(o) for o in OUTLIERS)


def formats_table(locale: str) -> str:
    """The two fp8 formats: bits, range, precision (from ml_dtypes)."""
    rows = []
    for name, fmt in FORMATS.items():
        info = ml_dtypes.finfo(fmt.dtype)
        rows.append((name, format_number(fmt.exponent_bits, locale),
                     format_number(fmt.mantissa_bits, locale), format_number(fmt.max, locale),
                     format_scientific(float(info.smallest_normal), locale),
                     format_scientific(float(info.smallest_subnormal), locale),
                     format_number(spacing_at_one(name), locale, digits=3)))
    headers = tuple(_l(k, locale) for k in ("format", "exponent", "mantissa", "max", "normal",
                                          "subnormal", "spacing"))
    return markdown_table(Table(headers, tuple(rows), (False,) + (True,) * 6), locale)


def _power_of_ten(value: float, locale: str) -> str:
    exponent = round(math.log10(value))
    return f"{format_number(10, locale)}<sup>{format_number(exponent, locale)}</sup>"


def outlier_table(locale: str) -> str:
    """Mean relative error of the ordinary values of a tensor with one outlier, per way of
    scaling, and the share per-tensor e4m3 rounds to zero."""
    rows = tuple((_power_of_ten(c.outlier, locale),
                  *(format_percent(v, locale, digits=1) for v in
                    (c.per_tensor, c.tiles, c.blocks, c.e5m2_per_tensor, c.flushed)))
                 for c in _cases())
    headers = tuple(_l(k, locale) for k in ("outlier", "per_tensor", "tiles", "blocks", "e5m2",
                                          "flushed"))
    return markdown_table(Table(headers, rows, (True,) * 6), locale)


def figures() -> list[Figure]:
    """The section's figures (``fp8.*``) and its exercises' (``ex.fp8_*``)."""
    h100, h800 = get_gpu(GPU), get_gpu(DEEPSEEK_GPU)
    deepseek = run_cost("deepseek-v3")
    low, high = _cases()[0], _cases()[-1]
    items = chapter_exercises("saving-memory")
    exercises = [p.as_figure() for e in items for p in e.parts if isinstance(p, NumericPart)]
    quantities = [Figure(f"ex.{q.name}", float(q.value), q.unit, q.digits)
                  for e in items for q in e.quantities]
    return [
        *exercises, *quantities,
        Figure("fp8.e4m3_max", FORMATS["e4m3"].max),
        Figure("fp8.e5m2_max", FORMATS["e5m2"].max),
        Figure("fp8.block", BLOCK),
        Figure("fp8.tokens", OUTLIER_SHAPE[0]), Figure("fp8.channels", OUTLIER_SHAPE[1]),
        Figure("fp8.h100_fp8", h100.fp8_dense_flops, "TFLOP/s"),
        Figure("fp8.h100_bf16", h100.bf16_dense_flops, "TFLOP/s"),
        Figure("fp8.peak_ratio", h100.fp8_dense_flops / h100.bf16_dense_flops, "x"),
        Figure("fp8.deepseek_mfu_fp8", deepseek.implied_mfu * h800.bf16_dense_flops
               / h800.fp8_dense_flops, "%"),
        Figure("fp8.outlier_low", low.outlier), Figure("fp8.outlier_high", high.outlier),
        Figure("fp8.tensor_low", low.per_tensor, "%", digits=1),
        Figure("fp8.tensor_high", high.per_tensor, "%", digits=1),
        Figure("fp8.tiles_high", high.tiles, "%", digits=1),
        Figure("fp8.e5m2_high", high.e5m2_per_tensor, "%", digits=1),
        Figure("fp8.flushed_high", high.flushed, "%"),
        Figure("fp8.delayed_kept", 1 - high.delayed_outlier, "%", digits=3,
               doc="what the new outlier keeps of its value under delayed scaling"),
    ]
