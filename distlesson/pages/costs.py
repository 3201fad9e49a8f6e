"""Chapter "Planning and cost", second half: what training runs cost, recomputed.

Published runs (:data:`distlesson.efficiency.cost.REPORTED`) are recomputed from their own figures,
and
the Persian lesson's cost exercise is answered with its own prices
(:data:`distlesson.efficiency.cost.PRICES`) for a few catalog models.
"""

from __future__ import annotations

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.efficiency.cost import (
    PRICES,
    REPORTED,
    cost_usd,
    gpu_hours,
    run_cost,
    training_flops,
)
from distlesson.render.figure import Figure
from distlesson.render.numbers import (
    format_money,
    format_number,
    format_percent,
    format_quantity,
    format_scientific,
)
from distlesson.render.tables import Table, group_header, markdown_table

__all__ = ["exercise_table", "figures", "runs_table"]

# The exercise's cases: catalog models and their token budgets: twenty tokens per
# parameter, the compute-optimal ratio of Hoffmann et al. 2022 (None below), for the smaller
# models; Llama 3's published 15.6T for the largest. All at an MFU of 40 %.
TOKENS_PER_PARAM = 20
EXERCISE = (("llama3-8b", None), ("llama3-70b", None), ("llama3-405b", 15.6e12))
EXERCISE_MFU = 0.40

_LABELS = {
    "run": {"en": "Run", "ca": "Entrenament", "fa": "اجرا"},
    "gpus": {"en": "GPUs", "ca": "GPU", "fa": "GPUها"},
    "flops": {"en": "Training FLOPs", "ca": "FLOP d'entrenament", "fa": "FLOPهای آموزش"},
    "reported_hours": {"en": "GPU-hours reported", "ca": "Hores de GPU declarades",
                       "fa": "ساعت‌های GPU گزارش‌شده"},
    "implied_mfu": {"en": "Implied MFU", "ca": "MFU implícit", "fa": "MFU ضمنی"},
    "price": {"en": "Price per GPU-hour", "ca": "Preu per hora de GPU",
              "fa": "قیمت هر ساعت GPU"},
    "cost": {"en": "Cost", "ca": "Cost", "fa": "هزینه"},
    "model": {"en": "Model", "ca": "Model", "fa": "مدل"},
    "tokens": {"en": "Tokens", "ca": "Tokens", "fa": "توکن‌ها"},
    "gpu_hours": {"en": "GPU-hours at {mfu} MFU", "ca": "Hores de GPU amb un MFU del {mfu}",
                  "fa": "ساعت GPU با MFU {mfu}"},
}


def _t(key: str, locale: str, **values: str) -> str:
    return _LABELS[key][locale].format(**values)


def _dollars(value: float, locale: str) -> str:
    """Whole dollars below a million, millions with a decimal above."""
    if value >= 1e6:
        return format_quantity(value, "M$", locale, digits=1)
    return format_money(value, locale, digits=0)


def _price(value: float, locale: str) -> str:
    return format_money(value, locale)


def runs_table(locale: str) -> str:
    """DeepSeek-V3 and Llama 3 405B: FLOPs, GPU-hours, implied MFU and dollars."""
    rows = []
    for key in REPORTED:
        run = run_cost(key)
        rows.append((run.run.display_name,
                     f"{format_number(run.run.gpus, locale)} × {get_gpu(run.run.gpu).display_name}",
                     format_scientific(run.flops, locale, digits=2),
                     format_number(run.run.gpu_hours, locale),
                     format_percent(run.implied_mfu, locale, digits=1),
                     _price(run.usd_per_gpu_hour, locale),
                     _dollars(run.reported_cost_usd, locale)))
    headers = tuple(_t(k, locale) for k in ("run", "gpus", "flops", "reported_hours",
                                            "implied_mfu", "price", "cost"))
    return markdown_table(Table(headers, tuple(rows), (False, False) + (True,) * 5), locale)


def _exercise_rows() -> list[tuple[str, float, float, dict[str, tuple[float, float]]]]:
    rows = []
    for key, budget in EXERCISE:
        arch = get_model(key)
        tokens = TOKENS_PER_PARAM * arch.num_params if budget is None else budget
        flops = training_flops(arch, tokens)
        per_gpu = {}
        for gpu, price in PRICES.items():
            hours = gpu_hours(flops, gpu=gpu, mfu=EXERCISE_MFU)
            per_gpu[gpu] = (hours, cost_usd(hours, price.usd_per_hour))
        rows.append((arch.display_name, tokens, flops, per_gpu))
    return rows


def _header(gpu: str, price: str, what: str, locale: str) -> str:
    """A column of one GPU at its price. Persian puts the price in parentheses with its
    unit, in words (a Latin comma and a bare price break the right-to-left line)."""
    if locale == "fa":
        return f"{gpu} ({price} در ساعت): {what}"
    return group_header(f"{gpu}, {price}/h", what, locale)


def exercise_table(locale: str) -> str:
    """The Persian exercise: model, tokens, GPU type and price -> GPU-hours and dollars."""
    rows = []
    for name, tokens, flops, per_gpu in _exercise_rows():
        cells = []
        for hours, dollars in per_gpu.values():
            cells += [format_number(hours, locale), _dollars(dollars, locale)]
        rows.append((name, format_quantity(tokens, "B params", locale),
                     format_scientific(flops, locale, digits=2), *cells))
    mfu = format_percent(EXERCISE_MFU, locale)
    headers = [_t("model", locale), _t("tokens", locale), _t("flops", locale)]
    for gpu, price in PRICES.items():
        name, cost = get_gpu(gpu).display_name, _price(price.usd_per_hour, locale)
        headers += [_header(name, cost, _t("gpu_hours", locale, mfu=mfu), locale),
                    _header(name, cost, _t("cost", locale), locale)]
    return markdown_table(Table(tuple(headers), tuple(rows),
                                (False,) + (True,) * (len(headers) - 1)), locale)


def figures() -> list[Figure]:
    """The numbers the page's prose quotes about cost."""
    deepseek, llama = run_cost("deepseek-v3"), run_cost("llama3-405b")
    low, high = llama.estimated_cost_usd
    return [
        Figure("cost.exercise_mfu", EXERCISE_MFU, "%"),
        Figure("cost.tokens_per_param", TOKENS_PER_PARAM),
        Figure("cost.a100_price", PRICES["a100-80gb"].usd_per_hour, digits=2),
        Figure("cost.h100_price", PRICES["h100-sxm"].usd_per_hour, digits=2),
        Figure("cost.deepseek_hours", deepseek.run.gpu_hours),
        Figure("cost.deepseek_pretraining_hours", deepseek.run.pretraining_gpu_hours),
        Figure("cost.deepseek_usd", deepseek.reported_cost_usd, "M$", digits=1),
        Figure("cost.deepseek_mfu", deepseek.implied_mfu, "%"),
        Figure("cost.deepseek_gpus", deepseek.run.gpus),
        Figure("cost.llama_hours", llama.run.gpu_hours),
        Figure("cost.llama_usd", llama.reported_cost_usd, "M$"),
        Figure("cost.llama_low_usd", low, "M$"),
        Figure("cost.llama_high_usd", high, "M$"),
        Figure("cost.llama_mfu", llama.implied_mfu, "%", digits=1),
        Figure("cost.llama_gpus", llama.run.gpus),
        Figure("cost.flops_ratio", get_gpu("h100-sxm").bf16_dense_flops
               / get_gpu("a100-80gb").bf16_dense_flops, "x", digits=1),
        Figure("cost.price_ratio", PRICES["h100-sxm"].usd_per_hour
               / PRICES["a100-80gb"].usd_per_hour, "x", digits=2),
        Figure("cost.gpu_ratio", llama.run.gpus / deepseek.run.gpus, "x"),
        Figure("cost.usd_ratio", llama.reported_cost_usd / deepseek.reported_cost_usd, "x"),
    ]
