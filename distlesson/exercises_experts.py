"""The exercises of the chapter "Mixture of experts": what a token uses, what one layer's
all-to-all sends, and what a GPU holds of the experts. Data as in :mod:`distlesson.exercises`;
each answer calls the module that owns the concept. Texts: :mod:`distlesson.pages.exercise_texts`.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from distlesson.catalog.moe import get_moe_model
from distlesson.exercises import REL_TOL, Exercise, NumericPart, Quantity
from distlesson.parallel.expert_layout import ExpertWorkload, all_to_all_bytes

__all__ = ["A2A_EP", "EXPERT_EP", "expert_exercises"]

A2A_EP = 8  # Mixtral's 8 experts, one per GPU of a server
EXPERT_EP = 64  # DeepSeek-V3's expert-parallel degree (report section 3.2)


def _active_share() -> Exercise:
    mx = get_moe_model("mixtral-8x7b")
    unused = mx.moe_layers * (mx.routed_experts - mx.experts_per_token) * mx.expert_params
    return Exercise("moe-active", "course", 1, (
        # active = total - unused experts; the share is what a token computes with
        NumericPart("moe-active", Fraction(mx.num_params - unused, mx.num_params), "%",
                    REL_TOL, 1),
    ), (Quantity("moe_ex_total", mx.num_params, "B params", 2),
        Quantity("moe_ex_expert", mx.expert_params, "M params", 1),
        Quantity("moe_ex_layers", mx.moe_layers), Quantity("moe_ex_experts", mx.routed_experts),
        Quantity("moe_ex_top_k", mx.experts_per_token)))


def _all_to_all() -> Exercise:
    mx = get_moe_model("mixtral-8x7b")
    workload = ExpertWorkload()  # one sequence of 4096 tokens, bf16 both ways
    return Exercise("moe-a2a", "course", 2, (
        NumericPart("moe-a2a", all_to_all_bytes(mx, A2A_EP, workload), "MB", REL_TOL, 1),
    ), (Quantity("moe_ex_tokens", workload.tokens), Quantity("moe_ex_hidden", mx.hidden_size),
        Quantity("moe_ex_ep", A2A_EP)))


def _expert_weights() -> Exercise:
    v3 = get_moe_model("deepseek-v3")
    # bf16 weights of E / ep experts in each of the MoE layers, no pipeline
    per_gpu = v3.moe_layers * (v3.routed_experts // EXPERT_EP) * v3.expert_params * 2
    return Exercise("moe-weights", "course", 3, (
        NumericPart("moe-weights", per_gpu, "GB", REL_TOL, 1),
    ), (Quantity("moe_ex_v3_experts", v3.routed_experts),
        Quantity("moe_ex_v3_layers", v3.moe_layers),
        Quantity("moe_ex_v3_expert", v3.expert_params, "M params", 1),
        Quantity("moe_ex_v3_ep", EXPERT_EP)))


@functools.cache
def expert_exercises() -> tuple[Exercise, ...]:
    """The chapter's three exercises, in the order of the page."""
    return (_active_share(), _all_to_all(), _expert_weights())
