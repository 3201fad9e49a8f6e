"""The combined view: one layout dp x tp x pp x cp, its memory and its traffic per GPU.

For a model, a layout (:class:`distlesson.memory.states.Layout`) and a step's workload, this
module returns what the busiest GPU holds and the bytes it sends per training step in each
dimension. Memory is the performance model's own count (:mod:`distlesson.memory.stages`):
the stage's parameters with the ZeRO stage, the activations of the layer actually trained,
tensor by tensor, for the micro-batches the stage holds, the logits on the last stage, and
named overheads; the planner and the accuracy chapter use the same count. The traffic is a
closed form whose pieces are checked elsewhere against a simulation: the ring collectives
(:mod:`distlesson.parallel.collectives`), ZeRO (:mod:`distlesson.parallel.zero`), tensor
parallelism (:mod:`distlesson.parallel.tensor`) and ring attention
(:mod:`distlesson.parallel.context`).

Assumptions, stated once: ring collectives; sequence parallelism on whenever tp > 1
(Megatron-LM's default with TP: same bytes as the all-reduce, activations divided by tp);
16-bit activations; 1F1B; compute and communication not overlapped (the bytes are what must
move, not the time it takes).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from distlesson.catalog.models import Architecture
from distlesson.checks import check_positive_int, check_positive_ints
from distlesson.memory.activations import RECOMPUTE, Recompute
from distlesson.memory.stages import StageMemory, stage_memory, stage_params
from distlesson.memory.states import (
    Layout,
    MemoryBreakdown,
    check_layout,
    model_states,
    per_gpu_states,
)
from distlesson.parallel.collectives import ring_bytes
from distlesson.parallel.context import ring_attention_bytes

__all__ = ["LayoutReport", "StepCommunication", "Workload", "analyse_layout",
           "step_communication"]


@dataclass(frozen=True)
class Workload:
    """What one training step processes, and how it is kept in memory."""

    seq_len: int
    """Tokens per sequence."""
    micro_batch: int
    """Sequences per micro-batch on one model replica."""
    global_batch: int
    """Sequences per optimizer step over all replicas (dp x micro_batch x microbatches)."""
    recompute: Recompute = "full"
    """Activation recomputation: none, selective or full (Korthikanti et al. 2022)."""
    precision: str = "mixed"
    """Precision preset of the model states (:mod:`distlesson.memory.precision`)."""
    optimizer: str = "adamw"
    """Optimizer of the model states (:mod:`distlesson.memory.optimizers`)."""
    activation_bytes: int = 2
    """Bytes per activation value sent between GPUs (bf16)."""

    def __post_init__(self) -> None:
        for name in ("seq_len", "micro_batch", "global_batch", "activation_bytes"):
            check_positive_int(name, getattr(self, name))
        if self.recompute not in RECOMPUTE:
            raise ValueError(f"recompute={self.recompute!r} is not known; "
                             f"allowed: {', '.join(RECOMPUTE)}")

    def num_microbatches(self, layout: Layout) -> int:
        """Micro-batches each replica runs per step: global_batch / (dp x micro_batch)."""
        per_replica = layout.dp * self.micro_batch
        if self.global_batch % per_replica:
            raise ValueError(f"global_batch={self.global_batch} must be a multiple of "
                             f"dp={layout.dp} x micro_batch={self.micro_batch}")
        return self.global_batch // per_replica

    def split(self, dp: int, num_microbatches: int) -> Workload:
        """The same step (``global_batch`` sequences) cut into ``num_microbatches``
        micro-batches on each of ``dp`` replicas: micro_batch = global_batch / (dp x m).

        More micro-batches means smaller ones: the tokens per step stay the same, so the
        pipeline's bubble shrinks while the bytes of a whole step do not grow.
        """
        check_positive_ints(dp=dp, num_microbatches=num_microbatches)
        sequences = dp * num_microbatches
        if self.global_batch % sequences:
            raise ValueError(f"dp={dp} x num_microbatches={num_microbatches} = {sequences} "
                             f"must divide global_batch={self.global_batch}")
        return replace(self, micro_batch=self.global_batch // sequences)


@dataclass(frozen=True)
class StepCommunication:
    """Bytes one GPU sends in one training step, per parallel dimension."""

    dp: Fraction
    """Gradient reduction (and, with ZeRO, gathering the weights) over the dp replicas."""
    tp: Fraction
    """All-reduces (or reduce-scatter + all-gather) of activations inside each layer."""
    pp: Fraction
    """Activations forward and their gradients backward between neighbouring stages."""
    cp: Fraction
    """Key and value blocks passed around the context-parallel ring (and their gradients)."""

    @property
    def total(self) -> Fraction:
        """All dimensions together."""
        return self.dp + self.tp + self.pp + self.cp


@dataclass(frozen=True)
class LayoutReport:
    """Memory and traffic of the busiest GPU under a layout."""

    layout: Layout
    """The layout analysed."""
    num_microbatches: int
    """Micro-batches per replica per step."""
    stage: StageMemory
    """The pipeline stage whose GPUs hold the most
    (:func:`distlesson.memory.stages.stage_memory`)."""
    states: MemoryBreakdown
    """That stage's model states per GPU (weights, grads, master, optimizer)."""
    communication: StepCommunication
    """Bytes sent per step, per dimension."""

    @property
    def activations(self) -> float:
        """The stage's layers' activations for the micro-batches in flight, and the layer
        rebuilt under full recomputation."""
        return self.stage.activations

    @property
    def logits(self) -> float:
        """The output head's logits and loss softmax (last stage only, else 0)."""
        return self.stage.logits

    @property
    def overheads(self) -> float:
        """CUDA context, communication buffers and fragmentation."""
        return self.stage.total - self.stage.allocated

    @property
    def per_gpu_bytes(self) -> float:
        """Everything the GPU holds: what must fit in its memory."""
        return self.stage.total


def _layers_per_stage(arch: Architecture, layout: Layout) -> int:
    return -(-arch.num_layers // layout.pp)


def step_communication(arch: Architecture, layout: Layout, workload: Workload) -> StepCommunication:
    """Bytes one GPU sends per step in each dimension.

    Equations (d, t, p, c the degrees; m micro-batches; l = ceil(L / p) layers; s = S / c
    local tokens; A = s b h x 2 bytes, one activation; G and W the GPU's gradient and weight
    bytes before ZeRO, i.e. the model's divided by t p):

    - dp: ZeRO 0: all-reduce of G once per step (gradients accumulate locally over the m
      micro-batches), 2(d-1)/d G; ZeRO 1: reduce-scatter of G once and all-gather of W,
      (d-1)/d (G + W); ZeRO 2: the gradients are sharded, so there is no full buffer to
      accumulate into and each micro-batch's gradient is reduce-scattered (as DeepSpeed
      does), (d-1)/d (m G + W); ZeRO 3: also the weights are gathered before each micro-
      batch's forward and backward, (d-1)/d m (G + 2W). Rajbhandari et al. 2020, section 7
      (for m = 1).
    - tp: per layer two all-reduces of A forward and two backward, plus two more when full
      recomputation reruns the forward: 2(t-1)/t A each (Shoeybi et al. 2019; with sequence
      parallelism the all-gather + reduce-scatter pair moves the same bytes, Korthikanti
      et al. 2022). Times l layers and m micro-batches.
    - pp: a middle stage sends A / t forward and A / t backward per micro-batch (Megatron's
      scatter-gather: each tensor-parallel rank sends its slice). Zero when p = 1.
    - cp: ring attention's forward passes the key and value blocks c - 1 times; the backward
      passes them again with their gradients (twice the forward's bytes); full recomputation
      adds a forward. Times l layers and m micro-batches; heads split by t.

    Units: bytes sent by one GPU, exact.
    """
    check_layout(arch, layout)
    m = workload.num_microbatches(layout)
    states = model_states(arch, optimizer=workload.optimizer, precision=workload.precision)
    shard = layout.tp * layout.pp
    grads, weights = Fraction(states.grads, shard), Fraction(states.weights, shard)
    d = layout.dp
    if layout.zero == 0:
        dp = ring_bytes("all_reduce", 1, d) * grads
    else:
        # stage 2 and 3 keep no full gradient: reduce-scatter every micro-batch's gradient
        scatters = m if layout.zero >= 2 else 1
        # stage 3 gathers the weights before every micro-batch's forward and backward
        gathers = 2 * m if layout.zero == 3 else 1
        dp = (scatters * ring_bytes("reduce_scatter", 1, d) * grads
              + gathers * ring_bytes("all_gather", 1, d) * weights)
    if workload.seq_len % layout.cp:
        raise ValueError(f"cp={layout.cp} must divide seq_len={workload.seq_len}")
    local_tokens = workload.seq_len // layout.cp * workload.micro_batch
    activation = local_tokens * arch.hidden_size * workload.activation_bytes
    layers = _layers_per_stage(arch, layout)
    forwards = 2 if workload.recompute == "full" else 1
    tp_per_layer = (2 * forwards + 2) * ring_bytes("all_reduce", activation, layout.tp)
    pp = Fraction(2 * activation, layout.tp) * m if layout.pp > 1 else Fraction(0)
    kv_heads = arch.num_kv_heads // layout.tp
    ring_forward = ring_attention_bytes(workload.seq_len, kv_heads, arch.head_dim, layout.cp,
                                        workload.activation_bytes) * workload.micro_batch
    cp_per_layer = (forwards + 2) * Fraction(ring_forward)
    return StepCommunication(dp=Fraction(dp), tp=tp_per_layer * layers * m, pp=pp,
                             cp=cp_per_layer * layers * m)


def analyse_layout(arch: Architecture, layout: Layout, workload: Workload) -> LayoutReport:
    """Memory and traffic of the busiest GPU under ``layout`` (1F1B)."""
    check_layout(arch, layout)
    m = workload.num_microbatches(layout)
    stages = stage_memory(arch, layout, seq_len=workload.seq_len,
                          micro_batch=workload.micro_batch, num_microbatches=m,
                          recompute=workload.recompute, precision=workload.precision,
                          optimizer=workload.optimizer)
    busiest = max(stages, key=lambda s: s.total)
    params = stage_params(arch, layout.pp)[busiest.stage]
    states = per_gpu_states(model_states(params, optimizer=workload.optimizer,
                                         precision=workload.precision),
                            Layout(dp=layout.dp, tp=layout.tp, zero=layout.zero))
    return LayoutReport(layout=layout, num_microbatches=m, stage=busiest, states=states,
                        communication=step_communication(arch, layout, workload))
