"""The roofline model: is a matrix multiplication limited by the GPU's FLOPs or by its memory?

Source: Williams, Waterman and Patterson 2009, "Roofline: An Insightful Visual Performance
Model for Multicore Architectures", Communications of the ACM 52(4). A kernel that does F
FLOPs while moving Q bytes to and from memory has arithmetic intensity I = F / Q (FLOP per
byte); it can run at most at min(peak, I x bandwidth) FLOP/s. The ridge point, peak /
bandwidth, is the intensity where the two limits meet: below it memory bandwidth bounds the
kernel, above it the tensor cores do.

Assumptions for a matmul (m x k) @ (k x n): each input is read from memory once and the
output written once (no cache reuse across kernels, no re-reads); FLOPs are 2 m k n (one
multiply and one add per term). Peaks are the catalog's dense datasheet figures
(:mod:`distlesson.catalog.hardware`). Intensities and throughputs are exact fractions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from distlesson.catalog.hardware import GPU
from distlesson.checks import check_positive_int

__all__ = [
    "BYTES_PER_VALUE",
    "MatmulShape",
    "Precision",
    "RooflinePoint",
    "Workloads",
    "attainable_flops",
    "decode_batch_at_ridge",
    "decode_shape",
    "matmul_intensity",
    "peak_flops",
    "ridge_point",
    "roofline_point",
    "roofline_polyline",
    "training_shape",
    "workload_points",
]

Precision = Literal["bf16", "fp8"]

BYTES_PER_VALUE: dict[str, int] = {"bf16": 2, "fp8": 1}
"""Bytes of one stored value in each precision the catalog gives a peak for."""


@dataclass(frozen=True)
class MatmulShape:
    """A matrix multiplication (m x k) @ (k x n) -> (m x n)."""

    m: int
    """Rows of the left input and of the output (tokens, or sequences in decode)."""
    k: int
    """The contracted dimension (the layer's input width)."""
    n: int
    """Columns of the weight and of the output (the layer's output width)."""

    def __post_init__(self) -> None:
        for name in ("m", "k", "n"):
            check_positive_int(name, getattr(self, name))

    @property
    def flops(self) -> int:
        """2 m k n: a multiply and an add for each of the m n outputs' k terms."""
        return 2 * self.m * self.k * self.n

    def bytes_moved(self, bytes_per_value: int = 2) -> int:
        """Bytes read and written: A (m k) + B (k n) + C (m n), each value once."""
        check_positive_int("bytes_per_value", bytes_per_value)
        return bytes_per_value * (self.m * self.k + self.k * self.n + self.m * self.n)

    def intensity(self, bytes_per_value: int = 2) -> Fraction:
        """FLOP per byte: :attr:`flops` / :meth:`bytes_moved`, exact."""
        return Fraction(self.flops, self.bytes_moved(bytes_per_value))


def matmul_intensity(m: int, k: int, n: int, bytes_per_value: int = 2) -> Fraction:
    """Arithmetic intensity of (m x k) @ (k x n): 2 m k n / (b (m k + k n + m n)).

    Source: the roofline's operational intensity (Williams et al. 2009) for one matmul.
    Assumptions: inputs read once, output written once, ``bytes_per_value`` = b bytes per
    value (2 for bf16). Units: FLOP per byte, an exact fraction.
    """
    return MatmulShape(m, k, n).intensity(bytes_per_value)


def peak_flops(gpu: GPU, precision: Precision = "bf16") -> float:
    """The catalog's dense peak of ``gpu`` in ``precision``, FLOP/s."""
    if precision == "bf16":
        return gpu.bf16_dense_flops
    if precision == "fp8":
        if gpu.fp8_dense_flops is None:
            raise ValueError(f"precision='fp8': {gpu.key} has no fp8 tensor cores; allowed: bf16")
        return gpu.fp8_dense_flops
    raise ValueError(f"precision={precision!r}; allowed: bf16, fp8")


def ridge_point(gpu: GPU, precision: Precision = "bf16") -> Fraction:
    """The intensity where memory and compute limits meet: peak / bandwidth, FLOP per byte.

    Equation: I* = P / W (Williams et al. 2009), P the dense peak in ``precision`` and W the
    HBM bandwidth from the catalog. Units: FLOP per byte, exact (both peaks are integers).
    """
    return Fraction(peak_flops(gpu, precision)) / Fraction(gpu.hbm_bandwidth)


def attainable_flops(gpu: GPU, intensity: Fraction | float,
                     precision: Precision = "bf16") -> Fraction:
    """The roofline: min(peak, intensity x bandwidth), FLOP/s, exact.

    Source: Williams et al. 2009. Assumption: the kernel reaches the datasheet's bandwidth
    or peak, whichever binds (an upper bound, never a prediction).
    """
    value = Fraction(intensity)
    if value <= 0:
        raise ValueError(f"intensity={intensity!r} must be positive")
    return min(Fraction(peak_flops(gpu, precision)), value * Fraction(gpu.hbm_bandwidth))


def decode_shape(batch: int, hidden_size: int) -> MatmulShape:
    """Decoding one token for each of ``batch`` sequences through a square h x h weight.

    (B x h) @ (h x h): intensity 2 B h^2 / (b (B h + h^2 + B h)) = 2 B h / (b (h + 2 B)),
    which for bf16 (b = 2) is B h / (h + 2 B) = B / (1 + 2 B / h): about B while B << h, and
    at B = 1 just below one FLOP per byte (each weight read, two bytes, feeds two FLOPs).
    """
    return MatmulShape(batch, hidden_size, hidden_size)


def training_shape(tokens: int, hidden_size: int, ffn_hidden_size: int) -> MatmulShape:
    """A training step's matmul: ``tokens`` rows through an h -> ffn weight (the MLP's up
    projection), (T x h) @ (h x f). Every weight read is reused T times."""
    return MatmulShape(tokens, hidden_size, ffn_hidden_size)


def decode_batch_at_ridge(gpu: GPU, hidden_size: int, precision: Precision = "bf16") -> int:
    """The smallest batch B whose decode matmul (B x h) @ (h x h) reaches the ridge point.

    Equation: 2 B h / (b (h + 2 B)) >= R  <=>  B >= R b h / (2 (h - R b)), R the ridge and b
    the bytes per value; when h <= R b the intensity never reaches R (its limit as B grows
    is h / b) and ValueError says so. Units: sequences, an integer.
    """
    check_positive_int("hidden_size", hidden_size)
    ridge, b = ridge_point(gpu, precision), BYTES_PER_VALUE[precision]
    if hidden_size <= ridge * b:
        raise ValueError(f"hidden_size={hidden_size}: decode through an h x h matrix never "
                         f"reaches the ridge of {gpu.key} ({float(ridge):.1f} FLOP/byte); "
                         f"its intensity stays below h / {b}")
    return math.ceil(ridge * b * hidden_size / (2 * (hidden_size - ridge * b)))


@dataclass(frozen=True)
class RooflinePoint:
    """One matmul placed on one GPU's roofline."""

    name: str
    """What the point is (``decode_b1``, ``training``)."""
    shape: MatmulShape
    """The matmul."""
    intensity: Fraction
    """FLOP per byte."""
    attainable: Fraction
    """min(peak, intensity x bandwidth), FLOP/s."""
    peak: float
    """The GPU's dense peak in the point's precision, FLOP/s."""

    @property
    def share_of_peak(self) -> Fraction:
        """attainable / peak: the most of the tensor cores this matmul can use."""
        return self.attainable / Fraction(self.peak)

    @property
    def memory_bound(self) -> bool:
        """Whether bandwidth, not compute, caps the point (intensity below the ridge)."""
        return self.attainable < Fraction(self.peak)


def roofline_point(gpu: GPU, name: str, shape: MatmulShape,
                   precision: Precision = "bf16") -> RooflinePoint:
    """``shape`` on ``gpu``'s roofline, with values of ``precision``'s width."""
    intensity = shape.intensity(BYTES_PER_VALUE[precision])
    return RooflinePoint(name, shape, intensity, attainable_flops(gpu, intensity, precision),
                         peak_flops(gpu, precision))


def roofline_polyline(gpu: GPU, x_min: float, x_max: float,
                      precision: Precision = "bf16") -> tuple[tuple[float, float], ...]:
    """The roofline between two intensities as the points a log-log plot joins with
    straight segments: the start, the ridge (if inside) and the end, in FLOP/s."""
    if not 0 < x_min < x_max:
        raise ValueError(f"x_min={x_min!r}, x_max={x_max!r}: need 0 < x_min < x_max")
    ridge = ridge_point(gpu, precision)  # exact, so the corner sits exactly on the peak
    xs = [Fraction(x_min), *([ridge] if x_min < ridge < x_max else []), Fraction(x_max)]
    return tuple((float(x), float(attainable_flops(gpu, x, precision))) for x in xs)


@dataclass(frozen=True)
class Workloads:
    """The matmuls the hardware chapter places on the roofline, in one layer of width h."""

    hidden_size: int = 8192
    """h, the width of Llama 3 70B. With T = h tokens through an h -> 4h weight (the fields
    below), the training intensity is 2 h 4h h / (2 (h^2 + 4h^2 + 4h^2)) = 4h / 9, which
    for h = 8192 is the Catalan chapter's training point (about 3,641 FLOP per byte)."""
    decode_batches: tuple[int, ...] = (1, 64)
    """Sequences decoded together, one token each: the Catalan chart's two decode points."""
    training_tokens: int = 8192
    """Tokens of one training micro-batch: the Catalan chapter's "8 k tokens"."""
    ffn_multiple: int = 4
    """The training point's weight is the MLP's up projection h -> 4h (a GPT-style MLP)."""

    def __post_init__(self) -> None:
        for name in ("hidden_size", "training_tokens", "ffn_multiple"):
            check_positive_int(name, getattr(self, name))
        if not self.decode_batches:
            raise ValueError("decode_batches=() must name at least one batch")
        for batch in self.decode_batches:
            check_positive_int("decode batch", batch)


def workload_points(gpu: GPU, workloads: Workloads | None = None,
                    precision: Precision = "bf16") -> tuple[RooflinePoint, ...]:
    """Each decode batch (``decode_b1``, ``decode_b64``...) then ``training``, on ``gpu``."""
    w = workloads if workloads is not None else Workloads()
    points = [roofline_point(gpu, f"decode_b{b}", decode_shape(b, w.hidden_size), precision)
              for b in w.decode_batches]
    training = training_shape(w.training_tokens, w.hidden_size,
                              w.ffn_multiple * w.hidden_size)
    return (*points, roofline_point(gpu, "training", training, precision))
