"""FP8 training: the two formats, and how a tensor is scaled into them.

An fp8 number has 8 bits. E4M3 (4 exponent bits, 3 mantissa bits, no infinities: the OCP
"fn" variant) reaches 448 with a spacing of 2^-3 just above one; E5M2 (5 and 2) reaches
57,344 with a spacing of 2^-2 (Micikevicius et al. 2022, "FP8 Formats for Deep Learning").
So few values cover so narrow a range that a tensor is multiplied by a *scale* before the
cast, to put its largest magnitude (amax) at the format's maximum, and divided again after:

- per tensor, *current* scaling: the amax of the tensor being cast (one more pass over it);
- per tensor, *delayed* scaling: the largest amax of the previous steps (Transformer Engine's
  default): no extra pass, but a value that grew since overflows and is clipped;
- per block: one scale per 1 x 128 tile of activations (per token, per 128 channels) and per
  128 x 128 block of weights (DeepSeek-V3 technical report, section 3.3.2), so an outlier
  only coarsens the values of its own block.

The rounding is the formats' own (``ml_dtypes``); values beyond the maximum are clipped to
it (saturating casts, as fp8 training kernels do). Units: the tensor's own; errors are
fractions.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

__all__ = ["BLOCK", "FORMATS", "OUTLIER_SHAPE", "FP8Format", "OutlierCase", "get_fp8",
           "mean_relative_error", "outlier_case", "quantize_blocks", "quantize_tensor",
           "relative_error", "spacing_at_one"]

BLOCK = 128
"""DeepSeek-V3's group size: 1 x 128 tiles of activations, 128 x 128 blocks of weights."""


@dataclass(frozen=True)
class FP8Format:
    """One fp8 format: its name, its ``ml_dtypes`` type and its bits."""

    name: str
    dtype: type
    exponent_bits: int
    mantissa_bits: int

    @property
    def max(self) -> float:
        """The largest finite value: 448 for E4M3, 57,344 for E5M2."""
        return float(ml_dtypes.finfo(self.dtype).max)

    def cast(self, x: np.ndarray) -> np.ndarray:
        """``x`` rounded to the format (to nearest, ties to even), clipped at +-max, as
        float64."""
        clipped = np.clip(np.asarray(x, np.float64), -self.max, self.max)
        return np.asarray(clipped, dtype=self.dtype).astype(np.float64)


FORMATS: dict[str, FP8Format] = {f.name: f for f in (
    FP8Format("e4m3", ml_dtypes.float8_e4m3fn, 4, 3),
    FP8Format("e5m2", ml_dtypes.float8_e5m2, 5, 2),
)}
"""E4M3 (forward tensors, and DeepSeek-V3's every tensor) and E5M2 (gradients, in the hybrid
recipe of Micikevicius et al. 2022)."""


def get_fp8(name: str) -> FP8Format:
    """The format named ``name``; ValueError listing the allowed names otherwise."""
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"format={name!r}; allowed: {', '.join(FORMATS)}") from None


def spacing_at_one(name: str) -> float:
    """The gap between one and the next value of the format: 2^-mantissa_bits."""
    fmt = get_fp8(name)
    one = np.asarray(1.0, dtype=fmt.dtype)
    return float(np.nextafter(one, np.asarray(2.0, dtype=fmt.dtype))) - 1.0


def quantize_tensor(x: np.ndarray, name: str, *, amax: float | None = None) -> np.ndarray:
    """``x`` through fp8 with one scale for the whole tensor, and back.

    scale = max / amax; the cast rounds x x scale, the result is divided by the scale.
    ``amax`` None: current scaling (the tensor's own amax); a number: delayed scaling (the
    amax of earlier steps, which clips what grew since)."""
    fmt = get_fp8(name)
    x = np.asarray(x, np.float64)
    amax = float(np.max(np.abs(x))) if amax is None else float(amax)
    if not amax > 0:
        raise ValueError(f"amax={amax!r} must be positive")
    scale = fmt.max / amax
    return fmt.cast(x * scale) / scale


def quantize_blocks(x: np.ndarray, name: str, *, rows: int = 1, cols: int = BLOCK) -> np.ndarray:
    """``x`` (2-D) through fp8 with one current scale per ``rows`` x ``cols`` block, and
    back: 1 x 128 for activations, 128 x 128 for weights. The shape must divide evenly."""
    x = np.asarray(x, np.float64)
    m, n = x.shape
    if m % rows or n % cols:
        raise ValueError(f"shape {x.shape} is not made of {rows} x {cols} blocks")
    blocks = x.reshape(m // rows, rows, n // cols, cols)  # (block row, row, block col, col)
    amax = np.max(np.abs(blocks), axis=(1, 3), keepdims=True)
    scale = get_fp8(name).max / np.where(amax > 0, amax, 1.0)
    return (get_fp8(name).cast(blocks * scale) / scale).reshape(m, n)


def relative_error(x: np.ndarray, approx: np.ndarray) -> float:
    """||approx - x|| / ||x|| (Frobenius), a fraction."""
    x = np.asarray(x, np.float64)
    return float(np.linalg.norm(np.asarray(approx, np.float64) - x) / np.linalg.norm(x))


def mean_relative_error(x: np.ndarray, approx: np.ndarray) -> float:
    """The mean over the elements of |approx - x| / |x| (x non-zero), a fraction: unlike the
    Frobenius norm, which the largest values decide, it sees what happens to small ones."""
    x = np.asarray(x, np.float64)
    if np.any(x == 0):
        raise ValueError("x has zeros: the relative error of an element is undefined there")
    return float(np.mean(np.abs(np.asarray(approx, np.float64) - x) / np.abs(x)))


OUTLIER_SHAPE = (256, 1024)
"""The demonstration's tensor: 256 tokens x 1,024 channels, whole 1 x 128 and 128 x 128
blocks."""


@dataclass(frozen=True)
class OutlierCase:
    """One tensor of standard normal values with one outlier, through fp8 four ways.

    The errors are :func:`mean_relative_error` over the values other than the outlier."""

    outlier: float
    """The outlier's value, in units of the other values' standard deviation."""
    per_tensor: float
    """E4M3, one current scale for the tensor."""
    tiles: float
    """E4M3, one scale per 1 x 128 tile."""
    blocks: float
    """E4M3, one scale per 128 x 128 block."""
    e5m2_per_tensor: float
    """E5M2, one current scale for the tensor."""
    flushed: float
    """Share of the other values that E4M3 per tensor rounds to zero."""
    delayed_outlier: float
    """Relative error of the outlier itself under delayed scaling, the amax taken from the
    same tensor a step before the outlier appeared: it is clipped."""


def outlier_case(outlier: float, *, seed: int = 0) -> OutlierCase:
    """The four quantisations of one tensor with an outlier (seeded: the page and the tests
    see the same numbers)."""
    base = np.random.default_rng(seed).standard_normal(OUTLIER_SHAPE)  # (tokens, channels)
    x = base.copy()
    x[0, 0] = outlier
    rest = np.ones(x.shape, bool)
    rest[0, 0] = False

    def err(approx: np.ndarray) -> float:
        return mean_relative_error(x[rest], approx[rest])

    per_tensor = quantize_tensor(x, "e4m3")
    delayed = quantize_tensor(x, "e4m3", amax=float(np.max(np.abs(base))))
    return OutlierCase(
        outlier=outlier, per_tensor=err(per_tensor), tiles=err(quantize_blocks(x, "e4m3")),
        blocks=err(quantize_blocks(x, "e4m3", rows=BLOCK)),
        e5m2_per_tensor=err(quantize_tensor(x, "e5m2")),
        flushed=float(np.mean(per_tensor[rest] == 0)),
        delayed_outlier=abs(float(delayed[0, 0]) - outlier) / outlier)
