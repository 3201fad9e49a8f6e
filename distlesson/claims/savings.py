"""The claims register of the chapter on saving memory: checkpointing's savings and cost,
the Persian lesson's activation arithmetic, offload's GPUs, and LoRA's share of the
optimizer states.

Like :mod:`distlesson.claims.register`, each claim keeps the source's number as a typed input and
computes the same quantity with the library. Assembled into the register there.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction

from distlesson.catalog.models import get_model
from distlesson.claims.claim import Claim, Figure
from distlesson.memory.activations import activation_bytes_per_layer
from distlesson.memory.lora import lora
from distlesson.memory.offload import EXERCISE_CPU_MEMORY, EXERCISE_PARAMS, offload_exercise
from distlesson.transformer import peak_scalars

__all__ = ["CHECKPOINT_MODEL", "FA_LAYER", "FA_OFFLOAD", "checkpoint_reduction",
           "savings_claims"]

CHECKPOINT_MODEL = ("llama3-70b", 8192)  # a frontier-size model at its training length
FA_LAYER = dict(seq_len=2048, micro_batch=1, hidden_size=4096, num_heads=32)
"""The Persian lesson's example: a 2048-token sequence, a 4096-wide model (Llama 3 8B's
32 heads), one sample."""
FA_LAYERS = 32  # its "with 32 layers"
FA_TOTAL = 2 * 2**30  # its "2 GB per sample" for the 32 layers, read as binary gigabytes
# Forward and backward FLOPs per weight and token (Narayanan et al. 2021): 2 and 4.
FORWARD_FLOPS, BACKWARD_FLOPS = 2, 4


TINY_BLOCKS, TINY_SEQ = 4, 128  # the Catalan chapter's checkpointing widget: 4 blocks, L = 128
FA_OFFLOAD = {"gpus": 8, "without": 16, "slow_low": 0.30, "slow_high": 0.50}
"""The Persian lesson's fifth exercise: offload trains a 70B model "on 8 instead of 16
GPUs", "at the cost of 30-50% slower optimizer steps"."""


def checkpoint_reduction(model: str = CHECKPOINT_MODEL[0],
                         seq_len: int = CHECKPOINT_MODEL[1], *,
                         recompute: str = "selective") -> Fraction:
    """Peak activations without checkpointing over the peak with full checkpointing.

    Without: every layer's activations, L x A, where A keeps no attention scores (34 s b h,
    Korthikanti et al. 2022's selective row): Llama 3 trains with FlashAttention, which
    never stores them. ``recompute="none"`` keeps the scores too (A = s b h (34 + 5 a s / h)).
    With: every layer's input, L x 2 s b h, plus one layer recomputed during its backward,
    A. Units: a ratio, exact.
    """
    arch = get_model(model)
    shape = dict(seq_len=seq_len, micro_batch=1, hidden_size=arch.hidden_size,
                 num_heads=arch.num_heads)
    full = activation_bytes_per_layer(**shape, recompute=recompute)  # selective: FlashAttention
    kept = activation_bytes_per_layer(**shape, recompute="full")
    layers = arch.num_layers
    return layers * full / (layers * kept + full)


def _tiny_reduction() -> float:
    """Peak saved scalars without checkpointing over those with it, counted on the course's
    decoder with the Catalan widget's blocks and sequence (:mod:`distlesson.transformer`)."""
    arch = dataclasses.replace(get_model("course-tiny"), num_layers=TINY_BLOCKS)
    peaks = {mode: peak_scalars(arch, batch_size=1, seq_len=TINY_SEQ, mode=mode).peak
             for mode in ("none", "full")}
    return peaks["none"] / peaks["full"]


def _recompute_overhead() -> Fraction:
    """One extra forward over a forward plus a backward: 2 / (2 + 4) = 1/3."""
    return Fraction(FORWARD_FLOPS, FORWARD_FLOPS + BACKWARD_FLOPS)


def savings_claims() -> list[Claim]:
    """The chapter's claims, in the order of the chapter."""
    return [
        Claim(
            id="ca_checkpoint_ten_x", source="ca §3", unit="ratio", stated=10.0,
            relation="at_most",  # "fins a 10x": a bound
            chapter="saving-memory", computed=checkpoint_reduction,
            statement={"en": "Activation checkpointing saves up to "
                       "{{ claim.ca_checkpoint_ten_x.stated }} of the activation memory."},
            why={"en": "Not a bound: the factor depends on the number of layers and on the "
                 "sequence length. The chapter's own small model, counted by the library, "
                 "saves {{ claim.ca_checkpoint_ten_x.tiny_model }}. Llama 3 70B at its "
                 "training length, with FlashAttention, which stores no attention scores, "
                 "saves {{ claim.ca_checkpoint_ten_x.computed }} at its peak by Korthikanti "
                 "et al.'s formulas, keeping only each layer's input; if the scores were "
                 "stored, {{ claim.ca_checkpoint_ten_x.with_scores }}."},
            extras=(
                Figure("tiny_model", _tiny_reduction, "ratio"),
                Figure("with_scores", lambda: checkpoint_reduction(recompute="none"), "ratio"),
            ),
        ),
        Claim(
            id="ca_recompute_thirty", source="ca §3", unit="fraction", stated=0.30,
            chapter="saving-memory", computed=_recompute_overhead,
            statement={"en": "Activation checkpointing costs about "
                       "{{ claim.ca_recompute_thirty.stated }} more time."},
            why={"en": "Recomputing the forward adds one forward to a forward and a backward "
                 "that costs twice as much: {{ claim.ca_recompute_thirty.computed }} more "
                 "work, which the source rounds. The time measured on this course's small "
                 "model differs, as the chapter shows."},
        ),
        Claim(
            id="fa_recompute_thirty_three", source="fa: exercises", unit="fraction",
            stated=0.33, chapter="saving-memory", computed=_recompute_overhead,
            statement={"en": "Full activation checkpointing costs about "
                       "{{ claim.fa_recompute_thirty_three.stated }} more compute."},
            why={"en": "One more forward over a forward and a backward twice as costly: "
                 "{{ claim.fa_recompute_thirty_three.computed }}."},
        ),
        Claim(
            id="fa_layer_activations", source="fa: the problem", unit="bytes",
            stated=64e9, chapter="saving-memory", binary=True,  # its "2 GB" are 2 GiB
            computed=lambda: activation_bytes_per_layer(**FA_LAYER),
            statement={"en": "For a sequence of {{ claim.fa_layer_activations.seq }} tokens "
                       "and a model of width {{ claim.fa_layer_activations.hidden }}, one "
                       "layer's activations take about {{ claim.fa_layer_activations.stated }}."},
            why={"en": "A unit slip: the source's next sentence gives "
                 "{{ claim.fa_layer_activations.source_total }} for "
                 "{{ claim.fa_layer_activations.layers }} layers, that is "
                 "{{ claim.fa_layer_activations.source_per_layer }} per layer, megabytes and "
                 "not gigabytes. Korthikanti et al.'s formula for that layer gives "
                 "{{ claim.fa_layer_activations.computed }} without recomputation, "
                 "{{ claim.fa_layer_activations.selective }} with selective recomputation."},
            extras=(
                Figure("seq", lambda: FA_LAYER["seq_len"], "count"),
                Figure("hidden", lambda: FA_LAYER["hidden_size"], "count"),
                Figure("layers", lambda: FA_LAYERS, "count"),
                Figure("source_total", lambda: FA_TOTAL, "bytes"),
                Figure("source_per_layer", lambda: Fraction(FA_TOTAL, FA_LAYERS), "bytes"),
                Figure("selective", lambda: activation_bytes_per_layer(
                    **FA_LAYER, recompute="selective"), "bytes"),
            ),
        ),
        _offload_claim(),
        Claim(
            id="ca_lora_optimizer_states", source="ca §3", unit="fraction", stated=0.99,
            relation="at_least", chapter="saving-memory",  # "elimina el 99%"
            computed=lambda: lora(get_model("llama3-8b"), rank=16).optimizer_states_removed,
            statement={"en": "LoRA eliminates {{ claim.ca_lora_optimizer_states.stated }} of "
                       "the optimizer states."},
            why={"en": "Adapting the attention projections of Llama 3 8B at rank "
                 "{{ claim.ca_lora_optimizer_states.rank }} trains "
                 "{{ claim.ca_lora_optimizer_states.trainable }} parameters; only they keep "
                 "a master copy and moments, so {{ claim.ca_lora_optimizer_states.computed }} "
                 "of the optimizer states go. The frozen weights stay in memory."},
            extras=(Figure("rank", lambda: 16, "count"),
                    Figure("trainable", lambda: lora(get_model("llama3-8b"),
                                                     rank=16).trainable_params, "count")),
        ),
    ]


@functools.cache
def _offload_comparison():
    return offload_exercise()


def _offload_claim() -> Claim:
    """The Persian lesson's offload exercise against :func:`offload_exercise`."""
    def plan(tier: str):
        return getattr(_offload_comparison(), tier)

    return Claim(
        id="fa_offload_gpus", source="fa: exercises (ZeRO-Offload)", unit="count",
        stated=FA_OFFLOAD["gpus"], chapter="saving-memory",
        computed=lambda: plan("cpu").layout.world_size,
        statement={"en": "Offloading the optimizer states to the CPU trains a model of "
                   "{{ claim.fa_offload_gpus.params }} parameters on "
                   "{{ claim.fa_offload_gpus.stated }} GPUs instead of "
                   "{{ claim.fa_offload_gpus.source_without }}, with optimizer steps "
                   "{{ claim.fa_offload_gpus.slow_low | to claim.fa_offload_gpus.slow_high }} "
                   "slower."},
        why={"en": "ZeRO-Offload keeps the bf16 weights on the GPUs and moves the gradients, "
             "the master copy and the moments to the CPU's memory: "
             "{{ claim.fa_offload_gpus.cpu_states }} for this model, more than one node's "
             "{{ claim.fa_offload_gpus.node_ram }}. A second node is needed anyway, and its "
             "GPUs come with it: {{ claim.fa_offload_gpus.computed }}, as many as without "
             "offload. The master copy and the moments on NVMe instead (ZeRO-Infinity) do "
             "fit on {{ claim.fa_offload_gpus.nvme }}. The slowdown is not computed here: "
             "it depends on how much of the PCIe traffic, "
             "{{ claim.fa_offload_gpus.pcie }} per GPU and step, and of the CPU's step "
             "overlaps the GPUs' work."},
        extras=(
            Figure("params", lambda: EXERCISE_PARAMS, "count"),
            Figure("source_without", lambda: FA_OFFLOAD["without"], "count"),
            Figure("slow_low", lambda: FA_OFFLOAD["slow_low"], "fraction"),
            Figure("slow_high", lambda: FA_OFFLOAD["slow_high"], "fraction"),
            Figure("cpu_states", lambda: plan("cpu").whole.cpu.total, "bytes"),
            Figure("node_ram", lambda: EXERCISE_CPU_MEMORY, "bytes"),
            Figure("nvme", lambda: plan("nvme").layout.world_size, "count"),
            Figure("pcie", lambda: plan("cpu").pcie_bytes, "bytes"),
        ),
    )
