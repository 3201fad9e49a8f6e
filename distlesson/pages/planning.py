"""Chapter section "Planning a run": the planner's answers for three worked cases.

Every table is :func:`distlesson.efficiency.planner.plan`'s result for a case below; the step
times are :mod:`distlesson.efficiency.step_time`'s seven terms. The time the 405B search takes
is measured when the site is built (it varies with the machine; the tests check only a bound).
"""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass

from distlesson.catalog.models import get_model
from distlesson.efficiency.planner import HEADROOM, PlannedConfig, PlanResult, evaluate, plan
from distlesson.efficiency.step_time import Cluster
from distlesson.memory.states import Layout
from distlesson.render.figure import Figure
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.tables import Table, markdown_table

__all__ = ["CASES", "TOP", "Case", "figures", "plan_table", "rejections_table"]


@dataclass(frozen=True)
class Case:
    """A worked case: a model, a cluster of H100s, and a step's tokens."""

    model: str
    gpus: int
    seq_len: int
    tokens_per_step: int


CASES = {
    # one node; 1M-token steps (128 sequences): a modelling choice for a small run
    "8b": Case("llama3-8b", 8, 8192, 128 * 8192),
    # eight nodes; 4M-token steps (512 sequences): a modelling choice
    "70b": Case("llama3-70b", 64, 8192, 512 * 8192),
    # Llama 3's run: 16,384 H100s, 16M-token steps of 2048 x 8192 (Grattafiori et al. 2024)
    "405b": Case("llama3-405b", 16_384, 8192, 2048 * 8192),
}
TOP = 5
GPU = "h100-sxm"
LLAMA3_LAYOUT = Layout(tp=8, pp=16, dp=128, zero=1)  # Llama 3, section 3.3.2

_LABELS = {
    "rank": {"en": "#", "ca": "#", "fa": "#"},
    "zero": {"en": "ZeRO", "ca": "ZeRO", "fa": "ZeRO"},
    "recompute": {"en": "Recompute", "ca": "Recàlcul", "fa": "بازمحاسبه"},
    "schedule": {"en": "Schedule", "ca": "Planificació", "fa": "زمان‌بندی"},
    "memory": {"en": "Per GPU", "ca": "Per GPU", "fa": "در هر GPU"},
    "fits": {"en": "Fits", "ca": "Hi cap", "fa": "جا می‌شود"},
    "step": {"en": "Step", "ca": "Pas", "fa": "گام"},
    "reason": {"en": "Rejected because", "ca": "Rebutjada perquè", "fa": "دلیل رد"},
    "count": {"en": "Configs", "ca": "Configuracions", "fa": "پیکربندی‌ها"},
    "example": {"en": "For example", "ca": "Per exemple", "fa": "برای نمونه"},
    "yes": {"en": "yes", "ca": "sí", "fa": "بله"},
    "no": {"en": "no", "ca": "no", "fa": "خیر"},
    "interleaved": {"en": "interleaved, v = {v}", "ca": "intercalada, v = {v}",
                    "fa": "درهم‌تنیده، v = {v}"},
}
_RECOMPUTE = {"none": {"en": "none", "ca": "cap", "fa": "بدون"},
              "selective": {"en": "selective", "ca": "selectiu", "fa": "گزینشی"},
              "full": {"en": "full", "ca": "complet", "fa": "کامل"}}
_REASONS = {
    "tp_node": {"en": "tp does not divide the GPUs of a node",
                "ca": "tp no divideix les GPU d'un node",
                "fa": "تعداد GPUهای یک گره بر tp بخش‌پذیر نیست"},
    "tp_shape": {"en": "tp does not divide the heads or the MLP width",
                 "ca": "tp no divideix els caps d'atenció o l'amplada de l'MLP",
                 "fa": "تعداد سرها یا پهنای MLP بر tp بخش‌پذیر نیست"},
    "pp_layers": {"en": "more stages than layers", "ca": "més etapes que capes",
                  "fa": "مراحل بیش از لایه‌ها"},
    "cp_seq": {"en": "cp does not divide the sequence", "ca": "cp no divideix la seqüència",
               "fa": "طول دنباله بر cp بخش‌پذیر نیست"},
    "batch": {"en": "the batch cannot be whole sequences per replica",
              "ca": "el lot no surt en seqüències senceres per rèplica",
              "fa": "دسته با دنباله‌های کامل برای هر نسخه ساخته نمی‌شود"},
    "memory": {"en": "does not fit in the GPU's memory", "ca": "no cap a la memòria de la GPU",
               "fa": "در حافظهٔ GPU جا نمی‌شود"},
}


def _t(key: str, locale: str) -> str:
    return _LABELS[key][locale]


def _cluster(case: Case) -> Cluster:
    return Cluster(gpu=GPU, num_gpus=case.gpus)


@functools.cache
def _plan(name: str) -> tuple[PlanResult, float]:
    """The case's plan, and the seconds the search took (measured now)."""
    case = CASES[name]
    start = time.perf_counter()
    result = plan(get_model(case.model), _cluster(case), seq_len=case.seq_len,
                  tokens_per_step=case.tokens_per_step)
    return result, time.perf_counter() - start


@functools.cache
def _llama3_own() -> PlannedConfig:
    """Llama 3's published layout, its best recomputation and schedule."""
    case = CASES["405b"]
    return evaluate(get_model(case.model), _cluster(case), LLAMA3_LAYOUT,
                    seq_len=case.seq_len, tokens_per_step=case.tokens_per_step).configs[0]


def _schedule(config: PlannedConfig, locale: str) -> str:
    if config.schedule == "1f1b":
        return "1F1B"
    return _t("interleaved", locale).format(v=format_number(config.chunks, locale))


def plan_table(case: str, locale: str) -> str:
    """The case's best configs (the CLI's columns), best first."""
    result, _ = _plan(case)
    rows = []
    for i, c in enumerate(result.configs[:TOP], 1):
        rows.append((format_number(i, locale),
                     *(format_number(getattr(c, d), locale) for d in ("dp", "tp", "pp", "cp")),
                     format_number(c.zero, locale), _RECOMPUTE[c.recompute][locale],
                     _schedule(c, locale), format_quantity(c.per_gpu_bytes, "GB", locale, digits=1),
                     _t("yes" if c.fits else "no", locale),
                     format_quantity(c.step_time, "s", locale, digits=2),
                     format_percent(c.mfu, locale, digits=1)))
    headers = (_t("rank", locale), "dp", "tp", "pp", "cp", _t("zero", locale),
               _t("recompute", locale), _t("schedule", locale), _t("memory", locale),
               _t("fits", locale), _t("step", locale), "MFU")
    numeric = (True, True, True, True, True, True, False, False, True, False, True, True)
    return markdown_table(Table(headers, tuple(rows), numeric), locale)


def rejections_table(case: str, locale: str) -> str:
    """How many configs each rule rejected, with one example layout."""
    result, _ = _plan(case)
    rows = tuple((_REASONS[reason][locale], format_number(count, locale),
                  f"`{result.examples[reason].split(':')[0]}`")
                 for reason, count in sorted(result.rejected.items(), key=lambda kv: -kv[1]))
    headers = (_t("reason", locale), _t("count", locale), _t("example", locale))
    return markdown_table(Table(headers, rows, (False, True, False)), locale)


def figures() -> list[Figure]:
    """The numbers the section's prose quotes."""
    result = []
    for name, case in CASES.items():
        found, _ = _plan(name)
        best = found.configs[0]
        result += [
            Figure(f"plan.{name}_gpus", case.gpus),
            Figure(f"plan.{name}_tokens", case.tokens_per_step, "M params", digits=1),
            Figure(f"plan.{name}_fitting", len(found.configs)),
            Figure(f"plan.{name}_rejected", sum(found.rejected.values())),
            *(Figure(f"plan.{name}_best_{d}", getattr(best, d)) for d in ("dp", "tp", "pp",
                                                                            "cp", "zero")),
            Figure(f"plan.{name}_best_step", best.step_time, "s", digits=2),
            Figure(f"plan.{name}_best_mfu", best.mfu, "%", digits=1),
        ]
    big, seconds = _plan("405b")
    own = _llama3_own()
    per_token = own.step_time / own.tokens_per_step
    rank = 1 + sum(c.step_time / c.tokens_per_step < per_token for c in big.configs)
    return [
        *result,
        Figure("plan.headroom", HEADROOM, "%"),
        Figure("plan.memory_limit", big.memory_limit, "GB"),
        Figure("plan.seconds_405b", seconds, "s", digits=2,
               doc="measured at build: varies with the machine"),
        Figure("plan.cores", os.cpu_count() or 1),
        Figure("plan.llama3_step", own.step_time, "s", digits=2),
        Figure("plan.llama3_mfu", own.mfu, "%", digits=1),
        Figure("plan.llama3_rank", rank, doc="Llama 3's own layout among the fitting configs"),
    ]
