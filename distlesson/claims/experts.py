"""The claims register of the chapter "Mixture of experts": what the sources say about
expert parallelism's all-to-alls, MoE and MFU, and what MoE saves in compute.

Like :mod:`distlesson.claims.register`, each claim keeps the source's number as a typed
input and computes the same quantity with the library. Assembled into the register there.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from distlesson.catalog.moe import get_moe_model
from distlesson.claims.claim import Claim, Figure
from distlesson.efficiency.cost import implied_mfu, run_cost
from distlesson.parallel.expert import expert_parallel_moe
from distlesson.parallel.tensor import SwiGLUWeights

__all__ = ["expert_claims", "forward_all_to_alls"]

CA_ALL_TO_ALLS = 1  # ca §2.5: "requereix all-to-all per capa", one per layer
CA_DENSE_GOOD_MFU = 0.35  # ca §4: "35-55% és bo per a entrenament dens": MoE is lower
FA_ORDER_OF_MAGNITUDE = 10  # fa, further reading: "by an order of magnitude"


def forward_all_to_alls() -> int:
    """All-to-alls that carry activations in one MoE layer's forward, counted on the
    simulated layer (:func:`distlesson.parallel.expert.expert_parallel_moe`): dispatch and
    combine (the small exchange of counts that sizes them is not counted)."""
    rng = np.random.default_rng(0)
    experts = [SwiGLUWeights(*(rng.standard_normal(s) for s in ((2, 3), (2, 3), (3, 2))))
               for _ in range(4)]
    result = expert_parallel_moe([rng.standard_normal((4, 2)) for _ in range(2)],
                                 rng.standard_normal((2, 4)), experts, 2, 2)
    return sum(1 for c in (result.dispatch, result.combine) if c.total_sent > 0)


def _v3_mfu(precision: str) -> float:
    run = run_cost("deepseek-v3")
    return implied_mfu(run.flops, run.run.pretraining_gpu_hours or run.run.gpu_hours,
                       gpu=run.run.gpu, precision=precision)  # type: ignore[arg-type]


def expert_claims() -> list[Claim]:
    """The chapter's claims, in the order of the chapter."""
    v3 = get_moe_model("deepseek-v3")
    return [
        Claim(
            id="ca_ep_all_to_all", source="ca §2.5", unit="count", stated=CA_ALL_TO_ALLS,
            chapter="experts", computed=lambda: 2 * forward_all_to_alls(),
            statement={"en": "Expert parallelism splits the experts of an MoE and needs an "
                       "all-to-all per layer."},
            why={"en": "Two per layer in the forward, the dispatch that sends each token to "
                 "its experts and the combine that brings the results back, and two more in "
                 "the backward: {{ claim.ca_ep_all_to_all.computed }} per MoE layer and "
                 "micro-batch. And only in MoE layers: DeepSeek-V3's first "
                 "{{ claim.ca_ep_all_to_all.dense }} layers are dense and need none."},
            extras=(Figure("dense", lambda: v3.dense_layers, "count"),),
        ),
        Claim(
            id="ca_moe_mfu", source="ca §4", unit="fraction", stated=CA_DENSE_GOOD_MFU,
            relation="less_than", chapter="experts", computed=lambda: _v3_mfu("bf16"),
            statement={"en": "With MoE and long contexts, MFUs below the "
                       "{{ claim.ca_moe_mfu.stated }} that is good for dense training are "
                       "normal."},
            why={"en": "DeepSeek-V3's report implies {{ claim.ca_moe_mfu.computed }} of the "
                 "H800's bf16 peak (six FLOPs per active parameter and token, over the "
                 "pre-training GPU-hours): just below the bar. Its matrix products ran in "
                 "fp8, whose peak is twice as high: against it, "
                 "{{ claim.ca_moe_mfu.fp_eight }}. Lower, as the source says; but how much "
                 "lower depends on which peak one divides by."},
            extras=(Figure("fp_eight", lambda: _v3_mfu("fp8"), "fraction"),),
        ),
        Claim(
            id="fa_moe_order", source="fa: further reading", unit="ratio",
            stated=FA_ORDER_OF_MAGNITUDE, relation="at_least", chapter="experts",
            computed=lambda: Fraction(v3.num_params, v3.active_params),
            statement={"en": "DeepSeek-V3's report shows how the MoE architecture cuts the "
                       "cost of training by an order of magnitude."},
            why={"en": "Per token, the training FLOPs follow the active parameters: a dense "
                 "model with all {{ claim.fa_moe_order.total }} parameters would compute "
                 "{{ claim.fa_moe_order.computed }} as much as DeepSeek-V3's "
                 "{{ claim.fa_moe_order.active }} active ones, more than an order of "
                 "magnitude. Memory is not cut: every expert's states are kept."},
            extras=(Figure("total", lambda: v3.num_params, "count"),
                    Figure("active", lambda: v3.active_params, "count")),
        ),
    ]
