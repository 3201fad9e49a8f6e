"""The accelerator catalog: memory, peak dense throughput and bandwidth, each with its source.

Peaks are the vendor's dense (no structured sparsity) figures. Datasheets often print the
2:4-sparse figure, which is twice the dense one; we keep the dense one and say so.
Each entry also names the link between the GPUs of one server (a key of
:mod:`distlesson.catalog.interconnects`) and how many GPUs a server holds.
To add an accelerator, append one ``GPU(...)`` to ``_CATALOG`` with its source and date.
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.catalog.interconnects import Interconnect, get_interconnect
from distlesson.catalog.lookup import lookup
from distlesson.checks import check_positive_int

__all__ = ["GPU", "GPUS", "get_gpu"]


@dataclass(frozen=True)
class GPU:
    """One accelerator model, as its datasheet describes it."""

    key: str
    """Catalog key used on the command line (``--gpu h100-sxm``)."""
    display_name: str
    """Name for prose and tables."""
    memory_bytes: float
    """High-bandwidth memory, in bytes (the datasheet's nominal decimal GB x 1e9)."""
    bf16_dense_flops: float
    """Peak dense bf16 tensor-core throughput, FLOP/s (no sparsity)."""
    fp8_dense_flops: float | None
    """Peak dense fp8 tensor-core throughput, FLOP/s, or None if the chip has no fp8."""
    hbm_bandwidth: float
    """Peak memory bandwidth, bytes/s."""
    source: str
    """Where the figures come from."""
    date: str
    """Date of the source (ISO year-month, or the year alone when the month is not known)."""
    intra_node_link: str
    """The link between the GPUs of one server: a key of the interconnect catalog."""
    gpus_per_node: int = 8
    """GPUs in one server (an HGX/DGX or OAM board of eight, for every entry here)."""
    tf32_dense_flops: float | None = None
    """Peak dense TF32 tensor-core throughput, FLOP/s: fp32 matrix products run on the tensor
    cores with inputs rounded to TF32's 10 mantissa bits. None where not recorded."""
    fp32_flops: float | None = None
    """Peak plain fp32 throughput of the CUDA cores (no tensor cores), FLOP/s. None where not
    recorded."""

    def __post_init__(self) -> None:
        for field in ("memory_bytes", "bf16_dense_flops", "hbm_bandwidth"):
            value = getattr(self, field)
            if not value > 0:
                raise ValueError(f"{field}={value!r} must be positive")
        for field in ("fp8_dense_flops", "tf32_dense_flops", "fp32_flops"):
            value = getattr(self, field)
            if value is not None and not value > 0:
                raise ValueError(f"{field}={value!r} must be positive or None")
        get_interconnect(self.intra_node_link)  # ValueError listing the allowed keys
        check_positive_int("gpus_per_node", self.gpus_per_node)

    @property
    def intra_node(self) -> Interconnect:
        """The interconnect entry named by :attr:`intra_node_link`."""
        return get_interconnect(self.intra_node_link)


_CATALOG = (
    GPU(
        key="h100-sxm",
        display_name="H100 SXM",
        # The datasheet's "80GB". Physically the HBM3 stacks hold 80 GiB (85.9e9 bytes), of
        # which about 79.6 GiB (85.5e9 bytes) is addressable; the nominal 80e9 used here is
        # therefore slightly below what a job can use, a small safety margin.
        memory_bytes=80e9,
        bf16_dense_flops=989e12,  # the datasheet's 1,979 TFLOPS is with 2:4 sparsity
        fp8_dense_flops=1979e12,  # the datasheet's 3,958 TFLOPS is with 2:4 sparsity
        hbm_bandwidth=3.35e12,
        source="NVIDIA H100 Tensor Core GPU datasheet, SXM5 column",
        date="2023-09",
        intra_node_link="nvlink4",
        tf32_dense_flops=989e12 / 2,  # the datasheet's 989 TFLOPS is with 2:4 sparsity
        fp32_flops=67e12,  # the datasheet's "FP32 67 teraFLOPS" (CUDA cores)
    ),
    GPU(
        key="a100-80gb",
        display_name="A100 80GB",
        memory_bytes=80e9,  # nominal "80GB" HBM2e, as for the H100 above
        bf16_dense_flops=312e12,  # the datasheet's 624 TFLOPS is with sparsity
        fp8_dense_flops=None,  # Ampere has no fp8 tensor cores
        hbm_bandwidth=2.039e12,
        source="NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column",
        date="2022-06",
        intra_node_link="nvlink3",
        tf32_dense_flops=156e12,  # the datasheet's 312 TFLOPS is with sparsity
        fp32_flops=19.5e12,  # the datasheet's "FP32 19.5 TFLOPS" (CUDA cores)
    ),
    GPU(
        key="h200-sxm",
        display_name="H200 SXM",
        memory_bytes=141e9,  # HBM3e, the datasheet's "141GB"
        # Same GH100 compute as the H100 SXM: the datasheet prints the same 1,979 (bf16) and
        # 3,958 (fp8) TFLOPS "with sparsity"; dense is half.
        bf16_dense_flops=989e12,
        fp8_dense_flops=1979e12,
        hbm_bandwidth=4.8e12,
        source="NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column (announced at SC23); "
        "tensor-core figures printed with sparsity, halved here",
        date="2023-11",
        intra_node_link="nvlink4",
    ),
    GPU(
        key="b200",
        display_name="B200",
        # The HGX B200 / DGX B200 specifications give 8 GPUs "1,440GB" of HBM3e in total:
        # 1440 / 8 = 180 GB per GPU. NVIDIA's first announcement (GTC, 2024-03) said 192 GB
        # (eight 24 GB stacks); the shipping board exposes 180 GB, which is what a job sees.
        memory_bytes=1440e9 / 8,
        # Board totals "with sparsity": FP16/BF16 36 PFLOPS and FP8 72 PFLOPS for 8 GPUs.
        # Per GPU and dense: 36e15 / 8 / 2 = 2.25e15 and 72e15 / 8 / 2 = 4.5e15. (The
        # per-GPU 4.5 and 9 PFLOPS often quoted for fp8 and fp4 are the sparse figures.)
        bf16_dense_flops=36e15 / 8 / 2,
        fp8_dense_flops=72e15 / 8 / 2,
        hbm_bandwidth=64e12 / 8,  # the board's 64 TB/s over 8 GPUs: 8 TB/s each
        source="NVIDIA HGX B200 platform specifications and DGX B200 datasheet (8-GPU board "
        "totals divided by 8; tensor-core figures printed with sparsity, halved here: dense "
        "bf16 2.25 PFLOP/s and fp8 4.5 PFLOP/s per GPU, at the HGX board's 1,000 W)",
        date="2024",
        intra_node_link="nvlink5",
    ),
    GPU(
        key="mi300x",
        display_name="MI300X",
        memory_bytes=192e9,  # HBM3, eight 24 GB stacks
        bf16_dense_flops=1307.4e12,  # AMD prints 2,614.9 TFLOPS with sparsity, 1,307.4 dense
        fp8_dense_flops=2614.9e12,  # 5,229.8 TFLOPS with sparsity
        hbm_bandwidth=5.3e12,
        source="AMD Instinct MI300X accelerator data sheet: peak theoretical dense matrix "
        "figures (AMD lists the sparse ones separately)",
        date="2023-12",
        intra_node_link="infinity-fabric",
    ),
    GPU(
        key="h800-sxm",
        display_name="H800 SXM",
        # DeepSeek-V3's GPU: the H100 SXM's GH100 die, memory and tensor cores, with NVLink
        # cut to 400 GB/s (and fp64 cut, irrelevant here). Figures as for the H100 SXM.
        memory_bytes=80e9,
        bf16_dense_flops=989e12,
        fp8_dense_flops=1979e12,
        hbm_bandwidth=3.35e12,
        source="NVIDIA H800 Tensor Core GPU datasheet (SXM5): H100 SXM compute, memory and "
        "bandwidth; NVLink 400 GB/s. The NVLink cut is confirmed by DeepSeek (Zhao et al. "
        "2025, Insights into DeepSeek-V3, arXiv 2505.09343)",
        date="2023-03",
        intra_node_link="nvlink4-h800",
    ),
)

GPUS: dict[str, GPU] = {gpu.key: gpu for gpu in _CATALOG}
"""The catalog of accelerators, by key."""


def get_gpu(key: str) -> GPU:
    """The catalog entry named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(GPUS, key, what="gpu")
