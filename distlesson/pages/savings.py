"""Chapter "Saving memory": offload, low precision and lean optimizers, as tables.

Each table runs the library on real inputs: number formats through numpy and ml_dtypes
(:mod:`distlesson.memory.low_precision`), the offload calculator and LoRA's counts. The
activation-checkpointing half of the chapter is :mod:`distlesson.pages.checkpointing`.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from distlesson.catalog.models import get_model
from distlesson.memory.lora import lora
from distlesson.memory.low_precision import accumulate_updates, cast_gradients, fp8_matmul_error
from distlesson.memory.offload import (
    DEEPSPEED_CPU_BUFFER_FACTOR,
    EXERCISE_NODE,
    EXERCISE_PARAMS,
    OffloadComparison,
    OffloadPlan,
    fewest_gpus,
    offload_exercise,
)
from distlesson.pages.savings_labels import LABELS
from distlesson.render.figure import Figure
from distlesson.render.numbers import (
    format_number,
    format_percent,
    format_quantity,
    format_scientific,
)
from distlesson.render.tables import Table, markdown_table

__all__ = ["accumulation_table", "figures", "lora_table", "loss_scale_table", "offload_table",
           "updates_table"]

# Inputs of the demonstrations, each a choice stated in the prose.
UPDATE = 1e-3  # a typical relative Adam step with lr = 1e-3 (chapter 1 uses the same)
UPDATE_STEPS = (1, 10, 100, 1000)
GRADIENT_MEDIAN = 1e-6  # gradients spread log-normally around one millionth
GRADIENT_SPREAD = 3.0  # natural-log standard deviation: about six orders of magnitude
GRADIENT_SAMPLES = 100_000
LOSS_SCALES = (1, 2**8, 2**16, 2**24)
INNER_DIMS = (256, 1024, 4096)
MATMUL_ROWS = 16
SEED = 2024
LORA_MODELS = ("llama3-8b", "llama3-70b")
LORA_RANKS = (8, 16)


def _t(key: str, locale: str, **values: str) -> str:
    return LABELS[key][locale].format(**values)


def _share(value: float, locale: str) -> str:
    if value == 0:
        return format_percent(0, locale)
    if value < 0.001:
        return format_scientific(value * 100, locale) + ("٪" if locale == "fa" else " %"
                                                         if locale == "ca" else "%")
    return format_percent(value, locale, digits=1)


@functools.cache
def _update_runs() -> tuple[tuple[int, float, float, float, float], ...]:
    return tuple((n, run.low_only, run.master, run.with_master, run.exact) for n in UPDATE_STEPS
                 for run in (accumulate_updates(start=1.0, update=UPDATE, steps=n),))


def updates_table(locale: str) -> str:
    """A weight of 1.0 after n updates of 1e-3: kept in bf16 alone, or via an fp32 copy."""
    rows = tuple((format_number(n, locale), *(format_number(v, locale, digits=4)
                                              for v in values))
                 for n, *values in _update_runs())
    headers = (_t("steps", locale), _t("low_only", locale), _t("master", locale),
               _t("with_master", locale), _t("exact", locale))
    return markdown_table(Table(headers, rows, (True,) * 5), locale)


@functools.cache
def _gradients() -> np.ndarray:
    rng = np.random.default_rng(SEED)
    return np.exp(rng.normal(np.log(GRADIENT_MEDIAN), GRADIENT_SPREAD, GRADIENT_SAMPLES))


def loss_scale_table(locale: str) -> str:
    """fp16 gradients under loss scaling: too little underflows, too much overflows."""
    rows = []
    for scale in LOSS_SCALES:
        outcome = cast_gradients(_gradients(), fmt="fp16", loss_scale=scale)
        exponent = int(np.log2(scale))
        shown = (format_number(1, locale) if exponent == 0 else
                 f"{format_number(2, locale)}<sup>{format_number(exponent, locale)}</sup>")
        rows.append((shown,
                     _share(outcome.underflow, locale), _share(outcome.overflow, locale)))
    headers = (_t("loss_scale", locale), _t("underflow", locale), _t("overflow", locale))
    return markdown_table(Table(headers, tuple(rows), (True,) * 3), locale)


@functools.cache
def _matmul_errors() -> tuple[tuple[int, float, float, float], ...]:
    rng = np.random.default_rng(SEED)
    rows = []
    for k in INNER_DIMS:
        a, b = rng.standard_normal((MATMUL_ROWS, k)), rng.standard_normal((k, MATMUL_ROWS))
        rows.append((k, fp8_matmul_error(a, b, accumulate="fp32"),
                     fp8_matmul_error(a, b, accumulate="bf16"),
                     fp8_matmul_error(a, b, fmt="fp8-e5m2", accumulate="fp32")))
    return tuple(rows)


def accumulation_table(locale: str) -> str:
    """fp8 matrix products: the error of the inputs, and of a 16-bit running sum."""
    rows = tuple((format_number(k, locale), format_percent(fp32, locale, digits=1),
                  format_percent(bf16, locale, digits=1), format_percent(e5m2, locale, digits=1))
                 for k, fp32, bf16, e5m2 in _matmul_errors())
    headers = (_t("inner", locale), _t("acc_fp32", locale), _t("acc_bf16", locale),
               _t("e5m2", locale))
    return markdown_table(Table(headers, rows, (True,) * 4), locale)


BUFFERED_NODE = replace(EXERCISE_NODE, cpu_buffer_factor=DEEPSPEED_CPU_BUFFER_FACTOR)
"""The exercise's server with DeepSpeed's margin on the CPU memory of offloaded states."""


@functools.cache
def _offload() -> OffloadComparison:
    return offload_exercise(params=EXERCISE_PARAMS)


def _fewest(**options: object) -> OffloadPlan:
    plan = fewest_gpus(EXERCISE_PARAMS, tier="cpu", **options)  # type: ignore[arg-type]
    if plan is None:
        raise ValueError(f"no CPU-offload plan fits with {options}")
    return plan


@functools.cache
def _offload_rows() -> tuple[tuple[str, OffloadPlan], ...]:
    """The table's rows: each tier's fewest GPUs, and CPU offload with DeepSpeed's margin."""
    comparison = _offload()
    plans = (("none", comparison.none), ("cpu", comparison.cpu),
             ("cpu_buffered", _fewest(node=BUFFERED_NODE)), ("nvme", comparison.nvme))
    for key, plan in plans:
        if plan is None:
            raise ValueError(f"offload tier {key!r} fits on no number of nodes")
    return plans  # type: ignore[return-value]


def offload_table(locale: str) -> str:
    """A 70B model with and without offload: GPUs needed, where the bytes live, PCIe."""
    factor = format_quantity(DEEPSPEED_CPU_BUFFER_FACTOR, "x", locale, digits=1)
    rows = []
    for key, plan in _offload_rows():
        layout = plan.layout
        rows.append((
            _t(f"tier_{key}", locale, factor=factor), format_number(layout.world_size, locale),
            f"tp {format_number(layout.tp, locale)} × dp {format_number(layout.dp, locale)}",
            format_quantity(float(plan.per_gpu.gpu.total), "GB", locale, digits=1),
            format_quantity(float(plan.node_cpu_needed), "GB", locale),
            format_quantity(float(plan.node_nvme_bytes), "GB", locale),
            format_quantity(float(plan.pcie_bytes), "GB", locale, digits=1),
            format_quantity(float(plan.pcie_seconds), "s", locale, digits=2),
        ))
    headers = tuple(_t(k, locale) for k in ("tier", "gpus", "layout", "on_gpu", "cpu_node",
                                            "nvme_node", "pcie", "pcie_time"))
    return markdown_table(Table(headers, tuple(rows), (False, True, False) + (True,) * 5),
                          locale)


@functools.cache
def _lora_runs() -> tuple[object, ...]:
    return tuple(lora(get_model(key), rank=r) for key in LORA_MODELS for r in LORA_RANKS)


def lora_table(locale: str) -> str:
    """LoRA on the attention projections: trainable parameters and the states they need."""
    rows = []
    for run in _lora_runs():
        rows.append((get_model(run.model).display_name, format_number(run.rank, locale),
                     format_number(run.trainable_params, locale),
                     format_percent(float(run.trainable_share), locale, digits=2),
                     format_percent(float(run.optimizer_states_removed), locale, digits=2),
                     format_quantity(float(run.full.total), "GB", locale),
                     format_quantity(float(run.lora.total), "GB", locale)))
    headers = tuple(_t(k, locale) for k in ("model", "rank", "trainable", "trainable_share",
                                            "removed", "full_states", "lora_states"))
    return markdown_table(Table(headers, tuple(rows), (False,) + (True,) * 6), locale)


def figures() -> list[Figure]:
    """The numbers the chapter's prose quotes about offload, precision and LoRA."""
    comparison = _offload()
    node = EXERCISE_NODE
    last = _update_runs()[-1]  # (steps, bf16 only, master, its bf16 copy, exact)
    unscaled = cast_gradients(_gradients(), fmt="fp16")
    return [
        Figure("save.update", UPDATE, digits=3),
        Figure("save.update_steps", last[0]),
        Figure("save.update_exact", last[4], digits=1),
        Figure("save.gradient_median", GRADIENT_MEDIAN, digits=6),
        Figure("save.unscaled_underflow", unscaled.underflow, "%", digits=1),
        Figure("save.matmul_rows", MATMUL_ROWS),
        Figure("save.largest_k", INNER_DIMS[-1]),
        Figure("save.offload_params", EXERCISE_PARAMS, "B params"),
        Figure("save.node_ram", node.cpu_memory_bytes, "GB"),
        Figure("save.node_nvme", node.nvme_bytes, "TB"),
        Figure("save.node_gpus", node.gpus_per_node),
        Figure("save.pcie_bw", node.pcie.bandwidth, "GB/s"),
        Figure("save.gpus_none", comparison.none.layout.world_size),
        Figure("save.gpus_cpu", comparison.cpu.layout.world_size),
        Figure("save.gpus_nvme", comparison.nvme.layout.world_size),
        Figure("save.cpu_per_node", float(comparison.cpu.node_cpu_bytes), "GB",
               doc="the CPU tier's offloaded states in one node's memory"),
        Figure("save.cpu_tp", comparison.cpu.layout.tp,
               doc="ZeRO-2 keeps every weight on each data-parallel GPU: tp makes them fit"),
        Figure("save.buffer_factor", DEEPSPEED_CPU_BUFFER_FACTOR, "x", digits=1,
               doc="DeepSpeed's estimator's additional_buffer_factor"),
        Figure("save.gpus_cpu_buffered", _fewest(node=BUFFERED_NODE).layout.world_size),
        Figure("save.gpus_cpu_zero3", _fewest(zero=3).layout.world_size,
               doc="offload_optimizer under ZeRO-3: weights sharded, same CPU states"),
        Figure("save.gpus_cpu_zero3_buffered",
               _fewest(zero=3, node=BUFFERED_NODE).layout.world_size),
        Figure("save.cpu_states", float(comparison.cpu.whole.cpu.total), "GB"),
        Figure("save.pcie_cpu_time", float(comparison.cpu.pcie_seconds), "s", digits=2),
        Figure("save.nvme_traffic", float(comparison.nvme.nvme_traffic_bytes
                                          * comparison.nvme.gpus_on_node), "TB", digits=2,
               doc="read and written back each step, all GPUs of one node"),
        Figure("save.lora_rank", LORA_RANKS[-1]),
        Figure("save.lora_removed_8b", float(_lora_runs()[1].optimizer_states_removed), "%",
               digits=2),
        Figure("save.lora_trainable_8b", _lora_runs()[1].trainable_params),
    ]
