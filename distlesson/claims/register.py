"""The claims register of the first chapter: what the sources state, what the code computes.

Sources: ``ca`` is the Catalan chapter, ``fa`` the Persian lesson (see the seed texts).
Each claim's ``stated`` is the source's number typed as an input (for a code listing, the
figure it prints when run); ``computed`` calls the library; whether they agree follows one
rule, :attr:`distlesson.claims.claim.Claim.agrees`. Parameter counts written like "70B" in
a source are its nominal counts (70e9), kept as inputs below; where the exact count of the
released weights changes the answer, a claim cites it as an extra figure.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import get_model
from distlesson.claims.claim import Claim, Figure
from distlesson.claims.communication import communication_claims
from distlesson.claims.efficiency import efficiency_claims
from distlesson.claims.experts import expert_claims
from distlesson.claims.failures import failures_claims
from distlesson.claims.fit import fit_claims
from distlesson.claims.layouts import layout_claims
from distlesson.claims.listings import data_parallel_claims, listing_claims
from distlesson.claims.parallelism import parallelism_claims, pipeline_claims
from distlesson.claims.savings import savings_claims
from distlesson.claims.translations import CLAIM_TEXTS
from distlesson.memory.optimizers import OPTIMIZERS, optimizer_state_bytes
from distlesson.memory.precision import FP32
from distlesson.memory.states import (
    Layout,
    bytes_per_param,
    min_gpus,
    model_states,
    per_gpu_states,
    saving_against_fp32,
)

__all__ = ["CLAIMS", "claim_figures", "get_claim"]

# Nominal parameter counts as the sources write them ("70B", "7B", "405B"): inputs.
SOURCE_70B = 70e9
SOURCE_7B = 7e9
SOURCE_405B = 405e9
# The Persian lesson's convention: bf16 weights and grads, fp32 moments, no master copy.
FA_CONVENTION = "mixed-no-master"


def _gpu_memory(key: str) -> float:
    return get_gpu(key).memory_bytes


def _fsdp_min_dp(params: float, precision: str, gpu: str) -> int:
    """Smallest dp at which ZeRO-3 (FSDP) per-GPU states fit in one GPU of ``gpu``."""
    states = model_states(params, precision=precision)
    dp = 1
    while per_gpu_states(states, Layout(dp=dp, zero=3)).total > _gpu_memory(gpu):
        dp += 1
    return dp


def _saving(precision: str) -> Fraction:
    return saving_against_fp32(SOURCE_7B, precision=precision)


def _count(value: float) -> Figure:
    return Figure("params", lambda: value, "count")


def _bpp(model: str, optimizer: str) -> float:
    return float(bytes_per_param(get_model(model), optimizer=optimizer).total)


def _ca_claims() -> list[Claim]:
    bpp_why = (
        "With bf16 weights and gradients and the fp32 master copy, Llama 3 70B with {name} "
        "costs {{{{ claim.{id}.computed }}}} per parameter; the optimizer's own part is "
        "{{{{ claim.{id}.optimizer_part }}}}. {detail}"
    )
    specs = [
        ("ca_eight_bit_adam", "adam8bit", "eight-bit Adam", 10.0,
         "Each moment is one byte per parameter plus one fp32 scale per block of "
         "{{ claim.ca_eight_bit_adam.block_size }} values, so the source's rounded figure "
         "agrees."),
        ("ca_adafactor", "adafactor", "Adafactor", 8.1,
         "Adafactor keeps no first moment and factors the second moment of each matrix into "
         "a row and a column vector, so its state nearly vanishes beside a large model's "
         "matrices and the total sits just above the weights, gradients and master copy. "
         "The source's figure is higher; on the course's tiny decoder, whose vectors weigh "
         "more, it is {{ claim.ca_adafactor.tiny_model }}."),
        ("ca_lion", "lion", "Lion", 12.0,
         "Lion keeps a single fp32 momentum, so the figure agrees."),
    ]
    claims = [
        Claim(
            id="ca_states_total", source="ca §1", unit="bytes", stated=1.1e12,
            computed=lambda: model_states(SOURCE_70B).total,
            statement={"en": "A model of {{ claim.ca_states_total.params }} parameters needs "
                       "about {{ claim.ca_states_total.stated }} for its states alone, "
                       "before any activation."},
            why={"en": "AdamW in mixed precision keeps "
                 "{{ claim.ca_states_total.bytes_per_param }} per parameter: bf16 weights and "
                 "gradients, an fp32 master copy and two fp32 moments. That is "
                 "{{ claim.ca_states_total.computed }}, which the source rounds; with Llama "
                 "3 70B's exact count it is {{ claim.ca_states_total.exact_count }}."},
            extras=(
                _count(SOURCE_70B),
                Figure("bytes_per_param", lambda: bytes_per_param(SOURCE_70B).total,
                       "bytes_per_param"),
                Figure("exact_count", lambda: model_states(get_model("llama3-70b")).total,
                       "bytes"),
            ),
        ),
        Claim(
            id="ca_gpus_to_hold", source="ca §1", unit="count", stated=14,
            computed=lambda: min_gpus(model_states(SOURCE_70B).total, _gpu_memory("h100-sxm")),
            statement={"en": "Those states fill {{ claim.ca_gpus_to_hold.stated }} GPUs of "
                       "{{ claim.ca_gpus_to_hold.gpu_memory }}."},
            why={"en": "The states divided by one H100's memory give exactly "
                 "{{ claim.ca_gpus_to_hold.computed }}, with nothing to round. This counts "
                 "memory only; activations and buffers need more."},
            extras=(Figure("gpu_memory", lambda: _gpu_memory("h100-sxm"), "bytes"),),
        ),
    ]
    for claim_id, optimizer, name, stated, detail in specs:  # names in words: no digits
        extras = [
            Figure("optimizer_part", lambda o=optimizer: bytes_per_param(
                get_model("llama3-70b"), optimizer=o).optimizer, "bytes_per_param"),
        ]
        if optimizer == "adam8bit":
            extras.append(Figure("block_size", lambda: OPTIMIZERS["adam8bit"].block_size,
                                 "count"))
        if optimizer == "adafactor":
            extras.append(Figure("tiny_model", lambda: _bpp("course-tiny", "adafactor"),
                                 "bytes_per_param"))
        claims.append(Claim(
            id=claim_id, source="ca §1 (widget: why it does not fit)", unit="bytes_per_param",
            stated=stated, precision=0.1,  # written with one decimal: "10,0", "8,1", "12,0"
            computed=lambda o=optimizer: _bpp("llama3-70b", o),
            statement={"en": f"{name[0].upper()}{name[1:]} needs "
                       f"{{{{ claim.{claim_id}.stated }}}} per parameter."},
            why={"en": bpp_why.format(name=name, id=claim_id, detail=detail)},
            extras=tuple(extras),
        ))
    return claims


def _fa_memory_claims() -> list[Claim]:
    return [
        Claim(
            id="fa_adam_moments", source="fa: the problem", unit="bytes", stated=28e9,
            computed=lambda: optimizer_state_bytes("adamw", SOURCE_7B, FP32),
            statement={"en": "For a model of {{ claim.fa_adam_moments.params }} parameters "
                       "in FP16, Adam's two moments add {{ claim.fa_adam_moments.stated }}."},
            why={"en": "Adam keeps two moments per parameter, both in fp32: "
                 "{{ claim.fa_adam_moments.computed }}. The source counts them at the "
                 "weights' two bytes; its own table of real models counts them in fp32."},
            extras=(_count(SOURCE_7B),),
        ),
        Claim(
            id="fa_states_before_activations", source="fa: the problem", unit="bytes",
            stated=56e9,
            computed=lambda: model_states(SOURCE_7B, precision=FA_CONVENTION).total,
            statement={"en": "Before a single activation, a model of "
                       "{{ claim.fa_states_before_activations.params }} parameters holds "
                       "{{ claim.fa_states_before_activations.stated }}."},
            why={"en": "Weights, gradients and two fp32 moments make "
                 "{{ claim.fa_states_before_activations.computed }} even without a master "
                 "copy, and {{ claim.fa_states_before_activations.with_master }} with the "
                 "fp32 master copy of mixed precision: more than an A100's "
                 "{{ claim.fa_states_before_activations.gpu_memory }} either way, so no "
                 "room is left for activations. The source's sum inherits its undercount "
                 "of Adam's moments."},
            extras=(
                _count(SOURCE_7B),
                Figure("with_master", lambda: model_states(SOURCE_7B).total, "bytes"),
                Figure("gpu_memory", lambda: _gpu_memory("a100-80gb"), "bytes"),
            ),
        ),
        Claim(
            id="fa_mixed_precision_savings", source="fa: build it, step five; key terms",
            unit="fraction", stated=0.25,
            computed=lambda: _saving("mixed"),
            statement={"en": "Mixed precision saves {{ claim.fa_mixed_precision_savings.stated }} "
                       "of the memory, not half, because the optimizer dominates."},
            why={"en": "Against fp32 training with AdamW, the source's mixed recipe saves "
                 "{{ claim.fa_mixed_precision_savings.without_master }} only because it drops "
                 "the fp32 master copy. Mixed precision as practised keeps that copy, so the "
                 "model states cost as much as in fp32 and the saving is "
                 "{{ claim.fa_mixed_precision_savings.computed }}; the gains are in "
                 "activations and in faster bf16 arithmetic."},
            extras=(Figure("without_master", lambda: _saving(FA_CONVENTION), "fraction"),),
        ),
    ]


def _fa_gpu_claims() -> list[Claim]:
    def states(params: float, precision: str = FA_CONVENTION) -> float:
        return model_states(params, precision=precision).total

    return [
        Claim(
            id="fa_gpus_for_largest_llama", source="fa: why distribution is needed",
            unit="count", stated=61,
            computed=lambda: min_gpus(states(SOURCE_405B), _gpu_memory("h100-sxm")),
            statement={"en": "Llama 3 405B needs at least "
                       "{{ claim.fa_gpus_for_largest_llama.stated }} H100s to hold its "
                       "weights, optimizer state and gradients."},
            why={"en": "True under the source's convention (no master copy) with a round "
                 "parameter count. With the fp32 master copy of mixed precision and the "
                 "exact count of the released weights it needs "
                 "{{ claim.fa_gpus_for_largest_llama.with_master }}."},
            extras=(Figure("with_master", lambda: min_gpus(
                model_states(get_model("llama3-405b")).total, _gpu_memory("h100-sxm")),
                "count"),),
        ),
        Claim(
            id="fa_min_gpus_states", source="fa: the problem", unit="count", stated=3,
            computed=lambda: min_gpus(states(SOURCE_70B), _gpu_memory("a100-80gb")),
            statement={"en": "With optimizer state and gradients, a model of "
                       "{{ claim.fa_min_gpus_states.params }} parameters needs at least "
                       "{{ claim.fa_min_gpus_states.stated }} or more GPUs."},
            why={"en": "Under the source's own convention the states take "
                 "{{ claim.fa_min_gpus_states.states }}, which need at least "
                 "{{ claim.fa_min_gpus_states.computed }} GPUs of "
                 "{{ claim.fa_min_gpus_states.gpu_memory }}; with the fp32 master copy, "
                 "{{ claim.fa_min_gpus_states.with_master }}."},
            extras=(
                _count(SOURCE_70B),
                Figure("states", lambda: states(SOURCE_70B), "bytes"),
                Figure("gpu_memory", lambda: _gpu_memory("a100-80gb"), "bytes"),
                Figure("with_master", lambda: min_gpus(
                    states(SOURCE_70B, "mixed"), _gpu_memory("a100-80gb")), "count"),
            ),
        ),
        Claim(
            id="fa_fsdp_gpus", source="fa: FSDP", unit="count", stated=16,
            computed=lambda: _fsdp_min_dp(SOURCE_70B, FA_CONVENTION, "a100-80gb"),
            statement={"en": "With FSDP, a model of {{ claim.fa_fsdp_gpus.params }} "
                       "parameters needs at least {{ claim.fa_fsdp_gpus.stated }} GPUs to "
                       "fit in {{ claim.fa_fsdp_gpus.gpu_memory }} each."},
            why={"en": "FSDP splits the states evenly, so the fewest GPUs is the total "
                 "over one GPU's memory, rounded up: {{ claim.fa_fsdp_gpus.computed }} under "
                 "the source's convention, {{ claim.fa_fsdp_gpus.with_master }} with the "
                 "fp32 master copy. The source rightly finds "
                 "{{ claim.fa_fsdp_gpus.source_dp }} GPUs too few "
                 "({{ claim.fa_fsdp_gpus.per_gpu_at_source_dp }} each); its figure is the "
                 "next power of two, a common choice of data-parallel degree, not the "
                 "minimum."},
            extras=(
                _count(SOURCE_70B),
                Figure("gpu_memory", lambda: _gpu_memory("a100-80gb"), "bytes"),
                Figure("with_master", lambda: _fsdp_min_dp(SOURCE_70B, "mixed", "a100-80gb"),
                       "count"),
                Figure("source_dp", lambda: 8, "count"),
                Figure("per_gpu_at_source_dp", lambda: per_gpu_states(
                    model_states(SOURCE_70B, precision=FA_CONVENTION),
                    Layout(dp=8, zero=3)).total, "bytes"),
            ),
        ),
        Claim(
            id="fa_optimizer_gpus", source="fa: why distribution is needed", unit="count",
            stated=7,
            computed=lambda: min_gpus(optimizer_state_bytes("adamw", SOURCE_70B, FP32),
                                      _gpu_memory("a100-80gb")),
            statement={"en": "For a model of {{ claim.fa_optimizer_gpus.params }} "
                       "parameters the optimizer alone needs "
                       "{{ claim.fa_optimizer_gpus.stated }} A100s."},
            why={"en": "Two fp32 moments per parameter fill exactly "
                 "{{ claim.fa_optimizer_gpus.computed }} A100s. Counting the fp32 master "
                 "copy, which the optimizer also keeps in mixed precision, it is "
                 "{{ claim.fa_optimizer_gpus.with_master }}."},
            extras=(
                _count(SOURCE_70B),
                Figure("with_master", lambda: min_gpus(
                    model_states(SOURCE_70B).optimizer + model_states(SOURCE_70B).master,
                    _gpu_memory("a100-80gb")), "count"),
            ),
        ),
    ]


def _translated(claim: Claim) -> Claim:
    """The claim with its Catalan and Persian texts (:mod:`distlesson.claims.translations`)."""
    statement, why = dict(claim.statement), dict(claim.why)
    for locale, texts in CLAIM_TEXTS.items():
        if claim.id in texts:
            statement[locale] = texts[claim.id]["statement"]
            why[locale] = texts[claim.id]["why"]
    return replace(claim, statement=statement, why=why)


CLAIMS: tuple[Claim, ...] = tuple(
    _translated(c) for c in (*_ca_claims(), *_fa_memory_claims(), *_fa_gpu_claims(),
                             *fit_claims(), *listing_claims(), *data_parallel_claims(),
                             *communication_claims(), *expert_claims(),
                             *parallelism_claims(),
                             *layout_claims(), *pipeline_claims(), *savings_claims(),
                             *efficiency_claims(), *failures_claims()))
"""Every claim of the register, in the order of the chapter."""


def get_claim(claim_id: str) -> Claim:
    """The claim named ``claim_id``; ValueError listing the known ids otherwise."""
    return lookup({c.id: c for c in CLAIMS}, claim_id, what="claim")


def claim_figures() -> dict[str, tuple[float, str]]:
    """Every placeholder name of the register (``claim.<id>.stated`` ...) -> (value, unit)."""
    result: dict[str, tuple[float, str]] = {}
    for claim in CLAIMS:
        result.update(claim.figures())
    return result
