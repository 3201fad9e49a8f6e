"""Chapter "Months on a cluster: failures and checkpoints": its figures, tables and plots.

The scenario is Llama 3 405B's pre-training (Grattafiori et al. 2024): 16,384 H100s, the
interruptions of section 3.3.4 and Table 5, the Tectonic storage of section 3.3.1. The
failure rate per GPU, the checkpoint's bytes and its write time come from
:mod:`distlesson.efficiency.failures` and :mod:`distlesson.efficiency.checkpoint_io`, the same
inputs as the step model's ``failures`` term on the MFU chapter's page.
"""

from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, NullLocator

from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import get_model
from distlesson.catalog.reliability import (
    LLAMA3_CAUSES,
    LLAMA3_INTERRUPTIONS,
    LLAMA3_MANUAL_INTERVENTIONS,
    LLAMA3_SHARD_BYTES,
    TECTONIC,
)
from distlesson.chapter_exercises import chapter_exercises
from distlesson.claims.failures import HARDWARE_CATEGORIES
from distlesson.efficiency.checkpoint_io import async_pause, checkpoint_size, write_time
from distlesson.efficiency.failures import (
    LLAMA3_PER_GPU_HOUR,
    FailureModel,
    daly_interval,
    goodput,
    goodput_first_order,
    job_mtbf,
    young_interval,
)
from distlesson.exercises import NumericPart
from distlesson.render.figure import Figure
from distlesson.render.lines import loglog_lines
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.palette import OKABE_ITO
from distlesson.render.svg import STYLE, WIDTH_INCHES, legend_above, to_svg
from distlesson.render.tables import Table, markdown_table

__all__ = ["causes_table", "checkpoint_table", "figures", "goodput_plot", "mtbf_plot",
           "scenario"]

GPUS = LLAMA3_INTERRUPTIONS.gpus
MODEL = "llama3-405b"
TABLE_MODELS = ("llama3-8b", "llama3-70b", "llama3-405b")
PLOT_GPUS = (8, 64, 512, 4096, 16_384, 131_072)
"""One server to eight times Llama 3's cluster."""
SLOWER = (1, 10, 100)
"""The goodput plot's write times: at Tectonic's sustained bandwidth, and 10 and 100 times
slower (a storage shared with other jobs, or a checkpoint written by a few ranks)."""
BIG_GPUS = 100_000
"""A cluster of the size announced for the next frontier runs."""
HOST_LINK = "pcie5"
"""The link an asynchronous checkpoint copies over: each H100's PCIe 5.0 x16."""

_L: dict[str, dict[str, str]] = {
    "cause": {"en": "Root cause", "ca": "Causa", "fa": "علت اصلی"},
    "category": {"en": "Category", "ca": "Categoria", "fa": "دسته"},
    "count": {"en": "Interruptions", "ca": "Interrupcions", "fa": "توقف‌ها"},
    "share": {"en": "Share (count / total)", "ca": "Part (nombre / total)",
              "fa": "سهم (تعداد / کل)"},
    "stated": {"en": "Share printed in Table 5", "ca": "Part publicada a la taula 5",
               "fa": "سهم گزارش‌شده در جدول ۵"},
    "total": {"en": "Total", "ca": "Total", "fa": "جمع"},
    "model": {"en": "Model", "ca": "Model", "fa": "مدل"},
    "weights": {"en": "bf16 weights", "ca": "Pesos bf16", "fa": "وزن‌های bf16"},
    "master": {"en": "fp32 master copy", "ca": "Còpia mestra fp32", "fa": "نسخهٔ اصلی fp32"},
    "moments": {"en": "Adam moments (fp32)", "ca": "Moments d'Adam (fp32)",
                "fa": "گشتاورهای Adam (fp32)"},
    "ckpt": {"en": "Checkpoint", "ca": "Punt de control", "fa": "چک‌پوینت"},
    "write_at": {"en": "Write at {bw}", "ca": "Escriptura a {bw}", "fa": "نوشتن با {bw}"},
    "async": {"en": "Async pause (PCIe)", "ca": "Pausa asíncrona (PCIe)",
              "fa": "توقف ناهمگام (PCIe)"},
    "gpus_axis": {"en": "GPUs in the job", "ca": "GPU de la tasca", "fa": "تعداد GPUهای کار"},
    "mtbf_axis": {"en": "mean time between failures (hours)",
                  "ca": "temps mitjà entre fallades (hores)",
                  "fa": "میانگین زمان بین خرابی‌ها (ساعت)"},
    "all": {"en": "all unexpected interruptions", "ca": "totes les interrupcions inesperades",
            "fa": "همهٔ توقف‌های غیرمنتظره"},
    "gpu_only": {"en": "GPU causes only", "ca": "només causes de GPU",
                 "fa": "فقط علت‌های مربوط به GPU"},
    "mtbf_title": {"en": "A job's MTBF against its size", "ca": "L'MTBF d'una tasca segons "
                   "la mida", "fa": "میانگین زمان بین خرابی‌های یک کار بر حسب اندازه"},
    "interval_axis": {"en": "training between two checkpoints",
                      "ca": "entrenament entre dos punts de control",
                      "fa": "زمان آموزش میان دو چک‌پوینت"},
    "goodput_axis": {"en": "goodput", "ca": "goodput", "fa": "بازدهی مفید"},
    "write_line": {"en": "pause {t}", "ca": "pausa de {t}", "fa": "توقف {t}"},
    "young": {"en": "Young's interval", "ca": "interval de Young", "fa": "بازهٔ Young"},
    "daly": {"en": "Daly's interval", "ca": "interval de Daly", "fa": "بازهٔ Daly"},
    "goodput_title": {"en": "Goodput against the checkpoint interval",
                      "ca": "Goodput segons l'interval entre punts de control",
                      "fa": "بازدهی مفید بر حسب فاصلهٔ چک‌پوینت‌ها"},
    "hours": {"en": "{n} h", "ca": "{n} h", "fa": "{n} ساعت"},
    "minutes": {"en": "{n} min", "ca": "{n} min", "fa": "{n} دقیقه"},
}
_CAUSES: dict[str, dict[str, str]] = {
    "faulty_gpu": {"en": "Faulty GPU", "ca": "GPU defectuosa", "fa": "GPU معیوب"},
    "gpu_hbm3": {"en": "GPU HBM3 memory", "ca": "Memòria HBM3 de la GPU",
                 "fa": "حافظهٔ HBM3 در GPU"},
    "software_bug": {"en": "Software bug", "ca": "Error de programari", "fa": "اشکال نرم‌افزاری"},
    "network": {"en": "Network switch or cable", "ca": "Commutador o cable de xarxa",
                "fa": "سوئیچ یا کابل شبکه"},
    "host_maintenance": {"en": "Host maintenance", "ca": "Manteniment del servidor",
                         "fa": "نگهداری میزبان"},
    "gpu_sram": {"en": "GPU SRAM memory", "ca": "Memòria SRAM de la GPU",
                 "fa": "حافظهٔ SRAM در GPU"},
    "gpu_system_processor": {"en": "GPU system processor", "ca": "Processador de sistema de "
                             "la GPU", "fa": "پردازندهٔ سیستمی GPU"},
    "nic": {"en": "NIC", "ca": "Targeta de xarxa", "fa": "کارت شبکه"},
    "nccl_watchdog": {"en": "NCCL watchdog timeouts", "ca": "Temps d'espera esgotat (vigilant "
                      "d'NCCL)", "fa": "پایان مهلت نگهبان NCCL"},
    "silent_data_corruption": {"en": "Silent data corruption", "ca": "Corrupció silenciosa de "
                               "dades", "fa": "خرابی خاموش داده"},
    "gpu_thermal": {"en": "GPU thermal interface and sensor", "ca": "Interfície tèrmica i "
                    "sensor de la GPU", "fa": "رابط حرارتی و حسگر GPU"},
    "ssd": {"en": "SSD", "ca": "SSD", "fa": "SSD"},
    "power_supply": {"en": "Power supply", "ca": "Font d'alimentació", "fa": "منبع تغذیه"},
    "server_chassis": {"en": "Server chassis", "ca": "Xassís del servidor",
                       "fa": "شاسی سرور"},
    "io_expansion_board": {"en": "IO expansion board", "ca": "Placa d'expansió d'E/S",
                           "fa": "بُرد توسعهٔ ورودی/خروجی"},
    "dependency": {"en": "Dependency", "ca": "Dependència", "fa": "وابستگی"},
    "cpu": {"en": "CPU", "ca": "CPU", "fa": "CPU"},
    "system_memory": {"en": "System memory", "ca": "Memòria del sistema",
                      "fa": "حافظهٔ سیستم"},
}
_CATEGORIES: dict[str, dict[str, str]] = {
    "GPU": {"en": "GPU", "ca": "GPU", "fa": "GPU"},
    "Host": {"en": "Host", "ca": "Servidor", "fa": "میزبان"},
    "Network": {"en": "Network", "ca": "Xarxa", "fa": "شبکه"},
    "Dependency": {"en": "Dependency", "ca": "Dependència", "fa": "وابستگی"},
    "Unknown": {"en": "Unknown", "ca": "Desconeguda", "fa": "نامعلوم"},
    "Unplanned maintenance": {"en": "Unplanned maintenance", "ca": "Manteniment no planificat",
                              "fa": "نگهداری برنامه‌ریزی‌نشده"},
}


def _l(key: str, locale: str) -> str:
    return _L[key][locale]


@functools.cache
def scenario() -> FailureModel:
    """Llama 3 405B on 16,384 GPUs: Llama 3's failure rate, its checkpoint written at
    Tectonic's sustained bandwidth (the MFU chapter's failure term)."""
    size = checkpoint_size(get_model(MODEL), precision="mixed", optimizer="adamw")
    return FailureModel().for_checkpoint(size.total)


def _gpu_count() -> int:
    return sum(c.count for c in LLAMA3_CAUSES if c.category == "GPU")


def causes_table(locale: str) -> str:
    """Table 5 of the Llama 3 paper: each root cause, its count, its share computed and
    printed."""
    total = LLAMA3_INTERRUPTIONS.unexpected
    rows = [(_CAUSES[c.key][locale], _CATEGORIES[c.category][locale],
             format_number(c.count, locale), format_percent(c.count / total, locale, digits=1),
             format_percent(c.stated_share, locale, digits=1)) for c in LLAMA3_CAUSES]
    counted = sum(c.count for c in LLAMA3_CAUSES)
    rows.append((f"**{_l('total', locale)}**", "", f"**{format_number(counted, locale)}**",
                 format_percent(counted / total, locale, digits=1),
                 format_percent(sum(c.stated_share for c in LLAMA3_CAUSES), locale, digits=1)))
    headers = tuple(_l(k, locale) for k in ("cause", "category", "count", "share", "stated"))
    return markdown_table(Table(headers, tuple(rows), (False, False, True, True, True)), locale)


def checkpoint_table(locale: str) -> str:
    """What a checkpoint of each Llama 3 model holds, and how long it takes to write."""
    pcie = get_interconnect(HOST_LINK).bandwidth
    rows = []
    for key in TABLE_MODELS:
        model = get_model(key)
        size = checkpoint_size(model, precision="mixed", optimizer="adamw")
        rows.append((model.display_name,
                     *(format_quantity(v, "GB", locale) for v in
                       (size.weights, size.master, size.optimizer, size.total)),
                     format_quantity(write_time(size.total, TECTONIC.sustained), "s", locale,
                                     digits=2),
                     format_quantity(write_time(size.total, TECTONIC.peak), "s", locale,
                                     digits=2),
                     format_quantity(async_pause(size.per_writer(GPUS), pcie), "ms", locale,
                                     digits=2)))
    at = [_l("write_at", locale).format(bw=format_quantity(bw, "TB/s", locale))
          for bw in (TECTONIC.sustained, TECTONIC.peak)]
    headers = (*(_l(k, locale) for k in ("model", "weights", "master", "moments", "ckpt")),
               *at, _l("async", locale))
    return markdown_table(Table(headers, tuple(rows), (False,) + (True,) * 7), locale)


INTERVAL_TICKS = (60, 300, 900, 3600, 14_400)
"""The goodput plot's ticks: a minute, five, a quarter of an hour, one hour, four hours."""


def _duration(seconds: float, locale: str) -> str:
    """An axis tick in minutes or hours."""
    if seconds >= 3600:
        return _l("hours", locale).format(n=format_number(seconds / 3600, locale))
    return _l("minutes", locale).format(n=format_number(seconds / 60, locale))


def mtbf_plot(locale: str) -> str:
    """The job's MTBF against its GPUs, log-log: Llama 3's rate, all causes and GPU only."""
    gpu_rate = LLAMA3_PER_GPU_HOUR * _gpu_count() / LLAMA3_INTERRUPTIONS.unexpected
    series = [(_l("all", locale), [job_mtbf(n, LLAMA3_PER_GPU_HOUR) / 3600
                                   for n in PLOT_GPUS]),
              (_l("gpu_only", locale), [job_mtbf(n, gpu_rate) / 3600 for n in PLOT_GPUS])]
    return loglog_lines(PLOT_GPUS, series, xlabel=_l("gpus_axis", locale),
                        ylabel=_l("mtbf_axis", locale), locale=locale,
                        tick_format=lambda v: format_number(v, locale),
                        ytick_format=lambda v: format_number(v, locale, digits=1 if v < 1 else 0),
                        name=f"fail-mtbf-{locale}", title=_l("mtbf_title", locale))


def goodput_plot(locale: str) -> str:
    """Goodput against the interval for three write times, Young's and Daly's optima marked
    (Daly's exact expected wall time; restart as in the scenario)."""
    model = scenario()
    mtbf, restart = model.mtbf(GPUS), model.restart_time
    taus = np.geomspace(30, 3e4, 400)
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH_INCHES, 4.4), layout="constrained")
        for i, slower in enumerate(SLOWER):
            delta = model.write_time * slower
            colour = OKABE_ITO[i]
            ax.plot(taus, [100 * goodput(t, delta, mtbf, restart) for t in taus],
                    color=colour, label=_l("write_line", locale).format(
                        t=format_quantity(delta, "s", locale, digits=1)))
            for interval, marker, key in ((young_interval(delta, mtbf), "o", "young"),
                                          (daly_interval(delta, mtbf), "^", "daly")):
                ax.plot([interval], [100 * goodput(interval, delta, mtbf, restart)],
                        marker=marker, color=colour, markersize=9, linestyle="none",
                        markerfacecolor="none" if key == "young" else colour,
                        label=_l(key, locale) if i == 0 else None)
        ax.set_xscale("log")
        ax.set_xlim(taus[0], taus[-1])
        ax.set_ylim(60, 100)
        ax.xaxis.set_major_locator(FixedLocator(INTERVAL_TICKS))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: _duration(v, locale)))
        ax.yaxis.set_major_formatter(plt.FuncFormatter(
            lambda v, _: format_percent(v / 100, locale)))
        ax.set_xlabel(_l("interval_axis", locale))
        ax.set_ylabel(_l("goodput_axis", locale))
        legend_above(ax, 3, locale=locale)
        return to_svg(fig, name=f"fail-goodput-{locale}", title=_l("goodput_title", locale),
                      locale=locale)


def _scenario_figures() -> list[Figure]:
    model = scenario()
    mtbf, delta, restart = model.mtbf(GPUS), model.write_time, model.restart_time
    young, daly = young_interval(delta, mtbf), daly_interval(delta, mtbf)
    size = checkpoint_size(get_model(MODEL), precision="mixed", optimizer="adamw")
    per_gpu = size.per_writer(GPUS)
    slowest = delta * SLOWER[-1]
    return [
        Figure("fail.gpus", GPUS), Figure("fail.days", LLAMA3_INTERRUPTIONS.days),
        Figure("fail.total", LLAMA3_INTERRUPTIONS.total),
        Figure("fail.planned", LLAMA3_INTERRUPTIONS.planned),
        Figure("fail.unexpected", LLAMA3_INTERRUPTIONS.unexpected),
        Figure("fail.per_day", LLAMA3_INTERRUPTIONS.unexpected / LLAMA3_INTERRUPTIONS.days,
               digits=1),
        Figure("fail.mtbf_hours", mtbf / 3600, digits=1),
        Figure("fail.mtbf_s", mtbf, "s"),
        Figure("fail.per_gpu_years", mtbf * GPUS / (365.25 * 86_400), digits=1),
        Figure("fail.big_gpus", BIG_GPUS),
        Figure("fail.mtbf_big_minutes", job_mtbf(BIG_GPUS, LLAMA3_PER_GPU_HOUR) / 60),
        Figure("fail.manual", LLAMA3_MANUAL_INTERVENTIONS),
        Figure("fail.shard_low", LLAMA3_SHARD_BYTES[0], "MB"),
        Figure("fail.shard_high", LLAMA3_SHARD_BYTES[1], "GB"),
        Figure("fail.slower_mid", SLOWER[1]), Figure("fail.slower_high", SLOWER[2]),
        Figure("fail.gpu_share", _gpu_count() / LLAMA3_INTERRUPTIONS.unexpected, "%", digits=1),
        Figure("fail.gpu_share_stated", sum(c.stated_share for c in LLAMA3_CAUSES
                                            if c.category == "GPU"), "%", digits=1),
        Figure("fail.hardware_share", sum(c.count for c in LLAMA3_CAUSES
                                          if c.category in HARDWARE_CATEGORIES)
               / LLAMA3_INTERRUPTIONS.unexpected, "%", digits=1),
        Figure("fail.faulty_count", LLAMA3_CAUSES[0].count),
        Figure("fail.faulty_stated", LLAMA3_CAUSES[0].stated_share, "%", digits=1),
        Figure("fail.faulty_computed", LLAMA3_CAUSES[0].count
               / LLAMA3_INTERRUPTIONS.unexpected, "%", digits=1),
        Figure("fail.sdc", next(c.count for c in LLAMA3_CAUSES
                                if c.key == "silent_data_corruption")),
        Figure("fail.bytes_per_param", size.total / get_model(MODEL).num_params),
        Figure("fail.ckpt", size.total, "TB", digits=2),
        Figure("fail.capacity_pb", TECTONIC.capacity / 1e15),
        Figure("fail.sustained", TECTONIC.sustained, "TB/s"),
        Figure("fail.peak", TECTONIC.peak, "TB/s"),
        Figure("fail.write_s", delta, "s", digits=2),
        Figure("fail.per_gpu_mb", per_gpu, "MB"),
        Figure("fail.per_gpu_share_mb", TECTONIC.sustained / GPUS, "MB"),
        Figure("fail.async_ms", async_pause(per_gpu, get_interconnect(HOST_LINK).bandwidth),
               "ms", digits=1),
        Figure("fail.restart_min", restart / 60),
        Figure("fail.young_s", young, "s"), Figure("fail.daly_s", daly, "s"),
        Figure("fail.goodput", goodput(daly, delta, mtbf, restart), "%", digits=2),
        Figure("fail.goodput_first_order", goodput_first_order(young, delta, mtbf, restart),
               "%", digits=2),
        Figure("fail.overhead", model.overhead(GPUS), "%", digits=2),
        Figure("fail.slowest_s", slowest, "s"),
        Figure("fail.slowest_young_s", young_interval(slowest, mtbf), "s"),
        Figure("fail.slowest_daly_s", daly_interval(slowest, mtbf), "s"),
        Figure("fail.slowest_goodput", goodput(daly_interval(slowest, mtbf), slowest, mtbf,
                                               restart), "%", digits=1),
    ]


def figures() -> list[Figure]:
    """The chapter's figures and its exercises' answers and inputs (``ex.fail_*``)."""
    items = chapter_exercises("failures")
    answers = [p.as_figure() for e in items for p in e.parts if isinstance(p, NumericPart)]
    quantities = [Figure(f"ex.{q.name}", float(q.value), q.unit, q.digits)
                  for e in items for q in e.quantities]
    return _scenario_figures() + answers + quantities
