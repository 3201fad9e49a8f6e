"""What every subcommand shares: the parser class, option types, number formatting."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from distlesson.catalog.models import MODELS, Architecture, get_model
from distlesson.catalog.shapes import (
    SPEC_KEYS,
    architecture_from_config,
    architecture_from_spec,
    load_config,
)
from distlesson.claims.claim import placeholders
from distlesson.memory.states import MAX_PARAMS
from distlesson.site.placeholders import PLACEHOLDER
from distlesson.units import GB, MB, TB, parse_quantity

__all__ = ["COUNT_LIMIT", "Parser", "Result", "add_model", "format_figure", "model_from_args",
           "model_name", "number", "params_type", "positive_int", "resolve_placeholders"]

Result = tuple[dict[str, Any], str]
"""A subcommand's output: a JSON-ready dict and its text rendering."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage dump), exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def params_type(text: str) -> int:
    """--params: a positive whole number, written as 70e9 or 70B."""
    try:
        value = parse_quantity(text, name="--params")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if value <= 0 or value != int(value):
        raise argparse.ArgumentTypeError(f"--params={text!r} must be a positive whole number")
    if value > PARAMS_LIMIT:
        raise argparse.ArgumentTypeError(
            f"--params={text} is beyond any real model; allowed: up to {PARAMS_LIMIT:.0e}")
    return int(value)


def add_model(parser: argparse.ArgumentParser, *, params_help: str | None = None,
              required: bool = True) -> None:
    """The model, one of: ``--model`` (the catalog), ``--config`` (a Hugging Face
    config.json), ``--arch`` (shapes inline) and, where a count is enough, ``--params``."""
    size = parser.add_mutually_exclusive_group(required=required)
    if params_help is not None:
        size.add_argument("--params", type=params_type, help=params_help)
    size.add_argument("--model", choices=list(MODELS), help="a published architecture")
    size.add_argument("--config", metavar="FILE", help="a Hugging Face config.json")
    size.add_argument("--arch", metavar="KEY=VALUE,...",
                      help=f"shapes inline; keys: {', '.join(SPEC_KEYS)}")


def model_from_args(args: argparse.Namespace) -> Architecture | None:
    """The architecture that ``--model``, ``--config`` or ``--arch`` names (None if none
    did); ValueError, naming the field, for a config or a spec that cannot be used."""
    if getattr(args, "config", None) is not None:
        return architecture_from_config(load_config(args.config), name=args.config)
    if getattr(args, "arch", None) is not None:
        return architecture_from_spec(args.arch)
    if getattr(args, "model", None) is not None:
        return get_model(args.model)
    return None


def model_name(args: argparse.Namespace) -> str | None:
    """How the output names the model: the catalog key, the config file or the spec."""
    return (getattr(args, "model", None) or getattr(args, "config", None)
            or getattr(args, "arch", None))


PARAMS_LIMIT = MAX_PARAMS
COUNT_LIMIT = 10**8
"""The largest count the command line takes: tokens per sequence, GPUs or micro-batches
beyond it describe no real run, and would only make a calculator spin or overflow."""


def positive_int(name: str, limit: int = COUNT_LIMIT) -> Callable[[str], int]:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"{name}={text!r} must be a positive integer")
        if value > limit:
            raise argparse.ArgumentTypeError(
                f"{name}={text} is beyond any real run; allowed: 1 to {limit:,}")
        return value

    return convert


def number(value: float | Fraction) -> int | float:
    """A JSON number: an int when the value is whole, else a float."""
    exact = Fraction(value)
    return int(exact) if exact.denominator == 1 else float(exact)


def format_figure(value: float, unit: str) -> str:
    """A plain English rendering of a figure (the site has its own, per locale)."""
    if unit == "bytes":
        binary = value > 0 and (value / 2**20).is_integer() and not (value / 1e6).is_integer()
        if binary:  # made in binary units: 64 MiB, not 67.11 MB
            scale, symbol = (2**30, "GiB") if value >= 2**30 else (2**20, "MiB")
            return f"{value / scale:,.4g} {symbol}"
        for scale, symbol in ((TB, "TB"), (GB, "GB"), (MB, "MB")):
            if abs(value) >= scale:
                return f"{value / scale:,.4g} {symbol}"
        return f"{value:,.0f} bytes"
    if unit == "bytes_per_second":  # a link's bandwidth
        return f"{value / GB:,.4g} GB/s"
    if unit == "count":
        return f"{value:,.0f}" if value == int(value) else f"{value:,.4g}"
    if unit == "fraction":
        return f"{100 * value:.3g}%"
    if unit == "bytes_per_param":
        return f"{value:.4g} bytes"
    if unit == "ratio":
        return f"{value:.3g}x"
    if unit == "usd":
        return f"${value / 1e6:,.4g}M"
    if unit == "flop_per_byte":
        return f"{value:,.4g} FLOP/byte"
    raise ValueError(f"unit={unit!r}; allowed: bytes, bytes_per_second, count, fraction, "
                     "bytes_per_param, ratio, usd, flop_per_byte")


def resolve_placeholders(text: str, figures: Mapping[str, tuple[float, str]]) -> str:
    """Replace each ``{{ name }}`` in ``text`` with its figure, formatted by format_figure."""
    for name in placeholders(text):
        if name not in figures:
            raise ValueError(f"placeholder {name!r} is not a known figure")
    def shown(match: re.Match) -> str:
        text = format_figure(*figures[match[1]])
        return f"{text} to {format_figure(*figures[match[3]])}" if match[2] == "to" else text

    return PLACEHOLDER.sub(shown, text)
