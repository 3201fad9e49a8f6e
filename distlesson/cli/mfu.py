"""``distlesson mfu``: model FLOPs utilisation of a measured step (Chowdhery et al. 2022).

MFU = model FLOPs per step / (step time x GPUs x peak). With ``--model`` and ``--seq`` the
model FLOPs are Korthikanti et al.'s matmul count (attention scores included); with
``--params`` (or without ``--seq``), the plain 6N. ``--recompute`` adds the recomputed
forward to the hardware FLOPs (HFU), never to the model FLOPs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.efficiency.mfu import hfu, ideal_step_time, mfu, step_flops
from distlesson.memory.activations import RECOMPUTE
from distlesson.units import parse_quantity

from ._common import Result, add_model, model_from_args, model_name, number, positive_int

__all__ = ["add", "positive_quantity", "run"]


QUANTITY_LIMIT = 1e15
"""The largest quantity the command line takes (tokens per step, seconds, GPU-hours,
dollars per hour): a run beyond it has never been, and floats lose their meaning."""


def positive_quantity(name: str, limit: float = QUANTITY_LIMIT) -> Callable[[str], float]:
    """An option type: a positive number, written as 16e6, 16M or 13.3, at most ``limit``."""

    def convert(text: str) -> float:
        try:
            value = parse_quantity(text, name=name)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{name}={text!r} must be positive")
        if value > limit:
            raise argparse.ArgumentTypeError(
                f"{name}={text} is beyond any real run; allowed: up to {limit:.0e}")
        return value

    return convert


def add(parser: argparse.ArgumentParser) -> None:
    add_model(parser, params_help="parameter count (6N FLOPs per token)")
    parser.add_argument("--tokens-per-step", type=positive_quantity("--tokens-per-step"),
                        required=True, help="tokens in one optimizer step, e.g. 16M")
    parser.add_argument("--gpus", type=positive_int("--gpus"), required=True)
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm")
    parser.add_argument("--step-time", type=positive_quantity("--step-time"), required=True,
                        help="measured seconds per step")
    parser.add_argument("--seq", type=positive_int("--seq"), default=None,
                        help="tokens per sequence (with --model: count attention FLOPs)")
    parser.add_argument("--recompute", choices=RECOMPUTE, default="none",
                        help="activation recomputation (hardware FLOPs only)")


def run(args: argparse.Namespace) -> Result:
    gpu = get_gpu(args.gpu)
    peak = gpu.bf16_dense_flops
    arch = model_from_args(args)
    model = arch if arch is not None else args.params
    count = "narayanan" if arch is not None and args.seq else "6n"
    if args.recompute == "selective" and count == "6n":
        raise ValueError("--recompute selective needs --model and --seq (the attention shapes)")
    flops = step_flops(model, seq_len=args.seq or 1, tokens_per_step=args.tokens_per_step,
                       recompute=args.recompute, count=count)
    params = arch.num_params if arch is not None else args.params
    model_flops, hardware_flops = float(flops.model), float(flops.hardware)
    ideal = ideal_step_time(model_flops, gpus=args.gpus, peak_flops=peak)
    utilisation = mfu(model_flops, step_time=args.step_time, gpus=args.gpus, peak_flops=peak)
    result = {
        "model": model_name(args), "params": params, "count": count, "seq": args.seq,
        "tokens_per_step": number(args.tokens_per_step), "gpus": args.gpus, "gpu": args.gpu,
        "peak_flops": number(peak), "step_time": args.step_time,
        "model_flops": model_flops, "hardware_flops": hardware_flops,
        "ideal_step_time": ideal, "mfu": utilisation,
        "hfu": hfu(hardware_flops, step_time=args.step_time, gpus=args.gpus, peak_flops=peak),
    }
    counted = ("6N per token" if count == "6n"
               else f"Korthikanti et al. 2022, attention at seq {args.seq}")
    lines = [
        f"{model_name(args) or 'model'}: {params:,} parameters, {args.tokens_per_step:,.0f} tokens "
        f"per step on {args.gpus:,} x {gpu.display_name} ({peak / 1e12:,.0f} TFLOP/s bf16)",
        f"model FLOPs per step: {model_flops:.4g} ({counted})",
        f"ideal step (every GPU at peak): {ideal:,.3f} s; measured {args.step_time:,.3f} s",
        f"MFU: {100 * utilisation:.1f}%",
        f"HFU: {100 * result['hfu']:.1f}% (recompute: {args.recompute})",
    ]
    return result, "\n".join(lines)
