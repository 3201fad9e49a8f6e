"""ZeRO-Offload and ZeRO-Infinity as a calculator: which model states live where, and the cost.

Tiers (:data:`TIERS`): ``none``, all on the GPUs; ``cpu``, ZeRO-Offload (Ren et al. 2021,
USENIX ATC, section 4.1): only the 16-bit weights stay on the GPU; the gradients (16-bit, or
fp32 if the preset keeps them so), the fp32 master weights and the moments live in the node's
CPU memory, where the CPU runs the optimizer step (2 bytes per parameter on the GPU, 2 + 4 + 8
= 14 offloaded, with AdamW in mixed precision); the states are partitioned as ZeRO-2 (the
paper's multi-GPU schedule, section 4.2); ``nvme``, ZeRO-Infinity (Rajbhandari et al. 2021,
SC21), as this library models it: master and moments on the node's NVMe, the 16-bit weights
and gradients on the GPUs sharded as ZeRO-3 (fp32 gradients, if the preset keeps them, in CPU
memory). Not counted: the GPU's gradient buckets and the CPU's staging buffers (configured
sizes, not per parameter), ZeRO-Infinity's optional offload of the 16-bit weights and
gradients, activations; a node's CPU memory can be given a margin for its buffers, the
operating system and the data loader (:attr:`Node.cpu_buffer_factor`,
:data:`DEEPSPEED_CPU_BUFFER_FACTOR`).
ZeRO-Offload here is the paper's, built on ZeRO-2: each data-parallel GPU keeps all its
16-bit weights. DeepSpeed also runs offload under ZeRO-3, which shards the weights too:
``zero=3`` in :func:`fewest_gpus` models its ``offload_optimizer: cpu`` (the offloaded
states are the same, the GPU's weights sharded); ``offload_param: cpu``, which moves the
weights to the CPU as well, is not modelled.
Each step a GPU sends its shard's 16-bit gradients to the CPU and gets the updated weights
back over PCIe: 2 + 2 bytes per parameter of its shard (Ren et al. 2021, section 4: the
2M + 2M bytes of fp16 gradients and parameters). Exact bytes (int or Fraction); seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from distlesson.catalog.hardware import GPU, get_gpu
from distlesson.catalog.interconnects import Interconnect, get_interconnect
from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import Architecture
from distlesson.checks import check_positive_int
from distlesson.memory.optimizers import Optimizer
from distlesson.memory.precision import PrecisionPreset, get_preset
from distlesson.memory.states import (
    Bytes,
    Layout,
    MemoryBreakdown,
    check_layout,
    model_states,
    per_gpu_states,
)

__all__ = [
    "DEEPSPEED_CPU_BUFFER_FACTOR", "EXERCISE_CPU_MEMORY", "EXERCISE_NODE", "EXERCISE_NVME",
    "EXERCISE_PARAMS",
    "GPUS_PER_NODE", "PAPER_ZERO", "TIERS", "Node", "OffloadComparison", "OffloadPlan",
    "Placement", "Tier", "fewest_gpus", "offload_exercise", "offload_plan", "split_states",
]

Tier = Literal["none", "cpu", "nvme"]
TIERS: tuple[Tier, ...] = ("none", "cpu", "nvme")

PAPER_ZERO: dict[str, int] = {"none": 3, "cpu": 2, "nvme": 3}
"""ZeRO stage of the GPU-resident states per tier: ZeRO-3 is the fewest-GPU choice without
offload; ZeRO-Offload shards as ZeRO-2 (Ren et al. 2021, section 4); ZeRO-Infinity is
built on ZeRO-3 (Rajbhandari et al. 2021)."""

GPUS_PER_NODE = 8
"""GPUs in one server: NVIDIA DGX H100 / HGX H100 hold eight SXM5 GPUs (datasheet, 2023)."""
EXERCISE_CPU_MEMORY = 512e9
"""CPU memory per node, bytes: "assume 512GB of CPU RAM per node" (the Persian lesson,
fifth exercise, on adding ZeRO-Offload to the memory calculator)."""
EXERCISE_NVME = 2e12
"""NVMe per node, bytes: "and 2TB of NVMe" (the same exercise)."""
EXERCISE_PARAMS = 70e9
"""The exercise's model, "70B": its nominal parameter count."""
DEEPSPEED_CPU_BUFFER_FACTOR = 1.5
"""CPU memory to plan per byte of offloaded state: DeepSpeed's own estimator multiplies the
CPU memory of the offloaded states by ``additional_buffer_factor=1.5`` (its default, in
``deepspeed.runtime.zero.stage_1_and_2.estimate_zero2_model_states_mem_needs`` and the
ZeRO-3 estimator; DeepSpeed documentation, "Memory Requirements"), for pinned transfer
buffers and the like; the operating system and the data loader need their share too."""


@dataclass(frozen=True)
class Node:
    """One server: its GPUs, its CPU memory and NVMe, and each GPU's PCIe link to the CPU."""

    gpu: GPU
    """The accelerator (its memory bounds the GPU-resident states)."""
    gpus_per_node: int
    """GPUs in the server; the CPU memory and NVMe below are shared by all of them."""
    cpu_memory_bytes: float
    """CPU RAM of the server, bytes."""
    nvme_bytes: float
    """NVMe capacity of the server, bytes."""
    pcie: Interconnect
    """The GPU-CPU link; assumed one full link per GPU (no sharing of a PCIe switch)."""
    cpu_buffer_factor: float = 1.0
    """CPU memory needed per byte of offloaded state: 1 counts the states alone; DeepSpeed's
    estimator plans :data:`DEEPSPEED_CPU_BUFFER_FACTOR`."""

    def __post_init__(self) -> None:
        check_positive_int("gpus_per_node", self.gpus_per_node)
        for name in ("cpu_memory_bytes", "nvme_bytes"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float, Fraction)) and 0 <= value < math.inf):
                raise ValueError(f"{name}={value!r} must be a finite number of bytes >= 0")
        factor = self.cpu_buffer_factor
        if not (isinstance(factor, (int, float, Fraction)) and 1 <= factor < math.inf):
            raise ValueError(f"cpu_buffer_factor={factor!r} must be a finite number >= 1")


EXERCISE_NODE = Node(gpu=get_gpu("h100-sxm"), gpus_per_node=GPUS_PER_NODE,
                     cpu_memory_bytes=EXERCISE_CPU_MEMORY, nvme_bytes=EXERCISE_NVME,
                     pcie=get_interconnect("pcie5"))
"""The exercise's server: eight H100 SXM (80 GB), 512 GB of RAM, 2 TB of NVMe, PCIe 5."""


@dataclass(frozen=True)
class Placement:
    """Model states by where they live: GPU memory, CPU memory, NVMe."""

    gpu: MemoryBreakdown
    """States in GPU memory."""
    cpu: MemoryBreakdown
    """States in the node's CPU memory."""
    nvme: MemoryBreakdown
    """States on the node's NVMe drives."""

    @property
    def total(self) -> Bytes:
        """All three together: the model states, wherever they are."""
        return self.gpu.total + self.cpu.total + self.nvme.total


_ZERO = MemoryBreakdown(0, 0, 0, 0)


def _preset(precision: str | PrecisionPreset) -> PrecisionPreset:
    return precision if isinstance(precision, PrecisionPreset) else get_preset(precision)


def _tier(tier: str) -> Tier:
    return lookup(dict(zip(TIERS, TIERS, strict=True)), tier, what="tier")


def split_states(
    model_or_params: Architecture | float | int,
    *,
    tier: Tier,
    optimizer: str | Optimizer = "adamw",
    precision: str | PrecisionPreset = "mixed",
) -> Placement:
    """The whole model's states (:func:`~distlesson.memory.states.model_states`) split by tier.

    ``none``: all on the GPUs. ``cpu`` (ZeRO-Offload, Ren et al. 2021, section 4.1: "the fp16
    parameters are stored in GPU while the fp16 gradients and all the optimizer states such
    as fp32 momentum, variance and parameters are stored in CPU"): the GPU keeps the weights
    only; the gradients, in the preset's gradient format, the master and the optimizer states
    go to CPU memory. With AdamW and ``mixed``, N parameters: GPU 2N, offloaded 2N + 4N + 8N =
    14N. ``nvme`` (ZeRO-Infinity as modelled here): master and optimizer states go to NVMe,
    the GPU keeps the weights and the gradients in the weights' 16-bit format, as the backward
    produces them; gradients wider than the weights (fp32 main grads) go to CPU memory, so the
    GPU's 16-bit copy is counted on top of them. Units: bytes, exact.
    """
    states = model_states(model_or_params, optimizer=optimizer, precision=precision)
    if _tier(tier) == "none":
        return Placement(gpu=states, cpu=_ZERO, nvme=_ZERO)
    if tier == "cpu":
        cpu = MemoryBreakdown(0, states.grads, states.master, states.optimizer)
        return Placement(gpu=MemoryBreakdown(states.weights, 0, 0, 0), cpu=cpu, nvme=_ZERO)
    preset = _preset(precision)
    wide = preset.grad_format.bytes > preset.weight_format.bytes
    # wide grads: the GPU keeps N x the weights' bytes of them, i.e. as many as the weights
    gpu = MemoryBreakdown(states.weights, states.weights if wide else states.grads, 0, 0)
    cpu_grads = states.grads if wide else 0
    nvme = MemoryBreakdown(0, 0, states.master, states.optimizer)
    return Placement(gpu=gpu, cpu=MemoryBreakdown(0, cpu_grads, 0, 0), nvme=nvme)


@dataclass(frozen=True)
class OffloadPlan:
    """Where one GPU's share of the model states lives, whether it fits, what PCIe carries."""

    tier: Tier
    """``none``, ``cpu`` (ZeRO-Offload) or ``nvme`` (ZeRO-Infinity)."""
    layout: Layout
    """dp x tp x pp and the ZeRO stage that shards the states (on GPU and offloaded alike)."""
    node: Node
    """The servers the GPUs sit in (GPUs fill one server before the next)."""
    whole: Placement
    """The whole model's states, by where they live."""
    per_gpu: Placement
    """One GPU's share of each (its CPU and NVMe share is in its own node)."""
    pcie_bytes: Fraction
    """Bytes one GPU moves over PCIe per step: its shard's gradients down, weights up."""

    @property
    def gpus_on_node(self) -> int:
        """GPUs of this job on its fullest node: min(world size, GPUs per node)."""
        return min(self.layout.world_size, self.node.gpus_per_node)

    @property
    def node_cpu_bytes(self) -> Bytes:
        """Offloaded states in the fullest node's CPU memory: per-GPU share x GPUs on it."""
        return self.per_gpu.cpu.total * self.gpus_on_node

    @property
    def node_cpu_needed(self) -> Fraction:
        """CPU memory the fullest node needs: its states x the node's buffer factor."""
        return Fraction(self.node_cpu_bytes) * Fraction(self.node.cpu_buffer_factor)

    @property
    def node_nvme_bytes(self) -> Bytes:
        """NVMe the fullest node needs: per-GPU share x GPUs on the node."""
        return self.per_gpu.nvme.total * self.gpus_on_node

    @property
    def fits(self) -> bool:
        """GPU memory, CPU memory and NVMe all hold their share (exact comparison)."""
        node = self.node
        return (self.per_gpu.gpu.total <= Fraction(node.gpu.memory_bytes)
                and self.node_cpu_needed <= Fraction(node.cpu_memory_bytes)
                and self.node_nvme_bytes <= Fraction(node.nvme_bytes))

    @property
    def pcie_seconds(self) -> Fraction:
        """pcie_bytes / the link's one-way bandwidth, seconds: down, then up (the CPU step
        needs every gradient before it sends a weight back). A lower bound on the slowdown
        of a step that overlaps nothing; the CPU's optimizer step itself is not counted."""
        return Fraction(self.pcie_bytes) / Fraction(self.node.pcie.bandwidth)

    @property
    def nvme_traffic_bytes(self) -> Bytes:
        """NVMe bytes per step for one GPU's share: read once and written back updated by the
        CPU step (Rajbhandari et al. 2021 run it chunk by chunk): 2 x the share."""
        return 2 * self.per_gpu.nvme.total


def offload_plan(
    model_or_params: Architecture | float | int,
    *,
    tier: Tier,
    layout: Layout,
    node: Node = EXERCISE_NODE,
    optimizer: str | Optimizer = "adamw",
    precision: str | PrecisionPreset = "mixed",
) -> OffloadPlan:
    """One layout's placement of the model states, per GPU, with its PCIe traffic per step.

    Equations: per GPU = :func:`~distlesson.memory.states.per_gpu_states` of each tier's part
    (offloaded partitions are sharded like the GPU states they belong to). PCIe bytes per
    GPU and step = 2 x b_w x N / (tp x pp x dp'), b_w the weights' bytes (2 for bf16), dp'
    = dp when ZeRO partitions the optimizer (stage >= 1), else 1; 0 without offload.
    Assumptions: the CPU and NVMe shares of a node are those of its GPUs; the layout fits the
    architecture (:func:`~distlesson.memory.states.check_layout`). Units: bytes and seconds, exact.
    """
    if not isinstance(layout, Layout):
        raise ValueError(f"layout={layout!r} must be a distlesson.memory.states.Layout")
    if isinstance(model_or_params, Architecture):
        check_layout(model_or_params, layout)
    whole = split_states(model_or_params, tier=tier, optimizer=optimizer, precision=precision)
    per_gpu = Placement(*(per_gpu_states(part, layout)
                          for part in (whole.gpu, whole.cpu, whole.nvme)))
    pcie = Fraction(0)
    if tier != "none":
        weight_bytes = _preset(precision).weight_format.bytes
        params = Fraction(whole.gpu.weights, weight_bytes)
        shard = layout.tp * layout.pp * (layout.dp if layout.zero >= 1 else 1)
        pcie = 2 * weight_bytes * params / shard
    return OffloadPlan(tier=tier, layout=layout, node=node, whole=whole, per_gpu=per_gpu,
                       pcie_bytes=pcie)


def _layouts(gpus: int, node: Node, zero: int, arch: Architecture | None) -> list[Layout]:
    """dp x tp layouts of ``gpus`` GPUs, tp inside one node, smallest tp first."""
    layouts = []
    for tp in range(1, node.gpus_per_node + 1):
        if node.gpus_per_node % tp or gpus % tp:
            continue
        layout = Layout(dp=gpus // tp, tp=tp, zero=zero)
        if arch is not None:
            try:
                check_layout(arch, layout)
            except ValueError:
                continue
        layouts.append(layout)
    return layouts


def fewest_gpus(
    model_or_params: Architecture | float | int,
    *,
    tier: Tier,
    node: Node = EXERCISE_NODE,
    optimizer: str | Optimizer = "adamw",
    precision: str | PrecisionPreset = "mixed",
    zero: int | None = None,
    whole_nodes: bool = True,
    max_nodes: int = 64,
) -> OffloadPlan | None:
    """The plan with the fewest GPUs whose GPU memory, CPU memory and NVMe hold the states.

    Search: world sizes in increasing order; for each, tp dividing the node size (smallest
    first: ZeRO-2 replicates the weights, so a 70B model needs tp, as Ren et al. 2021 pair
    ZeRO-Offload with model parallelism), dp = GPUs / tp, pp = 1; ``zero`` defaults to
    :data:`PAPER_ZERO`. ``whole_nodes=True`` counts GPUs in whole servers, because the CPU
    memory and NVMe come with the server: a job that needs two servers' RAM rents their GPUs
    too. With ``False`` any count is tried, filling one server before the next. Returns None
    if nothing fits on ``max_nodes`` servers; the count is the plan's ``layout.world_size``.
    """
    check_positive_int("max_nodes", max_nodes)
    stage = PAPER_ZERO[_tier(tier)] if zero is None else zero
    arch = model_or_params if isinstance(model_or_params, Architecture) else None
    step = node.gpus_per_node if whole_nodes else 1
    for gpus in range(step, max_nodes * node.gpus_per_node + 1, step):
        for layout in _layouts(gpus, node, stage, arch):
            plan = offload_plan(model_or_params, tier=tier, layout=layout, node=node,
                                optimizer=optimizer, precision=precision)
            if plan.fits:
                return plan
    return None


@dataclass(frozen=True)
class OffloadComparison:
    """The fewest-GPU plan of each tier for one model and node (None: nothing fits)."""

    none: OffloadPlan | None
    """Everything on the GPUs, ZeRO-3."""
    cpu: OffloadPlan | None
    """ZeRO-Offload: gradients, master and moments in CPU memory, ZeRO-2 partitioning."""
    nvme: OffloadPlan | None
    """ZeRO-Infinity: master and moments on NVMe, ZeRO-3 on the GPUs."""

    def gpus(self, tier: Tier) -> int | None:
        """The tier's fewest GPUs (None if nothing fits)."""
        plan = getattr(self, _tier(tier))
        return None if plan is None else plan.layout.world_size


def offload_exercise(
    *,
    params: float | int = EXERCISE_PARAMS,
    node: Node = EXERCISE_NODE,
    optimizer: str | Optimizer = "adamw",
    precision: str | PrecisionPreset = "mixed",
    whole_nodes: bool = True,
) -> OffloadComparison:
    """The Persian lesson's exercise: does offload train a 70B model on fewer than 16 GPUs?

    Its statement: offloading the optimizer states to the CPU "lets a 70B model train on
    [fewer] GPUs instead of 16, at the cost of 30-50% slower optimizer steps", with 512 GB
    of RAM and 2 TB of NVMe per node. This returns what the library computes for each tier
    (the GPU counts, each plan's PCIe bytes and seconds per step); the 30-50% is not
    computed, as it depends on how much of the transfer and CPU step overlaps compute.
    """
    return OffloadComparison(*(
        fewest_gpus(params, tier=tier, node=node, optimizer=optimizer, precision=precision,
                    whole_nodes=whole_nodes)
        for tier in TIERS
    ))
