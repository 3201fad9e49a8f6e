"""``python -m distlesson.engine``: the lab's checks under torchrun, or started here.

On a cluster (every rank runs this module; NCCL, one GPU per rank)::

    torchrun --nproc-per-node 8 -m distlesson.engine --json

Rank 0 prints the report; the exit status is 1 if a check failed. Without torchrun's
environment this is ``distlesson engine``: it starts ``--world-size`` ranks itself.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

from distlesson.cli import main as cli_main
from distlesson.cli._common import Parser
from distlesson.cli.engine import add, render
from distlesson.engine import (
    EngineReport,
    TorchMissingError,
    launched_by_torchrun,
    require_torch,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; the exit status (0 all as expected, 1 a check failed, 2 bad input)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not launched_by_torchrun():
        return cli_main(["engine", *arguments])
    parser = Parser(prog="python -m distlesson.engine", description=__doc__)
    add(parser)
    parser.set_defaults(world_size=None)  # torchrun decides; an explicit one must agree
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    try:
        args = parser.parse_args(arguments)
        require_torch()
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    except TorchMissingError as error:
        print(f"python -m distlesson.engine: error: {error}", file=sys.stderr)
        return 2
    if args.world_size not in (None, int(os.environ["WORLD_SIZE"])):
        print(f"python -m distlesson.engine: error: --world-size={args.world_size} but "
              f"torchrun started WORLD_SIZE={os.environ['WORLD_SIZE']} ranks; leave "
              "--world-size out under torchrun", file=sys.stderr)
        return 2
    from distlesson.engine.launch import run_in_process  # imports torch

    result = run_in_process(args.checks)
    if result is None:  # not rank 0: rank 0 reports
        return 0
    report = EngineReport.from_dict(result)
    print(json.dumps(report.as_dict()) if args.json else render(report), flush=True)
    return 0 if report.passed else 1


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # as in launch._worker: skip the finalisation that can abort a finished Gloo rank
    os._exit(status)
