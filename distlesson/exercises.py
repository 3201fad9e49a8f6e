"""The course's exercises: the Catalan chapter's five questions and the Persian lesson's five.

Each exercise is data: the numbers its question states (:class:`Quantity`), and its parts.
A :class:`NumericPart` carries the library's answer in base units, the unit the reader
answers in and the tolerance within which an answer counts as right; an :class:`OpenPart`
is a judgement, answered by a model answer the reader compares theirs with; a
:class:`GoalPart` is reached in a widget (which marks it in the browser). Nothing here is
typed that the library can compute: every answer calls the module that owns the concept.
The texts of the questions, per language, are in :mod:`distlesson.pages.exercise_texts`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import get_model
from distlesson.efficiency.cost import PRICES, cost_usd, gpu_hours, training_flops
from distlesson.efficiency.mfu import model_flops_per_token, recompute_flops_per_token
from distlesson.memory.checkpoint_segments import best_every, segment_peak
from distlesson.memory.offload import EXERCISE_NODE, EXERCISE_PARAMS, offload_exercise, split_states
from distlesson.memory.states import min_gpus, model_states
from distlesson.parallel.collectives import ring_bytes
from distlesson.pipeline.bubble import bubble_fraction, peak_activations
from distlesson.render.figure import Figure

__all__ = ["REL_TOL", "Exercise", "GoalPart", "NumericPart", "OpenPart", "Part",
           "Quantity", "communication_exercises", "exercises", "failures_exercises",
           "fp8_exercises", "get_exercise"]

REL_TOL = 0.02
"""The Catalan chapter's margin ("Marge acceptat: 2 %"), kept for every answer that is not
a count: an answer x is right when |x - v| <= REL_TOL x |v|. A count must be exact."""

AnswerUnit = Literal["GB", "MB", "GB/s", "%", "M$", "s", ""]
"""The unit the reader answers in (a key of :data:`distlesson.render.numbers.UNITS`, or % for
a fraction); "" for a count."""


@dataclass(frozen=True)
class Quantity:
    """A number a question or its model answer states, in base units."""

    name: str
    """Its name in the pages' figures: ``ex.<name>``."""
    value: float | Fraction
    """The value, in base units (bytes, a fraction, dollars, a count)."""
    unit: str = ""
    """How it is shown: a key of :data:`distlesson.render.numbers.UNITS`, or %."""
    digits: int = 0
    """Decimals shown."""


@dataclass(frozen=True)
class NumericPart:
    """A question with one number for answer, which the page checks."""

    id: str
    """Key of the part in the browser's store of solved parts."""
    value: float | Fraction
    """The library's answer, in base units."""
    unit: AnswerUnit
    """The unit the reader answers in; "" for a count."""
    rel_tol: float
    """Accepted relative error; 0 for a count, which must be exact."""
    digits: int = 0
    """Decimals with which the answer is shown once revealed."""

    def __post_init__(self) -> None:
        if not 0 <= self.rel_tol < 1:
            raise ValueError(f"part {self.id}: rel_tol={self.rel_tol!r} must be in [0, 1)")
        if self.unit == "" and (self.rel_tol != 0 or Fraction(self.value).denominator != 1):
            raise ValueError(f"part {self.id}: a count (unit '') must be a whole number "
                             f"checked exactly; got value={self.value!r}, rel_tol={self.rel_tol}")
        if not math.isfinite(float(self.value)):
            raise ValueError(f"part {self.id}: value={self.value!r} must be finite")

    def as_figure(self) -> Figure:
        """The answer as a figure, ``ex.<part id>``, as the page shows it."""
        return Figure(f"ex.{self.id.replace('-', '_')}", float(self.value), self.unit,
                      self.digits)


@dataclass(frozen=True)
class OpenPart:
    """A judgement: the reader writes their own answer, then reads a model answer."""

    id: str
    """Key of the part in the browser's store of solved parts."""


@dataclass(frozen=True)
class GoalPart:
    """A goal reached in a widget, which marks ``id`` in the browser's store itself."""

    id: str
    """The key the widgets mark (``bubble-goal``)."""
    widgets: tuple[str, ...]
    """Where it can be reached: ``page#element-id`` of each widget."""


Part = NumericPart | OpenPart | GoalPart


@dataclass(frozen=True)
class Exercise:
    """One exercise of a source text, as precise questions."""

    id: str
    """A short name, unique on the page."""
    origin: Literal["ca", "fa", "course"]
    """The source text: the Catalan chapter or the Persian lesson; ``course`` for a
    chapter's own exercises (:func:`chapter_exercises`)."""
    number: int
    """Its place among the source's exercises, from 1."""
    parts: tuple[Part, ...]
    """What the reader answers; the exercise is solved when every part is."""
    quantities: tuple[Quantity, ...] = ()
    """The numbers its question and model answers state."""

    def __post_init__(self) -> None:
        if not self.parts:
            raise ValueError(f"exercise {self.id} has no part")
        ids = [p.id for p in self.parts]
        if len(set(ids)) != len(ids):
            raise ValueError(f"exercise {self.id}: part ids repeat: {ids}")


# --- the inputs of the questions, each as its source states it -------------------------
STATES_PARAMS = 13 * 10**9  # ca §6, question 4: "un model de 13B"
STATES_GPU = "h100-sxm"  # the chapter's 80 GB GPU, for the model answer
PIPELINE = (4, 8)  # fa exercise 2: "4 مرحله و 8 دسته کوچک", stages and micro-batches
CHECKPOINT_MODEL, CHECKPOINT_SEQ = "llama3-70b", 8192  # Llama 3's training length
ACCUMULATION = {"dp": 8, "k": 8, "params": 70 * 10**9, "grad_bytes": 2}  # bf16 gradients
COST_MODEL, COST_TOKENS_PER_PARAM, COST_MFU = "llama3-70b", 20, 0.40  # Hoffmann et al. 2022
BUBBLE_TARGET, BUBBLE_MIN_STAGES = Fraction(1, 10), 2  # ca §6, question 3
MFU_OBSERVED = 0.18  # ca §6, question 5: "Tens un MFU del 18 %"


def _states() -> Exercise:
    states = model_states(STATES_PARAMS, optimizer="adamw", precision="mixed")
    return Exercise("states-13b", "ca", 4, (
        NumericPart("states-13b", states.total, "GB", REL_TOL),
    ), (Quantity("states_params", STATES_PARAMS, "B params"),
        Quantity("states_gpus", min_gpus(states.total, get_gpu(STATES_GPU).memory_bytes)),
        Quantity("tolerance", REL_TOL, "%")))


def _accumulation() -> Exercise:
    a = ACCUMULATION
    once = ring_bytes("all_reduce", a["params"] * a["grad_bytes"], a["dp"])
    return Exercise("accumulation", "fa", 3, (
        NumericPart("accumulation-every", a["k"] * once, "GB", REL_TOL),
        NumericPart("accumulation-once", once, "GB", REL_TOL),
        OpenPart("accumulation-same"),
    ), (Quantity("acc_dp", a["dp"]), Quantity("acc_k", a["k"]),
        Quantity("acc_params", a["params"], "B params"),
        Quantity("acc_buffer", a["params"] * a["grad_bytes"], "GB")))


def _bubble_goal() -> Exercise:
    return Exercise("bubble-goal", "ca", 3, (
        GoalPart("bubble-goal", ("pipeline#dl-pipeline", "parallelism#dl-dimensions")),
    ), (Quantity("bubble_target", BUBBLE_TARGET, "%"),
        Quantity("bubble_min_stages", BUBBLE_MIN_STAGES)))


def _pipeline() -> Exercise:
    p, m = PIPELINE
    return Exercise("pipeline-memory", "fa", 2, (
        NumericPart("pipeline-gpipe-peak", peak_activations("gpipe", p, m)[0], "", 0),
        NumericPart("pipeline-1f1b-peak", peak_activations("1f1b", p, m)[0], "", 0),
        NumericPart("pipeline-bubble", bubble_fraction("1f1b", p, m), "%", REL_TOL, 1),
    ), (Quantity("pipe_stages", p), Quantity("pipe_microbatches", m),
        Quantity("pipe_gpipe_bubble", bubble_fraction("gpipe", p, m), "%", 1)))


def _checkpointing() -> Exercise:
    arch = get_model(CHECKPOINT_MODEL)
    overhead = Fraction(recompute_flops_per_token(arch, seq_len=CHECKPOINT_SEQ, count="6n"),
                        model_flops_per_token(arch, seq_len=CHECKPOINT_SEQ, count="6n"))
    exact = Fraction(  # the same with every matmul counted: the output layer is not rerun
        recompute_flops_per_token(arch, seq_len=CHECKPOINT_SEQ),
        model_flops_per_token(arch, seq_len=CHECKPOINT_SEQ))
    best = best_every(arch, seq_len=CHECKPOINT_SEQ)
    full = segment_peak(arch, every=1, seq_len=CHECKPOINT_SEQ)
    none = segment_peak(arch, every=arch.num_layers, seq_len=CHECKPOINT_SEQ).segment
    # Chen et al.'s optimum sqrt(L c / a): with K = 1, checkpoints = L c and segment = a
    root = math.sqrt(full.checkpoints / full.segment)
    return Exercise("checkpoint-every-k", "fa", 1, (
        NumericPart("recompute-overhead", overhead, "%", REL_TOL, 1),
        NumericPart("checkpoint-best-k", best.every, "", 0),
        NumericPart("checkpoint-peak", best.total, "GB", REL_TOL, 2),
    ), (Quantity("ckpt_layers", arch.num_layers), Quantity("ckpt_hidden", arch.hidden_size),
        Quantity("ckpt_seq", CHECKPOINT_SEQ), Quantity("ckpt_none", none, "GB", 1),
        Quantity("ckpt_full", full.total, "GB", 2), Quantity("ckpt_sqrt_rule", root, "", 1),
        Quantity("ckpt_overhead_matmuls", exact, "%", 1)))


def _offload() -> Exercise:
    whole = offload_exercise(params=EXERCISE_PARAMS, whole_nodes=True)
    loose = offload_exercise(params=EXERCISE_PARAMS, whole_nodes=False)
    moved = split_states(EXERCISE_PARAMS, tier="cpu").cpu.total
    node = EXERCISE_NODE
    return Exercise("offload-70b", "fa", 5, (
        NumericPart("offload-bytes", moved, "GB", REL_TOL),
        NumericPart("offload-cpu-gpus", whole.gpus("cpu"), "", 0),
        NumericPart("offload-nvme-gpus", whole.gpus("nvme"), "", 0),
        OpenPart("offload-verdict"),
    ), (Quantity("off_params", EXERCISE_PARAMS, "B params"),
        Quantity("off_node_gpus", node.gpus_per_node),
        Quantity("off_gpu_memory", node.gpu.memory_bytes, "GB"),
        Quantity("off_node_ram", node.cpu_memory_bytes, "GB"),
        Quantity("off_node_nvme", node.nvme_bytes, "TB"),
        Quantity("off_none_gpus", whole.gpus("none")),
        Quantity("off_none_loose", loose.gpus("none")),
        Quantity("off_cpu_loose", loose.gpus("cpu")),
        Quantity("off_nvme_loose", loose.gpus("nvme")),
        Quantity("off_cpu_tp", whole.cpu.layout.tp),
        Quantity("off_bytes_per_param", Fraction(moved) / Fraction(EXERCISE_PARAMS)),
        Quantity("off_pcie_seconds", whole.cpu.pcie_seconds, "s", 2)))


def _cost() -> Exercise:
    arch = get_model(COST_MODEL)
    tokens = COST_TOKENS_PER_PARAM * arch.num_params
    flops = training_flops(arch, tokens)
    dollars = {gpu: cost_usd(gpu_hours(flops, gpu=gpu, mfu=COST_MFU), PRICES[gpu].usd_per_hour)
               for gpu in ("h100-sxm", "a100-80gb")}
    return Exercise("cost", "fa", 4, (
        NumericPart("cost-h100", dollars["h100-sxm"], "M$", REL_TOL, 2),
        NumericPart("cost-a100", dollars["a100-80gb"], "M$", REL_TOL, 2),
        OpenPart("cost-check"),
    ), (Quantity("cost_params", arch.num_params, "B params", 2),
        Quantity("cost_tokens_per_param", COST_TOKENS_PER_PARAM),
        Quantity("cost_mfu", COST_MFU, "%"),
        Quantity("cost_h100_price", PRICES["h100-sxm"].usd_per_hour, "", 2),
        Quantity("cost_a100_price", PRICES["a100-80gb"].usd_per_hour, "", 2),
        Quantity("cost_h100_peak", get_gpu("h100-sxm").bf16_dense_flops, "TFLOP/s"),
        Quantity("cost_a100_peak", get_gpu("a100-80gb").bf16_dense_flops, "TFLOP/s")))


@functools.cache
def exercises() -> tuple[Exercise, ...]:
    """Every exercise, in the order of the course's chapters (computed once)."""
    return (
        _states(),
        Exercise("dp-zero3", "ca", 1, (OpenPart("dp-zero3"),)),
        _accumulation(),
        Exercise("tp-node", "ca", 2, (OpenPart("tp-node"),)),
        _bubble_goal(),
        _pipeline(),
        _checkpointing(),
        _offload(),
        Exercise("mfu-low", "ca", 5, (OpenPart("mfu-low"),),
                 (Quantity("mfu_observed", MFU_OBSERVED, "%"),)),
        _cost(),
    )


COMM_RANKS, COMM_BYTES = 8, 2**30  # one H100 server; nccl-tests' 1 GiB row


@functools.cache
def communication_exercises() -> tuple[Exercise, ...]:
    """The exercises of "Communication and the network"."""
    from distlesson.parallel.alpha_beta import bus_factor, collective_time, link_model

    n, size = COMM_RANKS, COMM_BYTES
    run = collective_time("all-reduce", size, n, "nvlink4")
    model = link_model("nvlink4")
    return (
        Exercise("comm-busbw", "course", 1, (
            NumericPart("comm-busbw", bus_factor("all-reduce", n) * size / run.time, "GB/s",
                        REL_TOL),
        ), (Quantity("comm_ex_ranks", n), Quantity("comm_ex_bytes", size, "GiB"),
            Quantity("comm_ex_time", run.time, "ms", 3),
            Quantity("comm_ex_algbw", size / run.time, "GB/s", 1))),
        Exercise("comm-crossover", "course", 2, (
            # Simple ring: T0 + 2 (n - 1) alpha = 2 (n - 1)/n S / beta, so
            # S = n beta (T0 + 2 (n - 1) alpha) / (2 (n - 1))
            NumericPart("comm-crossover", n * model.bandwidth * (
                model.base_latency + 2 * (n - 1) * model.latency) / (2 * (n - 1)), "MB",
                REL_TOL, 1),
        ), (Quantity("comm_ex_alpha", model.latency, "µs", 1),
            Quantity("comm_ex_base", model.base_latency, "µs", 1),
            Quantity("comm_ex_beta", model.bandwidth, "GB/s"))),
        Exercise("comm-where", "course", 3, (OpenPart("comm-where"),)),
    )


FAILURES_GPUS, FAILURES_WRITE, FAILURES_RESTART = 4096, 30.0, 600.0  # a quarter of Llama 3
FAILURES_MODEL, FAILURES_WRITERS = "llama3-70b", 1024


@functools.cache
def failures_exercises() -> tuple[Exercise, ...]:
    """The exercises of "Months on a cluster: failures and checkpoints"."""
    from distlesson.catalog.reliability import TECTONIC
    from distlesson.efficiency.checkpoint_io import checkpoint_size, write_time
    from distlesson.efficiency.failures import (
        LLAMA3_PER_GPU_HOUR,
        goodput_first_order,
        job_mtbf,
        young_interval,
    )

    mtbf = job_mtbf(FAILURES_GPUS, LLAMA3_PER_GPU_HOUR)
    tau = young_interval(FAILURES_WRITE, mtbf)
    size = checkpoint_size(get_model(FAILURES_MODEL)).total
    return (
        Exercise("fail-young", "course", 1, (
            NumericPart("fail-mtbf", mtbf, "s", REL_TOL),
            NumericPart("fail-young", tau, "s", REL_TOL),
        ), (Quantity("fail_ex_gpus", FAILURES_GPUS),
            Quantity("fail_ex_write", FAILURES_WRITE, "s"))),
        Exercise("fail-goodput", "course", 2, (
            NumericPart("fail-goodput", goodput_first_order(tau, FAILURES_WRITE, mtbf,
                                                            FAILURES_RESTART), "%", REL_TOL, 1),
        ), (Quantity("fail_ex_restart", FAILURES_RESTART, "s"),)),
        Exercise("fail-size", "course", 3, (
            NumericPart("fail-size", size, "GB", REL_TOL),
            NumericPart("fail-write", write_time(size, TECTONIC.sustained), "s", REL_TOL, 2),
            NumericPart("fail-shard", size / FAILURES_WRITERS, "MB", REL_TOL),
        ), (Quantity("fail_ex_writers", FAILURES_WRITERS),
            Quantity("fail_ex_storage", TECTONIC.sustained, "TB/s"))),
    )


FP8_AMAX, FP8_VALUE, FP8_BF16_MFU = 2.0, 0.3, 0.40  # a tensor's amax, one of its values


@functools.cache
def fp8_exercises() -> tuple[Exercise, ...]:
    """The exercises of the FP8 section of "Saving memory"."""
    import numpy as np

    from distlesson.memory.fp8 import get_fp8, quantize_tensor

    scale = get_fp8("e4m3").max / FP8_AMAX
    back = float(quantize_tensor(np.array([FP8_AMAX, FP8_VALUE]), "e4m3")[1])
    h100 = get_gpu(STATES_GPU)
    return (
        Exercise("fp8-scale", "course", 1, (
            NumericPart("fp8-scale", int(scale), "", 0),
            NumericPart("fp8-error", abs(back - FP8_VALUE) / FP8_VALUE, "%", REL_TOL, 1),
        ), (Quantity("fp8_ex_amax", FP8_AMAX, "", 1), Quantity("fp8_ex_value", FP8_VALUE, "", 1),
            Quantity("fp8_ex_scaled", FP8_VALUE * scale, "", 1),
            Quantity("fp8_ex_rounded", back * scale), Quantity("fp8_ex_back", back, "", 4))),
        Exercise("fp8-mfu", "course", 2, (
            NumericPart("fp8-mfu", FP8_BF16_MFU * h100.bf16_dense_flops / h100.fp8_dense_flops,
                        "%", REL_TOL, 1),
        ), (Quantity("fp8_ex_mfu", FP8_BF16_MFU, "%"),)),
    )


def get_exercise(exercise_id: str) -> Exercise:
    """The exercise named ``exercise_id``; ValueError listing the known ids otherwise."""
    return lookup({e.id: e for e in exercises()}, exercise_id, what="exercise")
