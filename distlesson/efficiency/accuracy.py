"""How close is the model? Every published run predicted, its error, and the calibration.

For each run of :mod:`distlesson.catalog.published_runs`, :func:`predict` builds the run's
layout, workload and software (schedule, recomputation, overlap policy, attention kernel,
sequence parallelism) and asks :func:`distlesson.efficiency.step_time.estimate_step` for a
steady-state step (no failures, no data stall: papers report step throughput). The
predicted step time is read in the paper's own convention (MFU or HFU; the Megatron papers'
FLOP formulas, :func:`megatron_flops`; attention counted causal for Llama 3), and the error
is (predicted - measured) / measured.

The model's one free input, the share of the peak that large matrix products reach
(:data:`distlesson.catalog.achieved.GEMM_EFFICIENCY`), is fitted on one run per GPU by
:func:`calibrate` (bisection: the prediction grows with it), and once more for older
software on the same GPU (:data:`distlesson.catalog.achieved.EARLIER_SOFTWARE`); every
other run is a test of the model, not a fit.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from distlesson.catalog.achieved import EARLIER_SOFTWARE, GEMM_EFFICIENCY, gemm_efficiency
from distlesson.catalog.published_runs import PUBLISHED_RUNS, PublishedRun
from distlesson.efficiency.mfu import mfu, model_flops_per_token
from distlesson.efficiency.overlap import OverlapPolicy
from distlesson.efficiency.planner import interleavings
from distlesson.efficiency.step_time import Cluster, StepEstimate, StepInputs, estimate_step
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload

__all__ = ["Prediction", "RunSetup", "calibrate", "causal_share", "megatron_flops", "predict",
           "predictions", "run_efficiency", "run_setup"]


@dataclass(frozen=True)
class Prediction:
    """One published run against the model."""

    run: PublishedRun
    estimate: StepEstimate
    schedule: str
    chunks: int
    """The interleaved schedule's v used (the paper's, or the fastest buildable one)."""
    predicted: float
    """MFU or HFU (the paper's metric) in the paper's FLOP convention."""

    @property
    def error(self) -> float:
        """(predicted - measured) / measured."""
        return (self.predicted - self.run.measured) / self.run.measured

    @property
    def calibrates(self) -> bool:
        """Whether this run is the one its GPU's efficiency is fitted on."""
        fits = (GEMM_EFFICIENCY.get(self.run.gpu, (None, None))[1],
                EARLIER_SOFTWARE.get(self.run.software, (None, None))[1])
        return self.run.key in fits

    @property
    def fits(self) -> bool:
        """Whether the model thinks the busiest GPU's memory fits (the run did)."""
        return self.estimate.per_gpu_bytes <= Cluster(self.run.gpu, 1).spec.memory_bytes


def causal_share(run: PublishedRun) -> float:
    """Model FLOPs with causal attention over the full count: 1 - 6 L s h / total."""
    arch, s = run.model, run.seq_len
    full = model_flops_per_token(arch, seq_len=s)
    return (full - 6 * arch.num_layers * s * arch.hidden_size) / full


@dataclass(frozen=True)
class RunSetup:
    """A published run as the step model's arguments."""

    layout: Layout
    workload: Workload
    cluster: Cluster
    inputs: StepInputs
    """Steady state (no failures, no data stall), the run's schedule, overlap and kernels."""


def run_setup(run: PublishedRun, *, schedule: str, chunks: int,
              eta: float | None = None) -> RunSetup:
    """``run``'s layout, workload, cluster and software for :func:`estimate_step`."""
    dp, tp, pp, cp = run.overlap
    return RunSetup(
        layout=Layout(dp=run.dp, tp=run.tp, pp=run.pp, cp=run.cp, zero=run.zero),
        workload=Workload(seq_len=run.seq_len, micro_batch=run.micro_batch,
                          global_batch=run.global_batch, recompute=run.recompute,
                          precision=run.precision),
        cluster=Cluster(run.gpu, run.num_gpus, inter_link=run.inter_link),
        inputs=StepInputs(kernel_efficiency=eta, failures=None, schedule=schedule,
                          chunks=chunks, attention=run.attention,
                          sequence_parallel=run.sequence_parallel,
                          accumulation=run.accumulation,
                          overlap=OverlapPolicy(dp=dp, tp=tp, pp=pp, cp=cp)))  # type: ignore[arg-type]


def _estimate(run: PublishedRun, eta: float, schedule: str, chunks: int) -> StepEstimate:
    setup = run_setup(run, schedule=schedule, chunks=chunks, eta=eta)
    return estimate_step(run.model, setup.layout, setup.workload, setup.cluster, setup.inputs)


def megatron_flops(run: PublishedRun) -> float:
    """FLOPs of ``run``'s step as the Megatron-LM papers count them, B sequences of s
    tokens through l layers of width h, vocabulary V:

    - model FLOPs (MFU), and hardware FLOPs without recomputation:
      72 B s l h^2 (1 + s / 6h + V / 12lh) (Narayanan et al. 2021, section 5.1, less the
      recomputed forward);
    - hardware FLOPs with full recomputation: 96 B s l h^2 (1 + s / 6h + V / 16lh)
      (Narayanan et al. 2021, section 5.1: the forward runs twice);
    - hardware FLOPs with selective recomputation: 72 B s l h^2 (1 + s / 3h + V / 12lh),
      the count behind Korthikanti et al.'s HFU (2022, Table 5): their HFU over their MFU
      is this over the model count, to the three digits they print.

    The course's own count (:mod:`distlesson.efficiency.mfu`) adds the biases and norms
    and counts a selective recomputation's attention once; reading a prediction in the
    paper's count compares like with like."""
    arch, s = run.model, run.seq_len
    b, layers, h, vocab = run.global_batch, arch.num_layers, arch.hidden_size, arch.vocab_size
    scale = b * s * layers * h**2
    recompute = run.recompute if run.metric == "hfu" else "none"
    if recompute == "full":
        return 96 * scale * (1 + s / (6 * h) + vocab / (16 * layers * h))
    attention = s / (3 * h) if recompute == "selective" else s / (6 * h)
    return 72 * scale * (1 + attention + vocab / (12 * layers * h))


def _read(run: PublishedRun, estimate: StepEstimate) -> float:
    if run.flop_count == "narayanan":
        return mfu(megatron_flops(run), step_time=estimate.step_time, gpus=run.num_gpus,
                   peak_flops=estimate.peak_flops)
    value = estimate.mfu if run.metric == "mfu" else estimate.hfu
    return value * causal_share(run) if run.metric == "mfu" else value


def run_efficiency(run: PublishedRun) -> float:
    """The calibrated share of the peak for ``run``'s GPU and software: older software's own
    fit where there is one (:data:`distlesson.catalog.achieved.EARLIER_SOFTWARE`), else the
    GPU's."""
    if run.software in EARLIER_SOFTWARE:
        return EARLIER_SOFTWARE[run.software][0]
    return gemm_efficiency(run.gpu)


def predict(run: PublishedRun, *, eta: float | None = None) -> Prediction:
    """The model's reading of ``run`` (see the module docstring)."""
    eta = eta or run_efficiency(run)
    if run.chunks is not None:
        options = [(run.schedule, run.chunks)]
    else:  # the planner's buildable ones
        options = [("1f1b", 1), *(("interleaved", v)
                                  for v in interleavings(run.model.num_layers, run.pp))]
    estimate, (schedule, chunks) = max(((_estimate(run, eta, *option), option)
                                        for option in options), key=lambda pair: pair[0].mfu)
    return Prediction(run, estimate, schedule, chunks, _read(run, estimate))


@functools.cache
def predictions() -> tuple[Prediction, ...]:
    """Every published run, predicted with the calibrated efficiencies."""
    return tuple(predict(run) for run in PUBLISHED_RUNS.values())


def calibrate(run: PublishedRun, *, low: float = 0.2, high: float = 1.0,
              tolerance: float = 1e-4) -> float:
    """The efficiency at which the model reproduces ``run``'s measured value (bisection)."""
    if not predict(run, eta=low).predicted <= run.measured <= predict(run, eta=high).predicted:
        raise ValueError(f"{run.key}: measured {run.measured} is out of the model's reach "
                         f"between eta={low} and eta={high}")
    while high - low > tolerance:
        middle = (low + high) / 2
        if predict(run, eta=middle).predicted < run.measured:
            low = middle
        else:
            high = middle
    return (low + high) / 2
