"""Kernel times by shape: wave quantization, the memory-bound limit, attention kinds."""

import math

import pytest

from distlesson.catalog.models import get_model
from distlesson.efficiency.kernels import gemm_time, head_times, layer_times, wave_efficiency

H100_PEAK, H100_HBM = 989e12, 3.35e12


def test_wave_efficiency_by_hand():
    # 256 x 128 tiles on 132 SMs: (8192, 2304) -> 32 x 18 = 576 tiles, 5 waves of 132
    assert wave_efficiency(8192, 2304, "h100-sxm") == pytest.approx(576 / (5 * 132))
    # exactly one full wave
    assert wave_efficiency(256 * 12, 128 * 11, "h100-sxm") == 1.0
    # one tile: one SM of 132 busy
    assert wave_efficiency(16, 16, "h100-sxm") == pytest.approx(1 / 132)


def test_compute_bound_product_by_hand():
    m = n = k = 256 * 132  # a full wave of tiles along m, many along n
    expected = 2 * m * n * k / (H100_PEAK * 0.5 * wave_efficiency(m, n, "h100-sxm"))
    assert gemm_time(m, n, k, "h100-sxm", 0.5) == pytest.approx(expected)


def test_memory_bound_product_by_hand():
    # a matrix-vector product: 2 (m k + k n + m n) bytes dominate 2 m n k FLOPs
    m, n, k = 1, 16384, 16384
    moved = 2 * (m * k + k * n + m * n)
    assert gemm_time(m, n, k, "h100-sxm", 0.5) == pytest.approx(moved / H100_HBM)


def test_smaller_shards_lose_efficiency():
    arch = get_model("llama3-8b")
    shape = dict(seq_len=4096, micro_batch=1, gpu="h100-sxm", eta=0.6)
    one, eight = (layer_times(arch, tp=t, cp=1, **shape) for t in (1, 8))
    assert eight.matmul_forward > one.matmul_forward / 8  # never better than a clean split


def test_layer_times_split_forward_and_backward():
    lt = layer_times(get_model("llama3-70b"), seq_len=8192, micro_batch=1, tp=8, cp=1,
                     gpu="h100-sxm", eta=0.6)
    assert lt.forward > lt.matmul_forward + lt.attention_forward  # plus memory-bound work
    assert 1.9 * lt.forward < lt.backward < 3 * lt.forward
    assert lt.weight_grads < lt.backward


def test_flash_attention_is_causal_and_runs_at_its_efficiency():
    arch, s = get_model("llama3-8b"), 8192
    lt = layer_times(arch, seq_len=s, micro_batch=1, tp=1, cp=1, gpu="h100-sxm", eta=0.6)
    flops = 4 * s * (s / 2) * arch.hidden_size  # forward: QK^T and AV over half the keys
    assert lt.attention_forward == pytest.approx(flops / (H100_PEAK * 0.5))


def test_unfused_attention_is_slower_than_flash():
    shape = dict(seq_len=2048, micro_batch=1, tp=8, cp=1, gpu="a100-80gb", eta=0.8)
    arch = get_model("gpt3-175b")
    flash = layer_times(arch, **shape, attention="flash").attention_forward
    unfused = layer_times(arch, **shape, attention="unfused").attention_forward
    assert unfused > flash
    with pytest.raises(ValueError, match="attention='sdpa' is not known"):
        layer_times(arch, **shape, attention="sdpa")


def test_head_costs_about_a_layers_worth_for_llama3_405b():
    arch = get_model("llama3-405b")
    shape = dict(seq_len=8192, micro_batch=1, tp=8, cp=1, gpu="h100-sxm", eta=0.6)
    forward, backward = head_times(arch, **shape)
    lt = layer_times(arch, **shape)
    # 2 h V / (2 x 3.19e9 layer weights) ~ 0.66 of a layer's matrix products
    assert 0.4 < (forward + backward) / (lt.forward + lt.backward) < 1.0
    assert math.isfinite(forward) and backward > forward


def test_without_sequence_parallelism_every_rank_runs_the_norms_and_adds():
    """GPT-3 175B at tp 8, without sequence parallelism: the norms (read and write h) and
    residual adds (read 2h, write h) run on the whole activation, 10 h bf16 values per
    token and layer, instead of their eighth; the MLP's activation is split either way."""
    arch = get_model("gpt3-175b")
    shape = dict(seq_len=2048, micro_batch=1, tp=8, cp=1, gpu="a100-80gb", eta=0.8)
    split = layer_times(arch, **shape)
    whole = layer_times(arch, **shape, sequence_parallel=False)
    extra = 2 * 2048 * 10 * arch.hidden_size * (1 - 1 / 8) / 2.039e12  # bytes / HBM
    assert whole.forward - split.forward == pytest.approx(extra, rel=1e-9)
    assert whole.backward - split.backward == pytest.approx(2 * extra, rel=1e-9)
    assert whole.matmul_forward == split.matmul_forward
    one = dict(shape, tp=1)
    assert layer_times(arch, **one) == layer_times(arch, **one, sequence_parallel=False)
