"""What the hardware achieves, against its datasheet: measured figures, each with its source.

Datasheet peaks (:mod:`distlesson.catalog.hardware`, :mod:`distlesson.catalog.interconnects`)
are never reached. The performance model needs what real kernels and real collectives do:

- **Links.** Austin et al. 2025 ("How to Scale Your Model", part 12, *How to Think About
  GPUs*, "Empirical measurements") measured NCCL all-reduce on an 8 x H100 node with SHARP
  off: a bus bandwidth of about 370 GB/s for the largest messages (against 450 GB/s
  nominal), the figure NCCL's maintainers also give (nccl-tests issue 212), and about
  150 GB/s for a 58 MB array (Llama 3 70B's MLP shard, bf16[8192, 3584]). The first fixes
  beta of the alpha-beta model (:mod:`distlesson.parallel.alpha_beta`), as a share of the
  nominal bandwidth; the latencies are NCCL's own (:mod:`distlesson.catalog.nccl_tuning`),
  and the second point is a check the model fails (it is about twice as fast there), shown
  on the communication and accuracy chapters. NVIDIA gives figures for two more links, the
  A100's NVLink and InfiniBand NDR (:data:`ACHIEVED_BUSBW`); the others keep the achieved
  share of the measured link of their scope (stated where used, and on the accuracy
  chapter).
- **Kernels.** The tile that cuBLAS gives each streaming multiprocessor and the number of
  multiprocessors decide how well a matrix product of a given shape fills the GPU (NVIDIA,
  *Matrix Multiplication Background User's Guide*, 2023, sections 2.3 and 3: tile and wave
  quantization). FlashAttention-2 reaches "50-73% of the theoretical maximum FLOPs/s on
  A100" (Dao 2023, abstract); training runs its backward too, so the low end is used.
  The share of the peak that large, well-shaped matrix products reach is not published per
  GPU in a form we can cite: it is the one calibrated input of the performance model,
  fitted on one published run per GPU (and once more for an older release of the software
  on the same GPU, for the accuracy chapter's older runs) and checked on the others
  (:mod:`distlesson.efficiency.accuracy`).
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.catalog.lookup import lookup

__all__ = ["ACHIEVED_BUSBW", "EARLIER_SOFTWARE", "GEMM_EFFICIENCY", "KERNEL_SPECS",
           "LINK_MEASUREMENT", "SHARE_REFERENCE", "KernelSpec", "LinkMeasurement",
           "gemm_efficiency", "get_kernel_spec"]


@dataclass(frozen=True)
class LinkMeasurement:
    """An NCCL all-reduce measured on real GPUs: two points of bus bandwidth against size."""

    link: str
    """Interconnect key of the link measured."""
    ranks: int
    """GPUs in the all-reduce."""
    large_busbw: float
    """Bus bandwidth for the largest messages, bytes/s (NCCL-tests' busbw)."""
    mid_bytes: float
    """Size of the array of the second point, bytes."""
    mid_busbw: float
    """Bus bandwidth measured at that size, bytes/s."""
    source: str


LINK_MEASUREMENT = LinkMeasurement(
    link="nvlink4", ranks=8, large_busbw=370e9, mid_bytes=8192 * 3584 * 2, mid_busbw=150e9,
    source="Austin et al. 2025, How to Scale Your Model, part 12 (GPUs), 'Empirical "
    "measurements': NCCL all-reduce on 8 x H100 with SHARP off, about 370 GB/s bus bandwidth "
    "for large arrays and about 150 GB/s for bf16[8192, 3584] (58 MB)")


ACHIEVED_BUSBW: dict[str, tuple[float, str]] = {
    "nvlink4": (LINK_MEASUREMENT.large_busbw,
                f"{LINK_MEASUREMENT.source}; NCCL's maintainer gives the same 370 GB/s as "
                "the effective NVLink bandwidth of an H100 (nccl-tests issue 212, 2024)"),
    "nvlink3": (235e9,
                "NVIDIA/nccl src/graph/tuning.cc (2.8, commit 01afd20): NCCL's tuner caps an "
                "A100 node's bus bandwidth at 235 GB/s, against NVLink 3's 300 GB/s"),
    "ib-ndr": (47e9,
               "nccl-tests issue 290 (2025), NVIDIA's NCCL team: 'For NDR @ 400Gbps you "
               "should see 46-48GB/s per NIC'; the middle, against 50 GB/s nominal"),
}
"""Large-array bus bandwidth NCCL achieves on a link, bytes/s, with its source, by link key.
A link with no figure here keeps the achieved share of the measured link of its scope
(:data:`SHARE_REFERENCE`): an assumption, stated on the accuracy chapter."""

SHARE_REFERENCE = {"node": "nvlink4", "cluster": "ib-ndr"}
"""The measured link whose achieved share an unmeasured link of each scope keeps."""


@dataclass(frozen=True)
class KernelSpec:
    """How a GPU runs the kernels of a training step."""

    gpu: str
    """GPU catalog key."""
    multiprocessors: int
    """Streaming multiprocessors (compute units) that run the tiles of a matrix product."""
    tile: tuple[int, int]
    """Output tile (rows, columns) one multiprocessor computes at a time."""
    attention_efficiency: float
    """Share of the dense peak that fused (flash) attention reaches, forward and backward."""
    source: str


_FLASH = ("FlashAttention-2 (Dao 2023): 50-73% of the A100's peak; the low end, since a "
          "training step also runs the slower backward")
_TILE = "cuBLAS's large tile, 256 x 128 (NVIDIA Matrix Multiplication Background, 2.3)"

_CATALOG = (
    KernelSpec("h100-sxm", 132, (256, 128), 0.5,
               f"NVIDIA H100 datasheet and architecture whitepaper: 132 SMs (SXM5); {_TILE}; "
               f"{_FLASH}"),
    KernelSpec("h200-sxm", 132, (256, 128), 0.5,
               f"the H100 SXM's GH100 die: 132 SMs; {_TILE}; {_FLASH}"),
    KernelSpec("h800-sxm", 132, (256, 128), 0.5,
               f"the H100 SXM's GH100 die: 132 SMs; {_TILE}; {_FLASH}"),
    KernelSpec("a100-80gb", 108, (256, 128), 0.5,
               f"NVIDIA A100 datasheet and Ampere whitepaper: 108 SMs; {_TILE}; {_FLASH}"),
    KernelSpec("b200", 148, (256, 128), 0.5,
               f"NVIDIA Blackwell architecture technical brief: 148 SMs; {_TILE} (assumed, "
               f"as on Hopper); {_FLASH}"),
    KernelSpec("mi300x", 304, (256, 128), 0.5,
               f"AMD Instinct MI300X data sheet: 304 compute units; {_TILE} (assumed, as for "
               f"NVIDIA's libraries); {_FLASH}"),
)

KERNEL_SPECS: dict[str, KernelSpec] = {spec.gpu: spec for spec in _CATALOG}
"""How each catalog GPU runs kernels, by GPU key."""


def get_kernel_spec(gpu: str) -> KernelSpec:
    """The kernel spec of GPU ``gpu``; ValueError listing the allowed keys otherwise."""
    return lookup(KERNEL_SPECS, gpu, what="gpu")


GEMM_EFFICIENCY: dict[str, tuple[float, str]] = {
    "h100-sxm": (0.532, "llama3-405b-8k"),
    "a100-80gb": (0.828, "korthikanti-1t-mfu"),
}
"""Share of the dense peak that large, well-shaped matrix products reach, by GPU, and the
published run it is fitted on (:data:`distlesson.efficiency.accuracy.RUNS`): the model's
one calibrated input. ``tests/test_accuracy.py`` fits it again and fails if the stored
value drifts from the fit (then rerun ``scripts/calibrate.py``)."""
EARLIER_SOFTWARE: dict[str, tuple[float, str]] = {
    "megatron-lm-2021": (0.755, "narayanan-1008.0b"),
}
"""The same share for software older than the stack :data:`GEMM_EFFICIENCY` is fitted on, by
software key of :mod:`distlesson.catalog.published_runs`, with the run it is fitted on.
Megatron-LM as Narayanan et al. ran it in 2021 predates the release Korthikanti et al.
measured in 2022 (BLOOM's Megatron-DeepSpeed is a fork of it, through Microsoft's
Megatron-DeepSpeed): fitted on its trillion-parameter run, the same model, tensor and
pipeline layout and GPUs as the A100's own fit, a year of software apart. Only the
accuracy chapter uses it: every other page models today's software."""
_SAME_DIE = {"h200-sxm": "h100-sxm", "h800-sxm": "h100-sxm"}
"""GPUs with the H100's GH100 die: its fitted share."""


def gemm_efficiency(gpu: str) -> float:
    """The calibrated share of peak for ``gpu``: its own fit, its die's, or, for a GPU no
    published run calibrates (B200, MI300X), the H100's (an assumption)."""
    get_kernel_spec(gpu)
    key = gpu if gpu in GEMM_EFFICIENCY else _SAME_DIE.get(gpu, "h100-sxm")
    return GEMM_EFFICIENCY[key][0]
