"""The accelerator catalog: memory, peak dense throughput and bandwidth, each with its source.

Peaks are the vendor's dense (no structured sparsity) figures. Datasheets often print the
2:4-sparse figure, which is twice the dense one; we keep the dense one and say so.
To add an accelerator, append one ``GPU(...)`` to ``_CATALOG`` with its source and date.
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.lookup import lookup

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
    """Date of the source (ISO year-month)."""

    def __post_init__(self) -> None:
        for field in ("memory_bytes", "bf16_dense_flops", "hbm_bandwidth"):
            value = getattr(self, field)
            if not value > 0:
                raise ValueError(f"{field}={value!r} must be positive")
        if self.fp8_dense_flops is not None and not self.fp8_dense_flops > 0:
            raise ValueError(f"fp8_dense_flops={self.fp8_dense_flops!r} must be positive or None")


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
    ),
)

GPUS: dict[str, GPU] = {gpu.key: gpu for gpu in _CATALOG}
"""The catalog of accelerators, by key."""


def get_gpu(key: str) -> GPU:
    """The catalog entry named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(GPUS, key, what="gpu")
