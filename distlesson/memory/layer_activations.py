"""Activation memory of the layer actually trained, tensor by tensor, and of a pipeline stage.

Korthikanti et al.'s formulas (:mod:`distlesson.memory.activations`) describe a GPT layer:
dropout masks, a 4h GELU MLP, multi-head K and V, and the s x s attention scores. A Llama
layer keeps less and different tensors. Counted here, per token and layer, bf16 unless said
(h hidden, f MLP width, kv = key/value heads x head width, a heads; FlashAttention keeps no
score matrix, Dao et al. 2022):

===========================  =============  ==================================
tensor                        elements       split by
===========================  =============  ==================================
attention norm input          h              sp (the sequence-parallel region)
q k v input (norm output)     h              sp (kept sharded, re-gathered)
q, k, v (after rotary)        h + 2 kv       tp
attention output (o input)    h              tp
softmax log-sum-exp (fp32)    a              tp
MLP norm input, MLP input     2 h            sp
gate, up, activation output   3 f (swiglu)   tp  (GELU MLP: f, f)
norm statistics (fp32)        2              sp
===========================  =============  ==================================

``sp`` tensors are divided by tp only with sequence parallelism (Korthikanti et al. 2022,
section 4.2.2); ``tp`` tensors always. Recomputation (:data:`RECOMPUTE`): ``none`` keeps
them all; ``selective`` recomputes only the attention core, which FlashAttention already
does, so it keeps the same bytes; ``full`` keeps only each layer's input, then rebuilds one
layer's tensors at a time in the backward (that layer's full set is added to the peak).

Beyond the layers: the last stage holds the output head's logits (bf16) and the loss's
fp32 softmax, V / t each per token, for one micro-batch (1F1B runs its backward at once).
Micro-batches in flight per stage come from the schedule
(:func:`distlesson.pipeline.bubble.peak_activations`). Units: bytes, exact.
"""

from __future__ import annotations

from fractions import Fraction

from distlesson.catalog.models import Architecture
from distlesson.checks import check_positive_int
from distlesson.memory.activations import RECOMPUTE, Recompute

__all__ = ["layer_activation_bytes", "logits_bytes", "saved_tensors"]

_BF16, _FP32 = 2, 4


def saved_tensors(arch: Architecture) -> tuple[tuple[str, int, int, str], ...]:
    """(name, elements per token, bytes per element, split) of every tensor a layer keeps;
    split is ``sp`` or ``tp`` (see the module docstring)."""
    h, f = arch.hidden_size, arch.ffn_hidden_size
    kv = arch.num_kv_heads * arch.head_dim
    mlp = ((("gate", f, _BF16, "tp"), ("up", f, _BF16, "tp"), ("activation", f, _BF16, "tp"))
           if arch.mlp == "swiglu" else
           (("fc1 output", f, _BF16, "tp"), ("activation", f, _BF16, "tp")))
    return (
        ("attention norm input", h, _BF16, "sp"),
        ("qkv input", h, _BF16, "sp"),
        ("q, k, v", h + 2 * kv, _BF16, "tp"),
        ("attention output", h, _BF16, "tp"),
        ("log-sum-exp", arch.num_heads, _FP32, "tp"),
        ("mlp norm input", h, _BF16, "sp"),
        ("mlp input", h, _BF16, "sp"),
        *mlp,
        ("norm statistics", 2, _FP32, "sp"),
    )


def _per_token(arch: Architecture, tp: int, sp: bool) -> Fraction:
    return sum((Fraction(n * size, tp if split == "tp" or sp else 1)
                for _, n, size, split in saved_tensors(arch)), Fraction(0))


def layer_activation_bytes(arch: Architecture, *, seq_len: int, micro_batch: int,
                           tp: int = 1, sp: bool = True, cp: int = 1,
                           recompute: Recompute = "none") -> Fraction:
    """Bytes one layer keeps per micro-batch on one GPU (full recomputation: the layer's
    input only; the layer rebuilt in the backward holds what ``none`` keeps)."""
    for name, value in (("seq_len", seq_len), ("micro_batch", micro_batch), ("tp", tp),
                        ("cp", cp)):
        check_positive_int(name, value)
    if recompute not in RECOMPUTE:
        raise ValueError(f"recompute={recompute!r} is not known; allowed: {', '.join(RECOMPUTE)}")
    if seq_len % cp:
        raise ValueError(f"cp={cp} must divide seq_len={seq_len}")
    tokens = Fraction(seq_len, cp) * micro_batch
    if recompute == "full":
        return tokens * _BF16 * arch.hidden_size / (tp if sp else 1)
    return tokens * _per_token(arch, tp, sp)


def logits_bytes(arch: Architecture, *, seq_len: int, micro_batch: int, tp: int = 1,
                 cp: int = 1) -> Fraction:
    """Bytes of one micro-batch's logits (bf16) and fp32 softmax on the last stage."""
    tokens = Fraction(seq_len, cp) * micro_batch
    return tokens * (_BF16 + _FP32) * Fraction(-(-arch.vocab_size // tp))
