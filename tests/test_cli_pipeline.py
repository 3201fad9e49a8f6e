"""The ``distlesson pipeline`` subcommand, in-process through main()."""


import pytest

from tests import cli_run


def run(capsys, *argv):
    return cli_run.run(capsys, "pipeline", *argv)


def run_json(capsys, *argv):
    return cli_run.run_json(capsys, "pipeline", *argv)


def test_one_f_one_b_p4_m8(capsys):
    # (m + p - 1)(fwd + bwd) = 11 x 3 = 33; idle 33 - 24 = 9 per stage; 9/33 = 3/11
    result = run_json(capsys, "--stages", "4", "--microbatches", "8", "--schedule", "1f1b")
    assert result["bubble_fraction_exact"] == "3/11"
    assert result["bubble_fraction"] == pytest.approx(3 / 11)
    assert result["makespan"] == 33
    assert result["peak_activations"] == [4, 3, 2, 1]
    assert result["idle"] == [9, 9, 9, 9] and result["busy"] == [24, 24, 24, 24]
    assert result["bubble_over_ideal"] == pytest.approx(3 / 8)
    assert (result["schedule"], result["stages"], result["microbatches"], result["chunks"]) \
        == ("1f1b", 4, 8, 1)
    assert result["durations"] == {"fwd": 1, "bwd": 2, "wgrad": 1}


def test_table(capsys):
    status, out, _ = run(capsys, "--stages", "4", "--microbatches", "8")
    assert status == 0
    assert "bubble 3/11 = 27.3% of the stage-time" in out and "makespan 33" in out
    assert out.splitlines()[3].split() == ["stage", "busy", "idle", "peak", "activations"]
    assert out.splitlines()[4].split() == ["1", "24", "9", "4"]


def test_fractions_and_interleaving(capsys):
    # interleaved, v = 2: bubble (p - 1)(fwd + bwd) / v = 3 x 2 / 2 = 3 after
    # m (fwd + bwd) = 16 of work: makespan 19, share 3/19; stage 0 holds 11/2
    result = run_json(capsys, "--stages", "4", "--microbatches", "8", "--schedule",
                      "interleaved", "--chunks", "2", "--fwd", "1/2", "--bwd", "1.5")
    assert result["makespan"] == 19 and result["bubble_fraction_exact"] == "3/19"
    assert result["peak_activations"][0] == 5.5
    assert result["durations"] == {"fwd": 0.5, "bwd": 1.5, "wgrad": 0.75}  # wgrad: bwd / 2


def test_zb_h1(capsys):
    # F = B = W = 1: bubble (p - 1)(1 + 1 - 1) = 3, makespan 8 x 3 + 3 = 27
    result = run_json(capsys, "--stages", "4", "--microbatches", "8", "--schedule", "zb-h1")
    assert result["makespan"] == 27 and result["bubble_fraction_exact"] == "1/9"


@pytest.mark.parametrize(("argv", "message"), [
    (["--stages", "0", "--microbatches", "8"],
     "argument --stages: --stages='0' must be a positive integer"),
    (["--stages", "4", "--microbatches", "8", "--schedule", "pipedream"],
     "argument --schedule: invalid choice: 'pipedream'"),
    (["--stages", "4", "--microbatches", "6", "--schedule", "interleaved", "--chunks", "2"],
     "--microbatches=6 must be a multiple of --stages=4 with --schedule interleaved"),
    (["--stages", "4", "--microbatches", "8", "--chunks", "2"],
     "--chunks=2 is allowed only with --schedule interleaved"),
    (["--stages", "4", "--microbatches", "8", "--schedule", "interleaved"],
     "--chunks=1 must be >= 2 with --schedule interleaved"),
    (["--stages", "4", "--microbatches", "8", "--fwd", "0"],
     "argument --fwd: --fwd='0' must be a number > 0 and at most 1,000,000,000,000, such as"),
    (["--stages", "4", "--microbatches", "8", "--bwd", "1/0"], "--bwd='1/0' must be a number"),
    (["--stages", "4", "--microbatches", "8", "--wgrad", "3"],
     "--wgrad=3 must be at most --bwd=2"),
    (["--stages", "1000", "--microbatches", "1001"],
     "--stages x --microbatches x --chunks = 1,001,000; at most 1,000,000 allowed"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
