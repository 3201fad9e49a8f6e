"""The accelerator catalog: each datasheet figure, and the conversions derived by hand."""

import pytest

from distlesson.catalog.hardware import GPU, GPUS, get_gpu
from distlesson.catalog.interconnects import INTERCONNECTS


def test_h100_sxm_datasheet_values():
    gpu = get_gpu("h100-sxm")
    assert gpu.memory_bytes == 80 * 10**9
    # The datasheet prints 1,979 (bf16) and 3,958 (fp8) TFLOPS "with sparsity";
    # dense is half, which NVIDIA rounds to 989 and 1,979.
    assert gpu.bf16_dense_flops == 989 * 10**12
    assert gpu.fp8_dense_flops == 1979 * 10**12
    assert gpu.hbm_bandwidth == 3.35e12
    assert gpu.source and gpu.date
    assert gpu.intra_node_link == "nvlink4" and gpu.gpus_per_node == 8


def test_fp32_paths_against_bf16():
    # Datasheets: H100 SXM FP32 67 TFLOPS, TF32 tensor core 989 with sparsity (494.5 dense);
    # A100 FP32 19.5 TFLOPS, TF32 156 dense (312 with sparsity). bf16 on the tensor cores is
    # about 15x and 16x the plain fp32 CUDA cores, but only twice TF32
    h100, a100 = get_gpu("h100-sxm"), get_gpu("a100-80gb")
    assert (h100.fp32_flops, h100.tf32_dense_flops) == (67e12, 494.5e12)
    assert (a100.fp32_flops, a100.tf32_dense_flops) == (19.5e12, 156e12)
    assert a100.bf16_dense_flops / a100.fp32_flops == 16
    assert h100.bf16_dense_flops / h100.fp32_flops == pytest.approx(14.76, abs=0.01)
    for gpu in (h100, a100):
        assert gpu.bf16_dense_flops / gpu.tf32_dense_flops == 2


def test_a100_80gb_has_no_fp8():
    gpu = get_gpu("a100-80gb")
    assert gpu.memory_bytes == 80 * 10**9
    assert gpu.bf16_dense_flops == 624e12 / 2
    assert gpu.fp8_dense_flops is None
    assert gpu.hbm_bandwidth == 2.039e12
    assert gpu.intra_node_link == "nvlink3"


def test_h200_is_an_h100_with_more_memory():
    h200, h100 = get_gpu("h200-sxm"), get_gpu("h100-sxm")
    assert h200.memory_bytes == 141 * 10**9
    assert h200.hbm_bandwidth == 4.8e12
    assert (h200.bf16_dense_flops, h200.fp8_dense_flops) == (h100.bf16_dense_flops,
                                                             h100.fp8_dense_flops)
    assert h200.intra_node_link == "nvlink4"


def test_b200_per_gpu_from_the_eight_gpu_board():
    gpu = get_gpu("b200")
    assert gpu.memory_bytes == 180 * 10**9  # 1,440 GB / 8
    # board, with sparsity: bf16 36 PFLOPS, fp8 72 PFLOPS; per GPU dense: / 8 / 2
    assert gpu.bf16_dense_flops == 2.25e15
    assert gpu.fp8_dense_flops == 4.5e15
    assert gpu.hbm_bandwidth == 8e12  # 64 TB/s / 8
    assert "sparsity" in gpu.source and "dense" in gpu.source
    assert gpu.intra_node_link == "nvlink5"


def test_mi300x_dense_figures():
    gpu = get_gpu("mi300x")
    assert gpu.memory_bytes == 192 * 10**9
    assert gpu.bf16_dense_flops == 1307.4e12
    # AMD's own figure: about twice bf16 (2 x 1307.4 = 2614.8; AMD rounds each separately)
    assert gpu.fp8_dense_flops == 2614.9e12
    assert gpu.fp8_dense_flops / gpu.bf16_dense_flops == pytest.approx(2, rel=1e-4)
    assert gpu.hbm_bandwidth == 5.3e12
    assert gpu.intra_node_link == "infinity-fabric"


def test_h800_is_an_h100_with_less_nvlink():
    h800, h100 = get_gpu("h800-sxm"), get_gpu("h100-sxm")
    for field in ("memory_bytes", "bf16_dense_flops", "fp8_dense_flops", "hbm_bandwidth"):
        assert getattr(h800, field) == getattr(h100, field)
    assert h800.intra_node.bandwidth == 400e9 / 2 < h100.intra_node.bandwidth == 900e9 / 2


@pytest.mark.parametrize("gpu", list(GPUS.values()), ids=list(GPUS))
def test_every_entry_is_sourced_and_its_link_resolves(gpu):
    assert gpu.source and gpu.date[:2] == "20"
    assert gpu.intra_node_link in INTERCONNECTS
    assert gpu.intra_node is INTERCONNECTS[gpu.intra_node_link]
    assert gpu.intra_node.scope == "node"
    assert gpu.gpus_per_node == 8


def test_catalog_keys_match():
    assert all(key == gpu.key for key, gpu in GPUS.items())


def test_unknown_gpu_lists_allowed():
    with pytest.raises(ValueError, match="allowed: h100-sxm, a100-80gb, h200-sxm, b200"):
        get_gpu("h100")


def _gpu(**changes):
    fields = dict(key="x", display_name="x", memory_bytes=1e9, bf16_dense_flops=1e12,
                  fp8_dense_flops=None, hbm_bandwidth=1e12, source="s", date="2024-01",
                  intra_node_link="nvlink4")
    return GPU(**(fields | changes))


@pytest.mark.parametrize(("changes", "message"), [
    ({"memory_bytes": 0}, "memory_bytes=0"),
    ({"fp8_dense_flops": -1.0}, "fp8_dense_flops=-1.0"),
    ({"fp32_flops": 0.0}, "fp32_flops=0.0 must be positive or None"),
    ({"intra_node_link": "nvlink9"}, "interconnect='nvlink9' is not known; allowed: nvlink4"),
    ({"gpus_per_node": 0}, "gpus_per_node=0 must be a positive integer"),
])
def test_gpu_validation(changes, message):
    with pytest.raises(ValueError, match=message):
        _gpu(**changes)
