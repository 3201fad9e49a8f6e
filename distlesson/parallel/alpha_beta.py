"""How long a collective takes on real links: a latency per step and an achieved bandwidth.

The alpha-beta model (Hockney 1994; Thakur, Rabenseifner and Gropp 2005 for the collectives):

    T = steps x alpha + bus_bytes / beta

* ``bus_bytes`` is what each rank sends over its link: NCCL-tests' bus bandwidth
  convention (``PERFORMANCE.md`` of NVIDIA/nccl-tests): all-reduce 2(n-1)/n x S;
  all-gather, reduce-scatter and all-to-all (n-1)/n x S; broadcast and send/recv S, for an
  array of S bytes on n ranks. algbw = S / T and busbw = bus_bytes / T, as nccl-tests
  print them.
* ``steps``: a ring takes 2(n-1) steps for an all-reduce and n-1 for the others; NCCL's
  double binary tree (Sanders, Speck and Traeff 2009) reduces and broadcasts in
  2 ceil(log2 n) steps but moves about 2 S per rank. ``auto`` takes the faster, as NCCL's
  tuner does for all-reduce; NCCL builds trees across nodes only, so :func:`group_time`
  lets ``auto`` choose for the inter-node part and keeps rings inside a node.
* ``alpha`` and ``beta`` are what the link achieves, not its datasheet: both are fixed by one
  published measurement (:data:`distlesson.catalog.achieved.LINK_MEASUREMENT`, 8 x H100 over
  NVLink). beta is the measured large-message bus bandwidth; alpha follows from the
  mid-size point, whose time exceeds bytes / beta by 2(n-1) step latencies. Links without
  a measurement keep the same achieved share of their nominal bandwidth and the same step
  latency: an assumption, stated on the accuracy chapter.
* A group that spans nodes and holds k > 1 ranks in each runs hierarchically: within the
  node, across nodes on 1/k of the data (k rails in parallel), within the node again.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

from distlesson.catalog.achieved import LINK_MEASUREMENT
from distlesson.catalog.interconnects import get_interconnect

__all__ = ["ALGORITHMS", "OPS", "CollectiveTime", "LinkModel", "bus_factor",
           "collective_time", "group_collective", "group_time", "link_model"]

Op = Literal["all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast",
             "send-recv"]
OPS: tuple[Op, ...] = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all",
                       "broadcast", "send-recv")
Algorithm = Literal["ring", "tree", "auto"]
ALGORITHMS: tuple[Algorithm, ...] = ("ring", "tree", "auto")


@dataclass(frozen=True)
class LinkModel:
    """A link as the collectives see it."""

    latency: float
    """alpha: seconds per step of a ring or tree."""
    bandwidth: float
    """beta: achieved bus bandwidth, bytes/s."""


MAX_BYTES = 1e18
"""An exabyte: more than any collective moves, and still exact in a float's sums."""
MAX_RANKS = 10**8


def bus_factor(op: Op, ranks: int) -> float:
    """Bus bytes per array byte (NCCL-tests): 2(n-1)/n, (n-1)/n or 1."""
    _check(op, ranks)
    if op == "all-reduce":
        return 2 * (ranks - 1) / ranks
    if op in ("all-gather", "reduce-scatter", "all-to-all"):
        return (ranks - 1) / ranks
    return 1.0


def _check(op: str, ranks: int) -> None:
    if op not in OPS:
        raise ValueError(f"op={op!r} is not known; allowed: {', '.join(OPS)}")
    if not isinstance(ranks, int) or isinstance(ranks, bool) or not 1 <= ranks <= MAX_RANKS:
        raise ValueError(f"ranks={ranks!r} must be a whole number from 1 to {MAX_RANKS:.0e}")
    if op == "send-recv" and ranks != 2:
        raise ValueError(f"ranks={ranks} for send-recv; allowed: 2 (one sender, one receiver)")


@functools.cache
def link_model(link: str) -> LinkModel:
    """alpha and beta of the catalog link ``link`` (see the module docstring)."""
    measured = LINK_MEASUREMENT
    share = measured.large_busbw / get_interconnect(measured.link).bandwidth
    n = measured.ranks
    bus = bus_factor("all-reduce", n) * measured.mid_bytes
    alpha = (bus / measured.mid_busbw - bus / measured.large_busbw) / (2 * (n - 1))
    return LinkModel(latency=alpha, bandwidth=share * get_interconnect(link).bandwidth)


@dataclass(frozen=True)
class CollectiveTime:
    """One collective: its time and the two bandwidths nccl-tests would print."""

    op: str
    size: float
    """Array bytes S (per rank for all-gather's output, as nccl-tests counts)."""
    ranks: int
    algorithm: str
    """``ring`` or ``tree`` (the one used, when ``auto`` chose)."""
    latency: float
    """Seconds spent on step latencies."""
    transfer: float
    """Seconds spent moving bytes."""

    @property
    def time(self) -> float:
        return self.latency + self.transfer

    @property
    def algbw(self) -> float:
        """S / T, bytes/s."""
        return self.size / self.time if self.time else math.inf

    @property
    def busbw(self) -> float:
        """algbw x bus factor, bytes/s."""
        return self.algbw * bus_factor(self.op, self.ranks)  # type: ignore[arg-type]


def collective_time(op: Op, size: float, ranks: int, link: LinkModel | str,
                    algorithm: Algorithm = "ring") -> CollectiveTime:
    """Time of ``op`` on ``size`` bytes among ``ranks`` ranks of one link (no hierarchy)."""
    _check(op, ranks)
    if (isinstance(size, bool) or not isinstance(size, int | float)
            or not (math.isfinite(size) and 0 <= size <= MAX_BYTES)):
        raise ValueError(f"size={size!r} must be a number of bytes from 0 to {MAX_BYTES:.0e}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm={algorithm!r} is not known; allowed: {', '.join(ALGORITHMS)}")
    model = link_model(link) if isinstance(link, str) else link
    if ranks == 1:
        return CollectiveTime(op, size, 1, "ring", 0.0, 0.0)
    ring_steps = 2 * (ranks - 1) if op == "all-reduce" else (1 if op == "send-recv"
                                                             else ranks - 1)
    ring = CollectiveTime(op, size, ranks, "ring", ring_steps * model.latency,
                          bus_factor(op, ranks) * size / model.bandwidth)
    if op != "all-reduce" or algorithm == "ring":
        return ring
    tree = CollectiveTime(op, size, ranks, "tree",
                          2 * math.ceil(math.log2(ranks)) * model.latency,
                          2 * size / model.bandwidth)
    if algorithm == "tree":
        return tree
    return min(ring, tree, key=lambda c: c.time)


def _sum(op: str, size: float, ranks: int, algorithm: str,
         parts: tuple[CollectiveTime, ...]) -> CollectiveTime:
    """Phases run one after the other: their latencies and transfers add."""
    return CollectiveTime(op, size, ranks, algorithm, math.fsum(p.latency for p in parts),
                          math.fsum(p.transfer for p in parts))


def group_collective(op: Op, size: float, ranks: int, ranks_per_node: int, *, intra: str,
                     inter: str, algorithm: Algorithm = "auto") -> CollectiveTime:
    """``op`` in a group of ``ranks`` with ``ranks_per_node`` of them per node, phase by phase.

    One node: the intra-node link. One rank per node: the inter-node link. Otherwise the
    hierarchical form of the module docstring (send-recv crosses nodes once); ``algorithm``
    is the one of the inter-node part (rings inside a node, as NCCL; in one node, ``auto``
    is the ring and ``tree`` models a tree anyway). The result's
    ``algorithm`` is the inter-node part's (``ring`` or ``tree``), and its bandwidths are
    NCCL-tests' over all ``ranks``, as they would print for the whole group."""
    if (isinstance(ranks_per_node, bool) or not isinstance(ranks_per_node, int)
            or not 1 <= ranks_per_node <= ranks or ranks % ranks_per_node):
        raise ValueError(f"ranks_per_node={ranks_per_node} must divide ranks={ranks}")
    k, nodes = ranks_per_node, ranks // ranks_per_node
    if nodes == 1:  # NCCL's trees span nodes: inside one, auto keeps the ring
        return collective_time(op, size, ranks, intra,
                               "ring" if algorithm == "auto" else algorithm)
    if k == 1 or op in ("send-recv", "broadcast", "all-to-all"):
        flat = collective_time(op, size, ranks if op != "send-recv" else 2, inter, algorithm)
        return _sum(op, size, ranks, flat.algorithm, (flat,))
    if op == "all-reduce":
        across = collective_time("all-reduce", size / k, nodes, inter, algorithm)
        return _sum(op, size, ranks, across.algorithm, (
            collective_time("reduce-scatter", size, k, intra), across,
            collective_time("all-gather", size, k, intra)))
    # all-gather, reduce-scatter: the node's share of the array crosses nodes, k rails at once
    return _sum(op, size, ranks, "ring", (collective_time(op, size, k, intra),
                                          collective_time(op, size / k, nodes, inter)))


def group_time(op: Op, size: float, ranks: int, ranks_per_node: int, *, intra: str,
               inter: str) -> float:
    """Seconds for ``op`` in a group of ``ranks`` with ``ranks_per_node`` of them per node:
    :func:`group_collective` with rings inside one node and NCCL's choice across nodes."""
    return group_collective(op, size, ranks, ranks_per_node, intra=intra, inter=inter).time
