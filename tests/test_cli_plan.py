"""`distlesson plan`: the planner on the command line."""

import time

import pytest

from distlesson.cli import main
from tests.cli_run import run_json

KEYS = {"dp", "tp", "pp", "cp", "chunks", "zero", "recompute", "schedule", "per_gpu_bytes",
        "fits", "step_time", "mfu", "hfu"}


def test_llama405_on_16k_gpus_answers_in_seconds(capsys):
    start = time.process_time()  # this process's CPU, whatever else the machine runs
    out = run_json(capsys, "plan", "--model", "llama3-405b", "--gpus", "16384", "--gpu",
                   "h100-sxm", "--seq", "8192", "--tokens-per-step", "16e6")
    assert time.process_time() - start < 10  # a bound, not a pinned value
    configs = out["configs"]
    assert len(configs) == 5 and out["evaluated"] > 100
    for config in configs:
        assert set(config) >= KEYS
        assert config["fits"] and config["per_gpu_bytes"] <= out["memory_limit_bytes"]
        assert config["dp"] * config["tp"] * config["pp"] * config["cp"] == 16384
    mfus = [c["mfu"] for c in configs]
    assert mfus == sorted(mfus, reverse=True)  # time per token ranks as MFU does
    assert configs[0]["tp"] in (2, 4, 8) and configs[0]["pp"] > 1
    assert set(out["rejected"]) >= {"tp_node", "memory"}


def test_small_model_on_one_node(capsys):
    out = run_json(capsys, "plan", "--model", "llama3-8b", "--gpus", "8", "--seq", "8192",
                   "--tokens-per-step", "1M", "--top", "3")
    assert len(out["configs"]) == 3
    best = out["configs"][0]
    assert (best["dp"], best["tp"], best["pp"]) == (8, 1, 1)
    assert sum(best["breakdown"].values()) == pytest.approx(best["step_time"], rel=1e-12)


def test_one_fixed_layout(capsys):
    out = run_json(capsys, "plan", "--model", "llama3-70b", "--gpus", "64", "--seq", "8192",
                   "--tokens-per-step", "2097152", "--tp", "4", "--pp", "2", "--zero", "1",
                   "--top", "200")
    assert {(c["dp"], c["tp"], c["pp"], c["cp"], c["zero"]) for c in out["configs"]} == {
        (8, 4, 2, 1, 1)}
    fits = [c["fits"] for c in out["configs"]]
    assert fits == sorted(fits, reverse=True) and not fits[-1]  # no recompute: too big


def test_text_explains_the_winner(capsys):
    assert main(["plan", "--model", "llama3-70b", "--gpus", "64", "--seq", "8192",
                 "--tokens-per-step", "4M"]) == 0
    text = capsys.readouterr().out
    assert "best:" in text and "runner-up" in text and "rejected:" in text
    assert text.count("\n") > 8


@pytest.mark.parametrize(("argv", "message"), [
    (["--params", "70B"], "one of the arguments --model --config --arch is required"),
    (["--model", "llama3-70b", "--tp", "3"], "tp=3 must divide gpus_per_node=8"),
    (["--model", "llama3-70b", "--tp", "8", "--dp", "4"], "= 32 != gpus 64"),
    (["--model", "llama3-70b", "--top", "0"], "--top='0' must be a positive integer"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["plan", "--gpus", "64", "--seq", "8192", "--tokens-per-step", "4M",
                 *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_planning_chapters_command_prints_its_table(capsys):
    """The command the planning chapter shows reproduces the chapter's 405B table."""
    import shlex

    from distlesson.pages import planning

    argv = shlex.split(planning.cli_command("405b"))[1:]
    out = run_json(capsys, *argv)
    result, _ = planning._plan("405b")
    for row, config in zip(out["configs"], result.configs, strict=False):
        assert (row["dp"], row["tp"], row["pp"], row["cp"], row["zero"], row["chunks"]) == (
            config.dp, config.tp, config.pp, config.cp, config.zero, config.chunks)
        assert row["mfu"] == pytest.approx(config.mfu, rel=1e-12)


def test_too_many_gpus_for_the_batch_says_so(capsys):
    status = main(["plan", "--model", "gpt2-small", "--gpus", "100000", "--seq", "1024",
                   "--tokens-per-step", "1e6"])
    out = capsys.readouterr().out
    assert status == 0 and "no config can make the batch" in out
