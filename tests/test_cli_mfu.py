"""`distlesson mfu`: MFU of a measured step, by hand."""

import pytest

from distlesson.catalog.models import get_model
from distlesson.cli import main
from distlesson.efficiency.flops import training_flops_per_token
from tests.cli_run import run_json

H100 = 989e12


def test_six_n_by_hand(capsys):
    out = run_json(capsys, "mfu", "--params", "405B", "--tokens-per-step", "16M", "--gpus",
                   "16384", "--step-time", "13.33")
    flops = 6 * 405e9 * 16e6  # the Catalan chapter's 3.89e19
    assert out["model_flops"] == pytest.approx(flops, rel=1e-15)
    assert out["ideal_step_time"] == pytest.approx(flops / (16384 * H100), rel=1e-12)
    assert out["mfu"] == pytest.approx(flops / (13.33 * 16384 * H100), rel=1e-12)
    assert round(out["mfu"], 3) == 0.180
    assert out["count"] == "6n" and out["hfu"] == out["mfu"]


def test_model_with_seq_counts_attention(capsys):
    out = run_json(capsys, "mfu", "--model", "llama3-8b", "--tokens-per-step", "1048576",
                   "--gpus", "8", "--step-time", "30", "--seq", "8192", "--recompute", "full")
    per_token = training_flops_per_token(get_model("llama3-8b"), seq_len=8192)
    assert out["model_flops"] == per_token * 1048576
    assert out["mfu"] == pytest.approx(per_token * 1048576 / (30 * 8 * H100), rel=1e-12)
    assert out["hardware_flops"] > out["model_flops"] and out["hfu"] > out["mfu"]


def test_params_with_full_recompute_is_eight_n(capsys):
    out = run_json(capsys, "mfu", "--params", "1e9", "--tokens-per-step", "1e6", "--gpus", "1",
                   "--step-time", "20", "--recompute", "full")
    assert out["hardware_flops"] == pytest.approx(8e15) and out["model_flops"] == 6e15


def test_text_output(capsys):
    assert main(["mfu", "--model", "llama3-70b", "--tokens-per-step", "4M", "--gpus", "64",
                 "--step-time", "30"]) == 0
    text = capsys.readouterr().out
    assert "MFU:" in text and "6N per token" in text


@pytest.mark.parametrize(("argv", "message"), [
    (["--params", "7B", "--tokens-per-step", "0", "--gpus", "8", "--step-time", "1"],
     "--tokens-per-step='0' must be positive"),
    (["--params", "7B", "--tokens-per-step", "1e6", "--gpus", "8", "--step-time", "fast"],
     "--step-time='fast' is not a quantity"),
    (["--params", "7B", "--tokens-per-step", "1e6", "--gpus", "0", "--step-time", "1"],
     "--gpus='0' must be a positive integer"),
    (["--params", "7B", "--tokens-per-step", "1e6", "--gpus", "8", "--step-time", "1",
      "--recompute", "selective"], "--recompute selective needs --model and --seq"),
    (["--tokens-per-step", "1e6", "--gpus", "8", "--step-time", "1"],
     "one of the arguments --params --model --config --arch is required"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["mfu", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_step_faster_than_the_peak_is_refused(capsys):
    # 6 x 7e9 x 4e6 = 1.68e17 FLOPs on 8 GPUs at 989 TFLOP/s take 21.2 s at the least
    assert main(["mfu", "--params", "7e9", "--tokens-per-step", "4e6", "--gpus", "8",
                 "--step-time", "10"]) == 2
    err = capsys.readouterr().err
    assert "step_time=10.0 s is shorter than the 21.23 s" in err and "above 1" in err
