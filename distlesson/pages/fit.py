"""Chapter "Why it does not fit": the figures, tables and plot of its pages.

Every number comes from the memory model (:mod:`distlesson.memory.states`), the formats
(:mod:`distlesson.memory.precision`) and the catalogs; this module only chooses what to show and
formats it for a locale.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import ml_dtypes
import numpy as np

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.memory.optimizers import OPTIMIZERS
from distlesson.memory.precision import BF16, FLOAT_FORMATS, FP16, FP32, PRESETS
from distlesson.memory.states import (
    MemoryBreakdown,
    bytes_per_param,
    min_gpus,
    model_states,
    saving_against_fp32,
)
from distlesson.pages.fit_labels import LABELS, OPTIMIZER_KEEPS, OPTIMIZER_NAMES, PRESET_NAMES
from distlesson.render.figure import Figure
from distlesson.render.numbers import (
    format_number,
    format_percent,
    format_quantity,
    format_scientific,
)
from distlesson.render.svg import stacked_barh
from distlesson.render.tables import Table, markdown_table
from distlesson.transformer import CountedStates, counted_training_states

__all__ = [
    "conventions_table",
    "figures",
    "formats_table",
    "model_sizes_table",
    "optimizer_plot",
    "optimizer_table",
    "presets_table",
    "states_table",
]

# Inputs, each a choice of the text rather than a result.
ROUND_70B = 70 * 10**9  # the sources' "a 70B model": a round count, not an architecture
ROUND_7B = 7 * 10**9  # the Persian lesson's mixed-precision example
EXERCISE_13B = 13 * 10**9  # the Catalan chapter's exercise
GPU = "h100-sxm"  # the "80 GB GPU" of both sources
COMPARED_MODEL = "llama3-70b"  # Adafactor needs real shapes: the optimizer table uses these
SIZE_MODELS = ("gpt2-small", "llama3-8b", "llama3-70b", "llama3-405b")
COMPARED_OPTIMIZERS = ("adamw", "adam8bit", "adafactor", "lion", "sgd")
# Adam moves a weight by about lr (m / sqrt(v) is of order one), whatever the weight's size:
PEAK_LR = 3e-4  # Llama 2 7B and 13B's peak learning rate (Touvron et al. 2023, table 1)
FINAL_LR_SHARE = 0.1  # the same runs decay it (cosine) to 10 % of the peak
MATRIX_ENTRY = 0.02  # a matrix entry's typical size: GPT-2's and Megatron-LM's init std
NORM_GAIN = 1.0  # a normalisation layer's gain: initialised to one, and stays near it
LOSS_SCALE = 2**16  # a common static loss scale for fp16
TINY_GRADIENT = 2.0**-26  # a gradient below fp16's smallest subnormal, 2**-24

def _t(key: str, locale: str, **values: str) -> str:
    return LABELS[key][locale].format(**values)


def _gb(value: float | Fraction, locale: str, digits: int = 0) -> str:
    return format_quantity(float(value), "GB", locale, digits=digits)


def _bpp(value: float | Fraction, locale: str) -> str:
    """Bytes per parameter: whole numbers bare, others with two decimals."""
    exact = Fraction(value)
    return format_number(float(exact), locale, digits=0 if exact.denominator == 1 else 2)


@functools.cache
def _gpu_memory() -> int:
    return get_gpu(GPU).memory_bytes


@functools.cache
def _adamw_mixed() -> MemoryBreakdown:
    return bytes_per_param(ROUND_70B)


@functools.cache
def _optimizer_bpp(key: str) -> MemoryBreakdown:
    return bytes_per_param(get_model(COMPARED_MODEL), optimizer=key)


@functools.cache
def _counted(dtype: type) -> CountedStates:
    """The course's numpy transformer after one AdamW step, its arrays' bytes counted."""
    return counted_training_states(dtype=dtype)


def _counted_row(counted: CountedStates) -> tuple[Fraction, ...]:
    """Bytes per parameter of each state, read from the live arrays (nbytes / count)."""
    n = counted.num_params
    return tuple(Fraction(b, n) for b in (counted.weights, counted.grads, counted.master,
                                          counted.exp_avg, counted.exp_avg_sq, counted.total))


def states_table(locale: str) -> str:
    """AdamW in mixed precision, state by state, beside the course's own model counted.

    The last two columns are not formulas: they divide the ``nbytes`` of the arrays a
    training step of :mod:`distlesson.transformer` keeps alive by its parameter count.
    """
    preset = PRESETS["mixed"]
    per = _adamw_mixed()
    moment = Fraction(per.optimizer) / 2
    counted = [_counted_row(_counted(dtype)) for dtype in (np.float64, np.float32)]
    names = ("weights", "grads", "master", "moment1", "moment2")
    formats = (preset.weight_format, preset.grad_format, preset.master_format,
               preset.state_format, preset.state_format)
    mixed = (per.weights, per.grads, per.master, moment, moment)
    rows = [(_t(name, locale), fmt.name, _bpp(value, locale),
             *(_bpp(column[i], locale) for column in counted))
            for i, (name, fmt, value) in enumerate(zip(names, formats, mixed, strict=True))]
    rows.append((f"**{_t('total', locale)}**", "", f"**{_bpp(per.total, locale)}**",
                 *(f"**{_bpp(column[-1], locale)}**" for column in counted)))
    headers = (_t("component", locale), _t("format", locale), _t("bpp_mixed", locale),
               _t("counted64", locale), _t("counted32", locale))
    return markdown_table(Table(headers, tuple(rows), (False, False, True, True, True)),
                          locale)


def optimizer_table(locale: str) -> str:
    """The optimizers side by side on one real architecture (Adafactor needs its shapes)."""
    model = get_model(COMPARED_MODEL)
    memory = _gpu_memory()
    adamw = _optimizer_bpp("adamw").total
    rows = []
    for key in COMPARED_OPTIMIZERS:
        per = _optimizer_bpp(key)
        states = per.total * model.num_params
        rows.append((
            OPTIMIZER_NAMES[key][locale],
            OPTIMIZER_KEEPS[key][locale],
            _bpp(per.total, locale),
            _gb(states, locale),
            format_number(min_gpus(states, memory), locale),
            format_quantity(float(per.total / adamw), "x", locale, digits=2),
        ))
    headers = (
        _t("opt", locale), _t("keeps", locale), _t("bpp", locale),
        _t("states_of", locale, model=model.display_name),
        _t("gpus80", locale, gb=_gb(memory, locale)), _t("vs_adamw", locale),
    )
    return markdown_table(
        Table(headers, tuple(rows), (False, False, True, True, True, True)), locale)


def optimizer_plot(locale: str) -> str:
    """Stacked bars: weights and gradients are the floor no optimizer goes below."""
    per = [_optimizer_bpp(key) for key in COMPARED_OPTIMIZERS]
    parts = ("weights", "grads", "master", "optimizer")
    return stacked_barh(
        [OPTIMIZER_NAMES[key][locale] for key in COMPARED_OPTIMIZERS],
        [(_t(part, locale), [float(getattr(p, part)) for p in per]) for part in parts],
        xlabel=_t("bpp", locale),
        locale=locale,
        tick_format=lambda x: format_number(x, locale),
        name=f"fit-optimizers-{locale}",
        title=_t("plot_title", locale),
    )


def model_sizes_table(locale: str) -> str:
    """Published models under the course's convention (AdamW, bf16, fp32 master copy)."""
    memory = _gpu_memory()
    rows = []
    for key in SIZE_MODELS:
        model = get_model(key)
        states = model_states(model)
        rows.append((
            model.display_name,
            format_quantity(model.num_params, "B params", locale, digits=2)
            if model.num_params >= 10**9 else
            format_quantity(model.num_params, "M params", locale),
            _gb(states.weights, locale, 1),
            _gb(states.grads, locale, 1),
            _gb(states.master, locale, 1),
            _gb(states.optimizer, locale, 1),
            f"**{_gb(states.total, locale, 1)}**",
            format_number(min_gpus(states.total, memory), locale),
        ))
    headers = (_t("model", locale), _t("params", locale), _t("weights", locale),
               _t("grads", locale), _t("master", locale), _t("adam", locale),
               _t("total", locale), _t("min_h100", locale))
    return markdown_table(Table(headers, tuple(rows), (False,) + (True,) * 7), locale)


def conventions_table(locale: str) -> str:
    """The same models with and without the fp32 master copy (the Persian lesson's tables)."""
    memory = _gpu_memory()
    rows = []
    for key in SIZE_MODELS:
        model = get_model(key)
        with_master = model_states(model).total
        without = model_states(model, precision="mixed-no-master").total
        rows.append((
            model.display_name,
            _gb(with_master, locale, 1),
            format_number(min_gpus(with_master, memory), locale),
            _gb(without, locale, 1),
            format_number(min_gpus(without, memory), locale),
            _gb(with_master - without, locale, 1),
        ))
    headers = (_t("model", locale), _t("with_master", locale), _t("min_h100", locale),
               _t("without_master", locale), _t("min_h100", locale),
               _t("difference", locale))
    return markdown_table(Table(headers, tuple(rows), (False,) + (True,) * 5), locale)


def _magnitude(value: float, locale: str) -> str:
    """Whole numbers below a million in full (fp16's 65,504), others in powers of ten."""
    if 1 <= value < 1e6 and value == int(value):
        return format_number(value, locale)
    return format_scientific(value, locale, digits=1)


def formats_table(locale: str) -> str:
    """The floating-point formats of training, every property derived from the bits."""
    rows = []
    for fmt in FLOAT_FORMATS.values():
        rows.append((
            f"`{fmt.name}`",
            " · ".join(format_number(b, locale)
                       for b in (1, fmt.exponent_bits, fmt.mantissa_bits)),
            format_number(fmt.bytes, locale),
            _magnitude(fmt.max_finite, locale),
            format_scientific(fmt.smallest_normal, locale, digits=1),
            format_scientific(fmt.smallest_subnormal, locale, digits=1),
            format_scientific(fmt.epsilon, locale, digits=1),
        ))
    headers = (_t("format", locale), _t("bits", locale), _t("bytes", locale),
               _t("max", locale), _t("min_normal", locale), _t("min_sub", locale),
               _t("eps", locale))
    return markdown_table(Table(headers, tuple(rows), (False,) + (True,) * 6), locale)


def presets_table(locale: str) -> str:
    """A 7B model's states under each precision recipe, and what each saves against fp32."""
    rows = []
    for key in ("fp32", "mixed", "mixed-no-master", "mixed-fp32-grads"):
        states = model_states(ROUND_7B, precision=key)
        rows.append((
            PRESET_NAMES[key][locale],
            _gb(states.weights, locale),
            _gb(states.grads, locale),
            _gb(states.master, locale) if states.master else _t("none", locale),
            _gb(states.optimizer, locale),
            f"**{_gb(states.total, locale)}**",
            format_percent(_saving(key), locale, digits=1),
        ))
    headers = (_t("preset", locale), _t("weights", locale), _t("grads", locale),
               _t("master", locale), _t("optimizer", locale), _t("total", locale),
               _t("saving", locale))
    return markdown_table(Table(headers, tuple(rows), (False,) + (True,) * 6), locale)


def _saving(precision: str) -> float:
    return float(saving_against_fp32(ROUND_7B, precision=precision))


def figures() -> list[Figure]:
    """The numbers the chapter's prose quotes."""
    memory = _gpu_memory()
    per = _adamw_mixed()
    states_70b = per.total * ROUND_70B
    llama70 = get_model(COMPARED_MODEL)
    llama70_states = model_states(llama70).total
    bf16 = ml_dtypes.bfloat16
    gain_after_step = float(bf16(NORM_GAIN) + bf16(PEAK_LR))
    final_lr = PEAK_LR * FINAL_LR_SHARE
    h100 = get_gpu(GPU)
    if h100.fp32_flops is None or h100.tf32_dense_flops is None:
        raise ValueError(f"the catalog's {GPU} needs its fp32 and tf32 peaks")
    scaled = float(np.float16(TINY_GRADIENT * LOSS_SCALE))
    return [
        Figure("fit.round_70b", ROUND_70B, "B params", doc="the sources' round 70B"),
        Figure("fit.bpp_mixed", float(per.total), doc="AdamW, mixed precision"),
        Figure("fit.bpp_weights_grads", float(per.weights + per.grads),
               doc="the floor: bf16 weights and gradients"),
        Figure("fit.bpp_master", float(per.master)),
        Figure("fit.bpp_moments", float(per.optimizer)),
        Figure("fit.bpp_master_and_moments", float(per.master + per.optimizer)),
        Figure("fit.bpp_weights", float(per.weights), doc="what the forward pass reads"),
        Figure("fit.forward_unread_share", float((per.total - per.weights) / per.total), "%",
               digits=1, doc="never read by the forward pass: all but the bf16 weights"),
        Figure("fit.bookkeeping_share", float((per.master + per.optimizer) / per.total), "%",
               doc="touched by neither the forward nor the backward pass"),
        Figure("fit.bpp_no_master", float(bytes_per_param(
            ROUND_70B, precision="mixed-no-master").total)),
        Figure("fit.states_70b", float(states_70b), "GB"),
        Figure("fit.states_70b_tb", float(states_70b), "TB", digits=2),
        Figure("fit.gpu_memory", memory, "GB", doc="an H100's nominal memory"),
        Figure("fit.gpus_70b", min_gpus(states_70b, memory)),
        Figure("fit.llama70_params", llama70.num_params, "B params", digits=2),
        Figure("fit.llama70_states", float(llama70_states), "GB"),
        Figure("fit.llama70_gpus", min_gpus(llama70_states, memory)),
        Figure("fit.floor_with_master", float(per.weights + per.grads + per.master)),
        Figure("fit.adam8bit_block", OPTIMIZERS["adam8bit"].block_size),
        Figure("fit.bpp_adam8bit", float(_optimizer_bpp("adam8bit").total), digits=2),
        Figure("fit.bpp_adafactor", float(_optimizer_bpp("adafactor").total), digits=3),
        Figure("fit.bpp_lion", float(_optimizer_bpp("lion").total)),
        Figure("fit.round_7b", ROUND_7B, "B params"),
        Figure("fit.states_7b_fp32", float(model_states(ROUND_7B, precision="fp32").total),
               "GB"),
        Figure("fit.states_7b_mixed", float(model_states(ROUND_7B).total), "GB"),
        Figure("fit.states_7b_no_master",
               float(model_states(ROUND_7B, precision="mixed-no-master").total), "GB"),
        Figure("fit.saving_with_master", _saving("mixed"), "%"),
        Figure("fit.saving_without_master", _saving("mixed-no-master"), "%"),
        Figure("fit.bf16_mantissa_bits", BF16.mantissa_bits),
        Figure("fit.bf16_gap_at_one", BF16.epsilon, digits=4),
        Figure("fit.fp32_gap_ratio", BF16.epsilon / FP32.epsilon),
        # round to nearest: an update below half the gap to the next bf16 number is lost.
        # Relative to a weight w in [2^e, 2^(e+1)), half the gap 2^(e-7) is between
        # eps / 4 (w just below 2^(e+1)) and eps / 2 (w = 2^e), eps = 2^-7
        Figure("fit.half_gap_low", BF16.epsilon / 4, "%", digits=2),
        Figure("fit.half_gap_high", BF16.epsilon / 2, "%", digits=2),
        Figure("fit.peak_lr", PEAK_LR, digits=4),
        Figure("fit.matrix_entry", MATRIX_ENTRY, digits=2),
        Figure("fit.matrix_step", PEAK_LR / MATRIX_ENTRY, "%", digits=1),
        Figure("fit.gain_step", PEAK_LR / NORM_GAIN, "%", digits=2),
        Figure("fit.final_lr_share", FINAL_LR_SHARE, "%"),
        Figure("fit.final_matrix_step", final_lr / MATRIX_ENTRY, "%", digits=2),
        Figure("fit.bf16_gain_after_step", gain_after_step, digits=1,
               doc="a gain of one plus the peak step, in bf16: unchanged"),
        Figure("fit.h100_bf16", h100.bf16_dense_flops, "TFLOP/s"),
        Figure("fit.h100_fp32", h100.fp32_flops, "TFLOP/s"),
        Figure("fit.h100_tf32", h100.tf32_dense_flops, "TFLOP/s", digits=1),
        Figure("fit.bf16_over_fp32", h100.bf16_dense_flops / h100.fp32_flops, "x"),
        Figure("fit.bf16_over_tf32", h100.bf16_dense_flops / h100.tf32_dense_flops, "x"),
        Figure("fit.fp16_exponent_bits", FP16.exponent_bits),
        Figure("fit.fp16_max", FP16.max_finite),
        Figure("fit.loss_scale", LOSS_SCALE),
        Figure("fit.tiny_gradient_scaled", scaled, digits=7),
        Figure("fit.exercise_params", EXERCISE_13B, "B params"),
        Figure("fit.exercise_states", float(model_states(EXERCISE_13B).total), "GB"),
        Figure("fit.counted_params", _counted(np.float64).num_params),
        Figure("fit.counted_bytes", _counted(np.float64).total),
        Figure("fit.counted_bpp", _counted(np.float64).total / _counted(np.float64).num_params),
        Figure("fit.counted32_bpp", _counted(np.float32).total / _counted(np.float32).num_params),
    ]
