"""``distlesson plan``: the layouts of a model on a cluster, ranked by estimated step time.

Steps are steady state (no failures, no data stall: those cost every layout alike), as on
the planning chapter, whose tables this command prints.

Every layout dp x tp x pp x cp with each ZeRO stage, recomputation and pipeline schedule
(:mod:`distlesson.efficiency.planner`), or one fixed layout with ``--dp --tp --pp --cp [--zero]``;
step times from :mod:`distlesson.efficiency.step_time`'s seven terms.
"""

from __future__ import annotations

import argparse
import time

from distlesson.catalog.hardware import GPUS
from distlesson.catalog.interconnects import INTERCONNECTS
from distlesson.efficiency.planner import SEARCHED_RECOMPUTE, PlannedConfig, evaluate, plan
from distlesson.efficiency.step_time import TERMS, Cluster, StepInputs
from distlesson.memory.activations import RECOMPUTE
from distlesson.memory.precision import PRESETS
from distlesson.memory.states import Layout
from distlesson.units import GB

from ._common import Result, add_model, model_from_args, model_name, number, positive_int
from .mfu import positive_quantity

__all__ = ["add", "run"]

DIMENSIONS = ("dp", "tp", "pp", "cp")
STEADY = StepInputs(failures=None)


def add(parser: argparse.ArgumentParser) -> None:
    add_model(parser)
    parser.add_argument("--gpus", type=positive_int("--gpus"), required=True)
    parser.add_argument("--gpu", choices=list(GPUS), default="h100-sxm")
    parser.add_argument("--gpus-per-node", type=positive_int("--gpus-per-node"), default=None,
                        help="GPUs sharing the intra-node link (default: the catalog's)")
    parser.add_argument("--inter-link", default="ib-ndr",
                        choices=[k for k, v in INTERCONNECTS.items() if v.scope == "cluster"],
                        help="the link between nodes (default ib-ndr)")
    parser.add_argument("--precision", choices=list(PRESETS), default="mixed",
                        help="precision of the model states (mixed-fp32-grads: Megatron-LM's "
                        "and Llama 3's fp32 gradients)")
    parser.add_argument("--seq", type=positive_int("--seq"), required=True,
                        help="tokens per sequence")
    parser.add_argument("--tokens-per-step", type=positive_quantity("--tokens-per-step"),
                        required=True, help="tokens per optimizer step, e.g. 16e6 or 16M")
    for name in DIMENSIONS:
        parser.add_argument(f"--{name}", type=positive_int(f"--{name}"), default=None,
                            help=f"fix {name} (evaluate one layout)")
    parser.add_argument("--zero", type=int, choices=range(4), default=None,
                        help="fix the ZeRO stage (default: try 0-3)")
    parser.add_argument("--recompute", choices=RECOMPUTE, default=None,
                        help="fix the recomputation (default: try all)")
    parser.add_argument("--top", type=positive_int("--top"), default=5,
                        help="configs to show (default 5)")


def _config_json(c: PlannedConfig) -> dict[str, object]:
    return {"dp": c.dp, "tp": c.tp, "pp": c.pp, "cp": c.cp, "zero": c.zero,
            "recompute": c.recompute, "schedule": c.schedule, "chunks": c.chunks,
            "num_microbatches": c.num_microbatches, "tokens_per_step": c.tokens_per_step,
            "per_gpu_bytes": c.per_gpu_bytes, "fits": c.fits, "step_time": c.step_time,
            "mfu": c.mfu, "hfu": c.hfu,
            "breakdown": {t: getattr(c.breakdown, t) for t in TERMS}}


def _row(rank: int, c: PlannedConfig) -> str:
    schedule = c.schedule if c.schedule == "1f1b" else f"interl. v={c.chunks}"
    return (f"{rank:>3} {c.dp:>6} {c.tp:>3} {c.pp:>3} {c.cp:>4} {c.zero:>4} {c.recompute:>9}"
            f" {schedule:>14} {c.num_microbatches:>5} {c.per_gpu_bytes / GB:>7.1f}"
            f" {'yes' if c.fits else 'no':>4} {c.step_time:>8.3f} {100 * c.mfu:>6.1f}%"
            f" {100 * c.hfu:>6.1f}%")


def _why(best: PlannedConfig, other: PlannedConfig | None) -> list[str]:
    shares = best.breakdown.shares()
    dominant = sorted(TERMS, key=lambda t: -shares[t])[:3]
    lines = ["best: " + ", ".join(f"{t} {100 * shares[t]:.0f}%" for t in dominant)
             + " of its step"]
    if other is not None:
        diff = {t: getattr(best.breakdown, t) - getattr(other.breakdown, t) for t in TERMS}
        biggest = [t for t in sorted(TERMS, key=lambda t: -abs(diff[t]))[:3]
                   if abs(diff[t]) >= 5e-4] or ["no term (a tie)"]
        fits = "" if other.fits else ", does not fit"
        lines.append(f"against the runner-up ({other.step_time:.3f} s{fits}): " + ", ".join(
            f"{t} {diff[t]:+.3f} s" if t in diff else t for t in biggest))
    return lines


def fixed_layout(args: argparse.Namespace) -> bool:
    return any(getattr(args, d) is not None for d in DIMENSIONS)


def run(args: argparse.Namespace) -> Result:
    arch = model_from_args(args)
    cluster = Cluster(gpu=args.gpu, num_gpus=args.gpus, gpus_per_node=args.gpus_per_node,
                      inter_link=args.inter_link)
    recomputes = ((RECOMPUTE if fixed_layout(args) else SEARCHED_RECOMPUTE)
                  if args.recompute is None else (args.recompute,))
    zeros = (0, 1, 2, 3) if args.zero is None else (args.zero,)
    fixed = fixed_layout(args)
    start = time.perf_counter()
    if fixed:
        tp, pp, cp = (getattr(args, d) or 1 for d in ("tp", "pp", "cp"))
        dp = args.dp or max(1, args.gpus // (tp * pp * cp))
        result = evaluate(arch, cluster, Layout(dp=dp, tp=tp, pp=pp, cp=cp), seq_len=args.seq,
                          tokens_per_step=args.tokens_per_step, recomputes=recomputes,
                          zero_stages=zeros, inputs=STEADY, precision=args.precision)
    else:
        result = plan(arch, cluster, seq_len=args.seq, tokens_per_step=args.tokens_per_step,
                      recomputes=recomputes, zero_stages=zeros, inputs=STEADY,
                      precision=args.precision)
    seconds = time.perf_counter() - start
    shown = result.configs[: args.top]
    out = {
        "model": model_name(args), "gpus": args.gpus, "gpu": args.gpu,
        "gpus_per_node": cluster.gpus_per_node, "seq": args.seq,
        "tokens_per_step": number(args.tokens_per_step), "inter_link": args.inter_link,
        "precision": args.precision,
        "memory_limit_bytes": result.memory_limit, "evaluated": len(result.configs),
        "rejected": result.rejected, "search_seconds": seconds,
        "configs": [_config_json(c) for c in shown],
    }
    lines = [
        f"{arch.display_name} on {args.gpus:,} x {cluster.spec.display_name} "
        f"({cluster.gpus_per_node} per node), seq {args.seq:,}, "
        f"{args.tokens_per_step:,.0f} tokens per step",
        f"{len(result.configs):,} configs {'evaluated' if fixed else 'fit'} in "
        f"{result.memory_limit / GB:,.0f} GB per GPU (after CUDA context, NCCL buffers and "
        f"fragmentation); searched in {seconds:.2f} s",
    ]
    if not shown:
        lines.append(_nothing_fits(result))
    else:
        lines += ["", "  #     dp  tp  pp   cp zero recompute       schedule     m  GB/GPU"
                  "  fit   step s    MFU    HFU"]
        lines += [_row(i, c) for i, c in enumerate(shown, 1)]
        lines += ["", "ranked by step time per token, i.e. by MFU (batches are whole sequences "
                  "per replica, so they differ a little)",
                  *_why(shown[0], result.configs[1] if len(result.configs) > 1 else None)]
    if result.rejected:
        lines.append("rejected: " + ", ".join(f"{reason} {count:,}"
                                              for reason, count in result.rejected.items()))
    return out, "\n".join(lines)


def _nothing_fits(result) -> str:
    """Why the search found nothing: too few GPUs for the memory, or a batch that the GPUs
    cannot split into whole micro-batches (too many GPUs)."""
    if result.rejected.get("memory"):
        return ("no config fits in memory: more GPUs, a higher ZeRO stage or recomputation "
                "needed")
    if result.rejected.get("batch"):
        return ("no config can make the batch: with this many GPUs the tokens per step do "
                "not fill whole micro-batches; raise --tokens-per-step or use fewer GPUs")
    return "no config can be built: " + "; ".join(result.examples.values())
