"""``distlesson roofline``: a GPU's roofline and where the chapter's matmuls fall on it.

The model of Williams et al. 2009 (:mod:`distlesson.efficiency.roofline`): the ridge point (peak
FLOP/s
over HBM bytes/s), and for decode at each ``--batch`` through an h x h weight and for a
training matmul of ``--tokens`` tokens through an h -> 4h weight, the arithmetic intensity,
the attainable FLOP/s and their share of the peak. Defaults: the Catalan chapter's points.
"""

from __future__ import annotations

import argparse

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.efficiency.roofline import (
    BYTES_PER_VALUE,
    Workloads,
    decode_batch_at_ridge,
    peak_flops,
    ridge_point,
    workload_points,
)

from ._common import Result, number, positive_int

__all__ = ["add", "run"]

_DEFAULT = Workloads()


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm")
    parser.add_argument("--precision", choices=list(BYTES_PER_VALUE), default="bf16",
                        help="peak and bytes per value (bf16: 2, fp8: 1)")
    parser.add_argument("--batch", type=positive_int("--batch"), action="append",
                        help="sequences decoded together; repeat for several points "
                        f"(default {' and '.join(map(str, _DEFAULT.decode_batches))})")
    parser.add_argument("--hidden", type=positive_int("--hidden"),
                        default=_DEFAULT.hidden_size, help="width h of the weight matrices")
    parser.add_argument("--tokens", type=positive_int("--tokens"),
                        default=_DEFAULT.training_tokens,
                        help="tokens of the training matmul")


def run(args: argparse.Namespace) -> Result:
    gpu = get_gpu(args.gpu)
    peak = peak_flops(gpu, args.precision)  # ValueError for fp8 on a GPU without it
    workloads = Workloads(hidden_size=args.hidden,
                          decode_batches=tuple(args.batch or _DEFAULT.decode_batches),
                          training_tokens=args.tokens)
    ridge = ridge_point(gpu, args.precision)
    points = workload_points(gpu, workloads, args.precision)
    try:
        at_ridge: int | None = decode_batch_at_ridge(gpu, args.hidden, args.precision)
    except ValueError:
        at_ridge = None  # h too narrow: no batch reaches the ridge
    result = {
        "gpu": args.gpu, "precision": args.precision, "hidden": args.hidden,
        "ridge": float(ridge), "peak_flops": number(peak),
        "bandwidth": number(gpu.hbm_bandwidth), "decode_batch_at_ridge": at_ridge,
        "points": [{
            "name": p.name, "m": p.shape.m, "k": p.shape.k, "n": p.shape.n,
            "intensity": float(p.intensity), "attainable_flops": float(p.attainable),
            "share_of_peak": float(p.share_of_peak),
            "bound": "memory" if p.memory_bound else "compute",
        } for p in points],
    }
    lines = [
        f"{gpu.display_name}, {args.precision}: peak {peak / 1e12:,.0f} TFLOP/s, "
        f"HBM {gpu.hbm_bandwidth / 1e12:,.2f} TB/s",
        f"ridge point: {float(ridge):,.1f} FLOP/byte (Williams et al. 2009)",
        "",
        f"{'point':<12}{'matmul (m x k x n)':>24}{'FLOP/byte':>12}{'TFLOP/s':>10}"
        f"{'of peak':>10}  bound",
    ]
    for p, row in zip(points, result["points"], strict=True):
        shape = f"{p.shape.m} x {p.shape.k} x {p.shape.n}"
        lines.append(f"{p.name:<12}{shape:>24}{float(p.intensity):>12,.1f}"
                     f"{float(p.attainable) / 1e12:>10,.1f}"
                     f"{100 * float(p.share_of_peak):>9.2f}%  {row['bound']}")
    lines.append("")
    lines.append(f"decode reaches the ridge at a batch of {at_ridge} (h = {args.hidden})"
                 if at_ridge is not None else
                 f"decode never reaches the ridge with h = {args.hidden}")
    return result, "\n".join(lines)
