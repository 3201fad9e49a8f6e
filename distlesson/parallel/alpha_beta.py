"""How long a collective takes on real links: latencies per call and per step, and an
achieved bandwidth, for each of NCCL's protocols.

The alpha-beta model (Hockney 1994; Thakur, Rabenseifner and Gropp 2005 for the collectives)
in the form NCCL's own tuner uses (:mod:`distlesson.catalog.nccl_tuning`):

    T = base latency + steps x alpha + bus_bytes / (beta x protocol share)

* ``bus_bytes`` is what each rank sends over its link: NCCL-tests' bus bandwidth
  convention (``PERFORMANCE.md`` of NVIDIA/nccl-tests): all-reduce 2(n-1)/n x S;
  all-gather, reduce-scatter and all-to-all (n-1)/n x S; broadcast and send/recv S, for an
  array of S bytes on n ranks. algbw = S / T and busbw = bus_bytes / T, as nccl-tests
  print them.
* ``steps``: a ring takes 2(n-1) steps for an all-reduce and n-1 for the others; NCCL's
  double binary tree (Sanders, Speck and Traeff 2009) reduces and broadcasts in
  2 floor(log2 n) steps across nodes but moves about 2 S per rank. ``auto`` takes the
  faster, as NCCL's tuner does for all-reduce; NCCL builds trees across nodes only, so
  :func:`group_time` lets ``auto`` choose for the inter-node part and keeps rings inside a
  node.
* The **protocols**: LL, LL128 and Simple trade latency for bandwidth; each call runs the
  fastest (or the one asked for). alpha, the base latency and the protocol shares are
  NCCL's tuner constants for the link's fabric (NVLink, PCIe, network).
* ``beta`` is what the link achieves with the Simple protocol, not its datasheet: the
  large-array bus bandwidth NCCL reaches on it (:data:`distlesson.catalog.achieved.
  ACHIEVED_BUSBW`: H100 and A100 NVLink, InfiniBand NDR). Other links keep the achieved
  share of the measured link of their scope: an assumption, stated on the accuracy chapter.
* A group that spans nodes and holds k > 1 ranks in each runs hierarchically: within the
  node, across nodes on 1/k of the data (k rails in parallel), within the node again; each
  phase is a call of its own.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

from distlesson.catalog.achieved import ACHIEVED_BUSBW, SHARE_REFERENCE
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.nccl_tuning import (
    BASE_LATENCY,
    HOP_LATENCY,
    LL128_SHARE,
    P2P_LL_THRESHOLD,
    PROTOCOLS,
    TREE_LL128_SHARE,
    TREE_LL_DIVISOR,
    TREE_SHARE,
    Fabric,
    fabric_of,
    ll_cap,
    ll_share,
    tree_correction,
)

__all__ = ["ALGORITHMS", "OPS", "PROTOCOL_CHOICES", "CollectiveTime", "LinkModel",
           "bandwidth_source", "bus_factor", "collective_time", "group_collective",
           "group_time", "link_model"]

Op = Literal["all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast",
             "send-recv"]
OPS: tuple[Op, ...] = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all",
                       "broadcast", "send-recv")
Algorithm = Literal["ring", "tree", "auto"]
ALGORITHMS: tuple[Algorithm, ...] = ("ring", "tree", "auto")
ProtocolChoice = Literal["LL", "LL128", "Simple", "auto"]
PROTOCOL_CHOICES: tuple[ProtocolChoice, ...] = (*PROTOCOLS, "auto")


@dataclass(frozen=True)
class LinkModel:
    """A link as the collectives see it."""

    bandwidth: float
    """beta: achieved bus bandwidth with the Simple protocol, bytes/s."""
    fabric: Fabric
    """Which of NCCL's latency tables applies: ``nvlink``, ``pci`` or ``net``."""

    @property
    def latency(self) -> float:
        """alpha: seconds per step of a ring with the Simple protocol."""
        return HOP_LATENCY[self.fabric]["ring"]["Simple"]

    @property
    def base_latency(self) -> float:
        """Seconds a ring call with the Simple protocol pays once."""
        return BASE_LATENCY["ring"]["Simple"]


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
    """beta and the fabric of the catalog link ``link`` (see the module docstring)."""
    spec = get_interconnect(link)
    fabric = fabric_of(spec.scope, spec.key)
    if link in ACHIEVED_BUSBW:
        return LinkModel(bandwidth=ACHIEVED_BUSBW[link][0], fabric=fabric)
    reference = SHARE_REFERENCE[spec.scope]
    share = ACHIEVED_BUSBW[reference][0] / get_interconnect(reference).bandwidth
    return LinkModel(bandwidth=share * spec.bandwidth, fabric=fabric)


def bandwidth_source(link: str) -> str:
    """Where beta of ``link`` comes from: its own figure, or the share it borrows."""
    spec = get_interconnect(link)
    if link in ACHIEVED_BUSBW:
        return f"{spec.display_name}: {ACHIEVED_BUSBW[link][1]}"
    reference = SHARE_REFERENCE[spec.scope]
    return (f"{spec.display_name}: no measurement; the achieved share of "
            f"{get_interconnect(reference).display_name} ({ACHIEVED_BUSBW[reference][1]})")


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
    """Seconds spent on latencies: the call's base latency and its steps."""
    transfer: float
    """Seconds spent moving bytes."""
    protocol: str = "Simple"
    """``LL``, ``LL128`` or ``Simple``: the one used (for a call in phases, the inter-node
    phase's, or the first phase's inside one node)."""

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


def _ring_steps(op: str, ranks: int) -> int:
    if op == "all-reduce":
        return 2 * (ranks - 1)
    return 1 if op == "send-recv" else ranks - 1


def _candidate(op: str, size: float, ranks: int, model: LinkModel, algorithm: str,
               protocol: str, per_node: int) -> CollectiveTime | None:
    """One (algorithm, protocol) pair as NCCL's tuner times it; None where NCCL does not
    run it (LL128 off NVLink-class fabrics)."""
    nodes = ranks if model.fabric == "net" else 1
    if protocol == "LL128" and model.fabric == "pci":
        return None
    base = BASE_LATENCY[algorithm][protocol]  # type: ignore[index]
    hop = HOP_LATENCY[model.fabric][algorithm][protocol]  # type: ignore[index]
    beta = model.bandwidth
    if algorithm == "ring":
        if protocol == "LL":
            beta = min(beta * ll_share(op, nodes), ll_cap(nodes))
        elif protocol == "LL128":
            beta *= LL128_SHARE["several_per_node" if per_node > 1 else "one_per_node"]
        return CollectiveTime(op, size, ranks, "ring", base + _ring_steps(op, ranks) * hop,
                              bus_factor(op, ranks) * size / beta, protocol)  # type: ignore[arg-type]
    beta *= TREE_SHARE
    if protocol == "LL":
        beta = min(beta / TREE_LL_DIVISOR, ll_cap(nodes))
    elif protocol == "LL128":
        beta *= TREE_LL128_SHARE["one_node" if nodes == 1 else "several_nodes"]
    beta *= tree_correction(protocol, size)  # type: ignore[arg-type]
    # across nodes a tree is log2 deep; inside one node NCCL's tree is a chain
    depth = ranks.bit_length() - 1 if model.fabric == "net" else ranks - 1  # floor(log2)
    return CollectiveTime(op, size, ranks, "tree", base + 2 * depth * hop, 2 * size / beta,
                          protocol)


def collective_time(op: Op, size: float, ranks: int, link: LinkModel | str,
                    algorithm: Algorithm = "ring", protocol: ProtocolChoice = "auto", *,
                    per_node: int | None = None) -> CollectiveTime:
    """Time of ``op`` on ``size`` bytes among ``ranks`` ranks of one link (no hierarchy).

    ``protocol`` ``auto`` runs the fastest of NCCL's three, as its tuner does; ``per_node``
    is how many GPUs of the group share a node (default: all of them on a link inside a
    node, one on a network link), which only LL128's bandwidth share depends on."""
    _check(op, ranks)
    if (isinstance(size, bool) or not isinstance(size, int | float)
            or not (math.isfinite(size) and 0 <= size <= MAX_BYTES)):
        raise ValueError(f"size={size!r} must be a number of bytes from 0 to {MAX_BYTES:.0e}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm={algorithm!r} is not known; allowed: {', '.join(ALGORITHMS)}")
    if protocol not in PROTOCOL_CHOICES:
        raise ValueError(f"protocol={protocol!r} is not known; allowed: "
                         f"{', '.join(PROTOCOL_CHOICES)}")
    model = link_model(link) if isinstance(link, str) else link
    if ranks == 1:
        return CollectiveTime(op, size, 1, "ring", 0.0, 0.0, "Simple")
    if per_node is None:
        per_node = 1 if model.fabric == "net" else ranks
    algorithms = (("ring", "tree") if op == "all-reduce" and algorithm == "auto"
                  else ("tree",) if op == "all-reduce" and algorithm == "tree" else ("ring",))
    protocols = PROTOCOLS if protocol == "auto" else (protocol,)
    if protocol == "auto" and op in ("all-to-all", "send-recv"):  # point to point: no tuner
        per_peer = size / ranks if op == "all-to-all" else size
        protocols = ("LL",) if per_peer <= P2P_LL_THRESHOLD else ("Simple",)
    candidates = [c for a in algorithms for p in protocols
                  if (c := _candidate(op, size, ranks, model, a, p, per_node)) is not None]
    if not candidates:
        raise ValueError(f"protocol={protocol!r} does not run on a {model.fabric} link; "
                         f"allowed there: LL, Simple, auto")
    return min(candidates, key=lambda c: c.time)


def _sum(op: str, size: float, ranks: int, across: CollectiveTime,
         parts: tuple[CollectiveTime, ...]) -> CollectiveTime:
    """Phases run one after the other: their latencies and transfers add; the algorithm and
    protocol reported are those of ``across``, the inter-node phase."""
    return CollectiveTime(op, size, ranks, across.algorithm,
                          math.fsum(p.latency for p in parts),
                          math.fsum(p.transfer for p in parts), across.protocol)


def group_collective(op: Op, size: float, ranks: int, ranks_per_node: int, *, intra: str,
                     inter: str, algorithm: Algorithm = "auto",
                     protocol: ProtocolChoice = "auto") -> CollectiveTime:
    """``op`` in a group of ``ranks`` with ``ranks_per_node`` of them per node, phase by phase.

    One node: the intra-node link. One rank per node: the inter-node link. Otherwise the
    hierarchical form of the module docstring (send-recv crosses nodes once); ``algorithm``
    is the one of the inter-node part (rings inside a node, as NCCL; in one node, ``auto``
    is the ring and ``tree`` models a tree anyway); ``protocol`` applies to every phase
    (``auto``: each phase runs its fastest). The result's
    ``algorithm`` is the inter-node part's (``ring`` or ``tree``), and its bandwidths are
    NCCL-tests' over all ``ranks``, as they would print for the whole group."""
    if (isinstance(ranks_per_node, bool) or not isinstance(ranks_per_node, int)
            or not 1 <= ranks_per_node <= ranks or ranks % ranks_per_node):
        raise ValueError(f"ranks_per_node={ranks_per_node} must divide ranks={ranks}")
    k, nodes = ranks_per_node, ranks // ranks_per_node
    if nodes == 1:  # NCCL's trees span nodes: inside one, auto keeps the ring
        return collective_time(op, size, ranks, intra,
                               "ring" if algorithm == "auto" else algorithm, protocol)
    if k == 1 or op in ("send-recv", "broadcast", "all-to-all"):
        flat = collective_time(op, size, ranks if op != "send-recv" else 2, inter, algorithm,
                               protocol, per_node=k)
        return _sum(op, size, ranks, flat, (flat,))
    if op == "all-reduce":
        across = collective_time("all-reduce", size / k, nodes, inter, algorithm, protocol,
                                 per_node=k)
        return _sum(op, size, ranks, across, (
            collective_time("reduce-scatter", size, k, intra, protocol=protocol), across,
            collective_time("all-gather", size, k, intra, protocol=protocol)))
    # all-gather, reduce-scatter: the node's share of the array crosses nodes, k rails at once
    across = collective_time(op, size / k, nodes, inter, protocol=protocol, per_node=k)
    return _sum(op, size, ranks, across,
                (collective_time(op, size, k, intra, protocol=protocol), across))


def group_time(op: Op, size: float, ranks: int, ranks_per_node: int, *, intra: str,
               inter: str) -> float:
    """Seconds for ``op`` in a group of ``ranks`` with ``ranks_per_node`` of them per node:
    :func:`group_collective` with rings inside one node and NCCL's choice across nodes."""
    return group_collective(op, size, ranks, ranks_per_node, intra=intra, inter=inter).time
