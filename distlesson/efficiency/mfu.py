"""Model FLOPs utilisation (MFU) and hardware FLOPs utilisation (HFU) of a training step.

MFU is the share of the cluster's peak that does *useful* work: the model FLOPs of a step
(forward and backward, each matmul counted once) divided by what the GPUs could have done
at peak in the step's wall time (Chowdhery et al. 2022, PaLM, appendix B):

    MFU = model FLOPs per step / (step time x GPUs x peak FLOP/s)

HFU uses the FLOPs the hardware actually ran, which include the forward recomputed by
activation checkpointing. Recomputation is work but not progress: it raises HFU and leaves
MFU unchanged for the same step time (so, since it lengthens the step, it lowers MFU).

Two counts of the model FLOPs per token are offered:

* ``narayanan`` (default; the name is historical): the matmul count of
  :func:`distlesson.efficiency.flops.training_flops_per_token`, Korthikanti et al. 2022's
  model FLOPs: 6 x matmul weights + 12 L s h (attention scores). Narayanan et al. 2021's
  section 5.1 formula is this count plus full recomputation's forward (hardware FLOPs);
* ``6n``: the plain 6 N of Kaplan et al. 2020 (2 N forward, 4 N backward), which ignores the
  attention scores and counts the embedding lookup as if it were a matmul.

Recomputation, derived here: the forward of a matmul is one third of its training FLOPs
(2 of 6 per weight, 4 s h of 12 s h for the scores). Full recomputation reruns the forward
of every transformer layer, not the output head (Narayanan et al. 2021, section 5.1, count
the head at 6 FLOPs per weight with recomputation as without: their 96 B s l h^2 (1 + s/6h
+ V/16lh) is Korthikanti et al.'s 72-form plus this forward): with the 6N count that is
2 N per token, so hardware = 8 N. Selective recomputation (Korthikanti et al. 2022,
section 5) reruns only QK^T and the attention over V: 4 s h per layer and token (nothing
under the 6N count, which has no attention term).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from distlesson.catalog.models import Architecture
from distlesson.checks import check_finite_positive, check_positive_int
from distlesson.efficiency.flops import layer_flops_per_token, training_flops_per_token
from distlesson.memory.activations import RECOMPUTE, Recompute

__all__ = [
    "COUNTS",
    "FlopCount",
    "Model",
    "StepFlops",
    "hfu",
    "ideal_step_time",
    "mfu",
    "model_flops_per_token",
    "recompute_flops_per_token",
    "six_n_flops_per_token",
    "step_flops",
]

FlopCount = Literal["narayanan", "6n"]
COUNTS: tuple[FlopCount, ...] = ("narayanan", "6n")


def six_n_flops_per_token(params: int) -> int:
    """6 N: training FLOPs per token of an N-parameter model (Kaplan et al. 2020), exact."""
    check_positive_int("params", params)
    return 6 * params


Model = Architecture | int
"""An architecture, or a bare parameter count (which only the 6N count can use)."""


def _params(model: Model, count: str) -> int | None:
    """The parameter count if ``count`` is 6N, None if the architecture's shapes are used."""
    if count not in COUNTS:
        raise ValueError(f"count={count!r} is not known; allowed: {', '.join(COUNTS)}")
    if not isinstance(model, Architecture):
        if count != "6n":
            raise ValueError(f"count={count!r} needs an architecture's shapes; a bare "
                             f"parameter count ({model!r}) allows only count='6n'")
        return model
    return model.num_params if count == "6n" else None


def model_flops_per_token(model: Model, *, seq_len: int,
                          count: FlopCount = "narayanan") -> int:
    """Model (useful) training FLOPs per token under ``count``; see the module docstring."""
    params = _params(model, count)
    if params is not None:
        return six_n_flops_per_token(params)
    return training_flops_per_token(model, seq_len=seq_len)


def recompute_flops_per_token(model: Model, *, seq_len: int,
                              recompute: Recompute = "full",
                              count: FlopCount = "narayanan") -> int:
    """FLOPs per token that activation recomputation adds (a forward, or part of one).

    Equations (L layers, s = seq_len, h = hidden_size):
    full: L x (training FLOPs of one layer) / 3, i.e. 2 x layer matmul weights + 4 s h per
    layer (``6n``: 2 N); selective: 4 L s h (``6n``: 0); none: 0. Units: FLOPs, exact.
    """
    params = _params(model, count)
    if recompute not in RECOMPUTE:
        raise ValueError(f"recompute={recompute!r} is not known; allowed: {', '.join(RECOMPUTE)}")
    if recompute == "none":
        return 0
    if params is not None:
        return 2 * params if recompute == "full" else 0
    assert isinstance(model, Architecture)
    if recompute == "selective":
        return 4 * model.num_layers * seq_len * model.hidden_size
    layer = layer_flops_per_token(model, seq_len=seq_len)
    return model.num_layers * layer // 3  # 6 W + 12 s h is a multiple of 3


@dataclass(frozen=True)
class StepFlops:
    """The FLOPs of one training step, on all GPUs together."""

    model: Fraction
    """Useful FLOPs: forward and backward, each matmul once (what MFU counts)."""
    recompute: Fraction
    """FLOPs of the recomputed forward (0 without recomputation)."""

    @property
    def hardware(self) -> Fraction:
        """What the GPUs execute: model + recompute (what HFU counts)."""
        return self.model + self.recompute


def step_flops(model: Model, *, seq_len: int, tokens_per_step: float,
               recompute: Recompute = "none", count: FlopCount = "narayanan") -> StepFlops:
    """Model and recomputed FLOPs of a step of ``tokens_per_step`` tokens, exact.

    Equation: per-token counts above x tokens_per_step. Units: FLOPs.
    """
    tokens = Fraction(tokens_per_step)
    if tokens <= 0:
        raise ValueError(f"tokens_per_step={tokens_per_step!r} must be positive")
    return StepFlops(
        model=model_flops_per_token(model, seq_len=seq_len, count=count) * tokens,
        recompute=recompute_flops_per_token(model, seq_len=seq_len, recompute=recompute,
                                            count=count) * tokens)


def _positive(**values: float) -> None:
    """Each value a finite real number > 0 (gpus a whole number), or ValueError naming it."""
    for name, value in values.items():
        check_finite_positive(name, value)
        if name == "gpus" and value != int(value):
            raise ValueError(f"gpus={value!r} must be a whole number of GPUs")


def ideal_step_time(model_flops: float, *, gpus: int, peak_flops: float) -> float:
    """Seconds the step would take with every GPU doing useful work at peak.

    Equation: model FLOPs / (GPUs x peak). Units: seconds. MFU = ideal / actual step time.
    """
    _positive(model_flops=model_flops, gpus=gpus, peak_flops=peak_flops)
    seconds = float(model_flops) / (gpus * peak_flops)
    if not math.isfinite(seconds) or seconds == 0:
        raise ValueError(f"model_flops={model_flops!r} over gpus={gpus!r} x peak_flops="
                         f"{peak_flops!r} gives {seconds} s, outside what a float measures")
    return seconds


def mfu(model_flops: float, *, step_time: float, gpus: int, peak_flops: float) -> float:
    """Model FLOPs utilisation: model FLOPs / (step time x GPUs x peak), a fraction.

    Chowdhery et al. 2022 (PaLM), appendix B. Recomputed FLOPs are not model FLOPs.
    ValueError when it would exceed 1: no step beats the GPUs' peak, so a step time, token
    count or GPU count is wrong.
    """
    _positive(step_time=step_time)
    ideal = ideal_step_time(model_flops, gpus=gpus, peak_flops=peak_flops)
    if not math.isfinite(step_time) or ideal > step_time:
        raise ValueError(f"step_time={step_time!r} s is shorter than the {ideal:.4g} s these "
                         f"FLOPs take at peak on {gpus} GPUs (a utilisation above 1): a step "
                         "time, token count or GPU count is wrong")
    return ideal / step_time


def hfu(hardware_flops: float, *, step_time: float, gpus: int, peak_flops: float) -> float:
    """Hardware FLOPs utilisation: executed FLOPs (with recomputation) / (time x GPUs x peak)."""
    return mfu(hardware_flops, step_time=step_time, gpus=gpus, peak_flops=peak_flops)
