"""Floating-point formats and the precision presets of training.

A :class:`FloatFormat` is its bit layout; every other property (bytes, range, epsilon) is
derived from the bits. A :class:`PrecisionPreset` says which format each model state is
kept in; the bytes per parameter of a training recipe follow from it, never typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from distlesson.catalog.lookup import lookup
from distlesson.checks import check_positive_int, check_type

__all__ = [
    "BF16",
    "FLOAT_FORMATS",
    "FP8_E4M3",
    "FP8_E5M2",
    "FP16",
    "FP32",
    "PRESETS",
    "FloatFormat",
    "PrecisionPreset",
    "get_preset",
]


@dataclass(frozen=True)
class FloatFormat:
    """A binary floating-point format: sign, exponent and mantissa bits.

    Values (IEEE 754 style, bias = 2^(e-1) - 1): normal numbers are
    (1 + f / 2^m) x 2^(E - bias) for stored exponents E = 1 .. 2^e - 2, subnormals
    (f / 2^m) x 2^(1 - bias). With ``has_inf=False`` (the OCP "fn" variant, e.g. fp8 e4m3fn)
    the top exponent also holds normal numbers and only the all-ones pattern is NaN.
    """

    name: str
    """Short name used in tables (``bf16``)."""
    exponent_bits: int
    """Width of the exponent field, e."""
    mantissa_bits: int
    """Width of the stored fraction field, m (the leading 1 is implicit)."""
    bits: int
    """Total width: 1 sign bit + e + m."""
    has_inf: bool = True
    """False for formats that spend the infinity encodings on finite values (e4m3fn)."""

    def __post_init__(self) -> None:
        check_type("name", self.name, str)
        check_type("has_inf", self.has_inf, bool)
        # the properties below are Python floats: binary64 is the widest format they describe
        check_positive_int("exponent_bits", self.exponent_bits, maximum=11)
        check_positive_int("mantissa_bits", self.mantissa_bits, maximum=52)
        check_positive_int("bits", self.bits)
        if not self.has_inf and self.exponent_bits > 10:  # its top exponent would overflow
            raise ValueError(f"exponent_bits={self.exponent_bits} with has_inf=False is "
                             "beyond a float's range; allowed: up to 10")
        if self.exponent_bits < 2 or self.mantissa_bits < 1:
            raise ValueError(
                f"{self.name}: exponent_bits={self.exponent_bits} must be >= 2 and "
                f"mantissa_bits={self.mantissa_bits} >= 1"
            )
        if self.bits != 1 + self.exponent_bits + self.mantissa_bits:
            raise ValueError(
                f"{self.name}: bits={self.bits} must equal 1 + exponent_bits="
                f"{self.exponent_bits} + mantissa_bits={self.mantissa_bits}"
            )
        if self.bits % 8:
            raise ValueError(f"{self.name}: bits={self.bits} must be a whole number of bytes")

    @property
    def bytes(self) -> int:
        """Storage per value: bits / 8."""
        return self.bits // 8

    @property
    def bias(self) -> int:
        """Exponent bias: 2^(e-1) - 1."""
        return 2 ** (self.exponent_bits - 1) - 1

    @property
    def max_finite(self) -> float:
        """Largest finite value.

        IEEE: (2 - 2^-m) x 2^(2^e - 2 - bias). Without infinities (e4m3fn) the top exponent
        2^e - 1 is usable but its all-ones fraction is NaN: (2 - 2^(1-m)) x 2^(2^e - 1 - bias).
        """
        e, m = self.exponent_bits, self.mantissa_bits
        if self.has_inf:
            return float((2 - Fraction(1, 2**m)) * Fraction(2) ** (2**e - 2 - self.bias))
        return float((2 - Fraction(2, 2**m)) * Fraction(2) ** (2**e - 1 - self.bias))

    @property
    def smallest_normal(self) -> float:
        """Smallest positive normal value: 2^(1 - bias)."""
        return float(Fraction(2) ** (1 - self.bias))

    @property
    def smallest_subnormal(self) -> float:
        """Smallest positive value: 2^(1 - bias - m)."""
        return float(Fraction(2) ** (1 - self.bias - self.mantissa_bits))

    @property
    def epsilon(self) -> float:
        """Machine epsilon, the gap between 1 and the next value: 2^-m."""
        return float(Fraction(1, 2**self.mantissa_bits))


FP32 = FloatFormat("fp32", exponent_bits=8, mantissa_bits=23, bits=32)
FP16 = FloatFormat("fp16", exponent_bits=5, mantissa_bits=10, bits=16)
BF16 = FloatFormat("bf16", exponent_bits=8, mantissa_bits=7, bits=16)
FP8_E4M3 = FloatFormat("fp8-e4m3", exponent_bits=4, mantissa_bits=3, bits=8, has_inf=False)
"""OCP / NVIDIA e4m3fn: no infinities, max 448 (Micikevicius et al. 2022, "FP8 Formats")."""
FP8_E5M2 = FloatFormat("fp8-e5m2", exponent_bits=5, mantissa_bits=2, bits=8)

FLOAT_FORMATS: dict[str, FloatFormat] = {f.name: f for f in (FP32, FP16, BF16, FP8_E4M3, FP8_E5M2)}
"""The formats by name."""


@dataclass(frozen=True)
class PrecisionPreset:
    """Which format each model state is kept in during training."""

    key: str
    """Name used on the command line (``--precision mixed``)."""
    weight_format: FloatFormat
    """Format of the weights the forward and backward passes read."""
    grad_format: FloatFormat
    """Format the gradients are accumulated and kept in."""
    master_format: FloatFormat | None
    """Format of a separate master copy of the weights that the optimizer updates, or None."""
    state_format: FloatFormat
    """Format of the optimizer's full-precision states (AdamW's moments)."""
    description: str
    """One line for tables and help."""
    source: str
    """Where the recipe comes from."""

    def __post_init__(self) -> None:
        for name in ("key", "description", "source"):
            check_type(name, getattr(self, name), str)
        for name in ("weight_format", "grad_format", "state_format"):
            check_type(name, getattr(self, name), FloatFormat)
        if self.master_format is not None:
            check_type("master_format", self.master_format, FloatFormat)


PRESETS: dict[str, PrecisionPreset] = {
    p.key: p
    for p in (
        PrecisionPreset(
            "mixed", BF16, BF16, FP32, FP32,
            "bf16 weights and grads, fp32 master copy and optimizer states",
            "Micikevicius et al. 2018 (mixed precision training); Rajbhandari et al. 2020, "
            "section 3.1 (2 + 2 + 12 bytes per parameter with Adam)",
        ),
        PrecisionPreset(
            "fp32", FP32, FP32, None, FP32,
            "everything in fp32; the weights are their own master copy",
            "plain single-precision training",
        ),
        PrecisionPreset(
            "mixed-no-master", BF16, BF16, None, FP32,
            "bf16 weights and grads, fp32 optimizer states, no master copy",
            "the Persian lesson's memory tables (weights, grads and Adam states only)",
        ),
        PrecisionPreset(
            "mixed-fp32-grads", BF16, FP32, FP32, FP32,
            "bf16 weights, fp32 main grads, fp32 master copy and optimizer states",
            "Megatron-LM with --bf16: fp32 main_grad buffers by default; its "
            "theoretical_memory_usage.py counts these bytes per parameter",
        ),
    )
}
"""The precision presets, by key."""


def get_preset(key: str) -> PrecisionPreset:
    """The preset named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(PRESETS, key, what="precision")
