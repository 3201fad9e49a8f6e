"""Low precision on the real formats: vanishing updates, underflow, fp8 accumulation."""

import numpy as np
import pytest

from distlesson.memory.low_precision import accumulate_updates, cast_gradients, fp8_matmul_error


def test_small_updates_vanish_in_bf16_and_survive_with_a_master_copy():
    # bf16 has 7 mantissa bits: the spacing after 1.0 is 2^-7, so anything below 2^-8 added
    # to 1.0 rounds back to 1.0; fp32's spacing is 2^-23 and keeps it
    run = accumulate_updates(start=1.0, update=1e-3, steps=1000, fmt="bf16")
    assert run.low_only == 1.0
    assert run.exact == pytest.approx(2.0)
    assert run.with_master == 2.0  # 1 + 1000 x 0.001 in fp32, cast to bf16
    # exactly half the spacing ties to even: still nothing
    assert accumulate_updates(start=1.0, update=2.0**-8, steps=10).low_only == 1.0
    # a full spacing moves it
    assert accumulate_updates(start=1.0, update=2.0**-7, steps=3).low_only == 1.0 + 3 * 2**-7


def test_fp16_underflow_and_loss_scaling():
    # fp16's smallest subnormal is 2^-24; 2^-26 flushes to zero, 2^-26 x 2^10 = 2^-16 survives
    tiny = np.full(10, 2.0**-26)
    assert cast_gradients(tiny).underflow == 1.0
    assert cast_gradients(tiny, loss_scale=2**10).underflow == 0.0
    # too large a scale: 1 x 2^17 = 131,072 exceeds fp16's largest value, 65,504
    big = cast_gradients(np.ones(4), loss_scale=2**17)
    assert big.overflow == 1.0 and big.underflow == 0.0
    # bf16 has fp32's exponent range: no underflow at all for 2^-26
    assert cast_gradients(tiny, fmt="bf16").underflow == 0.0


def test_fp8_inputs_exact_when_representable():
    # scaled so that the largest entry, 8, becomes e4m3's maximum 448 (scale 56): 56 = 1.75
    # x 2^5, 112, 224 and 448 are all representable with three mantissa bits
    a = np.array([[1.0, 2.0], [4.0, 8.0]])
    assert fp8_matmul_error(a, a) == 0.0


def test_accumulating_in_16_bits_loses_more_than_in_fp32():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((16, 4096)), rng.standard_normal((4096, 16))
    fp32 = fp8_matmul_error(a, b, accumulate="fp32")
    bf16 = fp8_matmul_error(a, b, accumulate="bf16")
    assert fp32 < 2.0**-4  # e4m3 rounds each input by at most 2^-4 relative
    assert bf16 > 1.5 * fp32  # the running sum's own rounding dominates over 4096 terms


def test_errors_name_the_value():
    with pytest.raises(ValueError, match="format='fp4' is not known"):
        accumulate_updates(start=1.0, update=0.1, steps=1, fmt="fp4")
    with pytest.raises(ValueError, match="loss_scale=0 must be positive"):
        cast_gradients(np.ones(2), loss_scale=0)
    with pytest.raises(ValueError, match="accumulate='fp16'"):
        fp8_matmul_error(np.ones((2, 2)), np.ones((2, 2)), accumulate="fp16")
