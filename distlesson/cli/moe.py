"""``distlesson moe``: a mixture-of-experts model under expert parallelism.

Parameters (total, and active per token) counted tensor by tensor
(:mod:`distlesson.catalog.moe`); experts per GPU, the busiest GPU's memory and the all-to-all
bytes of :mod:`distlesson.parallel.expert_layout`; the all-to-alls' time with the alpha-beta
model (:mod:`distlesson.parallel.alpha_beta`). ``all_to_all_bytes`` is what ONE GPU of the
expert-parallel group sends in ONE MoE layer's forward for ONE micro-batch: the dispatch
(token copies to other GPUs' experts) plus the combine (results back), under uniform routing;
DeepSeek-V3 dispatches in fp8 with a fp32 scale per 128 values and combines in bf16, Mixtral
both in bf16. With ``--capacity-factor`` the buffers are fixed-size and scale with it.
The layout defaults to the model's published one where there is one (DeepSeek-V3: pp 16,
dp 128, ZeRO-1, DualPipe), else dp = ep, pp = tp = 1, ZeRO-1.
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.catalog.moe import MOE_MODELS, get_moe_model
from distlesson.memory.precision import PrecisionPreset, get_preset
from distlesson.parallel.expert_layout import (
    DEEPSEEK_V3_LAYOUT,
    DEEPSEEK_V3_RECIPE,
    DEEPSEEK_V3_WORKLOAD,
    FP8_WITH_SCALES,
    ExpertLayout,
    ExpertWorkload,
    all_to_all_bytes,
    all_to_all_times,
    expert_memory,
)

from ._common import Result, number, positive_int

__all__ = ["add", "run"]

CAPACITY_LIMIT = 1e3
"""The largest capacity factor taken: beyond the number of experts it changes nothing."""
_PUBLISHED = {"deepseek-v3": (DEEPSEEK_V3_LAYOUT, DEEPSEEK_V3_WORKLOAD, "h800-sxm")}
_RECIPES = {"deepseek-v3": DEEPSEEK_V3_RECIPE}
"""Model states per parameter: DeepSeek-V3's own recipe (14 bytes), else ``mixed`` (16)."""
_FORMATS = {"bf16": Fraction(2), "fp8": FP8_WITH_SCALES}


def _capacity_factor(text: str) -> float:
    """--capacity-factor: a number above 0 and at most CAPACITY_LIMIT (1.0, 1.25, 2)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= CAPACITY_LIMIT):
        raise argparse.ArgumentTypeError(
            f"--capacity-factor={text!r} must be a number above 0 (such as 1.0, 1.25 or 2); "
            f"allowed: up to {CAPACITY_LIMIT:,.0f}")
    return value


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", choices=list(MOE_MODELS), required=True,
                        help="a mixture-of-experts architecture of the catalog")
    parser.add_argument("--ep", type=positive_int("--ep"), required=True,
                        help="expert-parallel degree: must divide the routed experts")
    parser.add_argument("--capacity-factor", type=_capacity_factor,
                        help="fixed-size expert buffers of c x (tokens x top-k / experts) "
                        "slots; default: dropless")
    parser.add_argument("--dp", type=positive_int("--dp"),
                        help="data-parallel degree (default: the published layout, else ep)")
    parser.add_argument("--tp", type=positive_int("--tp"), help="tensor parallelism (default 1)")
    parser.add_argument("--pp", type=positive_int("--pp"), help="pipeline stages")
    parser.add_argument("--zero", type=int, choices=(0, 1, 2, 3), help="ZeRO stage")
    parser.add_argument("--seq", type=positive_int("--seq"), default=4096,
                        help="tokens per sequence (one sequence per micro-batch)")
    parser.add_argument("--dispatch", choices=list(_FORMATS),
                        help="dispatch format (default: fp8 for deepseek-v3, else bf16)")
    parser.add_argument("--gpu", choices=list(GPUS),
                        help="GPU (default: h800-sxm for deepseek-v3, else h100-sxm)")


def _layout(args: argparse.Namespace) -> tuple[ExpertLayout, ExpertWorkload, str]:
    published = _PUBLISHED.get(args.model)
    base, workload, gpu = published or (ExpertLayout(dp=args.ep, zero=1), ExpertWorkload(),
                                        "h100-sxm")
    layout = ExpertLayout(dp=args.dp or base.dp, tp=args.tp or base.tp, pp=args.pp or base.pp,
                          ep=args.ep, zero=base.zero if args.zero is None else args.zero,
                          dualpipe=base.dualpipe and (args.pp or base.pp) % 2 == 0)
    dispatch = _FORMATS[args.dispatch] if args.dispatch else workload.dispatch_bytes
    return (layout, ExpertWorkload(args.seq, 1, dispatch, workload.combine_bytes),
            args.gpu or gpu)


def run(args: argparse.Namespace) -> Result:
    arch = get_moe_model(args.model)
    if arch.routed_experts % args.ep:
        raise ValueError(f"--ep={args.ep} must divide the {arch.routed_experts} routed "
                         f"experts of {arch.key}; allowed: a divisor of {arch.routed_experts}")
    layout, workload, gpu_key = _layout(args)
    gpu = get_gpu(gpu_key)
    recipe: PrecisionPreset = _RECIPES.get(arch.key) or get_preset("mixed")
    memory = expert_memory(arch, layout, workload, recipe)
    cf = args.capacity_factor
    volume = all_to_all_bytes(arch, args.ep, workload, cf)
    times = all_to_all_times(arch, args.ep, workload, gpu_key, cf)
    result = {
        "model": arch.key, "ep": args.ep, "capacity_factor": cf,
        "total_params": arch.num_params, "active_params": arch.active_params,
        "active_params_with_embedding": arch.active_params_with_embedding,
        "experts_per_gpu": memory.experts_per_gpu,
        "all_to_all_bytes": number(volume),
        "all_to_all_counts": "bytes one GPU sends in one MoE layer's forward for one "
        "micro-batch: dispatch + combine, uniform routing",
        "dispatch_bytes_per_value": float(workload.dispatch_bytes),
        "combine_bytes_per_value": float(workload.combine_bytes),
        "tokens_per_microbatch": workload.tokens,
        "all_to_all_time_s": sum(times),
        "per_gpu_bytes": memory.total,
        "per_gpu": {"dense_states": float(memory.dense.total),
                    "expert_states": float(memory.experts.total),
                    "activations_floor": memory.activations},
        "layout": {"dp": layout.dp, "tp": layout.tp, "pp": layout.pp, "ep": layout.ep,
                   "zero": layout.zero, "dualpipe": layout.dualpipe},
        "precision": recipe.key, "gpu": gpu_key, "gpu_memory_bytes": gpu.memory_bytes,
        "fits": memory.total <= gpu.memory_bytes,
    }
    lines = [
        f"{arch.display_name}: {arch.num_params / 1e9:,.1f}B parameters, "
        f"{arch.active_params / 1e9:,.2f}B active per token (input embedding excluded)",
        f"layout        dp {layout.dp} x tp {layout.tp} x pp {layout.pp}, ep {layout.ep}, "
        f"ZeRO-{layout.zero}{', DualPipe' if layout.dualpipe else ''}",
        f"experts       {memory.experts_per_gpu} per GPU in each MoE layer "
        f"(of {arch.routed_experts}, top-{arch.experts_per_token})",
        f"all-to-all    {float(volume) / 1e6:,.1f} MB per GPU per MoE layer per micro-batch "
        f"(dispatch + combine, forward), {sum(times) * 1e3:,.2f} ms",
        f"per GPU       {memory.total / 1e9:,.1f} GB ({recipe.key} states): dense states "
        f"{float(memory.dense.total) / 1e9:,.1f}, expert states "
        f"{float(memory.experts.total) / 1e9:,.1f}, activations (floor) "
        f"{memory.activations / 1e9:,.1f}; {gpu.display_name} holds "
        f"{gpu.memory_bytes / 1e9:,.0f} GB: {'fits' if result['fits'] else 'does not fit'}",
    ]
    return result, "\n".join(lines)
