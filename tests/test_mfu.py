"""MFU and HFU: the FLOP counts against hand derivations, and the two definitions."""

from fractions import Fraction

import pytest

from distlesson.catalog.models import get_model
from distlesson.efficiency.flops import matmul_params
from distlesson.efficiency.mfu import (
    hfu,
    ideal_step_time,
    mfu,
    model_flops_per_token,
    recompute_flops_per_token,
    six_n_flops_per_token,
    step_flops,
)

H100 = 989e12


@pytest.fixture(scope="module")
def arch():
    return get_model("llama3-8b")


def test_six_n(arch):
    assert six_n_flops_per_token(1000) == 6000
    assert model_flops_per_token(arch, seq_len=8192, count="6n") == 6 * arch.num_params


def test_narayanan_count_by_hand(arch):
    # Llama 3 8B: per layer q, o (h x h), k, v (1024 x h), gate, up, down (h x f); + head
    h, f, layers, s, vocab = 4096, 14336, 32, 8192, 128256
    per_layer = 2 * h * h + 2 * 1024 * h + 3 * h * f
    weights = layers * per_layer + vocab * h
    assert matmul_params(arch) == weights
    expected = 6 * weights + 12 * layers * s * h
    assert model_flops_per_token(arch, seq_len=s) == expected


def test_full_recompute_is_one_forward_of_the_layers(arch):
    h, f, layers, s = 4096, 14336, 32, 8192
    per_layer = 2 * h * h + 2 * 1024 * h + 3 * h * f
    # forward: 2 FLOPs per weight and 4 s h for the scores; the head is not recomputed
    assert recompute_flops_per_token(arch, seq_len=s, recompute="full") == layers * (
        2 * per_layer + 4 * s * h)
    assert recompute_flops_per_token(arch, seq_len=s, recompute="selective") == 4 * layers * s * h
    assert recompute_flops_per_token(arch, seq_len=s, recompute="none") == 0


def test_six_n_with_full_recompute_is_eight_n(arch):
    flops = step_flops(arch, seq_len=4096, tokens_per_step=10, recompute="full", count="6n")
    assert flops.model == 60 * arch.num_params
    assert flops.hardware == 80 * arch.num_params  # 8 N per token
    selective = step_flops(arch, seq_len=4096, tokens_per_step=10, recompute="selective",
                           count="6n")
    assert selective.recompute == 0  # 6N has no attention scores to recompute


def test_step_flops_are_exact(arch):
    flops = step_flops(arch, seq_len=8192, tokens_per_step=16e6)
    assert flops.model == Fraction(model_flops_per_token(arch, seq_len=8192)) * 16_000_000
    assert flops.recompute == 0 and flops.hardware == flops.model


def test_mfu_by_hand():
    # the Catalan chapter's arithmetic: 6 x 405e9 x 16e6 FLOPs in 13.33 s on 16,384 H100s
    flops = 6 * 405e9 * 16e6
    assert ideal_step_time(flops, gpus=16384, peak_flops=H100) == pytest.approx(2.3994, abs=1e-4)
    assert mfu(flops, step_time=13.33, gpus=16384, peak_flops=H100) == pytest.approx(
        flops / (13.33 * 16384 * H100))
    assert mfu(flops, step_time=13.33, gpus=16384, peak_flops=H100) == pytest.approx(0.180,
                                                                                      abs=1e-3)


def test_recomputation_raises_hfu_not_mfu(arch):
    flops = step_flops(arch, seq_len=8192, tokens_per_step=1e6, recompute="full")
    step = 10.0
    model = mfu(flops.model, step_time=step, gpus=8, peak_flops=H100)
    hardware = hfu(flops.hardware, step_time=step, gpus=8, peak_flops=H100)
    assert hardware > model
    assert hardware / model == pytest.approx(float(flops.hardware / flops.model))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: mfu(1.0, step_time=0, gpus=1, peak_flops=1.0),
     "step_time=0 must be a finite number > 0"),
    (lambda: ideal_step_time(1.0, gpus=0, peak_flops=1.0), "gpus=0 must be a finite number > 0"),
    (lambda: six_n_flops_per_token(0), "params=0 must be a positive integer"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_unknown_count_and_recompute(arch):
    with pytest.raises(ValueError, match="count='7n' is not known"):
        model_flops_per_token(arch, seq_len=8, count="7n")
    with pytest.raises(ValueError, match="recompute='half' is not known"):
        recompute_flops_per_token(arch, seq_len=8, recompute="half")
    with pytest.raises(ValueError, match="tokens_per_step=0 must be positive"):
        step_flops(arch, seq_len=8, tokens_per_step=0)


def test_bare_parameter_count_allows_only_six_n():
    assert model_flops_per_token(7_000_000_000, seq_len=4096, count="6n") == 42_000_000_000
    assert recompute_flops_per_token(10, seq_len=1, recompute="full", count="6n") == 20
    with pytest.raises(ValueError, match="needs an architecture's shapes"):
        model_flops_per_token(7_000_000_000, seq_len=4096)
