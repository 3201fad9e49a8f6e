"""Where a training step's time goes: seven terms, each derived from the layout's shapes.

The step of one GPU is

    useful + below_peak + recompute + bubble + exposed_comm + data + failures

* ``useful``: model FLOPs per GPU / peak, the step at 100 % of peak (so useful / total is the
  MFU, :mod:`distlesson.efficiency.mfu`);
* ``below_peak``: the time the kernels take (:mod:`distlesson.efficiency.kernels`: matrix
  products by shape, attention, memory-bound operations; the stages' average), a separate
  gradient-accumulation pass after each micro-batch where the software has one, and the
  optimizer's update once per step (memory-bound, on the busiest GPU), less ``useful``;
* ``recompute``: the forward that recomputation reruns, at the same kernels' speed;
* ``bubble``: the pipeline's idle time. The busiest stage sets the pace: a step lasts
  (m + (p - 1) / v) of its micro-batch times (Narayanan et al. 2021, SC'21, section 2.2.2),
  and the lighter stages wait (uneven layers, the output head); other schedules by their
  idle-over-busy ratio (:func:`idle_over_busy`);
* ``exposed_comm``: per dimension, what :mod:`distlesson.efficiency.overlap` leaves exposed
  under the stated policy, with alpha-beta times on the achieved links;
* ``data``: the loader's stall per step, an input;
* ``failures``: (the six terms above) x the failure overhead
  (:mod:`distlesson.efficiency.failures`): MTBF from a per-GPU failure rate, the checkpoint's
  write time from its bytes (the model's states) over the storage's bandwidth; None for a
  steady-state step, as papers report.

The memory of every stage (:mod:`distlesson.memory.stages`) is computed alongside: the
busiest GPU decides whether the layout fits.
"""

from __future__ import annotations

import functools
import math
from dataclasses import astuple, dataclass, field, replace
from fractions import Fraction

from distlesson.catalog.achieved import gemm_efficiency
from distlesson.catalog.hardware import GPU, get_gpu
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import Architecture
from distlesson.checks import check_positive_int
from distlesson.efficiency.checkpoint_io import checkpoint_size
from distlesson.efficiency.failures import FailureModel
from distlesson.efficiency.kernels import head_times, layer_times
from distlesson.efficiency.mfu import StepFlops, mfu, step_flops
from distlesson.efficiency.overlap import (
    DimensionTimes,
    LinkContext,
    OverlapPolicy,
    dp_exposed,
    pp_exposed,
    tp_cp_exposed_per_microbatch,
)
from distlesson.memory.optimizers import (
    accumulation_bytes_per_param,
    update_bytes_per_param,
)
from distlesson.memory.precision import get_preset
from distlesson.memory.stages import (
    Overheads,
    StageMemory,
    busiest_bytes,
    stage_layers,
    stage_memory,
    stage_params,
)
from distlesson.memory.states import Layout, check_layout
from distlesson.parallel.layout import Workload
from distlesson.pipeline.bubble import bubble_fraction, zb_h1_closed_form_holds
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate

__all__ = ["DIMENSIONS", "TERMS", "Cluster", "StepBreakdown", "StepEstimate", "StepInputs",
           "StepModel", "estimate_step", "fix_largest", "idle_over_busy"]

TERMS = ("useful", "below_peak", "recompute", "bubble", "exposed_comm", "data", "failures")
DIMENSIONS = ("dp", "tp", "pp", "cp")


@dataclass(frozen=True)
class Cluster:
    """GPUs and the links between them."""

    gpu: str
    """GPU catalog key (``h100-sxm``)."""
    num_gpus: int
    gpus_per_node: int | None = None
    """GPUs sharing the intra-node link; None: the catalog's ``gpus_per_node``."""
    intra_link: str | None = None
    """Interconnect key inside a node; None: the catalog's ``intra_node_link``."""
    inter_link: str = "ib-ndr"
    """Interconnect key between nodes (one port per GPU, as in DGX H100)."""

    def __post_init__(self) -> None:
        spec = self.spec
        node = self.gpus_per_node or spec.gpus_per_node
        object.__setattr__(self, "gpus_per_node", node)
        object.__setattr__(self, "intra_link", self.intra_link or spec.intra_node_link)
        get_interconnect(self.inter_link)
        for name, value in (("num_gpus", self.num_gpus), ("gpus_per_node", node)):
            check_positive_int(name, value)

    @property
    def spec(self) -> GPU:
        return get_gpu(self.gpu)

    @property
    def links(self) -> LinkContext:
        return LinkContext(self.gpus_per_node, self.intra_link, self.inter_link)


@functools.cache
def idle_over_busy(schedule: str, pp: int, num_microbatches: int, chunks: int = 1) -> Fraction:
    """Idle over busy time of a balanced pipeline stage: f / (1 - f), f the bubble fraction.

    1F1B: (p - 1) / m; interleaved: (p - 1) / (v m). Closed forms of
    :mod:`distlesson.pipeline.bubble`; the simulator where none holds (ZB-H1 with m < p)."""
    durations = Durations()
    if schedule == "zb-h1" and not zb_h1_closed_form_holds(pp, num_microbatches, durations):
        f = simulate(build_schedule(schedule, pp, num_microbatches), durations).bubble_fraction
    else:
        f = bubble_fraction(schedule, pp, num_microbatches, chunks, durations)
    return f / (1 - f)


@dataclass(frozen=True)
class StepBreakdown:
    """A step's seconds, term by term (per GPU): see the module docstring."""

    useful: float
    below_peak: float
    recompute: float
    bubble: float
    exposed_comm: float
    data: float
    failures: float

    @property
    def total(self) -> float:
        """The step time: the sum of the terms."""
        return math.fsum(astuple(self))

    @property
    def mfu(self) -> float:
        """MFU read off the terms: useful / total."""
        return self.useful / self.total

    def shares(self) -> dict[str, float]:
        """Each term's share of the step."""
        total = self.total
        return {t: getattr(self, t) / total for t in TERMS}

    def ranked(self) -> tuple[tuple[str, float], ...]:
        """The six losses (every term but ``useful``), largest first, in seconds."""
        losses = ((t, getattr(self, t)) for t in TERMS[1:])
        return tuple(sorted(losses, key=lambda item: -item[1]))


@dataclass(frozen=True)
class StepModel:
    """The seven terms' causes, per GPU; :meth:`breakdown` sums them."""

    useful: float
    below_peak: float
    recompute: float
    idle_over_busy: float
    """Bubble over compute (useful + below_peak + recompute)."""
    comm: DimensionTimes
    """Exposed communication seconds per dimension."""
    data_stall: float
    failure_overhead: float

    @property
    def compute(self) -> float:
        """Seconds computing: useful + below_peak + recompute (what the bubble scales)."""
        return self.useful + self.below_peak + self.recompute

    def breakdown(self) -> StepBreakdown:
        compute = self.compute
        bubble = compute * self.idle_over_busy
        productive = math.fsum((compute, bubble, self.comm.total, self.data_stall))
        return StepBreakdown(self.useful, self.below_peak, self.recompute, bubble,
                             self.comm.total, self.data_stall,
                             productive * self.failure_overhead)

    @property
    def kernel_efficiency(self) -> float:
        """Share of the peak the step's kernels reach while computing: useful / kernels."""
        return self.useful / (self.useful + self.below_peak)

    def without(self, term: str) -> StepModel:
        """The model with ``term`` removed at its cause (kernels at peak, no recomputation,
        no bubble, hidden communication, no stall, no failures); the others follow."""
        if term == "below_peak":
            return replace(self, below_peak=0.0,
                           recompute=self.recompute * self.kernel_efficiency)
        fixes = {"recompute": {"recompute": 0.0}, "bubble": {"idle_over_busy": 0.0},
                 "exposed_comm": {"comm": DimensionTimes(0, 0, 0, 0)},
                 "data": {"data_stall": 0.0}, "failures": {"failure_overhead": 0.0}}
        if term not in fixes:
            raise ValueError(f"term={term!r} cannot be removed; allowed: below_peak, "
                             f"{', '.join(fixes)}")
        return replace(self, **fixes[term])


@dataclass(frozen=True)
class StepInputs:
    """The modelling inputs of a step, besides the model, layout, workload and cluster."""

    kernel_efficiency: float | None = None
    """Share of the dense peak that large, well-shaped matrix products reach; None: the
    GPU's calibrated value (:func:`distlesson.catalog.achieved.gemm_efficiency`)."""
    overlap: OverlapPolicy = field(default_factory=OverlapPolicy)
    data_stall: float = 0.0
    """Seconds per step waiting for data (an input; 0: the loader keeps up)."""
    failures: FailureModel | None = field(default_factory=FailureModel)
    """None: a steady-state step, without failures (as papers report throughput)."""
    schedule: str = "1f1b"
    chunks: int = 1
    overheads: Overheads = field(default_factory=Overheads)
    attention: str = "flash"
    """``flash`` (FlashAttention) or ``unfused`` (the full s x s scores in memory), see
    :mod:`distlesson.efficiency.kernels`."""
    sequence_parallel: bool = True
    """Norms, adds and the activations between them split over the tensor-parallel ranks
    (Korthikanti et al. 2022); False: every rank runs and keeps them whole."""
    accumulation: str = "fused"
    """How each micro-batch's gradients reach the main (fp32) gradients: ``fused`` (the
    weight-gradient products add into them, Megatron-LM) or ``separate-pass`` (a pass over
    the stage's gradients after every backward, DeepSpeed's bf16 optimizer;
    :func:`distlesson.memory.optimizers.accumulation_bytes_per_param`)."""

    def __post_init__(self) -> None:
        if self.accumulation not in ("fused", "separate-pass"):
            raise ValueError(f"accumulation={self.accumulation!r}; allowed: fused, "
                             "separate-pass")
        if not isinstance(self.sequence_parallel, bool):
            raise ValueError(f"sequence_parallel={self.sequence_parallel!r} must be True or "
                             "False")
        k = self.kernel_efficiency
        if k is not None and not 0 < k <= 1:
            raise ValueError(f"kernel_efficiency={k!r} must be in (0, 1]")
        if not self.data_stall >= 0:
            raise ValueError(f"data_stall={self.data_stall!r} must be >= 0")


@dataclass(frozen=True)
class StepEstimate:
    """One step of a layout on a cluster: its terms, its memory, what they came from."""

    model: StepModel
    flops: StepFlops
    """FLOPs of the whole step, all GPUs."""
    gpus: int
    num_microbatches: int
    peak_flops: float
    per_gpu_bytes: float
    """Peak memory of the busiest GPU."""
    memory_inputs: tuple = field(repr=False, compare=False)
    """What :attr:`stages` is computed from, on demand."""

    @functools.cached_property
    def stages(self) -> tuple[StageMemory, ...]:
        """Peak memory of one GPU of each pipeline stage."""
        arch, layout, memory = self.memory_inputs
        return stage_memory(arch, layout, **dict(memory))

    @functools.cached_property
    def breakdown(self) -> StepBreakdown:
        return self.model.breakdown()

    @functools.cached_property
    def step_time(self) -> float:
        return self.breakdown.total

    @property
    def mfu(self) -> float:
        return self.breakdown.mfu

    @property
    def hfu(self) -> float:
        """Hardware FLOPs (recomputation included) / (step time x GPUs x peak)."""
        return mfu(self.flops.hardware, step_time=self.step_time, gpus=self.gpus,
                   peak_flops=self.peak_flops)

    @property
    def mfu_from_flops(self) -> float:
        """Model FLOPs / (step time x GPUs x peak): the other way to the same MFU."""
        return mfu(self.flops.model, step_time=self.step_time, gpus=self.gpus,
                   peak_flops=self.peak_flops)



def estimate_step(arch: Architecture, layout: Layout, workload: Workload, cluster: Cluster,
                  inputs: StepInputs | None = None) -> StepEstimate:
    """The seven terms and the memory of one step of ``layout`` (see the module docstring)."""
    inputs = inputs or StepInputs()
    if layout.world_size != cluster.num_gpus:
        raise ValueError(f"dp {layout.dp} x tp {layout.tp} x pp {layout.pp} x cp "
                         f"{layout.cp} = {layout.world_size} != num_gpus {cluster.num_gpus}")
    check_layout(arch, layout)
    m, gpus, spec = workload.num_microbatches(layout), cluster.num_gpus, cluster.spec
    eta = inputs.kernel_efficiency or gemm_efficiency(cluster.gpu)
    # everything but the data-parallel traffic and the states is shared by every dp, ZeRO
    pipe = _pipeline(arch, layout.tp, layout.pp, layout.cp, workload.seq_len,
                     workload.micro_batch, m, workload.recompute, cluster.gpu, cluster.links,
                     inputs.schedule, inputs.chunks, inputs.attention, inputs.overlap, eta,
                     inputs.sequence_parallel,
                     accumulation_bytes_per_param(workload.precision)
                     if inputs.accumulation == "separate-pass" else 0)
    flops = _step_flops(arch, workload.seq_len, workload.global_batch * workload.seq_len,
                        workload.recompute)
    preset = get_preset(workload.precision)
    params = _stage_params(arch, layout)
    dp = dp_exposed(layout, grad_bytes=params * preset.grad_format.bytes,
                    weight_bytes=params * preset.weight_format.bytes, num_microbatches=m,
                    first_forward=pipe.first_forward, last_backward=pipe.last_backward,
                    microbatch_compute=pipe.microbatch_compute, links=cluster.links,
                    policy=inputs.overlap)
    base = pipe.model
    update = _optimizer_update_time(params, layout, workload, spec)
    model = StepModel(base.useful, base.below_peak + update, base.recompute,
                      # the update runs once, after the pipeline: the bubble keeps its seconds
                      base.idle_over_busy * base.compute / (base.compute + update),
                      DimensionTimes(dp, base.comm.tp, base.comm.pp, base.comm.cp),
                      inputs.data_stall, _failure_overhead(inputs.failures, arch, workload, gpus))
    memory = dict(seq_len=workload.seq_len, micro_batch=workload.micro_batch,
                  num_microbatches=m, schedule=inputs.schedule, chunks=inputs.chunks,
                  recompute=workload.recompute, precision=workload.precision,
                  optimizer=workload.optimizer, overheads=inputs.overheads,
                  sequence_parallel=inputs.sequence_parallel)
    return StepEstimate(model=model, flops=flops, gpus=gpus, num_microbatches=m,
                        peak_flops=spec.bf16_dense_flops,
                        per_gpu_bytes=busiest_bytes(arch, layout, **memory),
                        memory_inputs=(arch, layout, tuple(sorted(memory.items()))))


def _optimizer_update_time(params: float, layout: Layout, workload: Workload,
                           spec: GPU) -> float:
    """Seconds of the busiest GPU's optimizer step: the parameters it updates (its stage's
    over tp, and over dp under ZeRO) x the bytes the update moves per parameter
    (:func:`distlesson.memory.optimizers.update_bytes_per_param`), at the HBM bandwidth."""
    updated = params / (layout.dp if layout.zero >= 1 else 1)
    per_param = update_bytes_per_param(workload.optimizer, workload.precision)
    return updated * per_param / spec.hbm_bandwidth


def _failure_overhead(failures: FailureModel | None, arch: Architecture, workload: Workload,
                      gpus: int) -> float:
    """The failure overhead, the checkpoint's write time from the model's states when the
    model does not give one (:mod:`distlesson.efficiency.checkpoint_io`)."""
    if failures is None:
        return 0.0
    size = checkpoint_size(arch, precision=workload.precision, optimizer=workload.optimizer)
    return failures.for_checkpoint(size.total).overhead(gpus)


@dataclass(frozen=True)
class _Pipeline:
    """One model replica's step (tp x pp x cp GPUs), before data parallelism."""

    model: StepModel
    """Its terms; comm.dp, data_stall and failure_overhead still zero."""
    first_forward: float
    """Seconds of the busiest stage's forward of one micro-batch (hides parameter gathers)."""
    last_backward: float
    """... of its backward of one micro-batch (hides the gradient reduction)."""
    microbatch_compute: float
    """... of its forward and backward of one micro-batch."""


@functools.cache
def _pipeline(arch: Architecture, tp: int, pp: int, cp: int, seq_len: int, micro_batch: int,
              m: int, recompute: str, gpu: str, links: LinkContext, schedule: str, v: int,
              attention: str, overlap: OverlapPolicy, eta: float,
              sequence_parallel: bool, accumulation_bytes: int) -> _Pipeline:
    """The replica's compute, recomputation, bubble and tp, pp, cp traffic (cached: the
    planner asks again for every dp and ZeRO stage)."""
    layout = Layout(tp=tp, pp=pp, cp=cp)
    workload = Workload(seq_len=seq_len, micro_batch=micro_batch,
                        global_batch=micro_batch * m, recompute=recompute)  # type: ignore[arg-type]
    shape = dict(seq_len=seq_len, micro_batch=micro_batch, tp=tp, cp=cp, gpu=gpu, eta=eta)
    lt = layer_times(arch, **shape, attention=attention, sequence_parallel=sequence_parallel)
    head_f, head_b = head_times(arch, **shape)
    redo = {"full": lt.forward, "selective": lt.attention_forward}.get(workload.recompute, 0.0)
    tpx, cpx = tp_cp_exposed_per_microbatch(
        arch, layout, lt, seq_len=workload.seq_len, micro_batch=workload.micro_batch,
        recompute=workload.recompute, links=links, policy=overlap)
    layers = stage_layers(arch.num_layers, layout.pp)
    heads = [0.0] * (layout.pp - 1) + [head_f + head_b]
    # a separate accumulation pass over each stage's gradients, after every backward
    passes = [p / tp * accumulation_bytes / get_gpu(gpu).hbm_bandwidth
              for p in stage_params(arch, pp)]
    compute = [n * (lt.forward + lt.backward) + h + a
               for n, h, a in zip(layers, heads, passes, strict=True)]
    mean_compute, mean_layers = math.fsum(compute) / len(compute), sum(layers) / len(layers)
    busiest = max(c + n * (redo + tpx + cpx) for c, n in zip(compute, layers, strict=True))
    steady = m * (mean_compute + mean_layers * (redo + tpx + cpx))
    idle = float(idle_over_busy(schedule, layout.pp, m, v)) if layout.pp > 1 else 0.0
    makespan = m * busiest * (1 + idle)
    flops = _step_flops(arch, workload.seq_len, workload.global_batch * workload.seq_len,
                        workload.recompute)
    useful = float(flops.model) / layout.world_size / get_gpu(gpu).bf16_dense_flops
    below = m * mean_compute - useful
    recompute = m * mean_layers * redo
    pp = pp_exposed(arch, layout, seq_len=workload.seq_len, micro_batch=workload.micro_batch,
                    num_microbatches=m, chunks=v, links=links, policy=overlap)
    comm = DimensionTimes(dp=0.0, tp=m * mean_layers * tpx, pp=pp, cp=m * mean_layers * cpx)
    model = StepModel(useful=useful, below_peak=below, recompute=recompute,
                      idle_over_busy=(makespan - steady) / (useful + below + recompute),
                      comm=comm, data_stall=0.0, failure_overhead=0.0)
    return _Pipeline(model, first_forward=max(layers) * lt.forward,
                     last_backward=max(layers) * lt.backward + head_b,
                     microbatch_compute=max(compute))


@functools.cache
def _step_flops(arch: Architecture, seq_len: int, tokens: int, recompute: str) -> StepFlops:
    return step_flops(arch, seq_len=seq_len, tokens_per_step=tokens,
                      recompute=recompute)  # type: ignore[arg-type]


def _stage_params(arch: Architecture, layout: Layout) -> float:
    """Parameters one GPU of the busiest stage holds before ZeRO: the stage's over tp."""
    return max(stage_params(arch, layout.pp)) / layout.tp


def fix_largest(model: StepModel) -> tuple[str, StepModel]:
    """The exercise "MFU is low: what first?": the largest loss, and the step without it."""
    term = model.breakdown().ranked()[0][0]
    return term, model.without(term)
