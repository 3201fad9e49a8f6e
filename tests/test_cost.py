"""Training cost: FLOPs -> GPU-hours -> dollars, and the two published runs, by hand."""

import pytest

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.catalog.moe import get_moe_model
from distlesson.efficiency.cost import (
    PRICES,
    REPORTED,
    cost_usd,
    deepseek_v3_cost_usd,
    get_price,
    get_reported_run,
    gpu_hours,
    implied_mfu,
    llama3_405b_cost,
    run_cost,
    training_flops,
)
from distlesson.efficiency.flops import training_flops_per_token

N405 = 405_853_388_800


def test_six_n_t():
    assert training_flops(7e9, 1e12) == 6 * 7e9 * 1e12
    # Llama 3 405B: 6 x 405.85e9 x 15.6e12 = 3.7988e25, the paper's "3.8 x 10^25" to 0.04 %
    six_n_t = training_flops(get_model("llama3-405b"), 15.6e12)
    assert six_n_t == 6 * N405 * 15.6e12
    assert six_n_t == pytest.approx(3.8e25, rel=5e-4)


def test_narayanan_count_with_seq_len():
    arch = get_model("llama3-8b")
    expected = training_flops_per_token(arch, seq_len=8192) * 1e9
    assert training_flops(arch, 1e9, seq_len=8192) == expected
    assert expected > 6 * arch.num_params * 1e9 * 0.9  # the same order as 6 N T


def test_moe_counts_active_parameters():
    v3 = get_moe_model("deepseek-v3")
    assert training_flops(v3, 14.8e12) == 6 * v3.active_params * 14.8e12


def test_gpu_hours_and_dollars_by_hand():
    # 1e24 FLOPs on H100s at 40 % of 989 TFLOP/s: 1e24 / 395.6e12 / 3600 = 702,168.3 hours
    hours = gpu_hours(1e24, gpu="h100-sxm", mfu=0.4)
    assert hours == pytest.approx(1e24 / (0.4 * 989e12) / 3600, rel=1e-15)
    assert round(hours) == 702_168
    assert cost_usd(hours, 3.5) == pytest.approx(hours * 3.5, rel=1e-15)
    assert implied_mfu(1e24, hours, gpu="h100-sxm") == pytest.approx(0.4, rel=1e-12)
    assert gpu_hours(1e24, gpu=get_gpu("h100-sxm"), mfu=0.4) == hours  # an entry works too


def test_prices_are_the_lessons_assumptions():
    assert get_price("a100-80gb").usd_per_hour == 2.0
    assert get_price("h100-sxm").usd_per_hour == 3.5
    for price in PRICES.values():
        assert "assumption" in price.source and "not a market quote" in price.source


def test_every_reported_run_has_a_source():
    for run in REPORTED.values():
        assert run.source and run.gpu_hours > 0 and run.tokens > 0


def test_deepseek_v3_dollars_reproduce_the_report():
    # Table 1: 2,788K H800 GPU-hours x $2 = $5.576M (the lesson's "~$5.6M")
    assert deepseek_v3_cost_usd() == pytest.approx(2.788e6 * 2, rel=1e-15) == 5.576e6
    assert get_reported_run("deepseek-v3").gpu == "h800-sxm"


def test_deepseek_v3_implied_mfu_is_bf16_equivalent():
    result = run_cost("deepseek-v3")
    v3 = get_moe_model("deepseek-v3")
    flops = 6 * v3.active_params * 14.8e12
    assert result.flops == flops
    # Table 1: pre-training alone took 2,664K of the 2,788K GPU-hours (the technical audit's
    # item 14: the pre-training FLOPs over all hours understate the MFU)
    assert result.implied_mfu == pytest.approx(flops / (2.664e6 * 3600 * 989e12), rel=1e-12)
    assert result.estimated_gpu_hours is None and result.estimated_cost_usd is None


def test_llama3_405b_by_hand():
    result = llama3_405b_cost()
    assert result.usd_per_gpu_hour == 3.5  # the lesson's H100 price
    # the model card's 30.84M GPU-hours x $3.50 = $107.94M
    assert result.reported_cost_usd == pytest.approx(30.84e6 * 3.5, rel=1e-15)
    # implied MFU: 3.8e25 / (30.84e6 x 3600 x 989e12) = 34.6 %
    assert result.implied_mfu == pytest.approx(3.8e25 / (30.84e6 * 3600 * 989e12), rel=1e-12)
    assert round(result.implied_mfu, 3) == 0.346
    # from the FLOPs at the paper's 43 % and 38 % MFU: 24.8M and 28.1M GPU-hours
    fast, slow = result.estimated_gpu_hours
    assert fast == pytest.approx(3.8e25 / (0.43 * 989e12) / 3600, rel=1e-12)
    assert slow == pytest.approx(3.8e25 / (0.38 * 989e12) / 3600, rel=1e-12)
    assert (round(fast / 1e5), round(slow / 1e5)) == (248, 281)
    cheap, dear = result.estimated_cost_usd
    assert (round(cheap / 1e6, 1), round(dear / 1e6, 1)) == (86.9, 98.3)
    assert slow < result.run.gpu_hours  # the card's hours exceed even the slowest estimate


def test_a_given_price_overrides():
    assert run_cost("deepseek-v3", price_per_hour=3.5).reported_cost_usd == 2.788e6 * 3.5


@pytest.mark.parametrize(("call", "message"), [
    (lambda: gpu_hours(1e24, gpu="h100-sxm", mfu=0), r"mfu=0 must be in \(0, 1\]"),
    (lambda: gpu_hours(1e24, gpu="h100-sxm", mfu=1.5), r"mfu=1.5 must be in \(0, 1\]"),
    (lambda: gpu_hours(0, gpu="h100-sxm", mfu=0.4), "flops=0 must be positive"),
    (lambda: gpu_hours(1e24, gpu="tpu", mfu=0.4), "gpu='tpu' is not known"),
    (lambda: cost_usd(-1, 2), "gpu_hours=-1 must be >= 0"),
    (lambda: training_flops(0, 1e12), "params=0 must be a positive number"),
    (lambda: training_flops(7e9, 0), "tokens=0 must be positive"),
    (lambda: training_flops(7e9, 1e12, seq_len=2048), "seq_len=2048 needs a dense"),
    (lambda: get_price("b200"), "price for gpu='b200' is not known; allowed: a100-80gb"),
    (lambda: get_reported_run("gpt4"), "reported run='gpt4' is not known"),
])
def test_errors_name_the_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()
