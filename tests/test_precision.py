"""Float formats derived from their bits, checked against numpy / ml_dtypes finfo."""

import ml_dtypes
import numpy as np
import pytest

from distlesson.memory.precision import (
    BF16,
    FLOAT_FORMATS,
    FP8_E4M3,
    FP8_E5M2,
    FP16,
    FP32,
    PRESETS,
    FloatFormat,
    get_preset,
)

ORACLES = [
    (FP32, np.finfo(np.float32)),
    (FP16, np.finfo(np.float16)),
    (BF16, ml_dtypes.finfo(ml_dtypes.bfloat16)),
    (FP8_E4M3, ml_dtypes.finfo(ml_dtypes.float8_e4m3fn)),
    (FP8_E5M2, ml_dtypes.finfo(ml_dtypes.float8_e5m2)),
]


@pytest.mark.parametrize(("fmt", "finfo"), ORACLES, ids=[f.name for f, _ in ORACLES])
def test_derived_values_match_finfo(fmt, finfo):
    assert fmt.bits == finfo.bits
    assert fmt.bytes * 8 == finfo.bits
    assert fmt.mantissa_bits == finfo.nmant
    assert fmt.exponent_bits == finfo.nexp
    assert fmt.max_finite == float(finfo.max)
    assert fmt.smallest_normal == float(finfo.tiny)
    assert fmt.smallest_subnormal == float(finfo.smallest_subnormal)
    assert fmt.epsilon == float(finfo.eps)


def test_e4m3fn_has_no_infinity_and_max_448():
    assert FP8_E4M3.max_finite == 448
    assert not FP8_E4M3.has_inf
    assert FP8_E5M2.max_finite == 57344


def test_format_validation():
    with pytest.raises(ValueError, match="bits=15 must equal"):
        FloatFormat("bad", exponent_bits=5, mantissa_bits=10, bits=15)
    assert set(FLOAT_FORMATS) == {"fp32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2"}


def test_preset_formats():
    mixed = get_preset("mixed")
    assert (mixed.weight_format, mixed.grad_format, mixed.master_format) == (BF16, BF16, FP32)
    assert get_preset("fp32").master_format is None
    assert get_preset("mixed-no-master").master_format is None
    assert get_preset("mixed-fp32-grads").grad_format == FP32
    assert set(PRESETS) == {"mixed", "fp32", "mixed-no-master", "mixed-fp32-grads"}
    with pytest.raises(ValueError, match="allowed: mixed, fp32"):
        get_preset("fp8")
