"""NCCL's own cost model of a collective: the latencies and protocol bandwidths of its tuner.

Before each call NCCL estimates the time of every algorithm (ring, tree) with every
protocol as ``latency + bytes / bandwidth`` and runs the fastest. The constants are NVIDIA's
and live in ``src/graph/tuning.cc`` of NVIDIA/nccl (the 2.19-2.21 releases; commit
b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2), in microseconds and GB/s there, in seconds and
bytes per second here:

* a **base latency** per call, by algorithm and protocol (``baseLat``);
* a **hop latency** per step, by fabric (NVLink, PCIe, network), algorithm and protocol
  (``hwLat``);
* a **bandwidth factor** per protocol. *LL* (low latency) stores 8 bytes for every 4 of
  data, a flag beside each, so a receiver polls memory instead of waiting for a fence: the
  lowest latency, a quarter of the bandwidth (a third for an all-gather or a
  reduce-scatter inside one node), capped per node count (``llMaxBws``). *LL128* does the
  same with 128-byte lines carrying 120 bytes: 0.92 of the bandwidth (0.7 with one GPU per
  node); NCCL enables it only over NVLink. *Simple* moves whole chunks behind a memory
  fence: all the bandwidth, the highest latency per step. A tree moves about twice the
  array per GPU and runs at 0.92 of the ring's bandwidth, with a correction by size
  (``treeCorrectionFactor``).

Point-to-point transfers (send/recv, and the all-to-all built from them) do not go through
the tuner: NCCL sends a peer's share with LL up to ``NCCL_P2P_LL_THRESHOLD`` bytes (16 KiB
by default, ``src/enqueue.cc``) and with Simple above.

Left out: NVLink SHARP and CollNet (switch offload), the per-channel caps (they bind only
with few channels), the 1.4x "plateau" on large multi-node rings and the network post
overhead, all second-order for the sizes of a training step.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["BASE_LATENCY", "FABRICS", "HOP_LATENCY", "LL128_SHARE", "LL_MAX_BANDWIDTH",
           "P2P_LL_THRESHOLD", "PROTOCOLS", "SOURCE", "TREE_CORRECTION", "TREE_LL128_SHARE",
           "TREE_LL_DIVISOR", "TREE_SHARE",
           "Fabric", "Protocol", "fabric_of", "ll_cap", "ll_share", "tree_correction"]

SOURCE = ("NVIDIA/nccl, src/graph/tuning.cc (2.19-2.21 releases, commit b6475625): baseLat, "
          "hwLat, llMaxBws, the protocol bandwidth factors and treeCorrectionFactor; "
          "src/enqueue.cc: NCCL_P2P_LL_THRESHOLD")

Protocol = Literal["LL", "LL128", "Simple"]
PROTOCOLS: tuple[Protocol, ...] = ("LL", "LL128", "Simple")
Fabric = Literal["nvlink", "pci", "net"]
FABRICS: tuple[Fabric, ...] = ("nvlink", "pci", "net")

P2P_LL_THRESHOLD = 16384
"""Bytes per peer up to which point-to-point transfers use LL (NCCL_P2P_LL_THRESHOLD)."""

_US = 1e-6
BASE_LATENCY: dict[str, dict[Protocol, float]] = {
    "ring": {"LL": 6.6 * _US, "LL128": 14.0 * _US, "Simple": 8.4 * _US},
    "tree": {"LL": 6.8 * _US, "LL128": 14.0 * _US, "Simple": 0.0},
}
"""Seconds every call pays once, by algorithm and protocol."""

HOP_LATENCY: dict[Fabric, dict[str, dict[Protocol, float]]] = {
    "nvlink": {"ring": {"LL": 0.6 * _US, "LL128": 1.9 * _US, "Simple": 3.4 * _US},
               "tree": {"LL": 0.6 * _US, "LL128": 1.25 * _US, "Simple": 28 * _US}},
    "pci": {"ring": {"LL": 1.0 * _US, "LL128": 2.5 * _US, "Simple": 5.7 * _US},
            "tree": {"LL": 1.0 * _US, "LL128": 1.9 * _US, "Simple": 28 * _US}},
    "net": {"ring": {"LL": 2.7 * _US, "LL128": 4.0 * _US, "Simple": 14.0 * _US},
            "tree": {"LL": 5.0 * _US, "LL128": 8.5 * _US, "Simple": 28 * _US}},
}
"""Seconds per step, by fabric, algorithm and protocol (a tree's Simple step is a 256 kB
chunk's time)."""

LL_MAX_BANDWIDTH: tuple[float, float, float] = (87.7e9, 39.0e9, 20.4e9)
"""LL's cap on the bus bandwidth, bytes/s: one node (Hopper and Ampere), two nodes, more
than two (Intel hosts)."""

LL128_SHARE = {"several_per_node": 0.92, "one_per_node": 0.7}
"""LL128's share of the Simple bandwidth: 120 of 128 bytes less overhead; 0.7 when each node
holds one GPU of the group, which then sends and receives through the same NIC."""

TREE_SHARE = 0.92
"""A tree's bus bandwidth against the ring's."""

TREE_LL_DIVISOR = 3.8
"""A tree's LL bandwidth: its Simple bandwidth divided by this, before LL's cap."""

TREE_LL128_SHARE = {"one_node": 7 / 9, "several_nodes": 120 / 128}
"""A tree's LL128 share of its Simple bandwidth, inside one node and across nodes."""

TREE_CORRECTION: dict[Protocol, tuple[float, ...]] = {
    "LL": (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0,
           1.0, 1.0, 1.0),
    "LL128": (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9,
              .9, .9, 1.0, 1.0),
    "Simple": (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7,
               .8, .9, .9),
}
"""Trees fall below their model at medium sizes: NCCL scales their bandwidth by these
factors, indexed by floor(log2(bytes / 64)) (64 B to 256 MB); larger arrays keep 1."""


def tree_correction(protocol: Protocol, size: float) -> float:
    """NCCL's factor on a tree's bandwidth for an array of ``size`` bytes."""
    index = max(int(size) // 64, 1).bit_length() - 1
    factors = TREE_CORRECTION[protocol]
    return factors[index] if index < len(factors) else 1.0


def ll_cap(nodes: int) -> float:
    """LL's cap on the bus bandwidth for a group spread over ``nodes`` nodes, bytes/s."""
    return LL_MAX_BANDWIDTH[min(nodes, 3) - 1]


def ll_share(op: str, nodes: int) -> float:
    """LL's share of the bandwidth: a quarter, or a third for an all-gather or a
    reduce-scatter inside one node."""
    if nodes == 1 and op in ("all-gather", "reduce-scatter"):
        return 1 / 3
    return 1 / 4


def fabric_of(scope: str, key: str) -> Fabric:
    """The fabric class NCCL's constants use for a catalog link: ``net`` between nodes,
    ``pci`` for PCIe, ``nvlink`` for the other links inside a node (AMD's Infinity Fabric
    included, an assumption: RCCL keeps NCCL's model)."""
    if scope == "cluster":
        return "net"
    return "pci" if key.startswith("pcie") else "nvlink"
