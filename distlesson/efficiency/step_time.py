"""Where a training step's time goes: seven terms, each derived from inputs, that sum to it.

The step of one GPU (all GPUs are alike, balanced stages assumed) is

    useful + below_peak + recompute + bubble + exposed_comm + data + failures

* ``useful``: model FLOPs per GPU / peak, the step at 100 % of peak (so useful / total
  is the MFU, :mod:`distlesson.efficiency.mfu`);
* ``below_peak``: useful x (1 / kernel_efficiency - 1), matmuls running below peak;
* ``recompute``: recomputed FLOPs per GPU / (peak x kernel_efficiency);
* ``bubble``: compute x idle / busy of the pipeline schedule, compute being the three
  terms above (:mod:`distlesson.pipeline.bubble`'s closed forms; the simulator where none holds);
* ``exposed_comm``: per dimension, bytes sent (:mod:`distlesson.parallel.layout`) / link
  bandwidth x (1 - overlap);
* ``data``: the loader's stall per step, an input;
* ``failures``: (the six terms above) x failure overhead, the time lost per productive
  second to failures, restarts and checkpoint writes (Young 1974, first order).

Assumptions, stated once: compute, bubble and communication add (a dimension's overlap
input is the only overlap); the bubble stretches compute only; a dimension's traffic runs
on the intra-node link when its group lies inside a node, else on the inter-node link,
with ranks placed in Llama 3's order [tp, cp, pp, dp] (Grattafiori et al. 2024, section
3.3.2). Every input below is a modelling choice unless it names a source.
"""

from __future__ import annotations

import functools
import math
from dataclasses import astuple, dataclass, field, fields, replace
from fractions import Fraction

from distlesson.catalog.hardware import GPU, get_gpu
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import Architecture
from distlesson.efficiency.mfu import StepFlops, mfu, step_flops
from distlesson.memory.states import Layout
from distlesson.parallel.layout import StepCommunication, Workload, step_communication
from distlesson.pipeline.bubble import bubble_fraction, zb_h1_closed_form_holds
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate

__all__ = ["DIMENSIONS", "TERMS", "Cluster", "DimensionTimes", "FailureModel", "Overlap",
           "StepBreakdown", "StepEstimate", "StepInputs", "StepModel", "estimate_step",
           "exposed_comm", "fix_largest", "idle_over_busy", "job_mtbf", "link_bandwidths",
           "young_interval"]

TERMS = ("useful", "below_peak", "recompute", "bubble", "exposed_comm", "data", "failures")
DIMENSIONS = ("dp", "tp", "pp", "cp")
PLACEMENT = ("tp", "cp", "pp", "dp")  # innermost first: Llama 3, section 3.3.2

# Llama 3 (Grattafiori et al. 2024, section 3.3.4): 419 unexpected interruptions in a
# 54-day snapshot of pre-training on 16,384 H100s.
LLAMA3_INTERRUPTIONS, LLAMA3_DAYS, LLAMA3_GPUS = 419, 54, 16_384


def job_mtbf(gpus: int, per_gpu_hour: float) -> float:
    """Mean time between failures of a job on ``gpus`` GPUs: 3600 / (rate x GPUs), seconds.

    Assumes failures independent across GPUs (a Poisson process per GPU)."""
    if gpus < 1 or not per_gpu_hour > 0:
        raise ValueError(f"gpus={gpus!r} and per_gpu_hour={per_gpu_hour!r} must be positive")
    return 3600 / (per_gpu_hour * gpus)


def young_interval(checkpoint_write_time: float, mtbf: float) -> float:
    """Young's (1974) optimal checkpoint interval sqrt(2 x write time x MTBF), seconds."""
    if not checkpoint_write_time > 0 or not mtbf > 0:
        raise ValueError(f"checkpoint_write_time={checkpoint_write_time!r} and "
                         f"mtbf={mtbf!r} must be positive")
    return math.sqrt(2 * checkpoint_write_time * mtbf)


@dataclass(frozen=True)
class FailureModel:
    """Failures, restarts and checkpoints: the inputs of the ``failures`` term."""

    per_gpu_hour: float = LLAMA3_INTERRUPTIONS / (LLAMA3_DAYS * 24 * LLAMA3_GPUS)
    """Unexpected interruptions per GPU-hour: Llama 3's 419 in 54 days on 16,384 GPUs."""
    restart_time: float = 300.0
    """Seconds from a failure to training again (detect, reschedule, load): a modelling
    choice; Llama 3 reports automated recovery but no figure."""
    checkpoint_write_time: float = 20.0
    """Seconds a checkpoint blocks training: a modelling choice (asynchronous writes)."""
    checkpoint_interval: float | None = None
    """Seconds between checkpoints; None: Young's optimum for the job's MTBF."""

    def interval(self, gpus: int) -> float:
        """The checkpoint interval used: the input, or Young's optimum."""
        if self.checkpoint_interval is not None:
            return self.checkpoint_interval
        return young_interval(self.checkpoint_write_time, job_mtbf(gpus, self.per_gpu_hour))

    def overhead(self, gpus: int) -> float:
        """Seconds lost per productive second: (restart + interval / 2) / MTBF + write / interval.

        A failure loses the restart and, on average, half an interval of work (Young 1974;
        Daly 2006 to first order); each checkpoint blocks for its write time."""
        tau = self.interval(gpus)
        lost = self.restart_time + tau / 2
        return lost / job_mtbf(gpus, self.per_gpu_hour) + self.checkpoint_write_time / tau


@dataclass(frozen=True)
class Overlap:
    """Share of each dimension's communication hidden behind compute: modelling inputs."""

    dp: float = 0.8
    """Gradient buckets reduce while the backward goes on (Li et al. 2020, PyTorch DDP);
    the last buckets and the optimizer's gathers stay exposed. 0.8 is a modelling choice."""
    tp: float = 0.0
    """Megatron-LM's all-reduces sit between dependent matmuls of a layer: none hidden."""
    pp: float = 0.0
    """1F1B's sends lie on the critical path from one stage to the next: none hidden."""
    cp: float = 0.5
    """Ring attention sends the next key/value block while computing on this one (Liu et
    al. 2023); half hidden is a modelling choice."""

    def __post_init__(self) -> None:
        for f in fields(self):
            if not 0 <= getattr(self, f.name) <= 1:
                raise ValueError(f"overlap {f.name}={getattr(self, f.name)!r} must be in 0..1")


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
    """Interconnect key between nodes (one 400 Gb/s port per GPU, as in DGX H100)."""

    def __post_init__(self) -> None:
        spec = self.spec
        node = self.gpus_per_node or spec.gpus_per_node
        object.__setattr__(self, "gpus_per_node", node)
        object.__setattr__(self, "intra_link", self.intra_link or spec.intra_node_link)
        if self.num_gpus < 1 or node < 1:
            raise ValueError(f"num_gpus={self.num_gpus} and gpus_per_node={node} must be >= 1")

    @property
    def spec(self) -> GPU:
        return get_gpu(self.gpu)


@dataclass(frozen=True)
class DimensionTimes:
    """Seconds (or bytes/s) per step, per parallel dimension."""

    dp: float
    tp: float
    pp: float
    cp: float

    @property
    def total(self) -> float:
        return self.dp + self.tp + self.pp + self.cp


def link_bandwidths(cluster: Cluster, layout: Layout) -> DimensionTimes:
    """Bytes/s of each dimension's link: intra-node if its group fits a node, else inter.

    A group spans (inner degrees x its degree) consecutive ranks, placed [tp, cp, pp, dp];
    it lies in one node when that span divides gpus_per_node."""
    intra = get_interconnect(cluster.intra_link).bandwidth
    inter = get_interconnect(cluster.inter_link).bandwidth
    bandwidth, stride = {}, 1
    for dim in PLACEMENT:
        stride *= getattr(layout, dim)
        bandwidth[dim] = intra if cluster.gpus_per_node % stride == 0 else inter
    return DimensionTimes(**bandwidth)


def exposed_comm(sent: StepCommunication | DimensionTimes, bandwidth: DimensionTimes,
                 overlap: Overlap) -> DimensionTimes:
    """Per dimension: bytes sent / bandwidth x (1 - overlap), seconds."""
    return DimensionTimes(**{d: float(getattr(sent, d)) / getattr(bandwidth, d)
                             * (1 - getattr(overlap, d)) for d in DIMENSIONS})


@functools.cache
def idle_over_busy(schedule: str, pp: int, num_microbatches: int, chunks: int = 1) -> Fraction:
    """Idle over busy time of a pipeline stage: f / (1 - f), f the bubble fraction, exact.

    1F1B: (p - 1) / m. Closed forms of :mod:`distlesson.pipeline.bubble`; the simulator (default
    durations) where no closed form holds (ZB-H1 with m < p)."""
    durations = Durations()
    if schedule == "zb-h1" and not zb_h1_closed_form_holds(pp, num_microbatches, durations):
        f = simulate(build_schedule(schedule, pp, num_microbatches), durations).bubble_fraction
    else:
        f = bubble_fraction(schedule, pp, num_microbatches, chunks, durations)
    return f / (1 - f)


@dataclass(frozen=True)
class StepBreakdown:
    """A step's seconds, term by term (per GPU, every GPU alike): see the module docstring."""

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
    """The inputs of the seven terms, per GPU; :meth:`breakdown` sums them."""

    model_flops: float
    recompute_flops: float
    peak_flops: float
    kernel_efficiency: float
    idle_over_busy: float
    comm: DimensionTimes
    """Exposed communication seconds per dimension."""
    data_stall: float
    failure_overhead: float

    def breakdown(self) -> StepBreakdown:
        useful = self.model_flops / self.peak_flops
        below = useful * (1 / self.kernel_efficiency - 1)
        recompute = self.recompute_flops / (self.peak_flops * self.kernel_efficiency)
        bubble = (useful + below + recompute) * self.idle_over_busy
        productive = math.fsum((useful, below, recompute, bubble, self.comm.total,
                                self.data_stall))
        return StepBreakdown(useful, below, recompute, bubble, self.comm.total,
                             self.data_stall, productive * self.failure_overhead)

    def without(self, term: str) -> StepModel:
        """The model with ``term`` removed at its cause (peak kernels, no recomputation,
        no bubble, hidden communication, no stall, no failures); the others follow."""
        fixes = {"below_peak": {"kernel_efficiency": 1.0}, "recompute": {"recompute_flops": 0},
                 "bubble": {"idle_over_busy": 0}, "exposed_comm": {"comm": DimensionTimes(
                     0, 0, 0, 0)}, "data": {"data_stall": 0}, "failures": {"failure_overhead": 0}}
        if term not in fixes:
            raise ValueError(f"term={term!r} cannot be removed; allowed: {', '.join(fixes)}")
        return replace(self, **fixes[term])


@dataclass(frozen=True)
class StepInputs:
    """The modelling inputs of a step, besides the model, layout, workload and cluster."""

    kernel_efficiency: float = 0.6
    """Fraction of the dense peak the step's kernels reach while computing. A modelling
    input: large bf16 matrix products on an H100 run well above it, attention and
    elementwise kernels below. (The parallelism chapter's single-layer example keeps the
    Catalan chapter's more cautious 40 %.)"""
    overlap: Overlap = field(default_factory=Overlap)
    data_stall: float = 0.0
    """Seconds per step waiting for data (an input; 0: the loader keeps up)."""
    failures: FailureModel = field(default_factory=FailureModel)
    schedule: str = "1f1b"
    chunks: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.kernel_efficiency <= 1:
            raise ValueError(f"kernel_efficiency={self.kernel_efficiency!r} must be in (0, 1]")
        if self.data_stall < 0:
            raise ValueError(f"data_stall={self.data_stall!r} must be >= 0")


@dataclass(frozen=True)
class StepEstimate:
    """One step of a layout on a cluster: its terms and what they came from."""

    model: StepModel
    flops: StepFlops
    """FLOPs of the whole step, all GPUs."""
    gpus: int
    num_microbatches: int
    sent: StepCommunication
    """Bytes one GPU sends per step, per dimension."""

    @property
    def breakdown(self) -> StepBreakdown:
        return self.model.breakdown()  # cheap: a dozen float operations

    @property
    def mfu_from_flops(self) -> float:
        """Model FLOPs / (step time x GPUs x peak): the other way to the same MFU."""
        return mfu(self.flops.model, step_time=self.breakdown.total, gpus=self.gpus,
                   peak_flops=self.model.peak_flops)


def estimate_step(arch: Architecture, layout: Layout, workload: Workload, cluster: Cluster,
                  inputs: StepInputs | None = None) -> StepEstimate:
    """The seven terms of one step of ``layout`` (see the module docstring)."""
    inputs = inputs or StepInputs()
    if layout.world_size != cluster.num_gpus:
        raise ValueError(f"dp {layout.dp} x tp {layout.tp} x pp {layout.pp} x cp "
                         f"{layout.cp} = {layout.world_size} != num_gpus {cluster.num_gpus}")
    m = workload.num_microbatches(layout)
    tokens = workload.global_batch * workload.seq_len
    flops = step_flops(arch, seq_len=workload.seq_len, tokens_per_step=tokens,
                       recompute=workload.recompute)
    sent = step_communication(arch, layout, workload)
    if inputs.schedule == "interleaved":  # v chunks: v times the sends (Narayanan et al.
        sent = replace(sent, pp=sent.pp * inputs.chunks)  # 2021, section 2.2.2)
    gpus = cluster.num_gpus
    model = StepModel(
        model_flops=float(flops.model / gpus), recompute_flops=float(flops.recompute / gpus),
        peak_flops=cluster.spec.bf16_dense_flops, kernel_efficiency=inputs.kernel_efficiency,
        idle_over_busy=float(idle_over_busy(inputs.schedule, layout.pp, m, inputs.chunks)),
        comm=exposed_comm(sent, link_bandwidths(cluster, layout), inputs.overlap),
        data_stall=inputs.data_stall, failure_overhead=inputs.failures.overhead(gpus))
    return StepEstimate(model=model, flops=flops, gpus=gpus, num_microbatches=m, sent=sent)


def fix_largest(model: StepModel) -> tuple[str, StepModel]:
    """The exercise "MFU is low: what first?": the largest loss, and the step without it."""
    term = model.breakdown().ranked()[0][0]
    return term, model.without(term)
