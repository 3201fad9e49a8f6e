"""Expert parallelism in a layout: where the experts go, what each GPU holds, what it sends.

A layout dp x tp x pp splits a mixture-of-experts model as Megatron-LM and DeepSeek-V3 do:
attention, dense MLPs, shared experts, router and embeddings ("dense" parameters) are split
by tp and replicated over dp; the routed experts are split by ep, whose ranks are carved out
of the dp x tp GPUs of a stage, and replicated over the remaining dp x tp / ep ("expert data
parallelism", Megatron-LM's expert-data-parallel group). Experts are not tensor-split.
ZeRO shards the dense parameters' states over dp and the experts' over dp x tp / ep. Every
expert's weights and optimizer states are paid for, however few of them a token uses.

With DualPipe (DeepSeek-V3's schedule, report section 3.2.1) pipeline rank r holds two
stages, r and pp - 1 - r: the report's "2x parameters". Activations are counted as a floor,
the layer inputs kept under full recomputation (seq x micro_batch x hidden bf16 values per
layer and micro-batch in flight: pp micro-batches in 1F1B, pp + 1 in DualPipe, Table 2 of
the report); what a layer keeps beyond its input under selective recomputation is not
counted, nor buffers. The all-to-all bytes are :func:`all_to_all_bytes`'s. Units: bytes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.moe import MoEArchitecture, moe_parameter_tensors
from distlesson.checks import check_positive_int
from distlesson.memory.precision import BF16, FP32, PrecisionPreset
from distlesson.memory.states import MemoryBreakdown, model_states
from distlesson.parallel.alpha_beta import group_collective

__all__ = [
    "DEEPSEEK_V3_LAYOUT",
    "DEEPSEEK_V3_RECIPE",
    "DEEPSEEK_V3_WORKLOAD",
    "FP8_WITH_SCALES",
    "ExpertLayout",
    "ExpertMemory",
    "ExpertWorkload",
    "StageParams",
    "all_to_all_bytes",
    "all_to_all_times",
    "expert_memory",
    "stage_params",
]

DEEPSEEK_V3_RECIPE = PrecisionPreset(
    "deepseek-v3", BF16, FP32, FP32, BF16,
    "bf16 weights, fp32 gradients and master copy, AdamW moments in bf16",
    "DeepSeek-V3 Technical Report, section 3.3.3 (low-precision optimizer states: bf16 "
    "moments; fp32 master weights and gradients for batch-size accumulation): 2 + 4 + 4 + 4 "
    "= 14 bytes per parameter",
)
"""DeepSeek-V3's model states per parameter, as its report describes them."""


@dataclass(frozen=True)
class ExpertLayout:
    """A layout with expert parallelism: dp x tp x pp GPUs, ep of them sharing the experts."""

    dp: int = 1
    """Data-parallel replicas of the dense parameters."""
    tp: int = 1
    """Tensor-parallel degree of the dense parameters (experts are not tensor-split)."""
    pp: int = 1
    """Pipeline stages."""
    ep: int = 1
    """Expert-parallel degree: each of ep GPUs of a stage holds E / ep experts of a layer."""
    zero: int = 0
    """ZeRO stage 0..3, over dp for dense states and over dp x tp / ep for expert states."""
    dualpipe: bool = False
    """DeepSeek's DualPipe: each pipeline rank holds two stages (pp must be even)."""

    def __post_init__(self) -> None:
        for name in ("dp", "tp", "pp", "ep"):
            check_positive_int(name, getattr(self, name))
        if self.zero not in (0, 1, 2, 3) or isinstance(self.zero, bool):
            raise ValueError(f"zero={self.zero!r} must be 0, 1, 2 or 3")
        if (self.dp * self.tp) % self.ep:
            raise ValueError(f"ep={self.ep} must divide dp={self.dp} x tp={self.tp}: the "
                             "expert-parallel ranks are GPUs of one stage")
        if self.dualpipe and self.pp % 2:
            raise ValueError(f"pp={self.pp} must be even with DualPipe (ranks pair stages)")

    @property
    def world_size(self) -> int:
        """GPUs: dp x tp x pp."""
        return self.dp * self.tp * self.pp

    @property
    def expert_dp(self) -> int:
        """Replicas of each expert: dp x tp / ep."""
        return self.dp * self.tp // self.ep


def check_expert_layout(arch: MoEArchitecture, layout: ExpertLayout) -> None:
    """ValueError unless ``layout`` splits ``arch`` evenly: ep divides the routed experts,
    tp the heads, and every stage has a layer."""
    if arch.routed_experts % layout.ep:
        raise ValueError(f"ep={layout.ep} must divide routed_experts={arch.routed_experts} "
                         f"of {arch.key}")
    if arch.num_heads % layout.tp:
        raise ValueError(f"tp={layout.tp} must divide num_heads={arch.num_heads} of {arch.key}")
    if layout.pp > arch.num_layers:
        raise ValueError(f"pp={layout.pp} must not exceed num_layers={arch.num_layers} "
                         f"of {arch.key}")


@dataclass(frozen=True)
class StageParams:
    """Parameters of one pipeline stage, before tp and ep split them."""

    layers: int
    """Transformer blocks in the stage."""
    dense: int
    """Attention, dense MLPs, shared experts, routers, norms, and the embedding (first
    stage) or the output head (last stage)."""
    experts: int
    """Routed experts' parameters."""


@functools.cache
def stage_params(arch: MoEArchitecture, pp: int) -> tuple[StageParams, ...]:
    """Each stage's parameters, layers assigned in order, ceil(L / pp) per stage (the last
    takes the rest), the embedding on the first stage and the output head on the last."""
    per_stage = math.ceil(arch.num_layers / pp)
    layers, dense, experts = [0] * pp, [0] * pp, [0] * pp
    for i in range(arch.num_layers):
        layers[min(i // per_stage, pp - 1)] += 1
    for tensor in moe_parameter_tensors(arch):
        if tensor.name.startswith("layers."):
            stage = min(int(tensor.name.split(".")[1]) // per_stage, pp - 1)
        else:
            stage = 0 if tensor.name.startswith("embed") else pp - 1
        if ".experts." in tensor.name:
            experts[stage] += tensor.numel
        else:
            dense[stage] += tensor.numel
    return tuple(StageParams(*p) for p in zip(layers, dense, experts, strict=True))


@dataclass(frozen=True)
class ExpertWorkload:
    """What one micro-batch puts on each GPU of an expert-parallel group."""

    seq_len: int = 4096
    """Tokens per sequence."""
    micro_batch: int = 1
    """Sequences per micro-batch per data-parallel replica."""
    dispatch_bytes: Fraction = Fraction(2)
    """Bytes per activation value in the dispatch all-to-all (2: bf16)."""
    combine_bytes: Fraction = Fraction(2)
    """Bytes per value in the combine all-to-all (2: bf16)."""

    @property
    def tokens(self) -> int:
        """Tokens of one micro-batch on one GPU: seq_len x micro_batch."""
        return self.seq_len * self.micro_batch


FP8_TILE = 128
"""Values per fp32 scale in DeepSeek-V3's fp8 activations (1 x 128 tiles, section 3.3.2)."""
FP8_WITH_SCALES = 1 + Fraction(4, FP8_TILE)
"""Bytes per value of an fp8 tensor with one fp32 scale per 1 x 128 tile (DeepSeek-V3's
fine-grained quantization of activations, report section 3.3.2)."""

DEEPSEEK_V3_WORKLOAD = ExpertWorkload(seq_len=4096, micro_batch=1,
                                      dispatch_bytes=FP8_WITH_SCALES, combine_bytes=Fraction(2))
"""DeepSeek-V3's sequences of 4096 tokens (report section 4.2), dispatched in fp8 and combined
in bf16 (section 3.3.2 and 3.2.2); one sequence per micro-batch is this course's assumption:
the report does not give the micro-batch."""

DEEPSEEK_V3_LAYOUT = ExpertLayout(dp=128, tp=1, pp=16, ep=64, zero=1, dualpipe=True)
"""DeepSeek-V3's training layout (report section 3.2): 2048 H800s, 16-way pipeline
(DualPipe), 64-way expert parallelism over 8 nodes, ZeRO-1 data parallelism, no tensor
parallelism: dp = 2048 / 16 = 128."""


def all_to_all_bytes(arch: MoEArchitecture, ep: int, workload: ExpertWorkload,
                     capacity_factor: float | None = None) -> Fraction:
    """Bytes one expert-parallel GPU sends in one MoE layer's forward, one micro-batch.

    Equation: T k h (ep - 1)/ep x (dispatch_bytes + combine_bytes), T the micro-batch's
    tokens on the GPU, k experts per token, h the hidden size. Dispatch sends each of the
    T k token copies whose expert is on another GPU; combine sends as many results back
    (:func:`distlesson.parallel.expert.ep_bytes_per_layer`, there in bf16). Under uniform
    routing (the expected bytes) and dropless; with a capacity factor c the buffers have a
    fixed size, c T k / E slots per expert, sent full or not (GShard), so the bytes are c
    times the dropless ones. The backward sends as much again. Not modelled: DeepSeek-V3's
    node-limited routing, which sends a token over InfiniBand once per node and forwards it
    over NVLink. Units: bytes.
    """
    check_positive_int("ep", ep)
    if arch.routed_experts % ep:
        raise ValueError(f"ep={ep} must divide routed_experts={arch.routed_experts} "
                         f"of {arch.key}")
    copies = workload.tokens * arch.experts_per_token * Fraction(ep - 1, ep)
    volume = copies * arch.hidden_size * (workload.dispatch_bytes + workload.combine_bytes)
    if capacity_factor is None:
        return volume
    if not (math.isfinite(capacity_factor) and capacity_factor > 0):
        raise ValueError(f"capacity_factor={capacity_factor!r} must be a number > 0")
    return volume * Fraction(capacity_factor)


def all_to_all_times(arch: MoEArchitecture, ep: int, workload: ExpertWorkload, gpu: str,
                     capacity_factor: float | None = None, inter: str = "ib-ndr",
                     ) -> tuple[float, float]:
    """Seconds of the dispatch and of the combine all-to-all (forward, one MoE layer, one
    micro-batch) with the alpha-beta model: each GPU's send buffer is T k h values (times
    the capacity factor) of which (ep - 1)/ep leave it
    (:func:`distlesson.parallel.alpha_beta.group_collective`). The ep GPUs fill nodes of the
    GPU's server; across nodes every byte crosses ``inter``, the slowest link (one port per
    GPU). Units: seconds."""
    all_to_all_bytes(arch, ep, workload, capacity_factor)  # the same checks
    if ep == 1:
        return 0.0, 0.0
    node = get_gpu(gpu)
    scale = Fraction(capacity_factor) if capacity_factor is not None else 1
    values = workload.tokens * arch.experts_per_token * arch.hidden_size * scale
    per_node = min(ep, node.gpus_per_node)
    dispatch, combine = (group_collective("all-to-all", float(values * b), ep, per_node,
                                          intra=node.intra_node_link, inter=inter).time
                         for b in (workload.dispatch_bytes, workload.combine_bytes))
    return dispatch, combine


@dataclass(frozen=True)
class ExpertMemory:
    """What the busiest GPU of an expert-parallel layout holds."""

    rank: int
    """Its pipeline rank."""
    experts_per_gpu: int
    """Routed experts of each MoE layer on one GPU: E / ep."""
    dense: MemoryBreakdown
    """States of the dense parameters on the GPU."""
    experts: MemoryBreakdown
    """States of the routed experts on the GPU."""
    activations: float
    """The floor of activations (layer inputs of the micro-batches in flight)."""
    params: int
    """Parameters the GPU holds (dense after tp, experts after ep)."""

    @property
    def states(self) -> float:
        """Model states: dense and experts."""
        return float(self.dense.total + self.experts.total)

    @property
    def total(self) -> float:
        """States and the activations' floor."""
        return self.states + self.activations


def _rank_memory(arch: MoEArchitecture, layout: ExpertLayout, workload: ExpertWorkload,
                 recipe: PrecisionPreset, rank: int) -> ExpertMemory:
    stages = stage_params(arch, layout.pp)
    held = [stages[rank]] + ([stages[layout.pp - 1 - rank]] if layout.dualpipe else [])
    dense = sum(s.dense for s in held)
    experts = sum(s.experts for s in held)
    layers = sum(s.layers for s in held)

    def over(group: int, split: int) -> dict[str, int]:
        return {name: split * (group if layout.zero >= stage else 1) for name, stage in
                (("weights", 3), ("grads", 2), ("master", 1), ("optimizer", 1))}

    dense_states = model_states(dense, precision=recipe).divided(**over(layout.dp, layout.tp))
    expert_states = model_states(experts, precision=recipe).divided(
        **over(layout.expert_dp, layout.ep))
    in_flight = layout.pp + 1 if layout.dualpipe else layout.pp
    floor = (in_flight * layers * workload.tokens * arch.hidden_size * BF16.bytes
             / layout.tp)  # sequence parallelism splits the layer inputs over tp
    return ExpertMemory(rank, arch.routed_experts // layout.ep, dense_states, expert_states,
                        float(floor), dense // layout.tp + experts // layout.ep)


def expert_memory(arch: MoEArchitecture, layout: ExpertLayout,
                  workload: ExpertWorkload = DEEPSEEK_V3_WORKLOAD,
                  recipe: PrecisionPreset = DEEPSEEK_V3_RECIPE) -> ExpertMemory:
    """The busiest GPU (the pipeline rank whose stages hold the most) under ``layout``:
    states of its dense parameters (/tp, ZeRO over dp) and experts (/ep, ZeRO over
    dp x tp / ep), and the activations' floor. See the module docstring. Units: bytes."""
    check_expert_layout(arch, layout)
    ranks = layout.pp // 2 if layout.dualpipe else layout.pp
    return max((_rank_memory(arch, layout, workload, recipe, r) for r in range(ranks)),
               key=lambda m: m.total)
