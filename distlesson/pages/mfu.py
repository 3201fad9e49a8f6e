"""Chapter section "MFU: where the time goes": one step of Llama 3.1 405B, term by term.

The step is :mod:`distlesson.efficiency.step_time`'s seven terms for the chapter's scenario
below; MFU is read off them and, independently, from the FLOPs
(:mod:`distlesson.efficiency.mfu`). The Catalan chapter's widget showed its own split of
such a step; :data:`CATALAN_WIDGET` keeps its figures (inputs from a source, not
results) so that the page can compare.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from distlesson.catalog.achieved import gemm_efficiency
from distlesson.catalog.models import get_model
from distlesson.catalog.published_runs import get_published_run
from distlesson.efficiency.accuracy import predict, run_setup
from distlesson.efficiency.checkpoint_io import checkpoint_size
from distlesson.efficiency.cost import get_reported_run
from distlesson.efficiency.failures import FailureModel
from distlesson.efficiency.step_time import TERMS, StepEstimate, estimate_step, fix_largest
from distlesson.render.figure import Figure
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.numbers import format_scientific as scientific
from distlesson.render.palette import MFU_TERMS, colours
from distlesson.render.svg import stacked_barh
from distlesson.render.tables import Table, markdown_table

__all__ = ["CATALAN_WIDGET", "compare_table", "exercise_table", "figures", "llama405_step",
           "step_bar", "terms_table", "two_ways_table"]

# --- the scenario: Llama 3's 16,384-GPU run (Table 4), as the accuracy chapter predicts it,
# plus what a month-long run adds: a data stall and failures ------------------------------
RUN = get_published_run("llama3-405b-16k")
"""Llama 3 (Grattafiori et al. 2024), Table 4 and section 3.3.2: TP 8 inside a node, PP 16,
DP 128 on 16,384 H100s over RoCE, 16M-token batches of 8192-token sequences, no
recomputation, fp32 gradient reduction, an interleaved schedule (v: the fastest buildable,
as the accuracy chapter takes it)."""
MODEL = RUN.model.key
PREDICTION = predict(RUN)
_SETUP = run_setup(RUN, schedule=PREDICTION.schedule, chunks=PREDICTION.chunks)
LAYOUT, WORKLOAD, CLUSTER = _SETUP.layout, _SETUP.workload, _SETUP.cluster
DATA_STALL = 0.2
"""Seconds per step waiting for data: a modelling choice (Llama 3 reports no figure)."""
CHUNKS = PREDICTION.chunks
CHECKPOINT = checkpoint_size(RUN.model, precision=WORKLOAD.precision,
                             optimizer=WORKLOAD.optimizer)
"""The run's checkpoint: weights, master copy and optimizer state (no gradients)."""
INPUTS = replace(_SETUP.inputs, data_stall=DATA_STALL,
                 failures=FailureModel().for_checkpoint(CHECKPOINT.total))
"""The run's software (overlap, attention, schedule) with a data stall and failures: the
checkpoint written synchronously at Tectonic's sustained bandwidth."""

RULES_OF_THUMB = {"good_low": 0.35, "good_high": 0.55, "trouble": 0.25}
"""The Catalan chapter's section 4: 35-55 % is good for large dense training, below 25 %
there is a problem (inputs from a source)."""

CATALAN_WIDGET = {"useful": 0.18, "below_peak": 0.22, "recompute": 0.13, "bubble": 0.23,
                  "exposed_comm": 0.13, "data": 0.03, "failures": 0.07, "mfu": 0.180,
                  "step_time": 13.327}
"""The Catalan chapter's widget (shares of the step, MFU, seconds per step): a source's figures."""

_TERMS = {
    "useful": {"en": "Useful compute at peak", "ca": "Càlcul útil al pic",
               "fa": "محاسبهٔ مفید با توان اوج"},
    "below_peak": {"en": "Kernels below peak", "ca": "Kernels per sota del pic",
                   "fa": "کرنل‌های کمتر از اوج"},
    "recompute": {"en": "Recomputed forward (checkpointing)",
                  "ca": "Forward recalculat",
                  "fa": "تکرار گذر رو به جلو (بازمحاسبه)"},
    "bubble": {"en": "Pipeline bubble", "ca": "Bombolla del pipeline", "fa": "حباب خط لوله"},
    "exposed_comm": {"en": "Exposed communication", "ca": "Comunicació no amagada",
                     "fa": "ارتباط پنهان‌نشده"},
    "data": {"en": "Waiting for data", "ca": "Espera de dades", "fa": "انتظار برای داده"},
    "failures": {"en": "Failures and restarts", "ca": "Fallades i reinicis",
                 "fa": "خرابی‌ها و راه‌اندازی دوباره"},
}
_REMEDIES = {
    "useful": {"en": "—", "ca": "—", "fa": "—"},
    "below_peak": {
        "en": "fused kernels, FlashAttention, matrix shapes that fill the tensor cores",
        "ca": "kernels fusionats, FlashAttention, matrius amb dimensions que omplin els "
              "tensor cores",
        "fa": "کرنل‌های ادغام‌شده، FlashAttention، ابعادی از ماتریس که هسته‌های تنسوری "
              "را پر کند"},
    "recompute": {
        "en": "selective recomputation: recompute only what is cheap to redo",
        "ca": "recàlcul selectiu: tornar a calcular només allò que surt barat",
        "fa": "بازمحاسبهٔ انتخابی: فقط آنچه دوباره‌ساختنش ارزان است"},
    "bubble": {
        "en": "more micro-batches, an interleaved or zero-bubble schedule, fewer stages",
        "ca": "més microlots, una planificació intercalada o de bombolla zero, menys etapes",
        "fa": "ریزدسته‌های بیشتر، زمان‌بندی درهم‌تنیده یا بی‌حباب، مرحله‌های کمتر"},
    "exposed_comm": {
        "en": "overlap it with compute, keep TP inside the node, avoid ZeRO-3 across nodes",
        "ca": "solapar-la amb el càlcul, mantenir el TP dins del node, evitar ZeRO-3 entre "
              "nodes",
        "fa": "هم‌پوشانی با محاسبه، نگه داشتن TP درون گره، پرهیز از ZeRO-3 میان گره‌ها"},
    "data": {
        "en": "asynchronous prefetching, more reader workers, pre-tokenised data",
        "ca": "precàrrega asíncrona, més fils de lectura, dades ja tokenitzades",
        "fa": "پیش‌واکشی ناهمگام، پردازه‌های خوانندهٔ بیشتر (reader workers)، داده‌های از پیش توکن‌شده"},
    "failures": {
        "en": "asynchronous checkpoints at Young's interval, finding bad nodes automatically, "
              "fast restarts",
        "ca": "punts de control asíncrons a l'interval de Young, detecció automàtica de nodes "
              "defectuosos, reinicis ràpids",
        "fa": "چک‌پوینت ناهمگام با بازهٔ Young، شناسایی خودکار گره‌های معیوب، راه‌اندازی "
              "دوبارهٔ سریع"},
}
_LABELS = {
    "term": {"en": "Term", "ca": "Terme", "fa": "جزء"},
    "seconds": {"en": "Seconds", "ca": "Segons", "fa": "ثانیه"},
    "share": {"en": "Share of the step", "ca": "Part del pas", "fa": "سهم از گام"},
    "remedy": {"en": "What to do about it", "ca": "Què s'hi pot fer", "fa": "چه می‌توان کرد"},
    "way": {"en": "Way", "ca": "Camí", "fa": "راه"},
    "computation": {"en": "Computation", "ca": "Càlcul", "fa": "محاسبه"},
    "from_terms": {"en": "From the terms: useful / step", "ca": "Dels termes: útil / pas",
                   "fa": "از اجزا: مفید / گام"},
    "from_flops": {"en": "From the FLOPs: model FLOPs / (step × GPUs × peak)",
                   "ca": "Dels FLOP: FLOP del model / (pas × GPU × pic)",
                   "fa": "از FLOPها: FLOPهای مدل / (گام × GPUها × اوج)"},
    "rank": {"en": "Rank", "ca": "Ordre", "fa": "رتبه"},
    "before": {"en": "Now", "ca": "Ara", "fa": "اکنون"},
    "after": {"en": "After removing the largest", "ca": "Després de treure el més gran",
              "fa": "پس از حذف بزرگ‌ترین"},
    "ours": {"en": "This model", "ca": "Aquest model", "fa": "مدل گام این دوره"},
    "widget": {"en": "Catalan chapter's widget", "ca": "Figura interactiva del capítol català",
               "fa": "ابزار تعاملی فصل کاتالانی"},
    "step_row": {"en": "Step time", "ca": "Temps del pas", "fa": "زمان گام"},
    "axis": {"en": "seconds of one step", "ca": "segons d'un pas", "fa": "زمان گام (ثانیه)"},
    "bar": {"en": "Llama 3.1 405B, one step", "ca": "Llama 3.1 405B, un pas",
            "fa": "Llama 3.1 405B، یک گام"},
    "title": {"en": "Where a step's time goes", "ca": "On va el temps d'un pas",
              "fa": "زمان یک گام کجا می‌رود"},
}


def _t(key: str, locale: str) -> str:
    return _LABELS[key][locale]


@functools.cache
def llama405_step() -> StepEstimate:
    """The chapter's step: Llama 3.1 405B on 16,384 H100s, tp 8 x pp 16 x dp 128; without
    its data stall and failures it is the accuracy chapter's prediction of the run."""
    return estimate_step(get_model(MODEL), LAYOUT, WORKLOAD, CLUSTER, INPUTS)


def _seconds(value: float, locale: str) -> str:
    return format_quantity(value, "s", locale, digits=2)


def step_bar(locale: str) -> str:
    """One horizontal bar: the step's seven terms stacked, useful first."""
    b = llama405_step().breakdown
    stacks = [(_TERMS[t][locale], [getattr(b, t)]) for t in TERMS]
    return stacked_barh([_t("bar", locale)], stacks, xlabel=_t("axis", locale), locale=locale,
                        tick_format=lambda x: format_number(x, locale), name=f"mfu-bar-{locale}",
                        title=_t("title", locale),
                        total_format=lambda x: _seconds(x, locale),
                        colors=colours(MFU_TERMS, TERMS))


def terms_table(locale: str) -> str:
    """Each term: seconds, share of the step, and what to do about it; largest loss first."""
    b = llama405_step().breakdown
    shares = b.shares()
    order = ("useful", *(t for t, _ in b.ranked()))
    rows = tuple((_TERMS[t][locale], _seconds(getattr(b, t), locale),
                  format_percent(shares[t], locale, digits=1), _REMEDIES[t][locale])
                 for t in order)
    rows += ((f"**{_t('step_row', locale)}**", f"**{_seconds(b.total, locale)}**",
              f"**{format_percent(1, locale)}**", ""),)
    headers = tuple(_t(k, locale) for k in ("term", "seconds", "share", "remedy"))
    return markdown_table(Table(headers, rows, (False, True, True, False)), locale)


def two_ways_table(locale: str) -> str:
    """MFU from the terms and from the FLOPs: the same number, computed two ways."""
    step = llama405_step()
    b = step.breakdown
    gpus, peak = step.gpus, step.peak_flops
    by_terms = f"{_seconds(b.useful, locale)} / {_seconds(b.total, locale)}"
    by_flops = (f"{scientific(float(step.flops.model), locale, digits=2)} / "
                f"({_seconds(b.total, locale)} × {format_number(gpus, locale)} × "
                f"{format_quantity(peak, 'TFLOP/s', locale)})")
    rows = ((_t("from_terms", locale), by_terms, format_percent(b.mfu, locale, digits=2)),
            (_t("from_flops", locale), by_flops,
             format_percent(step.mfu_from_flops, locale, digits=2)))
    headers = (_t("way", locale), _t("computation", locale), "MFU")
    return markdown_table(Table(headers, rows, (False, False, True)), locale)


def _fixed():
    step = llama405_step()
    term, model = fix_largest(step.model)
    return term, model.breakdown()


def exercise_table(locale: str) -> str:
    """The losses ranked now, and after removing the largest at its cause."""
    before = llama405_step().breakdown
    _, after = _fixed()
    now, then = before.ranked(), after.ranked()
    shares_now, shares_then = before.shares(), after.shares()
    rows = []
    for i, ((a, _), (b, _)) in enumerate(zip(now, then, strict=True), 1):
        rows.append((format_number(i, locale),
                     f"{_TERMS[a][locale]}: {format_percent(shares_now[a], locale, digits=1)}",
                     f"{_TERMS[b][locale]}: {format_percent(shares_then[b], locale, digits=1)}"))
    rows.append(("MFU", format_percent(before.mfu, locale, digits=1),
                 format_percent(after.mfu, locale, digits=1)))
    headers = (_t("rank", locale), _t("before", locale), _t("after", locale))
    return markdown_table(Table(headers, tuple(rows), (True, False, False)), locale)


def compare_table(locale: str) -> str:
    """Our shares beside the Catalan widget's, term by term, then MFU and step time."""
    b = llama405_step().breakdown
    shares = b.shares()
    rows = [(_TERMS[t][locale], format_percent(shares[t], locale, digits=1),
             format_percent(CATALAN_WIDGET[t], locale)) for t in TERMS]
    rows.append(("MFU", format_percent(b.mfu, locale, digits=1),
                 format_percent(CATALAN_WIDGET["mfu"], locale, digits=1)))
    rows.append((_t("step_row", locale), _seconds(b.total, locale),
                 _seconds(CATALAN_WIDGET["step_time"], locale)))
    headers = (_t("term", locale), _t("ours", locale), _t("widget", locale))
    return markdown_table(Table(headers, tuple(rows), (False, True, True)), locale)


def figures() -> list[Figure]:
    """The numbers the section's prose quotes."""
    step = llama405_step()
    b, model = step.breakdown, step.model
    failures = INPUTS.failures
    shares = b.shares()
    term, after = _fixed()
    llama3 = get_reported_run("llama3-405b").mfu_range
    result = [
        *(Figure(f"mfu.{name}", value, "%") for name, value in RULES_OF_THUMB.items()),
        Figure("mfu.llama3_mfu_low", llama3[0], "%"),
        Figure("mfu.llama3_mfu_high", llama3[1], "%"),
        Figure("mfu.gpus", step.gpus),
        Figure("mfu.tp", LAYOUT.tp), Figure("mfu.pp", LAYOUT.pp), Figure("mfu.dp", LAYOUT.dp),
        Figure("mfu.microbatches", step.num_microbatches),
        Figure("mfu.tokens", WORKLOAD.global_batch * WORKLOAD.seq_len, "M params", digits=1),
        Figure("mfu.kernel_efficiency", model.kernel_efficiency, "%", digits=1),
        Figure("mfu.gemm_efficiency", gemm_efficiency(CLUSTER.gpu), "%", digits=1),
        Figure("mfu.data_stall", DATA_STALL, "s", digits=1),
        Figure("mfu.mtbf_hours", 1 / (failures.per_gpu_hour * step.gpus), digits=1),
        Figure("mfu.checkpoint_minutes", failures.interval(step.gpus) / 60, digits=1),
        Figure("mfu.restart_minutes", failures.restart_time / 60, digits=0),
        Figure("mfu.checkpoint_write_s", failures.write_time, "s", digits=1),
        Figure("mfu.checkpoint_tb", CHECKPOINT.total, "TB", digits=2,
               doc="the run's checkpoint"),
        Figure("mfu.storage_tb_s", failures.storage_bandwidth, "TB/s",
               doc="Tectonic's sustained bandwidth (Llama 3, section 3.3.1)"),
        Figure("mfu.chunks", CHUNKS),
        Figure("mfu.step_time", b.total, "s", digits=2),
        Figure("mfu.ideal", b.useful, "s", digits=2),
        Figure("mfu.mfu", b.mfu, "%", digits=1),
        Figure("mfu.mfu_from_flops", step.mfu_from_flops, "%", digits=1),
        Figure("mfu.steady_mfu", PREDICTION.estimate.mfu, "%", digits=1,
               doc="the same step without data stall and failures (accuracy chapter)"),
        Figure("mfu.bubble_over_busy", model.idle_over_busy, "%", digits=1),
        Figure("mfu.mfu_after_fix", after.mfu, "%", digits=1,
               doc=f"after removing the largest loss ({term})"),
        Figure("mfu.widget_mfu", CATALAN_WIDGET["mfu"], "%", digits=1, doc="a source's figure"),
        Figure("mfu.widget_step", CATALAN_WIDGET["step_time"], "s", digits=2,
               doc="a source's figure"),
    ]
    for t in TERMS:
        result.append(Figure(f"mfu.{t}_s", getattr(b, t), "s", digits=2))
        result.append(Figure(f"mfu.{t}_share", shares[t], "%", digits=1))
    return result
