"""What low precision does to training, run on real number formats (numpy and ml_dtypes).

Three experiments the chapter on saving memory shows, each on the actual formats rather
than on a formula about them:

- small optimizer updates added to bf16 weights are rounded away, while an fp32 master
  copy keeps them (Micikevicius et al. 2018, section 3.1);
- small gradients underflow to zero in fp16 unless the loss is scaled first (same source,
  section 3.2);
- a matrix product with fp8 inputs (per-tensor scaling) loses little when it accumulates in
  fp32 and much more when the running sum itself is rounded to a narrower format at every
  step (Micikevicius et al. 2022, "FP8 Formats for Deep Learning"). On Hopper the fp8
  tensor cores keep only about 14 bits in their accumulator, which is why DeepSeek-V3
  (report, section 3.3.2) copies partial sums to fp32 every 128 elements; bf16's 8 bits
  here exaggerate the effect in the same direction.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

__all__ = ["DTYPES", "CastOutcome", "UpdateRun", "accumulate_updates", "cast_gradients",
           "fp8_matmul_error"]

DTYPES: dict[str, type] = {
    "fp32": np.float32,
    "fp16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "fp8-e4m3": ml_dtypes.float8_e4m3fn,
    "fp8-e5m2": ml_dtypes.float8_e5m2,
}
"""The formats of :mod:`distlesson.memory.precision` as numpy dtypes, by the same names."""


def _dtype(name: str) -> type:
    try:
        return DTYPES[name]
    except KeyError:
        raise ValueError(f"format={name!r} is not known; allowed: {', '.join(DTYPES)}") from None


@dataclass(frozen=True)
class UpdateRun:
    """A weight after many equal small updates, kept two ways."""

    low_only: float
    """The weight kept only in the low-precision format, each update added in it."""
    master: float
    """The fp32 master copy after the same updates."""
    with_master: float
    """The master copy cast to the format: the weight the next forward pass reads."""
    exact: float
    """What exact arithmetic gives: start + steps x update."""


def accumulate_updates(*, start: float, update: float, steps: int, fmt: str = "bf16") -> UpdateRun:
    """Add ``update`` to a weight ``steps`` times, in ``fmt`` alone and via an fp32 master.

    An update smaller than half the format's spacing at ``start`` rounds back to ``start``
    every time, so the low-precision weight never moves; the fp32 copy, with a spacing
    2^16 times finer than bf16's, accumulates them. Units: the weight's own.
    """
    if not isinstance(steps, int) or steps < 0:
        raise ValueError(f"steps={steps!r} must be a non-negative integer")
    dtype = _dtype(fmt)
    low = np.asarray(start, dtype=dtype)
    master = np.float32(start)
    step_low, step_master = np.asarray(update, dtype=dtype), np.float32(update)
    for _ in range(steps):
        low = np.asarray(low + step_low, dtype=dtype)  # rounded to the format every step
        master = np.float32(master + step_master)
    return UpdateRun(low_only=float(low), master=float(master),
                     with_master=float(np.asarray(master, dtype=dtype)),
                     exact=start + steps * update)


@dataclass(frozen=True)
class CastOutcome:
    """What happens to gradients cast to a narrow format."""

    underflow: float
    """Share of the non-zero gradients that became zero."""
    overflow: float
    """Share that became infinite (or, without infinities, NaN): the loss scale was too big."""


def cast_gradients(gradients: np.ndarray, *, fmt: str = "fp16",
                   loss_scale: float = 1.0) -> CastOutcome:
    """Cast the non-zero ``gradients``, times ``loss_scale``, to ``fmt`` and count the losses.

    With loss scaling the backward computes gradients of (scale x loss), i.e. every
    gradient times ``loss_scale``, and divides again in fp32 before the update; a value
    below the format's smallest subnormal (2^-24 for fp16) flushes to zero unless the
    scale lifts it, and one above its largest value (65,504) overflows. Units: fractions.
    """
    if not loss_scale > 0:
        raise ValueError(f"loss_scale={loss_scale!r} must be positive")
    values = np.asarray(gradients, dtype=np.float64)
    nonzero = values[values != 0]
    if nonzero.size == 0:
        raise ValueError("gradients has no non-zero value")
    with np.errstate(over="ignore", invalid="ignore"):
        cast = np.asarray(nonzero * loss_scale, dtype=_dtype(fmt)).astype(np.float64)
    return CastOutcome(underflow=float(np.mean(cast == 0)),
                       overflow=float(np.mean(~np.isfinite(cast))))


def _quantize(x: np.ndarray, fmt: str) -> tuple[np.ndarray, float]:
    """x scaled so its largest magnitude sits at the format's maximum, then cast."""
    dtype = _dtype(fmt)
    scale = float(ml_dtypes.finfo(dtype).max) / float(np.max(np.abs(x)))
    return np.asarray(x * scale, dtype=dtype), scale


def fp8_matmul_error(a: np.ndarray, b: np.ndarray, *, fmt: str = "fp8-e4m3",
                     accumulate: str = "fp32") -> float:
    """Relative error (Frobenius) of a @ b with both inputs in ``fmt``, against float64.

    Inputs are scaled per tensor to the format's range, cast, and the products summed over
    the inner dimension one term at a time with the running sum rounded to ``accumulate``
    after every addition (fp32, or bf16 to show what a narrow accumulator costs).
    Shapes: a (m, k), b (k, n). Units: a fraction.
    """
    if accumulate not in ("fp32", "bf16"):
        raise ValueError(f"accumulate={accumulate!r}; allowed: fp32, bf16 (a 16-bit float with "
                         "fp16's range would overflow on the scaled products)")
    acc = _dtype(accumulate)
    qa, sa = _quantize(np.asarray(a, np.float64), fmt)
    qb, sb = _quantize(np.asarray(b, np.float64), fmt)
    fa, fb = qa.astype(np.float64), qb.astype(np.float64)  # exact values of the fp8 inputs
    total = np.zeros((a.shape[0], b.shape[1]), dtype=acc)  # (m, n)
    for i in range(a.shape[1]):
        product = np.asarray(np.outer(fa[:, i], fb[i]), dtype=acc)  # (m, n) rounded product
        total = np.asarray(total.astype(np.float64) + product.astype(np.float64), dtype=acc)
    result = total.astype(np.float64) / (sa * sb)
    reference = np.asarray(a, np.float64) @ np.asarray(b, np.float64)
    return float(np.linalg.norm(result - reference) / np.linalg.norm(reference))
