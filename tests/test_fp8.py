"""FP8 formats and scaling, on the formats' real rounding (ml_dtypes), checked by hand."""

import math

import numpy as np
import pytest

from distlesson.memory.fp8 import (
    get_fp8,
    mean_relative_error,
    outlier_case,
    quantize_blocks,
    quantize_tensor,
    spacing_at_one,
)


def test_the_formats_by_hand():
    # E4M3 (fn): the top exponent is usable, all mantissa bits set is NaN, so the largest
    # value is 1.110b x 2^8 = 1.75 x 256 = 448; E5M2 (IEEE-like): 1.11b x 2^15 = 57,344.
    assert get_fp8("e4m3").max == 448
    assert get_fp8("e5m2").max == 57_344
    # one ulp above one: 2^-mantissa bits
    assert spacing_at_one("e4m3") == 2**-3
    assert spacing_at_one("e5m2") == 2**-2
    e4m3 = get_fp8("e4m3")
    # 1.0625 is half way from 1 to 1.125: ties to even gives 1; 1.1 rounds to 1.125
    assert e4m3.cast(np.array([1.0625, 1.1])).tolist() == [1.0, 1.125]
    assert e4m3.cast(np.array([500.0, -1e6])).tolist() == [448.0, -448.0]  # saturating


def test_per_tensor_scaling_by_hand():
    # current: amax 2 -> scale 448 / 2 = 224; 0.3 x 224 = 67.2 lies in [64, 128), where
    # E4M3's spacing is 64 / 8 = 8: 64 is nearer than 72, and 64 / 224 = 0.285714...
    got = quantize_tensor(np.array([2.0, 0.3]), "e4m3")
    assert got[0] == 2.0 and got[1] == pytest.approx(64 / 224, rel=1e-15)
    # delayed: the amax of an earlier step (1) sets the scale 448: 2 x 448 clips to 448,
    # which comes back as 1; the outlier loses half its value
    assert quantize_tensor(np.array([2.0]), "e4m3", amax=1.0).tolist() == [1.0]


def test_blocks_scale_apart():
    # two 1 x 128 tiles; 0.3 shares its tile with 2.0 in the first (back as 64 / 224, as
    # above) but has its own scale in the second: 0.3 x 448 / 0.3 = 448, exact
    x = np.full((1, 256), 0.3)
    x[0, 0] = 2.0
    got = quantize_blocks(x, "e4m3")
    assert got[0, 1] == pytest.approx(64 / 224, rel=1e-15)
    assert got[0, 200] == pytest.approx(0.3, rel=1e-15)
    with pytest.raises(ValueError, match="128 x 128 blocks"):
        quantize_blocks(np.ones((100, 128)), "e4m3", rows=128)


def test_mean_relative_error_by_hand():
    assert mean_relative_error(np.array([1.0, 2.0]), np.array([1.1, 2.0])) == pytest.approx(0.05)


def test_an_outlier_hurts_per_tensor_scaling_not_tiles():
    small, large = outlier_case(1e2), outlier_case(1e5)
    # E4M3 keeps 3 mantissa bits: a normal value is off by at most half a spacing, 2^-4 of
    # it, so the mean over many values is below 2^-4
    assert small.per_tensor < 2**-4 and small.tiles < 2**-4
    assert large.tiles == pytest.approx(small.tiles, rel=0.02)  # the tile copes
    assert large.per_tensor > 5 * large.tiles  # the tensor does not
    # what flushes to zero: a value under half the smallest subnormal, 2^-10, once scaled by
    # 448 / 1e5: |x| < 2^-10 x 1e5 / 448 = 0.218; a standard normal falls there with
    # probability erf(0.218 / sqrt 2) = 0.1726
    threshold = 2**-10 * 1e5 / 448
    assert large.flushed == pytest.approx(math.erf(threshold / math.sqrt(2)), abs=0.01)
    # E5M2's range (about 2^31 from its smallest subnormal to its max) takes the outlier, at
    # half E4M3's precision
    assert large.e5m2_per_tensor == pytest.approx(2 * small.tiles, rel=0.1)
    # delayed scaling clips the new outlier to the old amax
    assert large.delayed_outlier > 0.999


def test_bad_format():
    with pytest.raises(ValueError, match="format='e3m4'"):
        get_fp8("e3m4")
    with pytest.raises(ValueError, match="amax=0"):
        quantize_tensor(np.ones(3), "e4m3", amax=0.0)


def test_the_chapter_exercises_by_hand():
    from distlesson.chapter_exercises import chapter_exercises

    scale, mfu = chapter_exercises("saving-memory")
    # 448 / 2 = 224; 0.3 x 224 = 67.2 rounds to 64 (spacing 8 in [64, 128)), back as
    # 64 / 224 = 0.285714: |0.285714 - 0.3| / 0.3 = 4.762 %
    assert scale.parts[0].value == 224
    assert scale.parts[1].value == pytest.approx(0.047619, abs=1e-6)
    # 40 % of 989 TFLOP/s is 395.6 TFLOP/s, 19.99 % of 1,979
    assert mfu.parts[0].value == pytest.approx(0.4 * 989 / 1979)
