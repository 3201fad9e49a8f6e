"""`distlesson activations`: Korthikanti et al. 2022's per-layer bytes, on the command line."""


import pytest

from distlesson.cli import main
from tests.cli_run import run_json

# GPT-3 175B's shape (Korthikanti et al. 2022, Table 3): s = 2048, h = 12288, a = 96, L = 96.
GPT3 = ["--seq", "2048", "--batch", "1", "--hidden", "12288", "--heads", "96", "--layers", "96"]
SBH = 2048 * 1 * 12288  # s b h = 25,165,824
SCORES = 5 * 96 * 2048 // 12288  # 5 a s / h = 983,040 / 12,288 = 80 exactly


def _json(capsys, *argv):
    return run_json(capsys, "activations", *argv)


def test_equation_one_without_parallelism(capsys):
    out = _json(capsys, *GPT3)
    # eq. 1: s b h (34 + 5 a s / h) = 25,165,824 x (34 + 80) = 25,165,824 x 114
    assert out["bytes_per_layer"] == SBH * (34 + SCORES) == 2_868_903_936
    assert out["total_bytes"] == 96 * 2_868_903_936 == 275_414_777_856
    assert (out["seq"], out["batch"], out["hidden"], out["heads"], out["layers"]) == (
        2048, 1, 12288, 96, 96)
    assert (out["tp"], out["sp"], out["recompute"], out["model"]) == (1, False, "none", None)
    assert "Korthikanti et al. 2022" in out["formula"] and "eq. 1" in out["formula"]


def test_sequence_parallelism_divides_by_tp(capsys):
    out = _json(capsys, *GPT3, "--tp", "8", "--sp")
    # eq. 4: s b h / t (34 + 5 a s / h): every term divided by t = 8
    assert out["bytes_per_layer"] == 2_868_903_936 // 8 == 358_612_992
    assert out["total_bytes"] == 96 * 358_612_992
    assert "eq. 4" in out["formula"]


def test_tensor_parallelism_alone_keeps_ten_sbh(capsys):
    out = _json(capsys, *GPT3, "--tp", "8")
    # eq. 2: s b h (10 + 24/t + 5 a s / (h t)) = s b h (10 + 3 + 10) = 23 s b h
    assert out["bytes_per_layer"] == 23 * SBH == 578_813_952
    assert "eq. 2" in out["formula"]


@pytest.mark.parametrize(("extra", "expected"), [
    (["--recompute", "full"], 2 * SBH),  # only the layer's input, 2 s b h = 50,331,648
    (["--recompute", "full", "--tp", "8", "--sp"], 2 * SBH // 8),
    (["--recompute", "full", "--tp", "8"], 2 * SBH),  # without sp the input is replicated
    (["--recompute", "selective"], 34 * SBH),  # eq. 1 without the 5 a s / h term
    (["--recompute", "selective", "--tp", "8", "--sp"], 34 * SBH // 8),
])
def test_recomputation(capsys, extra, expected):
    out = _json(capsys, *GPT3, *extra)
    assert out["bytes_per_layer"] == expected
    assert out["total_bytes"] == 96 * expected
    assert "section 5" in out["formula"]


def test_model_defaults_to_seq_2048_batch_1(capsys):
    out = _json(capsys, "--model", "llama3-8b")
    # Llama 3 8B: h = 4096, a = 32, L = 32; 5 a s / h = 5 x 32 x 2048 / 4096 = 80
    assert (out["seq"], out["batch"], out["hidden"], out["heads"], out["layers"]) == (
        2048, 1, 4096, 32, 32)
    assert out["bytes_per_layer"] == 2048 * 4096 * (34 + 80) == 956_301_312
    assert out["total_bytes"] == 32 * 956_301_312


def test_model_with_seq_and_batch(capsys):
    out = _json(capsys, "--model", "llama3-70b", "--seq", "4096", "--batch", "2", "--tp", "8",
                "--sp", "--recompute", "selective")
    # 34 s b h / t = 34 x 4096 x 2 x 8192 / 8
    assert out["bytes_per_layer"] == 34 * 4096 * 2 * 8192 // 8 == 285_212_672
    assert out["total_bytes"] == 80 * 285_212_672


def test_text_output(capsys):
    assert main(["activations", *GPT3]) == 0
    text = capsys.readouterr().out
    assert "2.869 GB" in text and "275.415 GB" in text and "Korthikanti" in text


def test_listed_in_help(capsys):
    assert main(["--help"]) == 0
    assert "activations" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["--seq", "2048"],
     "give --model or all of --seq --batch --hidden --heads --layers; missing: --batch"),
    ([], "give --model or all of --seq --batch --hidden --heads --layers"),
    (["--model", "llama3-8b", "--hidden", "4096"],
     "--hidden: already set by the model (llama3-8b)"),
    ([*GPT3, "--tp", "5"], "--tp=5 must divide the number of heads, 96"),
    (["--seq", "2050", "--batch", "1", "--hidden", "12288", "--heads", "96", "--layers", "96",
      "--tp", "4", "--sp"], "--tp=4 must divide --seq=2050 with --sp"),
    (["--seq", "2048", "--batch", "1", "--hidden", "12288", "--heads", "7", "--layers", "2"],
     "--heads=7 must divide --hidden=12288"),
    ([*GPT3, "--recompute", "half"], "argument --recompute: invalid choice: 'half'"),
    (["--model", "llama3-8b", "--seq", "0"], "--seq='0' must be a positive integer"),
    (["--model", "gpt5"], "argument --model: invalid choice: 'gpt5'"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["activations", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_layer_actually_trained_beside_the_formula(capsys):
    out = run_json(capsys, "activations", "--model", "llama3-8b", "--seq", "4096")
    h, kv, a, f = 4096, 1024, 32, 14336  # Llama 3 8B: 12h + 4kv + 4a + 6f + 8 bytes a token
    assert out["layer_trained_bytes_per_layer"] == 4096 * (12 * h + 4 * kv + 4 * a + 6 * f + 8)
    assert out["layer_trained_bytes_per_layer"] < out["bytes_per_layer"]  # no s x s scores
