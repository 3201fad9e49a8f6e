"""How GPUs are wired together: NVLink domains and the fabrics between them, with sources.

Two layers decide how fast a collective runs (:mod:`distlesson.parallel.alpha_beta`):

* an **NVLink domain**: GPUs that reach each other through NVLink switches at the full
  NVLink bandwidth, all pairs at once. An HGX/DGX H100 server is a domain of 8; a GB200
  NVL72 rack is one domain of 72 (so tensor parallelism can span a rack, not only a server);
* a **fabric** between domains: one network port per GPU. In a *rail-optimised* fat tree the
  k-th GPU of every server plugs into the k-th leaf switch (its rail), so the GPUs of the
  same rank in each server are one switch apart, which is what the hierarchical collectives
  use (k rails in parallel, one per GPU of a server). Upper layers of the tree may be
  *oversubscribed*: fewer uplinks than downlinks, so traffic that crosses them shares
  bandwidth. InfiniBand and RoCE (RDMA over Converged Ethernet) offer the same 400 Gb/s
  per port; they differ in how the network avoids losing packets (InfiniBand's credits,
  RoCE's priority flow control and congestion notification), not in the figure this
  course models.

Bandwidths come from :mod:`distlesson.catalog.interconnects` (one direction, per GPU); this
module adds the shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.lookup import lookup

__all__ = ["DOMAINS", "FABRICS", "Fabric", "NVLinkDomain", "get_domain", "get_fabric"]


@dataclass(frozen=True)
class NVLinkDomain:
    """GPUs joined by NVLink switches: every pair at the full link bandwidth."""

    key: str
    display_name: str
    gpus: int
    """GPUs in the domain."""
    link: str
    """Interconnect key of each GPU's NVLink (bandwidth one way, per GPU)."""
    source: str

    def __post_init__(self) -> None:
        if self.gpus < 2:
            raise ValueError(f"gpus={self.gpus!r}: a domain joins at least 2 GPUs")
        get_interconnect(self.link)

    @property
    def bandwidth(self) -> float:
        """Bytes per second one GPU sends into the domain, one way."""
        return get_interconnect(self.link).bandwidth


@dataclass(frozen=True)
class Fabric:
    """A scale-out network between NVLink domains, one port per GPU."""

    key: str
    display_name: str
    link: str
    """Interconnect key of one GPU's port (bandwidth one way)."""
    rail_optimised: bool
    """Whether the k-th GPU of every server shares a leaf switch (its rail)."""
    full_bisection_gpus: int
    """GPUs within which the tree is not oversubscribed (a scalable unit, a pod)."""
    oversubscription: float
    """Downlinks per uplink above that size (1: non-blocking; 7: Llama 3's 1:7)."""
    source: str

    def __post_init__(self) -> None:
        get_interconnect(self.link)
        if self.full_bisection_gpus < 1:
            raise ValueError(f"full_bisection_gpus={self.full_bisection_gpus!r} must be >= 1")
        if not self.oversubscription >= 1:
            raise ValueError(f"oversubscription={self.oversubscription!r} must be >= 1")

    def bandwidth(self, gpus: int) -> float:
        """Bytes per second one GPU can send one way when all ``gpus`` send at once across
        the whole group: the port's, divided by the oversubscription beyond the
        non-blocking size (an upper bound: congestion can take more)."""
        port = get_interconnect(self.link).bandwidth
        return port if gpus <= self.full_bisection_gpus else port / self.oversubscription


_DOMAINS = (
    NVLinkDomain(
        key="hgx-h100", display_name="HGX H100 (8 GPUs)", gpus=8, link="nvlink4",
        source="NVIDIA DGX H100 user guide / H100 datasheet: 8 H100 SXM5 GPUs joined by four "
        "NVSwitch chips, NVLink 900 GB/s per GPU (both directions)"),
    NVLinkDomain(
        key="gb200-nvl72", display_name="GB200 NVL72 (72 GPUs)", gpus=72, link="nvlink5",
        source="NVIDIA GB200 NVL72 specifications: 72 Blackwell GPUs in one NVLink domain, "
        "130 TB/s of NVLink bandwidth in all (72 x 1.8 TB/s, both directions)"),
)

_FABRICS = (
    Fabric(
        key="superpod-h100", display_name="DGX SuperPOD H100 (InfiniBand NDR)",
        link="ib-ndr", rail_optimised=True, full_bisection_gpus=32 * 8,
        oversubscription=1.0,
        source="NVIDIA DGX SuperPOD reference architecture (DGX H100): a rail-optimised, "
        "non-blocking fat tree of Quantum-2 NDR switches, one 400 Gb/s ConnectX-7 port per "
        "GPU, scalable units of 32 servers (256 GPUs) joined by a non-blocking spine"),
    Fabric(
        key="llama3-roce", display_name="Llama 3 405B's cluster (RoCE)", link="roce-400",
        rail_optimised=True, full_bisection_gpus=3072, oversubscription=7.0,
        source="Llama 3 (Grattafiori et al. 2024), section 3.3.1: 24K H100s on RoCE, 400 "
        "Gb/s per GPU; a rack holds 16 GPUs under one top-of-rack switch, 192 racks form a "
        "pod of 3,072 GPUs with full bisection bandwidth, and the aggregation layer between "
        "the eight pods is oversubscribed 1:7; smaller Llama 3 models trained on NVIDIA "
        "Quantum-2 InfiniBand"),
)

DOMAINS: dict[str, NVLinkDomain] = {d.key: d for d in _DOMAINS}
FABRICS: dict[str, Fabric] = {f.key: f for f in _FABRICS}


def get_domain(key: str) -> NVLinkDomain:
    """The NVLink domain named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(DOMAINS, key, what="NVLink domain")


def get_fabric(key: str) -> Fabric:
    """The fabric named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(FABRICS, key, what="fabric")
