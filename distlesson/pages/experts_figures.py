"""The numbers the chapter "Mixture of experts" quotes in its prose (``moe.*``), each computed
by the library: the catalog's counts, DeepSeek-V3's layout and memory per GPU, one layer's
all-to-all, the balance simulation; and the answers of the chapter's exercises (``ex.*``)."""

from __future__ import annotations

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.moe import get_moe_model
from distlesson.exercises import NumericPart
from distlesson.exercises_experts import expert_exercises
from distlesson.pages import experts as chapter
from distlesson.parallel.expert_balance import DEEPSEEK_V3_GAMMA
from distlesson.parallel.expert_layout import (
    DEEPSEEK_V3_LAYOUT,
    DEEPSEEK_V3_RECIPE,
    DEEPSEEK_V3_WORKLOAD,
    FP8_TILE,
    FP8_WITH_SCALES,
    stage_params,
)
from distlesson.render.figure import Figure

__all__ = ["figures"]


def _catalog() -> list[Figure]:
    v3, mx = get_moe_model("deepseek-v3"), get_moe_model("mixtral-8x7b")
    return [
        Figure("moe.v3_total", v3.num_params, "B params", 1),
        Figure("moe.v3_active", v3.active_params, "B params", 2),
        Figure("moe.v3_active_emb", v3.active_params_with_embedding, "B params", 2),
        Figure("moe.v3_published_total", v3.published_params, "B params"),
        Figure("moe.v3_published_active", v3.published_active, "B params"),
        Figure("moe.v3_share", v3.active_params / v3.num_params, "%", 1),
        Figure("moe.v3_layers", v3.num_layers), Figure("moe.v3_dense_layers", v3.dense_layers),
        Figure("moe.v3_moe_layers", v3.moe_layers),
        Figure("moe.v3_experts", v3.routed_experts), Figure("moe.v3_top_k", v3.experts_per_token),
        Figure("moe.v3_shared", v3.shared_experts),
        Figure("moe.v3_expert_params", v3.expert_params, "M params", 1),
        Figure("moe.v3_routed_share", v3.routed_expert_params / v3.num_params, "%", 1),
        Figure("moe.mx_total", mx.num_params, "B params", 2),
        Figure("moe.mx_active", mx.active_params, "B params", 2),
        Figure("moe.mx_active_emb", mx.active_params_with_embedding, "B params", 2),
        Figure("moe.mx_published_total", mx.published_params, "B params", 1),
        Figure("moe.mx_published_active", mx.published_active, "B params", 1),
        Figure("moe.mx_experts", mx.routed_experts), Figure("moe.mx_top_k", mx.experts_per_token),
        Figure("moe.mx_layers", mx.num_layers),
        Figure("moe.mx_kv_heads", mx.attention.num_kv_heads),  # type: ignore[union-attr]
        Figure("moe.mx_heads", mx.num_heads),
    ]


def _layout() -> list[Figure]:
    v3, layout, m = get_moe_model("deepseek-v3"), DEEPSEEK_V3_LAYOUT, chapter.v3_memory()
    h800 = get_gpu("h800-sxm")
    stages = stage_params(v3, layout.pp)
    bpp = (DEEPSEEK_V3_RECIPE.weight_format.bytes + DEEPSEEK_V3_RECIPE.grad_format.bytes
           + DEEPSEEK_V3_RECIPE.master_format.bytes  # type: ignore[union-attr]
           + 2 * DEEPSEEK_V3_RECIPE.state_format.bytes)
    return [
        Figure("moe.v3_gpus", layout.world_size), Figure("moe.v3_pp", layout.pp),
        Figure("moe.v3_ep", layout.ep), Figure("moe.v3_dp", layout.dp),
        Figure("moe.v3_ep_nodes", layout.ep // h800.gpus_per_node),
        Figure("moe.node_gpus", h800.gpus_per_node),
        Figure("moe.v3_expert_dp", layout.expert_dp),
        Figure("moe.v3_per_gpu_experts", m.experts_per_gpu),
        Figure("moe.v3_stage_layers", stages[1].layers),
        Figure("moe.v3_last_layers", stages[-1].layers),
        Figure("moe.v3_busiest_a", m.rank), Figure("moe.v3_busiest_b", layout.pp - 1 - m.rank),
        Figure("moe.v3_busiest_moe_layers", 2 * stages[1].layers),
        Figure("moe.v3_in_flight", layout.pp + 1),
        Figure("moe.v3_bpp", bpp, "B/param"),
        Figure("moe.v3_all_states", v3.num_params * bpp, "TB", 1),
        Figure("moe.v3_gpu_params", m.params, "B params", 2),
        Figure("moe.v3_gpu_states", m.states, "GB", 1),
        Figure("moe.v3_gpu_dense", float(m.dense.total), "GB", 1),
        Figure("moe.v3_gpu_experts", float(m.experts.total), "GB", 1),
        Figure("moe.v3_gpu_floor", m.activations, "GB", 1),
        Figure("moe.v3_gpu_total", m.total, "GB", 1),
        Figure("moe.h800_memory", h800.memory_bytes, "GB"),
        Figure("moe.v3_headroom", h800.memory_bytes - m.total, "GB"),
        Figure("moe.v3_seq", DEEPSEEK_V3_WORKLOAD.seq_len),
    ]


def _all_to_all() -> list[Figure]:
    (v3_bytes, (v3_d, v3_c)), (node_bytes, node_t), (mx_bytes, mx_t) = (
        chapter.a2a_case(i) for i in range(len(chapter.A2A_CASES)))
    ib = get_interconnect("ib-ndr").bandwidth
    h800_nvlink = get_interconnect(get_gpu("h800-sxm").intra_node_link).bandwidth
    return [
        Figure("moe.fp8_bytes", float(FP8_WITH_SCALES), "B", 5),
        Figure("moe.fp8_tile", FP8_TILE),
        Figure("moe.a2a_v3", v3_bytes, "MB", 1),
        Figure("moe.a2a_v3_dispatch", v3_d, "ms", 2),
        Figure("moe.a2a_v3_combine", v3_c, "ms", 2),
        Figure("moe.a2a_v3_time", v3_d + v3_c, "ms", 1),
        Figure("moe.a2a_v3_layers_time", 2 * get_moe_model("deepseek-v3").moe_layers
               * (v3_d + v3_c), "s", 1),
        Figure("moe.a2a_node", node_bytes, "MB", 1),
        Figure("moe.a2a_node_time", sum(node_t), "ms", 1),
        Figure("moe.a2a_mx", mx_bytes, "MB", 1),
        Figure("moe.a2a_mx_time", sum(mx_t), "ms", 2),
        Figure("moe.ib", ib, "GB/s"), Figure("moe.h800_nvlink", h800_nvlink, "GB/s"),
    ]


def _balance() -> list[Figure]:
    router = chapter.ROUTER
    (rank_before, rank_after), (exp_before, exp_after) = (chapter.imbalances(),
                                                          chapter.expert_imbalances())
    history = chapter.balance()
    figures = [
        Figure("moe.sim_experts", router.num_experts), Figure("moe.sim_top_k", router.top_k),
        Figure("moe.sim_tokens", router.tokens), Figure("moe.sim_ep", chapter.SIM_EP),
        Figure("moe.sim_per_gpu", router.num_experts // chapter.SIM_EP),
        Figure("moe.sim_skew", router.skew, digits=1),
        Figure("moe.sim_top_share", float(router.popularity.max()), "%", 1),
        Figure("moe.sim_gamma", DEEPSEEK_V3_GAMMA, digits=3),
        Figure("moe.sim_steps", chapter.STEPS), Figure("moe.sim_tail", chapter.TAIL),
        Figure("moe.sim_rank_before", rank_before, "x", 2),
        Figure("moe.sim_rank_after", rank_after, "x", 2),
        Figure("moe.sim_expert_before", exp_before, "x", 1),
        Figure("moe.sim_expert_after", exp_after, "x", 1),
        Figure("moe.sim_loss_before", float(history.balance_losses[0]), digits=2),
        Figure("moe.sim_loss_after", float(history.balance_losses[-chapter.TAIL:].mean()),
               digits=2),
    ]
    for cf in chapter.CAPACITY_FACTORS:
        name = f"{cf:.2f}".replace(".", "_")
        before, after = chapter.drops(cf)
        figures += [Figure(f"moe.drop_{name}_before", before, "%", 1),
                    Figure(f"moe.drop_{name}_after", after, "%", 1),
                    Figure(f"moe.cf_{name}", cf, digits=2)]
    return figures


def figures() -> list[Figure]:
    """Every ``moe.*`` figure, and the chapter's exercises' answers and quantities."""
    answers = [p.as_figure() for e in expert_exercises() for p in e.parts
               if isinstance(p, NumericPart)]
    quantities = [Figure(f"ex.{q.name}", float(q.value), q.unit, q.digits)
                  for e in expert_exercises() for q in e.quantities]
    return _catalog() + _layout() + _all_to_all() + _balance() + answers + quantities
