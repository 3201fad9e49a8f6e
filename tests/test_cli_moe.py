"""`distlesson moe`: parameters, experts per GPU, all-to-all bytes and memory, by hand."""

import pytest

from tests.cli_run import run, run_json

# DeepSeek-V3 (tests/test_moe.py derives the counts from config.json)
V3_TOTAL, V3_ACTIVE = 671_026_419_200, 36_625_618_432
EXPERT = 3 * 7168 * 2048
MOE_DENSE = 187_107_328 + 2 * 7168 + 256 * 7168 + 256 + EXPERT  # MLA, norms, router, shared


def test_deepseek_v3_at_its_published_layout(capsys):
    out = run_json(capsys, "moe", "--model", "deepseek-v3", "--ep", "64")
    assert out["total_params"] == V3_TOTAL and out["active_params"] == V3_ACTIVE
    assert out["experts_per_gpu"] == 256 // 64
    # one GPU, one MoE layer, one micro-batch of 4096 tokens, forward: 4096 x 8 x 7168 token
    # values, 63/64 of them to other GPUs (231,211,008); dispatch in fp8 with a fp32 scale
    # per 128 values (x 1.03125 = 238,436,352 bytes), combine in bf16 (x 2 = 462,422,016)
    assert out["all_to_all_bytes"] == 238_436_352 + 462_422_016 == 700_858_368
    assert out["layout"] == {"dp": 128, "tp": 1, "pp": 16, "ep": 64, "zero": 1,
                             "dualpipe": True}
    # busiest GPU: DualPipe rank 1 (stages 1 and 14, eight MoE layers); 14 B/param,
    # ZeRO-1 shards master and moments (8 B) over dp 128 (dense) and 2 (each expert's copies)
    dense, experts = 8 * MOE_DENSE, 8 * 4 * EXPERT
    states = dense * (6 + 8 / 128) + experts * (6 + 8 / 2)
    floor = 17 * 8 * 4096 * 7168 * 2  # layer inputs of pp + 1 micro-batches
    assert out["per_gpu_bytes"] == pytest.approx(states + floor, rel=1e-12)
    assert out["fits"] is True and out["gpu"] == "h800-sxm"
    assert out["all_to_all_time_s"] > 0


def test_mixtral_and_the_capacity_factor(capsys):
    out = run_json(capsys, "moe", "--model", "mixtral-8x7b", "--ep", "8")
    assert out["total_params"] == 46_702_792_704
    assert out["active_params_with_embedding"] == 12_879_925_248  # Mistral's "12.9B"
    assert out["experts_per_gpu"] == 1
    # bf16 both ways: 4096 x 2 x 4096 x 7/8 x (2 + 2) = 117,440,512
    assert out["all_to_all_bytes"] == 117_440_512
    padded = run_json(capsys, "moe", "--model", "mixtral-8x7b", "--ep", "8",
                      "--capacity-factor", "1.25")
    assert padded["all_to_all_bytes"] == 117_440_512 * 1.25
    assert padded["capacity_factor"] == 1.25
    one = run_json(capsys, "moe", "--model", "mixtral-8x7b", "--ep", "1")
    assert one["all_to_all_bytes"] == 0 and one["experts_per_gpu"] == 8


def test_the_table_names_the_figures(capsys):
    status, out, _ = run(capsys, "moe", "--model", "deepseek-v3", "--ep", "64")
    assert status == 0
    assert "700.9 MB per GPU per MoE layer per micro-batch" in out
    assert "fits" in out and "DualPipe" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--model", "gpt-4", "--ep", "8"], "--model: invalid choice: 'gpt-4'"),
    (["--model", "deepseek-v3", "--ep", "3"],
     "--ep=3 must divide the 256 routed experts of deepseek-v3; allowed: a divisor of 256"),
    (["--model", "mixtral-8x7b", "--ep", "16"], "allowed: a divisor of 8"),
    (["--model", "mixtral-8x7b", "--ep", "8", "--capacity-factor", "0"],
     "--capacity-factor='0' must be a number above 0"),
    (["--model", "mixtral-8x7b", "--ep", "8", "--capacity-factor", "-1"],
     "--capacity-factor='-1' must be a number above 0"),
    (["--model", "mixtral-8x7b", "--ep", "8", "--capacity-factor", "nan"],
     "allowed: up to 1,000"),
    (["--model", "mixtral-8x7b", "--ep", "0"], "--ep='0' must be a positive integer"),
])
def test_bad_input_gets_one_line(capsys, argv, message):
    status, out, err = run(capsys, "moe", *argv)
    assert status == 2 and not out
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
