"""``distlesson collective``: how long one collective takes, and the bandwidths nccl-tests prints.

The alpha-beta model of :mod:`distlesson.parallel.alpha_beta`: NCCL's own latencies per call
and per step for each protocol (:mod:`distlesson.catalog.nccl_tuning`) plus bus bytes over
the bandwidth NCCL achieves on each link (:data:`distlesson.catalog.achieved.ACHIEVED_BUSBW`).
Ranks fill nodes of ``--gpus-per-node`` GPUs (default: the GPU's server); a group that spans
nodes runs hierarchically, over ``--inter-link`` between nodes.
"""

from __future__ import annotations

import argparse
import re

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.catalog.interconnects import INTERCONNECTS, get_interconnect
from distlesson.catalog.nccl_tuning import SOURCE as NCCL_SOURCE
from distlesson.parallel.alpha_beta import (
    ALGORITHMS,
    MAX_BYTES,
    PROTOCOL_CHOICES,
    bandwidth_source,
    bus_factor,
    group_collective,
)

from ._common import Result, number, positive_int

__all__ = ["BYTE_UNITS", "OPS", "add", "parse_bytes", "run"]

OPS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast")
BYTE_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
              "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
"""Units ``--bytes`` accepts: decimal (GB = 1e9) and binary (GiB = 2^30), as nccl-tests
sizes are binary."""
_BYTES = re.compile(r"^(?P<n>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(?P<u>[KMGT]i?B|B)?$")


def parse_bytes(text: str) -> float:
    """--bytes: a non-negative size such as 1073741824, 1e9, 64MiB or 1GiB."""
    match = _BYTES.match(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(
            f"--bytes={text!r} is not a size; allowed: a number of bytes such as 1e9, or "
            f"with a unit: {', '.join(u for u in BYTE_UNITS if u)} (1GiB = 2^30 bytes)")
    value = float(match["n"]) * BYTE_UNITS[match["u"] or ""]
    if value > MAX_BYTES:
        raise argparse.ArgumentTypeError(
            f"--bytes={text} is beyond any collective; allowed: up to {MAX_BYTES:.0e} bytes")
    return value


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--op", choices=OPS, required=True)
    parser.add_argument("--bytes", type=parse_bytes, required=True, dest="size",
                        help="array size S in bytes, as nccl-tests counts it (1e9, 1GiB)")
    parser.add_argument("--ranks", type=positive_int("--ranks"), required=True,
                        help="GPUs in the group")
    parser.add_argument("--gpus-per-node", type=positive_int("--gpus-per-node"),
                        help="GPUs of the group in one node (default: the GPU's server)")
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm",
                        help="sets the link inside a node")
    parser.add_argument("--inter-link", choices=[k for k, v in INTERCONNECTS.items()
                                                 if v.scope == "cluster"],
                        default="ib-ndr", help="link between nodes, one port per GPU")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="auto",
                        help="ring, tree (all-reduce) or the faster (auto), across nodes "
                        "when the group spans them")
    parser.add_argument("--protocol", choices=PROTOCOL_CHOICES, default="auto",
                        help="NCCL's LL, LL128 or Simple, or the fastest (auto)")


def _per_node(args: argparse.Namespace) -> int:
    if args.ranks < 2:
        raise ValueError(f"--ranks={args.ranks}: a collective needs at least 2 ranks")
    node = args.gpus_per_node or get_gpu(args.gpu).gpus_per_node
    if args.ranks <= node:
        return args.ranks
    if args.ranks % node:
        raise ValueError(f"--ranks={args.ranks} must be a multiple of --gpus-per-node={node} "
                         "when the group spans nodes")
    return node


def run(args: argparse.Namespace) -> Result:
    intra = get_gpu(args.gpu).intra_node_link
    per_node = _per_node(args)
    c = group_collective(args.op, args.size, args.ranks, per_node, intra=intra,
                         inter=args.inter_link, algorithm=args.algorithm,
                         protocol=args.protocol)
    nodes = args.ranks // per_node
    # a flat group has one link to compare with; a hierarchical one mixes two
    link = (get_interconnect(intra) if nodes == 1 else
            get_interconnect(args.inter_link) if per_node == 1 else None)
    dominant = "latency" if c.latency > c.transfer else "bandwidth"
    used = ([intra] if per_node > 1 else []) + ([args.inter_link] if nodes > 1 else [])
    bandwidths = [f"beta of {bandwidth_source(key)}" for key in used]
    result = {
        "op": args.op, "bytes": number(args.size), "ranks": args.ranks,
        "gpus_per_node": per_node, "nodes": nodes, "gpu": args.gpu,
        "intra_link": intra, "inter_link": args.inter_link if nodes > 1 else None,
        "algorithm": c.algorithm, "protocol": c.protocol,
        "hierarchical": nodes > 1 and per_node > 1,
        "time_s": c.time, "latency_s": c.latency, "bandwidth_s": c.transfer,
        "algbw": c.algbw, "busbw": c.busbw, "bus_factor": bus_factor(args.op, args.ranks),
        "dominant": dominant,
        "nominal_bandwidth": link.bandwidth if link else None,
        "busbw_share_of_nominal": c.busbw / link.bandwidth if link else None,
        "source": "; ".join([*bandwidths, f"latencies: {NCCL_SOURCE}"]),
    }
    where = (f"one node over {link.display_name}" if nodes == 1 else
             f"{nodes} nodes of {per_node}, {get_interconnect(args.inter_link).display_name}"
             " between them")
    lines = [
        f"{args.op} of {args.size:,.0f} bytes on {args.ranks} ranks ({where}), "
        f"{c.algorithm}, {c.protocol} protocol",
        f"time       {c.time * 1e6:>14,.2f} us  (latency {c.latency * 1e6:,.2f} us, "
        f"bandwidth {c.transfer * 1e6:,.2f} us: {dominant}-bound)",
        f"algbw      {c.algbw / 1e9:>14,.2f} GB/s",
        f"busbw      {c.busbw / 1e9:>14,.2f} GB/s" + (
            f"  ({100 * c.busbw / link.bandwidth:.1f}% of {link.display_name}'s "
            f"{link.bandwidth / 1e9:,.0f} GB/s one way)" if link else
            "  (over all ranks: most bytes stay inside the nodes)"),
        *bandwidths,
        f"latencies from: {NCCL_SOURCE}",
    ]
    return result, "\n".join(lines)
