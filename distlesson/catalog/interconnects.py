"""The interconnect catalog: how fast bytes move between GPUs, with the source of each figure.

Bandwidths are per GPU and per direction, the figure that bounds how long one GPU takes to
send its share of a collective. Vendors often print the bidirectional sum (NVLink 4's
"900 GB/s") or the line rate in bits (InfiniBand NDR's "400 Gb/s"); we keep the unidirectional
bytes per second and say how it was derived. To add one, append an ``Interconnect(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.catalog.lookup import lookup

__all__ = ["INTERCONNECTS", "Interconnect", "get_interconnect"]


@dataclass(frozen=True)
class Interconnect:
    """One link technology between GPUs."""

    key: str
    """Catalog key (``nvlink4``)."""
    display_name: str
    """Name for prose and tables."""
    bandwidth: float
    """Bytes per second one GPU can send (one direction), at the link's peak."""
    scope: str
    """``node`` (GPUs of one server) or ``cluster`` (between servers)."""
    source: str
    """Where the figure comes from, and how it was converted."""
    date: str
    """Date of the source (ISO year-month, or the year alone when the month is not known)."""

    def __post_init__(self) -> None:
        if not self.bandwidth > 0:
            raise ValueError(f"bandwidth={self.bandwidth!r} must be positive")
        if self.scope not in ("node", "cluster"):
            raise ValueError(f"scope={self.scope!r} must be 'node' or 'cluster'")


_CATALOG = (
    Interconnect(
        key="nvlink4", display_name="NVLink 4", bandwidth=450e9, scope="node",
        source="NVIDIA H100 Tensor Core GPU datasheet (SXM5): NVLink 900 GB/s, the sum of "
        "both directions, so 450 GB/s each way",
        date="2023-09",
    ),
    Interconnect(
        key="nvlink3", display_name="NVLink 3", bandwidth=300e9, scope="node",
        source="NVIDIA A100 Tensor Core GPU datasheet (SXM): NVLink 600 GB/s, the sum of "
        "both directions, so 300 GB/s each way",
        date="2022-06",
    ),
    Interconnect(
        key="nvlink5", display_name="NVLink 5", bandwidth=1.8e12 / 2, scope="node",
        source="NVIDIA HGX B200 / DGX B200 specifications: fifth-generation NVLink 1.8 TB/s "
        "per GPU, the sum of both directions (14.4 TB/s for 8 GPUs), so 900 GB/s each way",
        date="2024",
    ),
    Interconnect(
        key="nvlink4-h800", display_name="NVLink (H800)", bandwidth=400e9 / 2, scope="node",
        source="NVIDIA H800 datasheet (SXM5) and DeepSeek (Zhao et al. 2025, arXiv "
        "2505.09343): NVLink cut from the H100's 900 GB/s to 400 GB/s, the sum of both "
        "directions, so 200 GB/s each way",
        date="2025-05",
    ),
    Interconnect(
        key="infinity-fabric", display_name="Infinity Fabric (MI300X)", bandwidth=896e9 / 2,
        scope="node",
        source="AMD Instinct MI300X data sheet: 7 Infinity Fabric links of 128 GB/s peak "
        "each, 896 GB/s peer-to-peer in all (7 x 128), both directions summed (a link is 16 "
        "lanes at 32 GT/s: 16 x 32e9 / 8 = 64 GB/s each way). One GPU sending to its 7 peers "
        "at once: 896 / 2 = 448 GB/s each way; to a single peer only one link, 64 GB/s",
        date="2023-12",
    ),
    Interconnect(
        key="ib-ndr", display_name="InfiniBand NDR", bandwidth=400e9 / 8, scope="cluster",
        source="NVIDIA ConnectX-7 / Quantum-2 NDR: 400 Gb/s per port and direction, one "
        "port per GPU as in DGX H100; 400e9 bits / 8 = 50e9 bytes per second",
        date="2023-03",
    ),
    Interconnect(
        key="ib-hdr", display_name="InfiniBand HDR", bandwidth=200e9 / 8, scope="cluster",
        source="NVIDIA DGX A100 datasheet: eight single-port ConnectX-6 HDR InfiniBand "
        "adapters, 200 Gb/s each, one per GPU; 200e9 bits / 8 = 25e9 bytes per second",
        date="2020-05",
    ),
    Interconnect(
        key="roce-400", display_name="RoCE", bandwidth=400e9 / 8, scope="cluster",
        source="Llama 3 (Grattafiori et al. 2024), section 3.3.1: the 405B model trained on "
        "RDMA over Converged Ethernet, 400 Gb/s between GPUs; 400e9 bits / 8 = 50e9 bytes "
        "per second",
        date="2024-07",
    ),
    Interconnect(
        key="opa-100x4", display_name="Omni-Path",
        bandwidth=4 * 100e9 / 8 / 8, scope="cluster",
        source="BigScience, BLOOM (Le Scao et al. 2022), training hardware, and the tr11-176B-ml "
        "README: Jean Zay's A100 nodes have four Omni-Path links of 100 Gb/s for 8 GPUs; "
        "4 x 100e9 bits / 8 bits / 8 GPUs = 6.25e9 bytes per second per GPU",
        date="2022-11",
    ),
    Interconnect(
        key="pcie5", display_name="PCIe 5.0 x16", bandwidth=64e9, scope="node",
        source="PCI-SIG PCIe 5.0 specification: 32 GT/s per lane, 16 lanes, 128b/130b "
        "encoding, about 63 GB/s each way; rounded to the commonly quoted 64 GB/s",
        date="2019-05",
    ),
)

INTERCONNECTS: dict[str, Interconnect] = {link.key: link for link in _CATALOG}
"""The catalog of interconnects, by key."""


def get_interconnect(key: str) -> Interconnect:
    """The catalog entry named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(INTERCONNECTS, key, what="interconnect")
