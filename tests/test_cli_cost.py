"""`distlesson cost`: GPU-hours and dollars, each expected value derived by hand."""

import pytest

from distlesson.catalog.moe import get_moe_model
from distlesson.cli import main
from tests.cli_run import run, run_json

N405 = 405_853_388_800


def test_deepseek_v3_from_gpu_hours(capsys):
    out = run_json(capsys, "cost", "--gpu-hours", "2.788M", "--price", "2")
    assert out["cost_usd"] == 5_576_000 and out["gpu_hours"] == 2_788_000
    assert out["flops"] is None  # no --mfu: the work is not known


def test_gpu_hours_with_mfu_gives_the_work(capsys):
    out = run_json(capsys, "cost", "--gpu-hours", "1000", "--price", "3.5", "--mfu", "0.5")
    assert out["flops"] == 1000 * 3600 * 0.5 * 989e12
    assert out["cost_usd"] == 3500


def test_llama3_405b_from_flops(capsys):
    out = run_json(capsys, "cost", "--model", "llama3-405b", "--tokens", "15.6T",
                   "--mfu", "0.4")
    flops = 6 * N405 * 15.6e12
    assert out["flops"] == pytest.approx(flops, rel=1e-15)
    hours = flops / (0.4 * 989e12) / 3600  # 26.67M GPU-hours
    assert out["gpu_hours"] == pytest.approx(hours, rel=1e-12)
    assert out["price_per_hour"] == 3.5  # the lesson's H100 price by default
    assert "not a market quote" in out["price_source"]
    assert out["cost_usd"] == pytest.approx(hours * 3.5, rel=1e-12)  # $93.4M


def test_params_and_a100_price(capsys):
    out = run_json(capsys, "cost", "--params", "7B", "--tokens", "1T", "--mfu", "0.5",
                   "--gpu", "a100-80gb")
    hours = 6 * 7e9 * 1e12 / (0.5 * 312e12) / 3600  # 74,786 GPU-hours
    assert out["gpu_hours"] == pytest.approx(hours, rel=1e-12)
    assert out["cost_usd"] == pytest.approx(2 * hours, rel=1e-12)


def test_moe_counts_active_parameters(capsys):
    out = run_json(capsys, "cost", "--model", "deepseek-v3", "--tokens", "14.8T",
                   "--mfu", "0.3", "--gpu", "h800-sxm", "--price", "2")
    assert out["flops"] == pytest.approx(6 * get_moe_model("deepseek-v3").active_params
                                         * 14.8e12, rel=1e-15)


def test_seq_uses_the_full_matmul_count(capsys):
    plain = run_json(capsys, "cost", "--model", "llama3-8b", "--tokens", "1T", "--mfu", "0.4")
    full = run_json(capsys, "cost", "--model", "llama3-8b", "--tokens", "1T", "--mfu", "0.4",
                    "--seq", "8192")
    assert full["flops"] > plain["flops"]  # attention adds 12 l s h per token
    assert "Korthikanti" in full["formula"] and "Kaplan" in plain["formula"]


def test_text_output(capsys):
    status, out, _ = run(capsys, "cost", "--gpu-hours", "30.84M", "--price", "3.5")
    assert status == 0 and "$107,940,000" in out


@pytest.mark.parametrize(("argv", "message"), [
    ([], "give --gpu-hours, or --params/--model"),
    (["--params", "7B", "--tokens", "1T"], "missing: --mfu"),
    (["--params", "7B", "--mfu", "0.4"], "missing: --tokens"),
    (["--gpu-hours", "1M", "--params", "7B"], "not allowed with argument --gpu-hours"),
    (["--gpu-hours", "1M", "--tokens", "1T", "--price", "2"], "--tokens: not used with"),
    (["--gpu-hours", "1M", "--gpu", "b200"], "no assumed price for --gpu=b200"),
    (["--params", "7B", "--tokens", "1T", "--mfu", "1.5"], "--mfu='1.5' must be in (0, 1]"),
    (["--gpu-hours", "-3", "--price", "2"], "--gpu-hours='-3' is not a quantity"),
    (["--gpu-hours", "0", "--price", "2"], "--gpu-hours='0' must be positive"),
    (["--params", "7B", "--tokens", "1T", "--mfu", "0.4", "--seq", "2048"], "--seq: needs"),
    (["--model", "deepseek-v3", "--tokens", "1T", "--mfu", "0.4", "--seq", "2048"],
     "--seq: only with a dense --model"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["cost", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""
