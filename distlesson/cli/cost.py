"""``distlesson cost``: the dollars of a training run, from GPU-hours or from FLOPs.

Two ways in (:mod:`distlesson.efficiency.cost`): ``--gpu-hours`` and a price give the dollars
directly;
or the work, ``--params``/``--model`` and ``--tokens`` (6 N T, or Korthikanti et al.'s count
with ``--model`` and ``--seq``), run on ``--gpu`` at ``--mfu``, gives GPU-hours and then
dollars. ``--price`` defaults to the Persian lesson's assumption for the GPU, if it has one.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.catalog.models import MODELS, get_model
from distlesson.catalog.moe import MOE_MODELS, get_moe_model
from distlesson.efficiency.cost import PRICES, cost_usd, gpu_hours, training_flops
from distlesson.units import parse_quantity

from ._common import Result, number, params_type, positive_int

__all__ = ["add", "run"]


def _quantity(name: str, *, at_most: float | None = None) -> Callable[[str], float]:
    """A positive number written as 2.788e6, 30.84M or 15.6T (and at most ``at_most``)."""
    def convert(text: str) -> float:
        try:
            value = parse_quantity(text, name=name)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        if value <= 0 or (at_most is not None and value > at_most):
            allowed = f"in (0, {at_most:g}]" if at_most is not None else "positive"
            raise argparse.ArgumentTypeError(f"{name}={text!r} must be {allowed}")
        return value

    return convert


def add(parser: argparse.ArgumentParser) -> None:
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--gpu-hours", type=_quantity("--gpu-hours"),
                      help="GPU-hours of the run, e.g. 2.788M")
    size.add_argument("--params", type=params_type, help="parameter count, e.g. 405B")
    size.add_argument("--model", choices=[*MODELS, *MOE_MODELS],
                      help="a published architecture (a mixture of experts counts its active "
                      "parameters)")
    parser.add_argument("--tokens", type=_quantity("--tokens"), help="training tokens, e.g. 15T")
    parser.add_argument("--seq", type=positive_int("--seq"),
                        help="sequence length: with a dense --model, count every matmul and "
                        "attention (Korthikanti et al. 2022) instead of 6 N per token")
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm")
    parser.add_argument("--mfu", type=_quantity("--mfu", at_most=1),
                        help="model FLOPs utilisation, a fraction such as 0.4")
    parser.add_argument("--price", type=_quantity("--price"),
                        help="dollars per GPU-hour (default: the lesson's price for --gpu: "
                        + ", ".join(f"{k} ${p.usd_per_hour:g}" for k, p in PRICES.items())
                        + ")")


def _price(args: argparse.Namespace) -> tuple[float, str]:
    if args.price is not None:
        return args.price, "--price"
    if args.gpu not in PRICES:
        raise ValueError(f"--price: no assumed price for --gpu={args.gpu}; give --price "
                         f"(assumed prices exist for: {', '.join(PRICES)})")
    return PRICES[args.gpu].usd_per_hour, PRICES[args.gpu].source


def _flops(args: argparse.Namespace) -> tuple[float, str]:
    """FLOPs of the run and the formula used."""
    missing = [n for n in ("tokens", "mfu") if getattr(args, n) is None]
    if missing:
        raise ValueError(f"give --gpu-hours, or --params/--model with --tokens and --mfu; "
                         f"missing: {' '.join('--' + n for n in missing)}")
    if args.model in MOE_MODELS:
        if args.seq is not None:
            raise ValueError(f"--seq: only with a dense --model, not {args.model}; "
                             f"allowed: {', '.join(MODELS)}")
        return (training_flops(get_moe_model(args.model), args.tokens),
                "6 x active parameters x tokens (Kaplan et al. 2020)")
    if args.model is not None:
        arch = get_model(args.model)
        if args.seq is not None:
            return (training_flops(arch, args.tokens, seq_len=args.seq),
                    "every matmul and attention per token x tokens (Korthikanti et al. 2022)")
        return training_flops(arch, args.tokens), "6 x parameters x tokens (Kaplan et al. 2020)"
    if args.seq is not None:
        raise ValueError("--seq: needs --model (the attention term comes from its shape)")
    return training_flops(args.params, args.tokens), "6 x parameters x tokens (Kaplan et al. 2020)"


def run(args: argparse.Namespace) -> Result:
    peak = get_gpu(args.gpu).bf16_dense_flops
    if args.gpu_hours is not None:
        given = [f"--{n}" for n in ("tokens", "seq") if getattr(args, n) is not None]
        if given:
            raise ValueError(f"{' '.join(given)}: not used with --gpu-hours; give --gpu-hours "
                             "or --params/--model with --tokens, not both")
        hours = args.gpu_hours
        flops = hours * 3600 * args.mfu * peak if args.mfu is not None else None
        formula = "GPU-hours x price"
    elif args.params is None and args.model is None:
        raise ValueError("give --gpu-hours, or --params/--model with --tokens and --mfu")
    else:
        flops, counted = _flops(args)
        hours = gpu_hours(flops, gpu=args.gpu, mfu=args.mfu)
        formula = f"FLOPs: {counted}; GPU-hours = FLOPs / (mfu x bf16 peak) / 3600; x price"
    price, price_source = _price(args)
    dollars = cost_usd(hours, price)
    result = {
        "params": args.params, "model": args.model,
        "tokens": number(args.tokens) if args.tokens is not None else None, "seq": args.seq,
        "gpu": args.gpu, "mfu": args.mfu, "price_per_hour": number(price),
        "price_source": price_source,
        "flops": number(flops) if flops is not None else None,
        "gpu_hours": number(hours), "cost_usd": number(dollars), "formula": formula,
    }
    gpu = get_gpu(args.gpu)
    lines = []
    if flops is not None:
        lines.append(f"work: {flops:.3e} FLOPs" + (f" at MFU {args.mfu:.0%} of "
                     f"{gpu.display_name}'s {peak / 1e12:,.0f} TFLOP/s (bf16)"
                     if args.mfu is not None else ""))
    lines += [f"time: {hours:,.0f} GPU-hours ({hours / 1e6:,.2f}M)",
              f"cost: ${dollars:,.0f} at ${price:g} per GPU-hour",
              f"formula: {formula}"]
    return result, "\n".join(lines)
