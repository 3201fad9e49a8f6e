"""``distlesson memory``: the model states of a model under a layout, per GPU."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.memory.optimizers import OPTIMIZERS
from distlesson.memory.precision import PRESETS
from distlesson.memory.states import Layout, check_layout, min_gpus, model_states, per_gpu_states
from distlesson.units import GB

from ._common import Result, add_model, model_from_args, model_name, number, positive_int

__all__ = ["add", "run"]


def add(parser: argparse.ArgumentParser) -> None:
    add_model(parser, params_help="parameter count, e.g. 70e9 or 70B")
    parser.add_argument("--optimizer", choices=list(OPTIMIZERS), default="adamw")
    parser.add_argument("--precision", choices=list(PRESETS), default="mixed")
    parser.add_argument("--dp", type=positive_int("--dp"), default=1, help="data parallel")
    parser.add_argument("--tp", type=positive_int("--tp"), default=1, help="tensor parallel")
    parser.add_argument("--pp", type=positive_int("--pp"), default=1, help="pipeline stages")
    parser.add_argument("--cp", type=positive_int("--cp"), default=1,
                        help="context parallel (replicates the states)")
    parser.add_argument("--zero", type=int, choices=range(4), default=0, help="ZeRO stage")
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm")


def _breakdown_table(rows: Sequence[tuple[str, float, float, float]]) -> list[str]:
    lines = [f"{'state':<10}{'bytes/param':>13}{'whole model':>16}{'per GPU':>14}"]
    for name, per_param, whole, per_gpu in rows:
        lines.append(f"{name:<10}{per_param:>13.4g}{whole / GB:>13,.1f} GB"
                     f"{per_gpu / GB:>11,.1f} GB")
    return lines


def run(args: argparse.Namespace) -> Result:
    layout = Layout(dp=args.dp, tp=args.tp, pp=args.pp, cp=args.cp, zero=args.zero)
    arch = model_from_args(args)
    if arch is not None:
        check_layout(arch, layout)
        subject, params = arch, arch.num_params
    else:
        subject = params = args.params
    gpu = get_gpu(args.gpu)
    states = model_states(subject, optimizer=args.optimizer, precision=args.precision)
    per_gpu = per_gpu_states(states, layout)
    names = ("weights", "grads", "master", "optimizer")
    result = {
        "params": params, "model": model_name(args), "optimizer": args.optimizer,
        "precision": args.precision, "dp": args.dp, "tp": args.tp, "pp": args.pp,
        "cp": args.cp, "zero": args.zero, "gpu": args.gpu,
        "gpu_memory_bytes": number(gpu.memory_bytes),
        "bytes_per_param": float(Fraction(states.total) / params),
        "total_bytes": number(states.total),
        "per_gpu_bytes": number(per_gpu.total),
        "fits": per_gpu.total <= gpu.memory_bytes,
        "min_gpus": min_gpus(states.total, gpu.memory_bytes),
        "breakdown": {n: number(getattr(states, n)) for n in names},
        "per_gpu_breakdown": {n: number(getattr(per_gpu, n)) for n in names},
    }
    rows = [(n, float(Fraction(getattr(states, n)) / params), float(getattr(states, n)),
             float(getattr(per_gpu, n))) for n in (*names, "total")]
    lines = [
        f"{model_name(args) or 'model'}: {params:,} parameters, "
        f"{OPTIMIZERS[args.optimizer].display_name}, precision {args.precision}",
        f"layout: dp={args.dp} tp={args.tp} pp={args.pp} cp={args.cp} zero={args.zero} "
        f"({layout.world_size} x {gpu.display_name}, {gpu.memory_bytes / GB:,.0f} GB each)",
        "", *_breakdown_table(rows), "",
        f"fits on one GPU of the layout: {'yes' if result['fits'] else 'no'}",
        f"fewest GPUs whose memory holds the states: {result['min_gpus']}",
    ]
    return result, "\n".join(lines)
