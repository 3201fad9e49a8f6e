"""``distlesson activations``: the activation memory of transformer layers, per GPU.

The formulas of Korthikanti et al. 2022 (:mod:`distlesson.memory.activations`): the bytes one layer
keeps for its backward pass per micro-batch, and ``total_bytes`` = that x layers, for one
micro-batch and no pipeline (the busiest stage under 1F1B is the ``layout`` subcommand's).
A ``--model`` gives hidden size, heads and layers; its ``--seq`` defaults to 2048, the
sequence length of every model in Korthikanti et al.'s experiments (Table 3), and ``--batch``
to 1 sequence per micro-batch.
"""

from __future__ import annotations

import argparse

from distlesson.memory.activations import RECOMPUTE, activation_bytes_per_layer
from distlesson.memory.layer_activations import layer_activation_bytes
from distlesson.units import GB

from ._common import Result, add_model, model_from_args, model_name, number, positive_int

__all__ = ["DEFAULT_SEQ", "add", "run"]

DEFAULT_SEQ = 2048
"""--seq with --model: the sequence length of Korthikanti et al. 2022's runs (Table 3)."""
DEFAULT_BATCH = 1
"""--batch with --model: one sequence per micro-batch."""

_SHAPE = ("hidden", "heads", "layers")
_SOURCE = "Korthikanti et al. 2022"


def add(parser: argparse.ArgumentParser) -> None:
    add_model(parser, required=False)
    parser.add_argument("--seq", type=positive_int("--seq"),
                        help=f"tokens per sequence (default {DEFAULT_SEQ} with --model)")
    parser.add_argument("--batch", type=positive_int("--batch"),
                        help=f"sequences per micro-batch (default {DEFAULT_BATCH} with --model)")
    parser.add_argument("--hidden", type=positive_int("--hidden"), help="hidden size h")
    parser.add_argument("--heads", type=positive_int("--heads"), help="attention heads a")
    parser.add_argument("--layers", type=positive_int("--layers"), help="transformer layers")
    parser.add_argument("--tp", type=positive_int("--tp"), default=1, help="tensor parallel")
    parser.add_argument("--sp", action="store_true",
                        help="sequence parallelism (needs --tp > 1 to change anything)")
    parser.add_argument("--recompute", choices=RECOMPUTE, default="none")


def _formula(tp: int, sp: bool, recompute: str) -> str:
    """The equation used, in the paper's letters (s b h a t)."""
    if recompute == "full":
        shape = "2 s b h / t" if sp else "2 s b h"
        return f"{_SOURCE}, full recomputation (section 5): {shape}, the layer's input only"
    if recompute == "selective":
        shape = "34 s b h / t" if sp else "s b h (10 + 24 / t)"
        return (f"{_SOURCE}, selective recomputation (section 5): {shape}, "
                "the attention scores' 5 a s / h term recomputed")
    if sp:
        return f"{_SOURCE}, eq. 4: s b h / t (34 + 5 a s / h)"
    if tp > 1:
        return f"{_SOURCE}, eq. 2: s b h (10 + 24 / t + 5 a s / (h t))"
    return f"{_SOURCE}, eq. 1: s b h (34 + 5 a s / h)"


def _shape(args: argparse.Namespace) -> tuple[int, int, int, int, int]:
    """(seq, batch, hidden, heads, layers) from --model (--config, --arch) or the five
    options."""
    arch = model_from_args(args)
    if arch is None:
        missing = [f"--{n}" for n in ("seq", "batch", *_SHAPE) if getattr(args, n) is None]
        if missing:
            raise ValueError("give --model or all of --seq --batch --hidden --heads --layers; "
                             f"missing: {' '.join(missing)}")
        return args.seq, args.batch, args.hidden, args.heads, args.layers
    given = [f"--{n}" for n in _SHAPE if getattr(args, n) is not None]
    if given:
        raise ValueError(f"{' '.join(given)}: already set by the model "
                         f"({model_name(args)}); give a model or --hidden --heads --layers, "
                         "not both")
    return (args.seq or DEFAULT_SEQ, args.batch or DEFAULT_BATCH, arch.hidden_size,
            arch.num_heads, arch.num_layers)


def run(args: argparse.Namespace) -> Result:
    seq, batch, hidden, heads, layers = _shape(args)
    if hidden % heads:
        raise ValueError(f"--heads={heads} must divide --hidden={hidden}")
    if heads % args.tp:
        raise ValueError(f"--tp={args.tp} must divide the number of heads, {heads}")
    if args.sp and seq % args.tp:
        raise ValueError(f"--tp={args.tp} must divide --seq={seq} with --sp "
                         "(each rank keeps a slice of the sequence)")
    per_layer = activation_bytes_per_layer(
        seq_len=seq, micro_batch=batch, hidden_size=hidden, num_heads=heads, tp=args.tp,
        sp=args.sp, recompute=args.recompute,
    )
    total = per_layer * layers
    arch = model_from_args(args)
    trained = (layer_activation_bytes(arch, seq_len=seq, micro_batch=batch, tp=args.tp,
                                      sp=args.sp, recompute=args.recompute)
               if arch is not None else None)
    result = {
        "model": model_name(args), "seq": seq, "batch": batch, "hidden": hidden, "heads": heads,
        "layers": layers, "tp": args.tp, "sp": args.sp, "recompute": args.recompute,
        "bytes_per_layer": number(per_layer), "total_bytes": number(total),
        "formula": _formula(args.tp, args.sp, args.recompute),
        "layer_trained_bytes_per_layer": None if trained is None else number(trained),
    }
    lines = [
        f"{model_name(args) or 'layers'}: s={seq} b={batch} h={hidden} a={heads}, {layers} layers; "
        f"tp={args.tp}{' with sp' if args.sp else ''}, recompute {args.recompute}",
        f"per layer: {float(per_layer) / GB:,.3f} GB",
        f"all {layers} layers: {float(total) / GB:,.3f} GB (one micro-batch, no pipeline)",
        f"formula: {result['formula']}",
    ]
    if trained is not None:
        lines.append(f"the layer actually trained, tensor by tensor (no dropout, its own MLP "
                     f"and K/V width, FlashAttention): {float(trained) / GB:,.3f} GB per layer")
    return result, "\n".join(lines)
