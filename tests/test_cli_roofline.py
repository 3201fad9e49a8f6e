"""`distlesson roofline`: the ridge point and the chapter's matmuls, by hand."""

from fractions import Fraction

import pytest

from distlesson.cli import main
from tests.cli_run import run, run_json

H = 8192


def test_h100_defaults_are_the_chapters_points(capsys):
    out = run_json(capsys, "roofline", "--gpu", "h100-sxm")
    assert out["ridge"] == pytest.approx(989e12 / 3.35e12, rel=1e-15)  # 295.2
    assert out["peak_flops"] == 989 * 10**12 and out["bandwidth"] == 3_350_000_000_000
    assert out["decode_batch_at_ridge"] == 319  # R h / (h - 2R) = 318.2, rounded up
    points = {p["name"]: p for p in out["points"]}
    assert list(points) == ["decode_b1", "decode_b64", "training"]
    b1 = points["decode_b1"]
    assert (b1["m"], b1["k"], b1["n"]) == (1, H, H)
    assert b1["intensity"] == pytest.approx(H / (H + 2), rel=1e-15)  # 0.99976
    assert b1["attainable_flops"] == pytest.approx(H / (H + 2) * 3.35e12, rel=1e-15)
    assert b1["bound"] == "memory"
    assert points["decode_b64"]["intensity"] == pytest.approx(64 * H / (H + 128), rel=1e-15)
    training = points["training"]
    assert (training["m"], training["n"]) == (8192, 4 * H)
    assert training["intensity"] == pytest.approx(4 * H / 9, rel=1e-15)  # 3,640.9
    assert training["share_of_peak"] == 1 and training["bound"] == "compute"


def test_batches_hidden_and_precision(capsys):
    out = run_json(capsys, "roofline", "--gpu", "b200", "--batch", "512", "--hidden", "4096",
                   "--precision", "fp8")
    assert out["ridge"] == 4.5e15 / 8e12  # 562.5
    decode = out["points"][0]
    # one byte per value: 2 B h / (h + 2 B) = 2 x 512 x 4096 / 5120 = 819.2
    assert decode["intensity"] == pytest.approx(819.2, rel=1e-15)
    assert decode["bound"] == "compute"
    # B >= R h / (2 (h - R)) = 562.5 x 4096 / 7067 = 326.03 -> 327
    assert out["decode_batch_at_ridge"] == 327
    assert Fraction(2 * 327 * 4096, 4096 + 2 * 327) >= Fraction(5625, 10)


def test_narrow_matrix_has_no_batch_at_ridge(capsys):
    out = run_json(capsys, "roofline", "--gpu", "h100-sxm", "--hidden", "512")
    assert out["decode_batch_at_ridge"] is None


def test_text_output(capsys):
    status, out, _ = run(capsys, "roofline", "--gpu", "h100-sxm")
    assert status == 0
    assert "295.2 FLOP/byte" in out and "decode_b64" in out and "319" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--gpu", "a100-80gb", "--precision", "fp8"], "a100-80gb has no fp8"),
    (["--gpu", "tpu"], "argument --gpu: invalid choice: 'tpu'"),
    (["--batch", "0"], "--batch='0' must be a positive integer"),
    (["--hidden", "x"], "--hidden='x' must be a positive integer"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["roofline", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""
