"""The command line under hostile values: every subcommand answers one line and status 2,
never a traceback, and refuses sizes no run has."""

import pytest

from distlesson.cli import main
from distlesson.cli._common import COUNT_LIMIT

HOSTILE = ("-1", "0", "nan", "inf", "-inf", "1e400", "99999999999999999999999", "abc", "1.5",
           "", "0x10", "1e-400")
BASE = {
    "memory": ["--params", "7e9"],
    "activations": ["--seq", "2048", "--batch", "1", "--hidden", "4096", "--heads", "32",
                    "--layers", "2"],
    "pipeline": ["--stages", "4", "--microbatches", "8"],
    "mfu": ["--params", "7e9", "--tokens-per-step", "4M", "--gpus", "8", "--step-time", "10"],
    "cost": ["--gpu-hours", "1000", "--price", "2"],
    "plan": ["--model", "llama3-8b", "--gpus", "8", "--seq", "8192",
             "--tokens-per-step", "1M"],
    "collective": ["--op", "all-reduce", "--bytes", "1e9", "--ranks", "16"],
    "moe": ["--model", "mixtral-8x7b", "--ep", "8"],
    "failures": ["--gpus", "16384", "--interruptions", "419", "--days", "54",
                 "--checkpoint-s", "20", "--restart-s", "300"],
}
TARGETS = {
    "memory": ["--params", "--dp", "--tp", "--pp"],
    "activations": ["--seq", "--batch", "--hidden", "--tp"],
    "pipeline": ["--stages", "--microbatches", "--fwd", "--bwd"],
    "mfu": ["--tokens-per-step", "--gpus", "--step-time"],
    "cost": ["--gpu-hours", "--price"],
    "plan": ["--gpus", "--seq", "--tokens-per-step"],
    "collective": ["--bytes", "--ranks", "--gpus-per-node"],
    "moe": ["--ep", "--capacity-factor", "--dp", "--pp", "--seq"],
    "failures": ["--gpus", "--interruptions", "--days", "--checkpoint-s", "--restart-s"],
}
CASES = [(command, option, value) for command, options in TARGETS.items()
         for option in options for value in HOSTILE]


def _with(argv: list[str], option: str, value: str) -> list[str]:
    argv = list(argv)
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    return argv


@pytest.mark.parametrize(("command", "option", "value"), CASES)
def test_hostile_values_get_one_line(capsys, command, option, value):
    argv = [command, *_with(BASE[command], option, value)]
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse: only ever status 2
        status = exit_.code
    out, err = capsys.readouterr()
    if status == 0:  # accepted: a real value (1.5 hours, 0x10 is not one), answered
        assert out and "Traceback" not in out
        return
    assert status == 2, (argv, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert option in err or "error:" in err


def test_sizes_beyond_any_run_name_the_limit(capsys):
    assert main(["memory", "--params", "7e9", "--dp", str(COUNT_LIMIT + 1)]) == 2
    assert f"allowed: 1 to {COUNT_LIMIT:,}" in capsys.readouterr().err
