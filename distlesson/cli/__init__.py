"""The ``distlesson`` command line: the library's numbers as a table or as one JSON object.

Each subcommand is a module of this package with two functions: ``add(parser)`` declares
its options and ``run(args)`` returns ``(result, table)``: a JSON-ready dict and its text
rendering. To add a subcommand, write the module and list it in ``_SUBCOMMANDS``.
Bad input exits with status 2 and one line on stderr naming the argument and what is allowed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence

from . import (
    activations,
    claims,
    collective,
    cost,
    engine,
    failures,
    layout,
    memory,
    mfu,
    moe,
    pipeline,
    plan,
    roofline,
)
from ._common import Parser, Result, format_figure, resolve_placeholders

__all__ = ["build_parser", "format_figure", "main", "resolve_placeholders"]

# --- the command ---------------------------------------------------------------------------

_SUBCOMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None],
                              Callable[[argparse.Namespace], Result]]] = {
    "memory": ("memory of the model states: whole model, per GPU, GPUs needed",
               memory.add, memory.run),
    "activations": ("activation memory of transformer layers (Korthikanti et al. 2022)",
                    activations.add, activations.run),
    "layout": ("one layout dp x tp x pp x cp: memory and traffic per GPU, per dimension",
               layout.add, layout.run),
    "pipeline": ("a pipeline schedule simulated: step time, bubble, activations per stage",
                 pipeline.add, pipeline.run),
    "roofline": ("a GPU's roofline: ridge point, and decode and training matmuls on it "
                 "(Williams et al. 2009)", roofline.add, roofline.run),
    "collective": ("one collective's time on real links, and nccl-tests' algbw and busbw "
                   "(alpha-beta model)", collective.add, collective.run),
    "moe": ("a mixture-of-experts model under expert parallelism: parameters, experts and "
            "memory per GPU, all-to-all bytes per layer", moe.add, moe.run),
    "cost": ("the dollars of a training run, from GPU-hours or from FLOPs and MFU",
             cost.add, cost.run),
    "mfu": ("model FLOPs utilisation of a step: model FLOPs / (time x GPUs x peak)",
            mfu.add, mfu.run),
    "plan": ("every layout dp x tp x pp x cp of a cluster, ranked by estimated step time",
             plan.add, plan.run),
    "failures": ("a job's MTBF, Young's and Daly's checkpoint intervals, and the goodput "
                 "they leave", failures.add, failures.run),
    "claims": ("the sources' figures checked against the library", claims.add, claims.run),
    "engine": ("the library checked against torch.distributed: DDP, ZeRO-1, FSDP2, tensor "
               "and pipeline parallelism on real ranks", engine.add, engine.run),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per subcommand."""
    parser = Parser(prog="distlesson", description="The numbers of distributed LLM "
                     "training, computed: as a table, or as one JSON object with --json.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND",
                                parser_class=Parser)
    for name, (help_text, add, run) in _SUBCOMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        add(child)
        child.add_argument("--json", action="store_true", help="print one JSON object")
        child.set_defaults(run=run)
    return parser


_NEGATIVE = re.compile(r"^-(?:\d|\.\d)")


def _attach_negative_values(argv: Sequence[str]) -> list[str]:
    """``--params -7e9`` as ``--params=-7e9``: argparse takes "-7e9" (unlike "-7") for an
    option and answers "expected one argument"; attached, the option's own check refuses
    the value with a clear message."""
    out: list[str] = []
    for token in argv:
        if out and out[-1].startswith("--") and "=" not in out[-1] and _NEGATIVE.match(token):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status: 0, 2 for bad input, 1 when a result
    reports a failed check (``"passed": false``, as ``engine`` does)."""
    parser = build_parser()
    try:
        args = parser.parse_args(_attach_negative_values(
            sys.argv[1:] if argv is None else argv))
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        result, table = args.run(args)
    except ValueError as error:
        print(f"distlesson {args.command}: error: {' '.join(str(error).split())}",
              file=sys.stderr)
        return 2
    try:
        print(json.dumps(result) if args.json else table, flush=True)
    except BrokenPipeError:  # the reader stopped early (| head): not an error of ours
        sys.stdout = None  # nothing left to flush at exit
    return 1 if result.get("passed") is False else 0
