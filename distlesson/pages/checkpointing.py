"""Chapter "Saving memory", first half: what a forward keeps, and activation checkpointing.

The counts come from the course's own numpy transformer (:mod:`distlesson.transformer`),
read from the arrays its forward really keeps; the formulas at scale from
:mod:`distlesson.memory.activations`; the times are measured when the page is built.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from fractions import Fraction

from distlesson.catalog.models import Architecture, get_model
from distlesson.memory.activations import activation_bytes_per_layer
from distlesson.pages.savings_labels import CKPT_LABELS, GROUPS, TERMS
from distlesson.render.figure import Figure
from distlesson.render.lines import loglog_lines
from distlesson.render.measured import measured
from distlesson.render.numbers import format_number, format_percent, format_quantity, list_comma
from distlesson.render.tables import Table, markdown_table
from distlesson.transformer import (
    MODES,
    attention_scalars,
    crossover,
    formula_vs_count,
    measure_timing,
    peak_scalars,
    saved_table,
    train,
)

__all__ = ["at_scale_table", "figures", "formula_table", "layers_table", "modes_table",
           "saved_arrays_table", "scaling_plot", "timing_table"]

# Inputs: the chapter's examples, each stated in the prose.
MODEL = "course-tiny"
SEQ_LEN = 128  # the Catalan chapter's L = 128
BATCH = 1
SWEEP = (16, 32, 64, 128, 256, 512, 1024)
LAYER_COUNTS = (2, 4, 8, 16, 32)
SCALE_MODEL, SCALE_SEQ, SCALE_TP = "llama3-70b", 8192, 8


def _t(key: str, locale: str) -> str:
    return CKPT_LABELS[key][locale]


def _n(value: float, locale: str) -> str:
    return format_number(value, locale)


def _arch(layers: int | None = None) -> Architecture:
    arch = get_model(MODEL)
    return arch if layers is None else dataclasses.replace(arch, num_layers=layers)


def saved_arrays_table(locale: str) -> str:
    """Every array the first block keeps for its backward, counted from the live tape."""
    rows = [row for row in saved_table(batch_size=BATCH, seq_len=SEQ_LEN)
            if row.part == "block 0"]
    body = [(f"`{row.name}`", " × ".join(_n(d, locale) for d in row.shape),
             _n(row.scalars, locale), format_percent(float(row.share), locale, digits=1))
            for row in rows]
    body.append((f"**{_t('block_total', locale)}**", "",
                 f"**{_n(sum(row.scalars for row in rows), locale)}**", ""))
    headers = (_t("array", locale), _t("shape", locale), _t("scalars", locale),
               _t("share", locale))
    return markdown_table(Table(headers, tuple(body), (False, False, True, True)), locale)


@functools.cache
def _peaks(layers: int | None = None, seq_len: int = SEQ_LEN):
    arch = _arch(layers)
    return {mode: peak_scalars(arch, batch_size=BATCH, seq_len=seq_len, mode=mode)
            for mode in MODES}


def modes_table(locale: str) -> str:
    """Peak saved scalars of a step in each mode, and the saving against keeping all."""
    peaks = _peaks()
    none = peaks["none"].peak
    rows = tuple((_t(f"mode_{mode}", locale), _n(p.end_of_forward, locale),
                  _n(p.recomputed, locale), f"**{_n(p.peak, locale)}**",
                  format_quantity(none / p.peak, "x", locale, digits=2))
                 for mode, p in peaks.items())
    headers = tuple(_t(k, locale) for k in ("mode", "end_forward", "recomputed", "peak",
                                            "reduction"))
    return markdown_table(Table(headers, rows, (False, True, True, True, True)), locale)


def layers_table(locale: str) -> str:
    """The saving of full checkpointing grows with the number of layers."""
    rows = []
    for layers in LAYER_COUNTS:
        peaks = _peaks(layers)
        rows.append((_n(layers, locale), _n(peaks["none"].peak, locale),
                     _n(peaks["full"].peak, locale),
                     format_quantity(peaks["none"].peak / peaks["full"].peak, "x", locale,
                                     digits=1)))
    headers = (_t("layers", locale), _t("line_none", locale), _t("line_full", locale),
               _t("reduction", locale))
    return markdown_table(Table(headers, tuple(rows), (True,) * 4), locale)


def scaling_plot(locale: str) -> str:
    """Saved scalars against L on log-log axes: linear parts, and the L^2 attention term."""
    arch = _arch()
    series = [
        (_t("line_none", locale), [_peaks(None, n)["none"].peak for n in SWEEP]),
        (_t("line_full", locale), [_peaks(None, n)["full"].peak for n in SWEEP]),
        (_t("line_attention", locale),
         [attention_scalars(arch, seq_len=n, batch_size=BATCH) for n in SWEEP]),
    ]
    return loglog_lines(SWEEP, series, xlabel=_t("seq", locale),
                        ylabel=_t("saved_scalars", locale), locale=locale,
                        tick_format=lambda v: _n(v, locale), name=f"ckpt-scaling-{locale}",
                        title=_t("plot_title", locale))


@functools.cache
def _training():
    return train()


@functools.cache
def _timing():
    return measure_timing(batch_size=BATCH, seq_len=SEQ_LEN)


def _step_overhead(recomputing_backward: float) -> float:
    """What a recomputing backward adds, as a share of the whole step without it."""
    t = _timing()
    return (recomputing_backward - t.backward_s) / (t.forward_s + t.backward_s)


def timing_table(locale: str) -> str:
    """Forward, backward and recomputation, timed on this machine while the page was built."""
    t = _timing()
    rows = (  # every value timed now: marked as measured
        (_t("forward_s", locale), measured(format_quantity(t.forward_s, "ms", locale, digits=2))),
        (_t("backward_s", locale),
         measured(format_quantity(t.backward_s, "ms", locale, digits=2))),
        (_t("ratio", locale), measured(format_number(t.backward_over_forward, locale, digits=2))),
        (_t("full_overhead", locale),
         measured(format_percent(_step_overhead(t.full_backward_s), locale))),
        (_t("selective_overhead", locale),
         measured(format_percent(_step_overhead(t.selective_backward_s), locale))),
    )
    return markdown_table(Table((_t("quantity", locale), _t("value", locale)), rows,
                                (False, True)), locale)


def formula_table(locale: str) -> str:
    """Korthikanti et al.'s terms for one layer of this model, beside the counted arrays."""
    rows = []
    for row in formula_vs_count(seq_len=SEQ_LEN, micro_batch=BATCH):
        term = row.term if locale == "en" else TERMS[row.term][locale]
        counted = list_comma(locale).join(f"`{name}`" for name in row.counted) or "—"
        rows.append((GROUPS[row.group][locale], term,
                     format_quantity(row.paper_bytes, "B", locale), counted,
                     format_quantity(row.counted_bytes, "B", locale)))
    headers = tuple(_t(k, locale) for k in ("group", "term", "paper_bytes", "counted",
                                            "counted_bytes"))
    return markdown_table(Table(headers, tuple(rows), (False, False, True, False, True)), locale)


def _scale_settings() -> tuple[tuple[str, dict], ...]:
    t = SCALE_TP
    return (("set_none", {}), ("set_tp", {"tp": t}), ("set_sp", {"tp": t, "sp": True}),
            ("set_selective", {"tp": t, "sp": True, "recompute": "selective"}),
            ("set_full", {"tp": t, "sp": True, "recompute": "full"}))


def _scale_bytes(settings: dict) -> Fraction:
    arch = get_model(SCALE_MODEL)
    return activation_bytes_per_layer(seq_len=SCALE_SEQ, micro_batch=1,
                                      hidden_size=arch.hidden_size, num_heads=arch.num_heads,
                                      **settings)


def at_scale_table(locale: str) -> str:
    """One sequence of Llama 3 70B at its training length, by Korthikanti et al.'s formulas."""
    layers = get_model(SCALE_MODEL).num_layers
    rows = []
    for key, settings in _scale_settings():
        label = _t(key, locale).format(t=_n(SCALE_TP, locale))
        per = _scale_bytes(settings)
        rows.append((label, format_quantity(float(per), "GB", locale, digits=2),
                     format_quantity(float(per * layers), "GB", locale, digits=1)))
    headers = (_t("setting", locale), _t("per_layer", locale), _t("whole", locale))
    return markdown_table(Table(headers, tuple(rows), (False, True, True)), locale)


def figures() -> list[Figure]:
    """The numbers the chapter's prose quotes about activations and checkpointing."""
    arch = _arch()
    peaks = _peaks()
    block = [row for row in saved_table(batch_size=BATCH, seq_len=SEQ_LEN)
             if row.part == "block 0"]
    probs = next(row for row in block if row.name == "probs")
    cross = crossover(arch)
    t = _timing()
    scale_arch = get_model(SCALE_MODEL)
    return [
        Figure("ckpt.seq_len", SEQ_LEN),
        Figure("ckpt.layers", arch.num_layers),
        Figure("ckpt.heads", arch.num_heads),
        Figure("ckpt.hidden", arch.hidden_size),
        Figure("ckpt.params", arch.num_params),
        Figure("ckpt.block_scalars", sum(row.scalars for row in block)),
        Figure("ckpt.probs_scalars", probs.scalars),
        Figure("ckpt.probs_share", float(probs.share), "%"),
        Figure("ckpt.input_scalars", BATCH * SEQ_LEN * arch.hidden_size),
        Figure("ckpt.peak_none", peaks["none"].peak),
        Figure("ckpt.peak_full", peaks["full"].peak),
        Figure("ckpt.peak_selective", peaks["selective"].peak),
        Figure("ckpt.reduction_full", peaks["none"].peak / peaks["full"].peak, "x", digits=2),
        Figure("ckpt.reduction_deep", _peaks(LAYER_COUNTS[-1])["none"].peak
               / _peaks(LAYER_COUNTS[-1])["full"].peak, "x", digits=1),
        Figure("ckpt.deep_layers", LAYER_COUNTS[-1]),
        Figure("ckpt.crossover", cross.seq_len),
        Figure("ckpt.measured_ratio", t.backward_over_forward, digits=2, measured=True),
        Figure("ckpt.measured_overhead", _step_overhead(t.full_backward_s), "%",
               measured=True),
        Figure("ckpt.cores", os.cpu_count() or 1, measured=True),
        Figure("ckpt.train_steps", len(_training().losses)),
        Figure("ckpt.loss_before", _training().eval_before, digits=2),
        Figure("ckpt.loss_after", _training().eval_after, digits=2),
        Figure("ckpt.ln_vocab", math.log(arch.vocab_size), digits=2),
        Figure("ckpt.vocab", arch.vocab_size),
        Figure("ckpt.scale_seq", SCALE_SEQ),
        Figure("ckpt.scale_tp", SCALE_TP),
        Figure("ckpt.scale_layers", scale_arch.num_layers),
        Figure("ckpt.scale_none_layer", float(_scale_bytes({})), "GB", digits=1),
        Figure("ckpt.scale_full_all", float(_scale_bytes(dict(_scale_settings())["set_full"])
                                            * scale_arch.num_layers), "GB", digits=1),
    ]
