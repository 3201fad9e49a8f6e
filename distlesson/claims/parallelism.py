"""The claims register of the parallelism chapters: ZeRO's factors, tensor parallelism's
traffic against compute, DeepSeek-V3's active parameters and what they save, and the
pipeline's bubble.

Like :mod:`distlesson.claims.register`, each claim keeps the source's number as a typed input and
computes the same quantity with the library. Assembled into the register there.
"""

from __future__ import annotations

from fractions import Fraction

from distlesson.catalog.models import get_model
from distlesson.catalog.moe import get_moe_model
from distlesson.claims.claim import Claim, Figure
from distlesson.efficiency.cost import get_reported_run
from distlesson.efficiency.flops import layer_flops_per_token
from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.pages import parallelism as chapter
from distlesson.pipeline.bubble import bubble_over_ideal
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import simulate

__all__ = ["parallelism_claims", "pipeline_claims"]

SOURCE_70B = 70e9  # the sources' round "70B"
TABLE_GPUS = 16  # the Catalan chapter's 16-device table
# ZeRO's Figure 1 (Rajbhandari et al. 2020): a 7.5B-parameter model on 64 GPUs, K = 12.
PAPER_PARAMS, PAPER_GPUS = 7.5e9, 64
FA_ONE_EIGHTH = 1 / 8  # the Persian lesson: DeepSeek-V3 used "less than 1/8" of Meta's GPUs


def _zero_reduction(stage: int, n: int) -> Fraction:
    states = model_states(SOURCE_70B)
    return Fraction(states.total) / per_gpu_states(states, Layout(dp=n, zero=stage)).total


def _paper_reduction(stage: int) -> Fraction:
    """The reduction of ZeRO's Figure 1: its model on its 64 GPUs (120 GB to 31.4 GB for
    P_os, to 16.6 GB for P_os+g)."""
    states = model_states(PAPER_PARAMS)
    return Fraction(states.total) / per_gpu_states(states, Layout(dp=PAPER_GPUS,
                                                                  zero=stage)).total


def _zero_limit(stage: int) -> Fraction:
    per = model_states(SOURCE_70B).per_param(int(SOURCE_70B))
    kept = per.weights + per.grads if stage == 1 else per.weights
    return Fraction(per.total) / kept


def _zero_claim(claim_id: str, source: str, stage: int, stated: float) -> Claim:
    name = f"ZeRO-{stage}"
    return Claim(
        id=claim_id, source=source, unit="ratio", stated=stated,
        computed=lambda: _zero_reduction(stage, TABLE_GPUS), chapter="parallelism",
        statement={"en": f"{name} cuts the memory by {{{{ claim.{claim_id}.stated }}}}."},
        why={"en": f"The ZeRO paper's own headline figure (its first figure), not a slip "
             f"of the source: the limit as the number of GPUs "
             f"grows, {{{{ claim.{claim_id}.limit }}}}, since what stays replicated is never "
             f"divided. The paper's own example, {{{{ claim.{claim_id}.paper_params }}}} "
             f"parameters on {{{{ claim.{claim_id}.paper_gpus }}}} GPUs, shrinks by "
             f"{{{{ claim.{claim_id}.paper }}}}; at the {{{{ claim.{claim_id}.gpus }}}} GPUs of "
             f"the chapter's table the states per GPU shrink by "
             f"{{{{ claim.{claim_id}.computed }}}}."},
        extras=(Figure("limit", lambda: _zero_limit(stage), "ratio"),
                Figure("gpus", lambda: TABLE_GPUS, "count"),
                Figure("paper_params", lambda: PAPER_PARAMS, "count"),
                Figure("paper_gpus", lambda: PAPER_GPUS, "count"),
                Figure("paper", lambda: _paper_reduction(stage), "ratio")),
    )


def _tp_figures() -> dict[str, float]:
    return {f.name: f.value for f in chapter.figures() if f.name.startswith("par.tp_")}


def _tp_ib_ratio_causal() -> float:
    """The InfiniBand ratio with only the causal half of the attention scores counted: the
    layer's FLOPs per token 6 x matmul weights + 6 s h instead of + 12 s h, and time in
    proportion to FLOPs."""
    arch, seq = get_model(chapter.MODEL), chapter.STEP.seq_len
    full = layer_flops_per_token(arch, seq_len=seq)
    causal = full - 6 * seq * arch.hidden_size
    return _tp_figures()["par.tp_ib_ratio"] * full / causal


def _bubble(pp: int, m: int) -> Fraction:
    """The simulated 1F1B bubble with the Catalan widget's forward 1, backward 2."""
    return simulate(build_schedule("1f1b", pp, m)).bubble_fraction


def pipeline_claims() -> list[Claim]:
    """The pipeline section's claims."""
    return [
        Claim(
            id="ca_pipeline_bubble", source="ca §2.4 (widget: the simulated pipeline)",
            unit="fraction", stated=0.273, chapter="pipeline",
            computed=lambda: _bubble(4, 8),
            statement={"en": "With {{ claim.ca_pipeline_bubble.stages }} stages and "
                       "{{ claim.ca_pipeline_bubble.microbatches }} microbatches under 1F1B, "
                       "the bubble is {{ claim.ca_pipeline_bubble.stated }}."},
            why={"en": "The simulated timeline idles {{ claim.ca_pipeline_bubble.computed }} of "
                 "the stage-time, exactly the formula's ratio of stages minus one to "
                 "microbatches plus stages minus one."},
            extras=(Figure("stages", lambda: 4, "count"),
                    Figure("microbatches", lambda: 8, "count")),
        ),
        Claim(
            id="fa_bubble_one_microbatch", source="fa: build it, step three",
            unit="fraction", stated=0.75, chapter="pipeline",
            computed=lambda: _bubble(4, 1),
            statement={"en": "With {{ claim.fa_bubble_one_microbatch.stages }} stages and a "
                       "single microbatch, the bubble is "
                       "{{ claim.fa_bubble_one_microbatch.stated }}: three of the four GPUs "
                       "idle at any time."},
            why={"en": "One microbatch crosses the stages one after the other, so each stage "
                 "works a quarter of the step: {{ claim.fa_bubble_one_microbatch.computed }} "
                 "idle, exactly."},
            extras=(Figure("stages", lambda: 4, "count"),),
        ),
        Claim(
            id="fa_bubble_sixteen", source="fa: build it, step three",
            unit="fraction", stated=0.19, chapter="pipeline",
            computed=lambda: _bubble(4, 16),
            statement={"en": "With {{ claim.fa_bubble_sixteen.microbatches }} microbatches the "
                       "bubble falls to about {{ claim.fa_bubble_sixteen.stated }}."},
            why={"en": "The simulated pipeline idles {{ claim.fa_bubble_sixteen.computed }} of "
                 "its time, the share the lesson's own simulation measures. Its figure is the "
                 "bubble divided by the ideal, bubble-free time, "
                 "{{ claim.fa_bubble_sixteen.over_ideal }}, the ratio Narayanan et al. call the "
                 "bubble time fraction: a ratio to the work, not a share of the step."},
            extras=(Figure("microbatches", lambda: 16, "count"),
                    Figure("over_ideal", lambda: bubble_over_ideal(4, 16), "fraction")),
        ),
    ]


def parallelism_claims() -> list[Claim]:
    """The chapter's claims, in the order of the chapter."""
    v3 = get_moe_model("deepseek-v3")
    return [
        _zero_claim("ca_zero_one_factor", "ca §2.2", 1, 4.0),
        _zero_claim("fa_zero_one_factor", "fa: DeepSpeed ZeRO", 1, 4.0),
        _zero_claim("fa_zero_two_factor", "fa: DeepSpeed ZeRO", 2, 8.0),
        Claim(
            id="ca_tp_nvlink_share", source="ca §2 (tensor parallelism's traffic)",
            unit="fraction", stated=0.14, chapter="parallelism",
            computed=lambda: _tp_figures()["par.tp_nvlink_share"],
            statement={"en": "Over NVLink, tensor parallelism's traffic takes "
                       "{{ claim.ca_tp_nvlink_share.stated }} of a layer's compute time."},
            why={"en": "Four all-reduces per layer over NVLink against the layer's matmuls "
                 "at {{ claim.ca_tp_nvlink_share.efficiency }} of the H100's peak give "
                 "{{ claim.ca_tp_nvlink_share.computed }}, the source's figure after "
                 "rounding."},
            extras=(Figure("efficiency", lambda: chapter.KERNEL_EFFICIENCY, "fraction"),),
        ),
        Claim(
            id="ca_tp_infiniband_ratio", source="ca §2 (tensor parallelism's traffic)",
            unit="ratio", stated=1.3, chapter="parallelism",
            computed=lambda: _tp_figures()["par.tp_ib_ratio"],
            statement={"en": "Over InfiniBand the same traffic takes "
                       "{{ claim.ca_tp_infiniband_ratio.stated }} the compute time."},
            why={"en": "The library counts the layer's FLOPs with the full attention "
                 "scores and finds {{ claim.ca_tp_infiniband_ratio.computed }}, which does "
                 "not round to the source's figure; counting only the causal half of the "
                 "scores, as a causal kernel computes them, gives "
                 "{{ claim.ca_tp_infiniband_ratio.causal_half }}, which does. Either way, "
                 "between nodes the traffic takes longer than the compute, so tensor "
                 "parallelism stays inside a node."},
            extras=(Figure("causal_half", _tp_ib_ratio_causal, "ratio"),),
        ),
        Claim(
            id="fa_deepseek_active", source="fa: Megatron-LM and 3D parallelism",
            unit="count", stated=37e9, chapter="parallelism",
            computed=lambda: v3.active_params,
            statement={"en": "DeepSeek-V3 activates only {{ claim.fa_deepseek_active.stated }} "
                       "of its {{ claim.fa_deepseek_active.total }} parameters per token."},
            why={"en": "Counted tensor by tensor from the published configuration: every "
                 "token passes through the attention, the dense layers, the router, the "
                 "shared expert and {{ claim.fa_deepseek_active.top_k }} of the "
                 "{{ claim.fa_deepseek_active.experts }} routed experts of each MoE layer, "
                 "{{ claim.fa_deepseek_active.computed }} parameters in all, out of "
                 "{{ claim.fa_deepseek_active.total_computed }}."},
            extras=(
                Figure("total", lambda: v3.published_params, "count"),
                Figure("total_computed", lambda: v3.num_params, "count"),
                Figure("top_k", lambda: v3.experts_per_token, "count"),
                Figure("experts", lambda: v3.routed_experts, "count"),
            ),
        ),
        *_moe_claims(),
    ]


def _moe_claims() -> list[Claim]:
    """The Persian lesson's two further claims on DeepSeek-V3."""
    v3 = get_moe_model("deepseek-v3")
    runs = {key: get_reported_run(key) for key in ("deepseek-v3", "llama3-405b")}
    return [
        Claim(
            id="fa_moe_memory", source="fa: Megatron-LM and 3D parallelism", unit="count",
            stated=37e9, chapter="parallelism", computed=lambda: v3.num_params,
            statement={"en": "As each token activates only {{ claim.fa_moe_memory.stated }} "
                       "parameters, each GPU only needs to compute, and store activations "
                       "for, the active parameters."},
            why={"en": "Compute and activations follow the active parameters, token by "
                 "token. Memory does not: every expert's weights, gradients and optimizer "
                 "states stay on some GPU, all {{ claim.fa_moe_memory.computed }} "
                 "parameters, {{ claim.fa_moe_memory.states }} of model states against "
                 "{{ claim.fa_moe_memory.active_states }} for the active ones alone. Expert "
                 "parallelism spreads the experts over GPUs; it does not remove them."},
            extras=(
                Figure("states", lambda: model_states(v3.num_params).total, "bytes"),
                Figure("active_states", lambda: model_states(v3.active_params).total,
                       "bytes"),
            ),
        ),
        Claim(
            id="fa_moe_gpu_share", source="fa: Megatron-LM and 3D parallelism",
            unit="fraction", stated=FA_ONE_EIGHTH, relation="less_than", chapter="parallelism",
            computed=lambda: Fraction(runs["deepseek-v3"].gpus, runs["llama3-405b"].gpus),
            statement={"en": "DeepSeek-V3 trained on "
                       "{{ claim.fa_moe_gpu_share.deepseek_gpus }} H800s, less than one "
                       "eighth of Meta's GPUs, {{ claim.fa_moe_gpu_share.stated }}."},
            why={"en": "Exactly one eighth, {{ claim.fa_moe_gpu_share.computed }}: the "
                 "reports give {{ claim.fa_moe_gpu_share.deepseek_gpus }} H800s against "
                 "Meta's {{ claim.fa_moe_gpu_share.meta_gpus }} H100s. Not less."},
            extras=(
                Figure("deepseek_gpus", lambda: runs["deepseek-v3"].gpus, "count"),
                Figure("meta_gpus", lambda: runs["llama3-405b"].gpus, "count"),
            ),
        ),
    ]
