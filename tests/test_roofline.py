"""The roofline (Williams et al. 2009): every expected value derived by hand."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.efficiency.roofline import (
    MatmulShape,
    Workloads,
    attainable_flops,
    decode_batch_at_ridge,
    decode_shape,
    matmul_intensity,
    peak_flops,
    ridge_point,
    roofline_point,
    roofline_polyline,
    training_shape,
    workload_points,
)

H100 = get_gpu("h100-sxm")
H = 8192


def test_h100_ridge_by_hand():
    # 989e12 / 3.35e12 = 989000 / 3350 = 19780 / 67 = 295.22...
    assert ridge_point(H100) == Fraction(19780, 67)
    assert float(ridge_point(H100)) == pytest.approx(295.2, abs=0.05)
    # fp8 doubles the peak, not the bandwidth
    assert ridge_point(H100, "fp8") == Fraction(1979e12) / Fraction(3.35e12)


def test_ridges_of_the_other_gpus():
    assert ridge_point(get_gpu("a100-80gb")) == Fraction(312_000, 2039)  # 153.0
    assert ridge_point(get_gpu("h200-sxm")) == Fraction(9890, 48)  # 206.0
    assert ridge_point(get_gpu("b200")) == Fraction(2250, 8)  # 281.25
    assert ridge_point(get_gpu("mi300x")) == Fraction(13074, 53)  # 246.7


def test_matmul_intensity_by_hand():
    # (2 x 3) @ (3 x 4): 2*2*3*4 = 48 FLOPs over 2*(6 + 12 + 8) = 52 bytes
    assert matmul_intensity(2, 3, 4) == Fraction(48, 52)
    assert matmul_intensity(2, 3, 4, bytes_per_value=1) == Fraction(48, 26)
    shape = MatmulShape(2, 3, 4)
    assert (shape.flops, shape.bytes_moved()) == (48, 52)


def test_decode_at_batch_one_is_one_flop_per_byte_not_two():
    # 2 h^2 FLOPs over 2 h^2 (weight) + 2 h (input) + 2 h (output) bytes = h / (h + 2)
    intensity = decode_shape(1, H).intensity()
    assert intensity == Fraction(2 * H * H, 2 * H * H + 2 * H + 2 * H) == Fraction(H, H + 2)
    assert float(intensity) == pytest.approx(0.99976, abs=1e-5)


@given(st.integers(1, 4096), st.sampled_from([1024, 4096, 8192, 16384]))
def test_decode_intensity_is_about_the_batch(batch, h):
    # B h / (h + 2 B) = B / (1 + 2 B / h): below B, and within a factor 1 + 2B/h of it
    intensity = decode_shape(batch, h).intensity()
    assert intensity == Fraction(batch * h, h + 2 * batch)
    assert intensity < batch
    assert intensity * (1 + Fraction(2 * batch, h)) == batch


def test_training_point_is_the_catalan_chapters():
    # 8192 tokens through an h -> 4h weight with h = 8192: 4h / 9 = 3,640.9 FLOP/byte
    intensity = training_shape(8192, H, 4 * H).intensity()
    assert intensity == Fraction(4 * H, 9)
    assert round(float(intensity)) == 3641


def test_attainable_is_the_lower_roof():
    assert attainable_flops(H100, 1) == Fraction(3.35e12)  # bandwidth x 1 FLOP/byte
    assert attainable_flops(H100, 10_000) == Fraction(989e12)  # capped at the peak
    assert attainable_flops(H100, ridge_point(H100)) == Fraction(989e12)  # the corner


def test_decode_share_of_peak_by_hand():
    point = roofline_point(H100, "decode_b1", decode_shape(1, H))
    share = Fraction(H, H + 2) * Fraction(3.35e12) / Fraction(989e12)
    assert point.share_of_peak == share
    assert float(share) == pytest.approx(0.003386, abs=1e-6)  # about a third of a percent
    assert point.memory_bound


def test_batch_at_ridge_by_hand_and_by_search():
    # B >= R h / (h - 2 R) = (19780/67) 8192 / (8192 - 39560/67) = 162037760 / 509304 = 318.2
    assert decode_batch_at_ridge(H100, H) == 319
    ridge = ridge_point(H100)
    assert decode_shape(319, H).intensity() >= ridge > decode_shape(318, H).intensity()


@pytest.mark.parametrize("key", list(GPUS))
def test_batch_at_ridge_matches_a_search_on_every_gpu(key):
    gpu, ridge = get_gpu(key), ridge_point(get_gpu(key))
    batch = 1
    while decode_shape(batch, H).intensity() < ridge:
        batch += 1
    assert decode_batch_at_ridge(gpu, H) == batch


def test_a_narrow_matrix_never_reaches_the_ridge():
    # the intensity tends to h / 2 = 256 < 295: no batch is enough
    with pytest.raises(ValueError, match=r"hidden_size=512: decode .* never reaches the ridge"):
        decode_batch_at_ridge(H100, 512)


def test_workload_points_and_polyline():
    names = [p.name for p in workload_points(H100)]
    assert names == ["decode_b1", "decode_b64", "training"]
    custom = workload_points(H100, Workloads(hidden_size=4096, decode_batches=(8,)))
    assert custom[0].intensity == Fraction(8 * 4096, 4096 + 16)
    line = roofline_polyline(H100, 1, 10_000)
    assert [x for x, _ in line] == [1, pytest.approx(295.2238806), 10_000]
    assert [y for _, y in line] == [3.35e12, 989e12, 989e12]
    assert len(roofline_polyline(H100, 1000, 10_000)) == 2  # all above the ridge


@pytest.mark.parametrize(("call", "message"), [
    (lambda: peak_flops(get_gpu("a100-80gb"), "fp8"), "a100-80gb has no fp8"),
    (lambda: peak_flops(H100, "fp4"), "precision='fp4'; allowed: bf16, fp8"),
    (lambda: MatmulShape(0, 1, 1), "m=0 must be a positive integer"),
    (lambda: matmul_intensity(1, 1, 1, bytes_per_value=0), "bytes_per_value=0"),
    (lambda: attainable_flops(H100, 0), "intensity=0 must be positive"),
    (lambda: roofline_polyline(H100, 10, 1), "need 0 < x_min < x_max"),
    (lambda: Workloads(decode_batches=()), "at least one batch"),
])
def test_errors_name_the_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()
