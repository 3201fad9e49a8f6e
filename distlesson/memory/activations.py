"""Activation memory of a transformer layer: the formulas of Korthikanti et al. (2022).

The bytes a layer keeps from its forward pass for its backward pass, per micro-batch, with
tensor parallelism (tp), sequence parallelism (sp), context parallelism (cp) and activation
recomputation. Exact rationals, in bytes.

Source: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
Models", section 4 (equations 1 to 4 and section 5's selective and full recomputation).
Assumptions of the source, kept here: 16-bit activations, 1-byte dropout masks, a GPT-style
layer (multi-head attention, an MLP of width 4h with GELU); the embedding and output layers
are not counted. Applied to Llama-style models (SwiGLU, grouped-query attention, no dropout)
the formula is an approximation, which the activation chapter measures against a counted
model.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from distlesson.checks import check_positive_int

__all__ = ["RECOMPUTE", "Recompute", "activation_bytes_per_layer"]

Recompute = Literal["none", "selective", "full"]
RECOMPUTE: tuple[Recompute, ...] = ("none", "selective", "full")


def activation_bytes_per_layer(
    *,
    seq_len: int,
    micro_batch: int,
    hidden_size: int,
    num_heads: int,
    tp: int = 1,
    sp: bool = False,
    cp: int = 1,
    recompute: Recompute = "none",
) -> Fraction:
    """Bytes one layer keeps per micro-batch on one GPU.

    Equations (s = seq_len / cp on this GPU, b = micro_batch, h = hidden_size,
    a = num_heads, t = tp; Korthikanti et al. 2022):

    - no recomputation, no sp (eq. 2; eq. 1 when t = 1): s b h (10 + 24/t + 5 a S / (h t))
    - no recomputation, with sp (eq. 4): s b h / t (34 + 5 a S / h)
    - selective recomputation (section 5; the attention scores, softmax and its dropout are
      recomputed): the same without the 5 a S / h term
    - full recomputation: only the layer's input, 2 s b h (divided by t with sp, which keeps
      the input sharded along the sequence)

    S is the full sequence length: with context parallelism each GPU holds s = S / cp
    queries against all S keys, so the score term is 5 a b s S. Units: bytes, exact.
    """
    for name, value in (("seq_len", seq_len), ("micro_batch", micro_batch),
                        ("hidden_size", hidden_size), ("num_heads", num_heads), ("tp", tp),
                        ("cp", cp)):
        check_positive_int(name, value)
    if recompute not in RECOMPUTE:
        raise ValueError(f"recompute={recompute!r} is not known; allowed: {', '.join(RECOMPUTE)}")
    if seq_len % cp:
        raise ValueError(f"cp={cp} must divide seq_len={seq_len}")
    s, b, h, a, t = Fraction(seq_len, cp), micro_batch, hidden_size, num_heads, tp
    sbh = s * b * h
    if recompute == "full":
        return 2 * sbh / t if sp else 2 * sbh
    scores = Fraction(0) if recompute == "selective" else Fraction(5 * a * seq_len, h)
    if sp:
        return sbh / t * (34 + scores)
    return sbh * (10 + Fraction(24, t) + scores / t)
