"""The accelerator catalog."""

import pytest

from distlesson.hardware import GPU, GPUS, get_gpu


def test_h100_sxm_datasheet_values():
    gpu = get_gpu("h100-sxm")
    assert gpu.memory_bytes == 80 * 10**9
    # The datasheet prints 1,979 (bf16) and 3,958 (fp8) TFLOPS "with sparsity";
    # dense is half, which NVIDIA rounds to 989 and 1,979.
    assert gpu.bf16_dense_flops == 989 * 10**12
    assert gpu.fp8_dense_flops == 1979 * 10**12
    assert gpu.hbm_bandwidth == 3.35e12
    assert gpu.source and gpu.date


def test_a100_80gb_has_no_fp8():
    gpu = get_gpu("a100-80gb")
    assert gpu.memory_bytes == 80 * 10**9
    assert gpu.bf16_dense_flops == 624e12 / 2
    assert gpu.fp8_dense_flops is None
    assert gpu.hbm_bandwidth == 2.039e12


def test_catalog_keys_match():
    assert all(key == gpu.key for key, gpu in GPUS.items())


def test_unknown_gpu_lists_allowed():
    with pytest.raises(ValueError, match="allowed: h100-sxm, a100-80gb"):
        get_gpu("h100")


def test_gpu_validation():
    with pytest.raises(ValueError, match="memory_bytes=0"):
        GPU("x", "x", 0, 1e12, None, 1e12, "s", "2024-01")
