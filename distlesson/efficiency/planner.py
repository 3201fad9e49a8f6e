"""The planner: every buildable layout dp x tp x pp x cp of a cluster, ranked by step time.

For a model, a cluster and a step's tokens, :func:`plan` enumerates tp, pp, cp over the
divisors of the GPU count (dp the rest), each ZeRO stage, each recomputation and each
pipeline schedule (1F1B, and interleaved 1F1B with v chunks), keeps what can be built and
fits, and ranks it by the step time of :func:`distlesson.efficiency.step_time.estimate_step`,
the model every page uses. :func:`evaluate` does the same for one fixed layout.

Rules, each a rejection reason (counted per config: layout x ZeRO stage x recomputation):

* ``tp_node``: tp divides gpus_per_node (tensor parallelism stays on NVLink);
* ``tp_shape``: tp divides the heads, the key/value heads and the MLP width;
* ``pp_layers``: pp <= layers, every stage at least one layer;
* ``cp_seq``: 2 cp divides seq_len (the causal load-balanced split gives each rank two
  chunks, Llama 3 section 3.3.2);
* ``batch``: whole micro-batches, round(sequences / (dp x micro_batch)) >= 1, within
  ``batch_tolerance`` of the tokens asked for (when that count is not a multiple of pp,
  the nearest multiple within the tolerance is tried too, for interleaving);
* ``memory``: the busiest GPU (:mod:`distlesson.memory.stages`, with its named overheads)
  within the GPU's memory.

Interleaving needs m a multiple of pp (Megatron-LM) and v dividing the smallest stage's
layers, so that its chunks are whole and equal layers (pp x v <= layers follows; a larger
stage's chunks differ by one layer at most, as in Llama 3's uneven stages). Selective
recomputation is not searched by default: with FlashAttention it keeps the same bytes as
none and only adds time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from distlesson.catalog.models import Architecture
from distlesson.efficiency.step_time import (
    Cluster,
    StepBreakdown,
    StepEstimate,
    StepInputs,
    estimate_step,
)
from distlesson.memory.activations import RECOMPUTE, Recompute
from distlesson.memory.stages import stage_layers
from distlesson.memory.states import Layout, check_layout
from distlesson.parallel.layout import Workload

__all__ = [
    "BATCH_TOLERANCE",
    "SEARCHED_RECOMPUTE",
    "PlanResult",
    "PlannedConfig",
    "evaluate",
    "plan",
]

BATCH_TOLERANCE = 0.05
"""How far the whole-sequence batch of a layout may stray from the tokens asked for."""
REASONS = ("tp_node", "tp_shape", "pp_layers", "cp_seq", "batch", "memory")
SEARCHED_RECOMPUTE: tuple[Recompute, ...] = ("none", "full")
"""Recomputation searched by default (see the module docstring)."""


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
    estimate: StepEstimate
    memory_limit: float

    @property
    def breakdown(self) -> StepBreakdown:
        return self.estimate.breakdown

    @property
    def per_gpu_bytes(self) -> float:
        """Peak memory of the busiest GPU."""
        return self.estimate.per_gpu_bytes

    @property
    def fits(self) -> bool:
        return self.per_gpu_bytes <= self.memory_limit

    @property
    def step_time(self) -> float:
        return self.estimate.step_time

    @property
    def mfu(self) -> float:
        return self.estimate.mfu

    @property
    def hfu(self) -> float:
        return self.estimate.hfu

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
    """Bytes a GPU may hold: its memory."""


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def interleavings(num_layers: int, pp: int) -> list[int]:
    """The chunk counts v >= 2 an interleaved schedule can use: divisors of the smallest
    stage's layers (see the module docstring)."""
    return [v for v in _divisors(min(stage_layers(num_layers, pp))) if v > 1]


@dataclass(frozen=True)
class _Search:
    arch: Architecture
    cluster: Cluster
    seq: int
    tokens: float
    micro_batch: int
    inputs: StepInputs
    tolerance: float
    precision: str
    optimizer: str
    interleave: bool

    def __post_init__(self) -> None:
        if not self.tokens >= self.seq * self.micro_batch:
            raise ValueError(f"tokens_per_step={self.tokens!r} must be at least one "
                             f"micro-batch of {self.micro_batch} x seq_len={self.seq} tokens")

    @property
    def limit(self) -> float:
        return self.cluster.spec.memory_bytes

    def rule(self, tp: int, pp: int, cp: int) -> tuple[str, str] | None:
        """The first rule (tp, pp, cp) breaks, as (reason, message), or None."""
        if self.cluster.gpus_per_node % tp:
            return "tp_node", f"tp={tp} must divide gpus_per_node={self.cluster.gpus_per_node}"
        try:
            check_layout(self.arch, Layout(tp=tp, pp=pp))
        except ValueError as error:
            return ("tp_shape" if str(error).startswith("tp") else "pp_layers"), str(error)
        if cp > 1 and self.seq % (2 * cp):
            return "cp_seq", f"2 x cp={cp} must divide seq_len={self.seq} (two chunks a rank)"
        return None

    def microbatches(self, dp: int) -> tuple[int, str | None]:
        """Micro-batches per replica nearest to the tokens asked for, or 0 and why not:
        too many replicas for the batch, or a batch that whole micro-batches miss."""
        one_each = self.seq * self.micro_batch * dp  # tokens if every replica runs one
        m = round(self.tokens / one_each)
        if m < 1:
            return 0, (f"dp={dp} replicas of micro_batch={self.micro_batch} x seq_len="
                       f"{self.seq} need at least {one_each:.4g} tokens per step, more than "
                       f"{self.tokens:.4g}: too many GPUs for this batch")
        actual = m * one_each
        if abs(actual - self.tokens) > self.tolerance * self.tokens:
            return 0, (f"dp={dp} x micro_batch={self.micro_batch} sequences of {self.seq} "
                       f"cannot make {self.tokens:.4g} tokens within {self.tolerance:.0%} "
                       f"(nearest: {m} micro-batches, {actual:.4g} tokens)")
        return m, None

    def counts(self, dp: int, pp: int, m: int) -> tuple[int, ...]:
        """The micro-batch counts to try for a layout: the nearest ``m``, and, when it is not
        a multiple of pp, the nearest multiple within the tolerance too, so that an
        interleaved schedule can be built (a batch of 16M tokens on Meta's dp 128 is 15.3
        sequences per replica: 15, and 16 for pp 16)."""
        if pp == 1 or m % pp == 0 or not self.interleave:
            return (m,)
        one_each = self.seq * self.micro_batch * dp
        near = [k * pp for k in (m // pp, m // pp + 1) if k > 0
                and abs(k * pp * one_each - self.tokens) <= self.tolerance * self.tokens]
        return (m, *sorted(near, key=lambda k: abs(k * one_each - self.tokens))[:1])

    def schedules(self, pp: int, m: int) -> list[tuple[str, int]]:
        """1F1B, and interleaved 1F1B with v chunks when it can be built."""
        options = [("1f1b", 1)]
        if self.interleave and pp > 1 and m % pp == 0:
            options += [("interleaved", v) for v in interleavings(self.arch.num_layers, pp)]
        return options

    def configs(self, layout: Layout, recompute: Recompute, m: int,
                only_fitting: bool) -> list[PlannedConfig]:
        workload = Workload(seq_len=self.seq, micro_batch=self.micro_batch,
                            global_batch=layout.dp * self.micro_batch * m, recompute=recompute,
                            precision=self.precision, optimizer=self.optimizer)
        found = []
        for schedule, v in self.schedules(layout.pp, m):
            inputs = replace(self.inputs, schedule=schedule, chunks=v)
            estimate = estimate_step(self.arch, layout, workload, self.cluster, inputs)
            config = PlannedConfig(
                dp=layout.dp, tp=layout.tp, pp=layout.pp, cp=layout.cp, zero=layout.zero,
                recompute=recompute, schedule=schedule, chunks=v, num_microbatches=m,
                tokens_per_step=workload.global_batch * self.seq, estimate=estimate,
                memory_limit=self.limit)
            if config.fits or not only_fitting:
                found.append(config)
        return found


def _rank(configs: list[PlannedConfig]) -> tuple[PlannedConfig, ...]:
    """Fitting first; then by seconds per token (batches may differ a little); then memory."""
    return tuple(sorted(configs, key=lambda c: (not c.fits, c.step_time / c.tokens_per_step,
                                                c.per_gpu_bytes)))


def _search(arch: Architecture, cluster: Cluster, seq_len: int, tokens_per_step: float,
            **options: object) -> _Search:
    defaults = dict(micro_batch=1, inputs=StepInputs(), batch_tolerance=BATCH_TOLERANCE,
                    precision="mixed", optimizer="adamw", interleave=True)
    unknown = set(options) - set(defaults)
    if unknown:
        raise ValueError(f"unknown options {sorted(unknown)}; allowed: {', '.join(defaults)}")
    chosen = defaults | options
    return _Search(arch, cluster, seq_len, tokens_per_step, chosen["micro_batch"],
                   chosen["inputs"], chosen["batch_tolerance"], chosen["precision"],
                   chosen["optimizer"], chosen["interleave"])  # type: ignore[arg-type]


def plan(arch: Architecture, cluster: Cluster, *, seq_len: int, tokens_per_step: float,
         zero_stages: tuple[int, ...] = (0, 1, 2, 3),
         recomputes: tuple[Recompute, ...] = SEARCHED_RECOMPUTE,
         **options: object) -> PlanResult:
    """Every buildable, fitting config of ``arch`` on ``cluster``, fastest (per token) first.

    ``options``: micro_batch (1), inputs (:class:`StepInputs`; its schedule is searched, not
    read), batch_tolerance (:data:`BATCH_TOLERANCE`), precision ("mixed"), optimizer
    ("adamw"), interleave (True: also interleaved 1F1B)."""
    for r in recomputes:
        if r not in RECOMPUTE:
            raise ValueError(f"recompute={r!r} is not known; allowed: {', '.join(RECOMPUTE)}")
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
                        fitting = [c for count in search.counts(dp, pp, m)
                                   for c in search.configs(layout, recompute, count,
                                                           only_fitting=True)]
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
             for count in search.counts(layout.dp, layout.pp, m)
             for c in search.configs(replace(layout, zero=zero), r, count, only_fitting=False)]
    return PlanResult(configs=_rank(found), memory_limit=search.limit)
