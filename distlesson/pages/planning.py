"""Chapter section "Planning a run": the planner's answers for three worked cases.

Every table is :func:`distlesson.efficiency.planner.plan`'s result for a case below; the step
times are :mod:`distlesson.efficiency.step_time`'s seven terms, steady state (no failures,
no data stall: they cost every layout alike). The 405B case is Llama 3's 16,384-GPU run
(:data:`distlesson.catalog.published_runs.PUBLISHED_RUNS`): its cluster, batch and software,
so that Meta's own layout here is the accuracy chapter's prediction, number for number. The
time the 405B search takes is measured when the site is built (it varies with the machine;
the tests check only a bound).
"""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass

from distlesson.catalog.models import get_model
from distlesson.catalog.published_runs import get_published_run
from distlesson.efficiency.accuracy import Prediction, predict
from distlesson.efficiency.planner import PlannedConfig, PlanResult, plan
from distlesson.efficiency.step_time import Cluster, StepInputs
from distlesson.memory.stages import Overheads
from distlesson.render.figure import Figure
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.tables import Table, ltr, markdown_table

__all__ = ["CASES", "LLAMA3_RUN", "TOP", "Case", "cli_command", "figures", "plan_table",
           "rejections_table"]


@dataclass(frozen=True)
class Case:
    """A worked case: a model, a cluster of H100s, and a step's tokens."""

    model: str
    gpus: int
    seq_len: int
    tokens_per_step: int
    inter_link: str = "ib-ndr"
    precision: str = "mixed"


LLAMA3_RUN = get_published_run("llama3-405b-16k")
"""Llama 3's 16,384-GPU run (Table 4): the 405B case's cluster, batch and precision."""
CASES = {
    # one node; 1M-token steps (128 sequences): a modelling choice for a small run
    "8b": Case("llama3-8b", 8, 8192, 128 * 8192),
    # eight nodes; 4M-token steps (512 sequences): a modelling choice
    "70b": Case("llama3-70b", 64, 8192, 512 * 8192),
    "405b": Case(LLAMA3_RUN.model.key, LLAMA3_RUN.num_gpus, LLAMA3_RUN.seq_len,
                 LLAMA3_RUN.global_batch * LLAMA3_RUN.seq_len, LLAMA3_RUN.inter_link,
                 LLAMA3_RUN.precision),
}
TOP = 5
GPU = "h100-sxm"
INPUTS = StepInputs(failures=None)
"""Steady-state steps: failures and data stalls cost every layout alike."""

_LABELS = {
    "rank": {"en": "#", "ca": "#", "fa": "#"},
    "zero": {"en": "ZeRO", "ca": "ZeRO", "fa": "ZeRO"},
    "recompute": {"en": "Recompute", "ca": "Recàlcul", "fa": "بازمحاسبه"},
    "schedule": {"en": "Schedule", "ca": "Planificació", "fa": "زمان‌بندی"},
    "memory": {"en": "Per GPU", "ca": "Per GPU", "fa": "حافظه در هر GPU"},
    "step": {"en": "Step", "ca": "Pas", "fa": "زمان گام"},
    "reason": {"en": "Rejected because", "ca": "Motiu del rebuig", "fa": "دلیل رد"},
    "count": {"en": "Configs", "ca": "Configuracions", "fa": "تعداد چیدمان‌ها"},
    "example": {"en": "For example", "ca": "Per exemple", "fa": "برای نمونه"},
    "interleaved": {"en": "interleaved, v = {v}", "ca": "intercalada, v = {v}",
                    "fa": "درهم‌تنیده، v = {v}"},
}
_RECOMPUTE = {"none": {"en": "none", "ca": "cap", "fa": "بدون"},
              "selective": {"en": "selective", "ca": "selectiu", "fa": "انتخابی"},
              "full": {"en": "full", "ca": "complet", "fa": "کامل"}}
_REASONS = {
    "tp_node": {"en": "tp does not divide the GPUs of a node",
                "ca": "tp no divideix les GPU d'un node",
                "fa": "تعداد GPUهای یک گره بر tp بخش‌پذیر نیست"},
    "tp_shape": {"en": "tp does not divide the heads or the MLP width",
                 "ca": "tp no divideix els caps d'atenció o l'amplada de l'MLP",
                 "fa": "تعداد سرها یا پهنای MLP بر tp بخش‌پذیر نیست"},
    "pp_layers": {"en": "more stages than layers", "ca": "més etapes que capes",
                  "fa": "مرحله‌ها بیش از لایه‌ها"},
    "cp_seq": {"en": "cp does not divide the sequence", "ca": "cp no divideix la seqüència",
               "fa": "طول دنباله بر cp بخش‌پذیر نیست"},
    "batch": {"en": "the batch cannot be whole sequences per replica",
              "ca": "el lot no surt en seqüències senceres per rèplica",
              "fa": "دسته را نمی‌توان به دنباله‌های کامل برای هر نسخه تقسیم کرد"},
    "memory": {"en": "does not fit in the GPU's memory", "ca": "no cap a la memòria de la GPU",
               "fa": "در حافظهٔ GPU جا نمی‌شود"},
}


def _t(key: str, locale: str) -> str:
    return _LABELS[key][locale]


def _cluster(case: Case) -> Cluster:
    return Cluster(gpu=GPU, num_gpus=case.gpus, inter_link=case.inter_link)


@functools.cache
def _plan(name: str) -> tuple[PlanResult, float]:
    """The case's plan, and the seconds the search took (measured now)."""
    case = CASES[name]
    start = time.perf_counter()
    result = plan(get_model(case.model), _cluster(case), seq_len=case.seq_len,
                  tokens_per_step=case.tokens_per_step, inputs=INPUTS,
                  precision=case.precision)
    return result, time.perf_counter() - start


def _llama3_own() -> Prediction:
    """Llama 3's published layout and software, as the accuracy chapter predicts it."""
    return predict(LLAMA3_RUN)


def cli_command(case: str) -> str:
    """The command line that prints the case's table (the tests run it)."""
    c = CASES[case]
    return (f"distlesson plan --model {c.model} --gpus {c.gpus} --gpu {GPU} --seq {c.seq_len} "
            f"--tokens-per-step {c.tokens_per_step} --inter-link {c.inter_link} "
            f"--precision {c.precision}")


LAYOUT_DEGREES = ("dp", "tp", "pp", "cp")
_TIMES = "\u00a0×\u00a0"  # no-break spaces: a layout reads on one line


def _schedule(config: PlannedConfig, locale: str) -> str:
    if config.schedule == "1f1b":
        return "1F1B"
    return _t("interleaved", locale).format(v=format_number(config.chunks, locale))


def plan_table(case: str, locale: str) -> str:
    """The case's best configs, best first. Every ranked config fits, so the table shows HFU
    (recomputation counted) where the CLI shows the fit; the four degrees share one column so
    that the answers (step, MFU) stay within a page's width."""
    result, _ = _plan(case)
    rows = []
    for i, c in enumerate(result.configs[:TOP], 1):
        degrees = _TIMES.join(format_number(getattr(c, d), locale) for d in LAYOUT_DEGREES)
        rows.append((format_number(i, locale), ltr(degrees, locale),
                     format_number(c.zero, locale), _RECOMPUTE[c.recompute][locale],
                     _schedule(c, locale), format_quantity(c.per_gpu_bytes, "GB", locale, digits=1),
                     format_quantity(c.step_time, "s", locale, digits=2),
                     format_percent(c.mfu, locale, digits=1),
                     format_percent(c.hfu, locale, digits=1)))
    headers = (_t("rank", locale), ltr(_TIMES.join(LAYOUT_DEGREES), locale), _t("zero", locale),
               _t("recompute", locale), _t("schedule", locale), _t("memory", locale),
               _t("step", locale), "MFU", "HFU")
    numeric = (True, False, True, False, False, True, True, True, True)
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
            Figure(f"plan.{name}_tokens", case.tokens_per_step),
            Figure(f"plan.{name}_fitting", len(found.configs)),
            Figure(f"plan.{name}_rejected", sum(found.rejected.values())),
            *(Figure(f"plan.{name}_best_{d}", getattr(best, d)) for d in ("dp", "tp", "pp",
                                                                            "cp", "zero")),
            Figure(f"plan.{name}_best_step", best.step_time, "s", digits=2),
            Figure(f"plan.{name}_best_mfu", best.mfu, "%", digits=1),
        ]
    big, seconds = _plan("405b")
    llama3 = _llama3_own()
    own = llama3.estimate
    per_token = own.step_time / CASES["405b"].tokens_per_step
    rank = 1 + sum(c.step_time / c.tokens_per_step < per_token for c in big.configs)
    overheads = Overheads()
    return [
        *result,
        Figure("plan.cuda_context", overheads.cuda_context, "GB", digits=1),
        Figure("plan.nccl_buffers", overheads.communicator_buffers, "GB", digits=1),
        Figure("plan.fragmentation", overheads.fragmentation, "%"),
        Figure("plan.memory_limit", big.memory_limit, "GB"),
        Figure("plan.seconds_405b", seconds, "s", digits=2,
               doc="measured at build: varies with the machine", measured=True),
        Figure("plan.cores", os.cpu_count() or 1, measured=True),
        Figure("plan.llama3_step", own.step_time, "s", digits=2),
        Figure("plan.llama3_mfu", own.mfu, "%", digits=1),
        Figure("plan.llama3_chunks", llama3.chunks),
        Figure("plan.llama3_memory", own.per_gpu_bytes, "GB", digits=1),
        Figure("plan.llama3_rank", rank, doc="Llama 3's own layout among the fitting configs"),
        Figure("plan.best_over_llama3", big.configs[0].mfu / own.mfu, "x", digits=2),
    ]
