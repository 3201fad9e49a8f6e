"""The planner: every layout dp x tp x pp x cp of a cluster, filtered and ranked by step time.

For a model, a cluster and a step's tokens, :func:`plan` enumerates tp, pp, cp over the
divisors of the GPU count (dp the rest), each ZeRO stage, each recomputation and each
pipeline schedule (1F1B, and interleaved 1F1B with v chunks dividing a stage's layers),
rejects what breaks a rule or does not fit, and ranks the rest by the step time of
:mod:`distlesson.efficiency.step_time`. :func:`evaluate` does the same for one fixed layout.

Rules, each a rejection reason: tp must divide gpus_per_node (``tp_node``) and the heads,
key/value heads and MLP width (``tp_shape``, :func:`~distlesson.memory.states.check_layout`); pp
may not exceed the layers (``pp_layers``; a stage may get ceil(L / pp) layers); cp must
divide seq_len (``cp_seq``); the micro-batches per replica, round(sequences / (dp x
micro_batch)), must be at least one and give a batch within ``batch_tolerance`` of the
tokens asked for (``batch``); states + activations must fit in the GPU's memory less
``headroom`` (``memory``). Counts are of configs (layout x ZeRO stage x recomputation).

Speed: everything that does not depend on dp or ZeRO is computed once per (tp, pp, cp),
and the traffic once per (tp, cp): :func:`~distlesson.parallel.layout.step_communication`
at pp = dp = 1 and one micro-batch gives the bytes per layer and micro-batch, which the
planner scales by the stage's layers and micro-batches (the tests check this against
:func:`~distlesson.parallel.layout.analyse_layout`). Interleaving holds more activations
(:func:`~distlesson.pipeline.bubble.peak_activations` of stage 0 over 1F1B's) and sends v times the
pipeline bytes (Narayanan et al. 2021, section 2.2.2).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction

from distlesson.catalog.models import Architecture
from distlesson.efficiency.mfu import model_flops_per_token, recompute_flops_per_token
from distlesson.efficiency.step_time import (
    Cluster,
    DimensionTimes,
    StepBreakdown,
    StepInputs,
    StepModel,
    exposed_comm,
    idle_over_busy,
    link_bandwidths,
)
from distlesson.memory.activations import RECOMPUTE, Recompute, activation_bytes_per_gpu
from distlesson.memory.states import Layout, check_layout, model_states, per_gpu_states
from distlesson.parallel.layout import Workload, step_communication
from distlesson.pipeline.bubble import peak_activations

__all__ = ["HEADROOM", "PlanResult", "PlannedConfig", "evaluate", "plan"]

HEADROOM = 0.1
"""Share of a GPU's memory kept free for what the model does not count (CUDA context,
NCCL buffers, allocator fragmentation, the logits and other temporaries): a modelling choice."""
BATCH_TOLERANCE = 0.05
"""How far the whole-sequence batch of a layout may stray from the tokens asked for."""
REASONS = ("tp_node", "tp_shape", "pp_layers", "cp_seq", "batch", "memory")


@dataclass(frozen=True)
class PlannedConfig:
    """One layout with its ZeRO stage, recomputation and schedule: memory and step time."""

    dp: int
    tp: int
    pp: int
    cp: int
    zero: int
    recompute: Recompute
    schedule: str
    chunks: int
    num_microbatches: int
    tokens_per_step: int
    """Tokens of this layout's whole-sequence batch: dp x micro-batches x micro_batch x seq."""
    per_gpu_bytes: float
    """Model states + activations of the busiest GPU."""
    fits: bool
    """per_gpu_bytes <= memory x (1 - headroom)."""
    breakdown: StepBreakdown

    @property
    def step_time(self) -> float:
        return self.breakdown.total

    @property
    def mfu(self) -> float:
        return self.breakdown.mfu

    @property
    def layout(self) -> Layout:
        return Layout(dp=self.dp, tp=self.tp, pp=self.pp, cp=self.cp, zero=self.zero)


@dataclass(frozen=True)
class PlanResult:
    """Ranked configs, best first (fitting ones first), and what was rejected and why."""

    configs: tuple[PlannedConfig, ...]
    rejected: dict[str, int] = field(default_factory=dict)
    """Configs rejected, by reason (see the module docstring)."""
    examples: dict[str, str] = field(default_factory=dict)
    """One rejected layout per reason, with the rule it breaks."""
    memory_limit: float = 0.0
    """Bytes a GPU may use: its memory x (1 - headroom)."""


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


class _Search:
    """One search's inputs and its caches (per (tp, cp), per (tp, pp, cp), per (dp, zero))."""

    def __init__(self, arch: Architecture, cluster: Cluster, *, seq_len: int,
                 tokens_per_step: float, micro_batch: int, inputs: StepInputs,
                 headroom: float, batch_tolerance: float, precision: str, optimizer: str,
                 interleave: bool):
        if not 0 <= headroom < 1:
            raise ValueError(f"headroom={headroom!r} must be in [0, 1)")
        if not tokens_per_step >= seq_len * micro_batch:
            raise ValueError(f"tokens_per_step={tokens_per_step!r} must be at least one "
                             f"micro-batch of {micro_batch} x seq_len={seq_len} tokens")
        self.arch, self.cluster, self.inputs = arch, cluster, inputs
        self.seq, self.mb, self.tokens = seq_len, micro_batch, tokens_per_step
        self.tolerance, self.precision, self.optimizer = batch_tolerance, precision, optimizer
        self.interleave = interleave
        self.limit = cluster.spec.memory_bytes * (1 - headroom)
        self.states = model_states(arch, optimizer=optimizer, precision=precision)
        self.overhead = inputs.failures.overhead(cluster.num_gpus)
        self.flops = {r: (model_flops_per_token(arch, seq_len=seq_len),
                          recompute_flops_per_token(arch, seq_len=seq_len, recompute=r))
                      for r in RECOMPUTE}
        self.traffic = functools.cache(self._traffic)
        self.dp_bytes = functools.cache(self._dp_bytes)

    def _workload(self, global_batch: int, recompute: Recompute) -> Workload:
        return Workload(seq_len=self.seq, micro_batch=self.mb, global_batch=global_batch,
                        recompute=recompute, precision=self.precision, optimizer=self.optimizer)

    def _traffic(self, tp: int, cp: int, recompute: Recompute) -> tuple[Fraction, ...]:
        """Bytes per micro-batch: tp and cp per layer, pp per stage boundary."""
        one = self._workload(self.mb, recompute)
        flat = step_communication(self.arch, Layout(tp=tp, cp=cp), one)
        layers = self.arch.num_layers
        pp = (step_communication(self.arch, Layout(tp=tp, cp=cp, pp=2), one).pp
              if layers > 1 else Fraction(0))
        return flat.tp / layers, flat.cp / layers, pp

    def _dp_bytes(self, dp: int, zero: int, m: int) -> Fraction:
        """The dp bytes of the whole model's states (divided by tp x pp where used), for m
        micro-batches per replica (ZeRO 2 and 3 communicate at every micro-batch)."""
        layout = Layout(dp=dp, zero=zero)
        workload = self._workload(dp * self.mb * m, "none")
        return step_communication(self.arch, layout, workload).dp

    def rule(self, tp: int, pp: int, cp: int) -> tuple[str, str] | None:
        """The first rule (tp, pp, cp) breaks, as (reason, message), or None."""
        if self.cluster.gpus_per_node % tp:
            return "tp_node", f"tp={tp} must divide gpus_per_node={self.cluster.gpus_per_node}"
        try:
            check_layout(self.arch, Layout(tp=tp, pp=pp))
        except ValueError as error:
            return ("tp_shape" if str(error).startswith("tp") else "pp_layers"), str(error)
        if self.seq % cp:
            return "cp_seq", f"cp={cp} must divide seq_len={self.seq}"
        return None

    def microbatches(self, dp: int) -> tuple[int, str | None]:
        """Micro-batches per replica nearest to the tokens asked for, or 0 and why not."""
        m = round(self.tokens / (self.seq * self.mb * dp))
        actual = m * dp * self.mb * self.seq
        if m < 1 or abs(actual - self.tokens) > self.tolerance * self.tokens:
            return 0, (f"dp={dp} x micro_batch={self.mb} sequences of {self.seq} cannot make "
                       f"{self.tokens:.4g} tokens within {self.tolerance:.0%}")
        return m, None

    def schedules(self, pp: int, m: int) -> list[tuple[str, int]]:
        """1F1B, and interleaved 1F1B with v chunks dividing a stage's layers when allowed
        (m a multiple of pp, as Megatron-LM requires)."""
        options = [("1f1b", 1)]
        if self.interleave and pp > 1 and m % pp == 0:
            per_stage = -(-self.arch.num_layers // pp)
            options += [("interleaved", v) for v in _divisors(per_stage) if v > 1]
        return options

    def configs(self, layout: Layout, recompute: Recompute, m: int,
                only_fitting: bool) -> list[PlannedConfig]:
        """The layout's configs under each schedule (only those that fit, if asked)."""
        tp, pp, cp = layout.tp, layout.pp, layout.cp
        states = float(per_gpu_states(self.states, layout).total)
        acts = float(activation_bytes_per_gpu(
            self.arch, seq_len=self.seq, micro_batch=self.mb, tp=tp, sp=tp > 1, cp=cp, pp=pp,
            num_microbatches=m, recompute=recompute))
        found = []
        for schedule, v in self.schedules(pp, m):
            scale = (peak_activations(schedule, pp, m, v)[0] / min(pp, m)
                     if schedule == "interleaved" else 1)
            per_gpu = states + acts * float(scale)
            fits = per_gpu <= self.limit
            if only_fitting and not fits:
                continue
            found.append(self.config(layout, recompute, m, schedule, v, per_gpu, fits))
        return found

    def config(self, layout: Layout, recompute: Recompute, m: int, schedule: str, v: int,
               per_gpu: float, fits: bool) -> PlannedConfig:
        tp, pp, cp, dp = layout.tp, layout.pp, layout.cp, layout.dp
        gpus = self.cluster.num_gpus
        tokens = dp * m * self.mb * self.seq
        tp_layer, cp_layer, pp_mb = self.traffic(tp, cp, recompute)
        layers = -(-self.arch.num_layers // pp) * m
        sent = DimensionTimes(dp=float(self.dp_bytes(dp, layout.zero, m)) / (tp * pp),
                              tp=float(tp_layer) * layers, cp=float(cp_layer) * layers,
                              pp=float(pp_mb) * m * v if pp > 1 else 0.0)
        comm = exposed_comm(sent, link_bandwidths(self.cluster, layout), self.inputs.overlap)
        model_tok, recompute_tok = self.flops[recompute]
        model = StepModel(
            model_flops=model_tok * tokens / gpus, recompute_flops=recompute_tok * tokens / gpus,
            peak_flops=self.cluster.spec.bf16_dense_flops,
            kernel_efficiency=self.inputs.kernel_efficiency,
            idle_over_busy=float(idle_over_busy(schedule, pp, m, v)), comm=comm,
            data_stall=self.inputs.data_stall, failure_overhead=self.overhead)
        return PlannedConfig(dp=dp, tp=tp, pp=pp, cp=cp, zero=layout.zero, recompute=recompute,
                             schedule=schedule, chunks=v, num_microbatches=m,
                             tokens_per_step=tokens, per_gpu_bytes=per_gpu, fits=fits,
                             breakdown=model.breakdown())


def _rank(configs: list[PlannedConfig]) -> tuple[PlannedConfig, ...]:
    """Fitting first; then by seconds per token (batches may differ a little); then memory."""
    return tuple(sorted(configs, key=lambda c: (not c.fits, c.step_time / c.tokens_per_step,
                                                c.per_gpu_bytes)))


def _search(arch: Architecture, cluster: Cluster, seq_len: int, tokens_per_step: float,
            **options: object) -> _Search:
    defaults = dict(micro_batch=1, inputs=StepInputs(), headroom=HEADROOM,
                    batch_tolerance=BATCH_TOLERANCE, precision="mixed", optimizer="adamw",
                    interleave=True)
    return _Search(arch, cluster, seq_len=seq_len, tokens_per_step=tokens_per_step,
                   **(defaults | options))  # type: ignore[arg-type]


def plan(arch: Architecture, cluster: Cluster, *, seq_len: int, tokens_per_step: float,
         zero_stages: tuple[int, ...] = (0, 1, 2, 3),
         recomputes: tuple[Recompute, ...] = RECOMPUTE, **options: object) -> PlanResult:
    """Every fitting config of ``arch`` on ``cluster``, fastest (per token) first.

    ``options``: micro_batch (1), inputs (:class:`StepInputs`; its schedule is searched, not
    read), headroom (:data:`HEADROOM`), batch_tolerance (:data:`BATCH_TOLERANCE`),
    precision ("mixed"), optimizer ("adamw"), interleave (True: also interleaved 1F1B)."""
    search = _search(arch, cluster, seq_len, tokens_per_step, **options)
    n, per_layout = cluster.num_gpus, len(zero_stages) * len(recomputes)
    rejected: Counter[str] = Counter()
    examples: dict[str, str] = {}
    found: list[PlannedConfig] = []

    def reject(reason: str, message: str, count: int) -> None:
        rejected[reason] += count
        examples.setdefault(reason, message)

    for tp in _divisors(n):
        for pp in _divisors(n // tp):
            for cp in _divisors(n // (tp * pp)):
                dp = n // (tp * pp * cp)
                shape = f"dp={dp} tp={tp} pp={pp} cp={cp}"
                broken = search.rule(tp, pp, cp)
                m, why = search.microbatches(dp) if broken is None else (0, None)
                if broken or why:
                    reason, message = broken or ("batch", why or "")
                    reject(reason, f"{shape}: {message}", per_layout)
                    continue
                for zero in zero_stages:
                    layout = Layout(dp=dp, tp=tp, pp=pp, cp=cp, zero=zero)
                    for recompute in recomputes:
                        fitting = search.configs(layout, recompute, m, only_fitting=True)
                        if not fitting:
                            reject("memory", f"{shape} zero={zero} recompute={recompute}: "
                                   f"more than {search.limit / 1e9:.0f} GB per GPU", 1)
                        found += fitting
    return PlanResult(configs=_rank(found), rejected=dict(rejected), examples=examples,
                      memory_limit=search.limit)


def evaluate(arch: Architecture, cluster: Cluster, layout: Layout, *, seq_len: int,
             tokens_per_step: float, recomputes: tuple[Recompute, ...] = RECOMPUTE,
             zero_stages: tuple[int, ...] | None = None, **options: object) -> PlanResult:
    """One fixed layout under each recomputation, schedule and ZeRO stage (default: the
    layout's own); configs that do not fit are ranked after all that do.

    ValueError, with the rule, if the layout breaks one (see the module docstring)."""
    search = _search(arch, cluster, seq_len, tokens_per_step, **options)
    broken = search.rule(layout.tp, layout.pp, layout.cp)
    if broken:
        raise ValueError(broken[1])
    if layout.world_size != cluster.num_gpus:
        raise ValueError(f"dp {layout.dp} x tp {layout.tp} x pp {layout.pp} x cp {layout.cp}"
                         f" = {layout.world_size} != gpus {cluster.num_gpus}")
    m, why = search.microbatches(layout.dp)
    if why:
        raise ValueError(why)
    stages = (layout.zero,) if zero_stages is None else zero_stages
    found = [c for zero in stages for r in recomputes
             for c in search.configs(replace(layout, zero=zero), r, m, only_fitting=False)]
    return PlanResult(configs=_rank(found), memory_limit=search.limit)
