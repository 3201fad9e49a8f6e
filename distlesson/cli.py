"""The ``distlesson`` command line: the library's numbers as a table or as one JSON object.

Each subcommand is two small functions: ``_add_<name>(parser)`` declares its options and
``_run_<name>(args)`` returns ``(result, table)``: a JSON-ready dict and its text rendering.
To add a subcommand, write those two and list them in ``_SUBCOMMANDS``.
Bad input exits with status 2 and one line on stderr naming the argument and what is allowed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .claim import placeholders
from .claims import CLAIMS, claim_figures
from .hardware import GPUS, get_gpu
from .memory import Layout, check_layout, min_gpus, model_states, per_gpu_states
from .models import MODELS, get_model
from .optimizers import OPTIMIZERS
from .precision import PRESETS
from .site.placeholders import PLACEHOLDER
from .units import GB, MB, TB, parse_quantity

__all__ = ["build_parser", "format_figure", "main", "resolve_placeholders"]

Result = tuple[dict[str, Any], str]


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage dump), exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def _params(text: str) -> int:
    """--params: a positive whole number, written as 70e9 or 70B."""
    try:
        value = parse_quantity(text, name="--params")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if value <= 0 or value != int(value):
        raise argparse.ArgumentTypeError(f"--params={text!r} must be a positive whole number")
    return int(value)


def _positive_int(name: str) -> Callable[[str], int]:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"{name}={text!r} must be a positive integer")
        return value

    return convert


def _number(value: float | Fraction) -> int | float:
    """A JSON number: an int when the value is whole, else a float."""
    exact = Fraction(value)
    return int(exact) if exact.denominator == 1 else float(exact)


def format_figure(value: float, unit: str) -> str:
    """A plain English rendering of a figure (the site has its own, per locale)."""
    if unit == "bytes":
        for scale, symbol in ((TB, "TB"), (GB, "GB"), (MB, "MB")):
            if abs(value) >= scale:
                return f"{value / scale:,.4g} {symbol}"
        return f"{value:,.0f} bytes"
    if unit == "count":
        return f"{value:,.0f}" if value == int(value) else f"{value:,.4g}"
    if unit == "fraction":
        return f"{100 * value:.3g}%"
    if unit == "bytes_per_param":
        return f"{value:.4g} bytes"
    raise ValueError(f"unit={unit!r}; allowed: bytes, count, fraction, bytes_per_param")


def resolve_placeholders(text: str, figures: Mapping[str, tuple[float, str]]) -> str:
    """Replace each ``{{ name }}`` in ``text`` with its figure, formatted by format_figure."""
    for name in placeholders(text):
        if name not in figures:
            raise ValueError(f"placeholder {name!r} is not a known figure")
    return PLACEHOLDER.sub(lambda m: format_figure(*figures[m.group(1)]), text)


# --- memory ------------------------------------------------------------------------------

def _add_memory(parser: argparse.ArgumentParser) -> None:
    size = parser.add_mutually_exclusive_group(required=True)
    size.add_argument("--params", type=_params, help="parameter count, e.g. 70e9 or 70B")
    size.add_argument("--model", choices=list(MODELS), help="a published architecture")
    parser.add_argument("--optimizer", choices=list(OPTIMIZERS), default="adamw")
    parser.add_argument("--precision", choices=list(PRESETS), default="mixed")
    parser.add_argument("--dp", type=_positive_int("--dp"), default=1, help="data parallel")
    parser.add_argument("--tp", type=_positive_int("--tp"), default=1, help="tensor parallel")
    parser.add_argument("--pp", type=_positive_int("--pp"), default=1, help="pipeline stages")
    parser.add_argument("--zero", type=int, choices=range(4), default=0, help="ZeRO stage")
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm")


def _breakdown_table(rows: Sequence[tuple[str, float, float, float]]) -> list[str]:
    lines = [f"{'state':<10}{'bytes/param':>13}{'whole model':>16}{'per GPU':>14}"]
    for name, per_param, whole, per_gpu in rows:
        lines.append(f"{name:<10}{per_param:>13.4g}{whole / GB:>13,.1f} GB"
                     f"{per_gpu / GB:>11,.1f} GB")
    return lines


def _run_memory(args: argparse.Namespace) -> Result:
    layout = Layout(dp=args.dp, tp=args.tp, pp=args.pp, zero=args.zero)
    if args.model is not None:
        arch = get_model(args.model)
        check_layout(arch, layout)
        subject, params = arch, arch.num_params
    else:
        subject = params = args.params
    gpu = get_gpu(args.gpu)
    states = model_states(subject, optimizer=args.optimizer, precision=args.precision)
    per_gpu = per_gpu_states(states, layout)
    names = ("weights", "grads", "master", "optimizer")
    result = {
        "params": params, "model": args.model, "optimizer": args.optimizer,
        "precision": args.precision, "dp": args.dp, "tp": args.tp, "pp": args.pp,
        "zero": args.zero, "gpu": args.gpu, "gpu_memory_bytes": _number(gpu.memory_bytes),
        "bytes_per_param": float(Fraction(states.total) / params),
        "total_bytes": _number(states.total),
        "per_gpu_bytes": _number(per_gpu.total),
        "fits": per_gpu.total <= gpu.memory_bytes,
        "min_gpus": min_gpus(states.total, gpu.memory_bytes),
        "breakdown": {n: _number(getattr(states, n)) for n in names},
        "per_gpu_breakdown": {n: _number(getattr(per_gpu, n)) for n in names},
    }
    rows = [(n, float(Fraction(getattr(states, n)) / params), float(getattr(states, n)),
             float(getattr(per_gpu, n))) for n in (*names, "total")]
    lines = [
        f"{args.model or 'model'}: {params:,} parameters, {OPTIMIZERS[args.optimizer].display_name}"
        f", precision {args.precision}",
        f"layout: dp={args.dp} tp={args.tp} pp={args.pp} zero={args.zero} "
        f"({layout.world_size} x {gpu.display_name}, {gpu.memory_bytes / GB:,.0f} GB each)",
        "", *_breakdown_table(rows), "",
        f"fits on one GPU of the layout: {'yes' if result['fits'] else 'no'}",
        f"fewest GPUs whose memory holds the states: {result['min_gpus']}",
    ]
    return result, "\n".join(lines)


# --- claims ------------------------------------------------------------------------------

def _add_claims(parser: argparse.ArgumentParser) -> None:
    del parser  # no options besides --json


def _run_claims(args: argparse.Namespace) -> Result:
    del args
    figures = claim_figures()
    rows = [{
        "id": c.id, "source": c.source,
        "statement": resolve_placeholders(c.statement["en"], figures),
        "stated": c.stated, "computed": c.computed_value, "unit": c.unit,
        "rel_tol": c.rel_tol, "agrees": c.agrees,
        "why": resolve_placeholders(c.why["en"], figures),
    } for c in CLAIMS]
    lines = []
    for row in rows:
        verdict = "agrees" if row["agrees"] else "DIFFERS"
        lines.append(f"{row['id']} ({row['source']}): {verdict}: stated "
                     f"{format_figure(row['stated'], row['unit'])}, computed "
                     f"{format_figure(row['computed'], row['unit'])}")
        lines.append(f"    {row['statement']}")
        lines.append(f"    {row['why']}")
    return {"claims": rows}, "\n".join(lines)


# --- the command ---------------------------------------------------------------------------

_SUBCOMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None],
                              Callable[[argparse.Namespace], Result]]] = {
    "memory": ("memory of the model states: whole model, per GPU, GPUs needed",
               _add_memory, _run_memory),
    "claims": ("the sources' figures checked against the library", _add_claims, _run_claims),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per subcommand."""
    parser = _Parser(prog="distlesson", description="The numbers of distributed LLM "
                     "training, computed: as a table, or as one JSON object with --json.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND",
                                parser_class=_Parser)
    for name, (help_text, add, run) in _SUBCOMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        add(child)
        child.add_argument("--json", action="store_true", help="print one JSON object")
        child.set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 2 for bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        result, table = args.run(args)
    except ValueError as error:
        print(f"distlesson {args.command}: error: {' '.join(str(error).split())}",
              file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else table)
    return 0
