"""``distlesson layout``: one layout dp x tp x pp x cp, its memory and traffic per GPU.

The combined view of the parallelism chapter (:mod:`distlesson.parallel.layout`): what the
busiest GPU holds (its stage's states with the ZeRO stage, the activations of the layer
trained, logits, overheads: the planner's count), and the bytes each GPU sends per step in
each dimension, with the time they take over the dimension's link.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.catalog.interconnects import INTERCONNECTS, get_interconnect
from distlesson.memory.activations import RECOMPUTE
from distlesson.memory.optimizers import OPTIMIZERS
from distlesson.memory.precision import PRESETS
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload, analyse_layout
from distlesson.units import GB

from ._common import Result, add_model, model_from_args, model_name, number, positive_int

__all__ = ["add", "run"]

DIMENSIONS = ("dp", "tp", "pp", "cp")


def add(parser: argparse.ArgumentParser) -> None:
    add_model(parser)
    for name, text in (("dp", "data parallel"), ("tp", "tensor parallel"),
                       ("pp", "pipeline stages"), ("cp", "context parallel")):
        parser.add_argument(f"--{name}", type=positive_int(f"--{name}"), default=1, help=text)
    parser.add_argument("--zero", type=int, choices=range(4), default=0, help="ZeRO stage")
    parser.add_argument("--seq", type=positive_int("--seq"), default=8192,
                        help="tokens per sequence")
    parser.add_argument("--micro-batch", type=positive_int("--micro-batch"), default=1,
                        help="sequences per micro-batch")
    parser.add_argument("--global-batch", type=positive_int("--global-batch"), default=None,
                        help="sequences per step over all replicas (default: dp x micro-batch)")
    parser.add_argument("--recompute", choices=RECOMPUTE, default="full")
    parser.add_argument("--optimizer", choices=list(OPTIMIZERS), default="adamw")
    parser.add_argument("--precision", choices=list(PRESETS), default="mixed")
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm")
    parser.add_argument("--intra", choices=list(INTERCONNECTS), default="nvlink4",
                        help="link inside a node (carries tp)")
    parser.add_argument("--inter", choices=list(INTERCONNECTS), default="ib-ndr",
                        help="link between nodes (carries dp, pp, cp)")


def run(args: argparse.Namespace) -> Result:
    layout = Layout(dp=args.dp, tp=args.tp, pp=args.pp, cp=args.cp, zero=args.zero)
    global_batch = args.global_batch or args.dp * args.micro_batch
    workload = Workload(seq_len=args.seq, micro_batch=args.micro_batch,
                        global_batch=global_batch, recompute=args.recompute,
                        precision=args.precision, optimizer=args.optimizer)
    arch = model_from_args(args)
    report = analyse_layout(arch, layout, workload)
    busiest = report.stage
    gpu = get_gpu(args.gpu)
    links = {"tp": get_interconnect(args.intra)}
    links |= {d: get_interconnect(args.inter) for d in ("dp", "pp", "cp")}
    comm = report.communication
    seconds = {d: Fraction(getattr(comm, d)) / Fraction(links[d].bandwidth) for d in DIMENSIONS}
    result = {
        "model": model_name(args), **{d: getattr(layout, d) for d in (*DIMENSIONS, "zero")},
        "world_size": layout.world_size, "seq": args.seq, "micro_batch": args.micro_batch,
        "global_batch": global_batch, "num_microbatches": report.num_microbatches,
        "recompute": args.recompute, "gpu": args.gpu,
        "gpu_memory_bytes": number(gpu.memory_bytes),
        "states_bytes": number(report.states.total),
        "activations_bytes": number(report.activations),
        "logits_bytes": number(report.logits),
        "overheads_bytes": number(report.overheads),
        "per_gpu_bytes": number(report.per_gpu_bytes),
        "fits": report.per_gpu_bytes <= gpu.memory_bytes,
        "busiest_stage": {"stage": busiest.stage, "layers": busiest.layers},
        "communication": {d: number(getattr(comm, d)) for d in DIMENSIONS}
        | {"total": number(comm.total)},
        "communication_seconds": {d: float(seconds[d]) for d in DIMENSIONS},
        "links": {d: links[d].key for d in DIMENSIONS},
    }
    shape = " x ".join(f"{d}={getattr(layout, d)}" for d in DIMENSIONS)
    lines = [
        f"{model_name(args)}: {shape}, zero={args.zero} ({layout.world_size} x {gpu.display_name})",
        f"step: {global_batch} sequences of {args.seq} tokens, micro-batch {args.micro_batch}, "
        f"{report.num_microbatches} micro-batches per replica, recompute {args.recompute}",
        "",
        f"memory of the busiest GPU (stage {busiest.stage}, {busiest.layers} layers): states "
        f"{float(report.states.total) / GB:,.1f} GB + activations "
        f"{float(report.activations) / GB:,.1f} GB + logits {report.logits / GB:,.1f} GB + "
        f"overheads {report.overheads / GB:,.1f} GB = {report.per_gpu_bytes / GB:,.1f} GB of "
        f"{gpu.memory_bytes / GB:,.0f} GB ({'fits' if result['fits'] else 'does not fit'})",
        "",
        f"{'dimension':<10}{'sent per step':>16}{'link':>18}{'time':>12}",
    ]
    for d in DIMENSIONS:
        lines.append(f"{d:<10}{float(getattr(comm, d)) / GB:>13,.2f} GB"
                     f"{links[d].display_name:>18}{float(seconds[d]):>10.3f} s")
    lines.append("bytes one GPU sends; compute and communication overlap is not counted")
    return result, "\n".join(lines)
