"""Running the command line in-process, for the CLI tests."""

import json

from distlesson.cli import main


def run(capsys, *argv):
    """(exit status, stdout, stderr) of ``distlesson *argv``."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys, *argv):
    """The JSON object ``distlesson *argv --json`` prints; fails on a non-zero status."""
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)
