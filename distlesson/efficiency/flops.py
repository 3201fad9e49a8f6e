"""Training FLOPs of a transformer: the model-FLOPs count of Korthikanti et al. (2022).

Model FLOPs are the useful work of one training step: forward and backward of every matrix
multiplication, counted once (recomputation is extra hardware work, not model work).
Source: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
Models", whose model FLOPs per step are F = 72 B s l h^2 (1 + s/(6h) + V/(12 h l)) for a
GPT layer of 12 h^2 weights. Written per token and per weight matrix, that is 6 FLOPs per
matmul weight (2 forward, 4 backward) plus 12 s h per layer for the attention scores and
their weighted sum (full, not causal, attention, as the source counts it). Norms,
activations, softmax and the embedding lookup are not counted (they are not matmuls).
Not to be confused with Narayanan et al. 2021 (SC21), section 5.1, F = 96 B s l h^2
(1 + s/(6h) + V/(16 l h)): the same count plus the forward that full recomputation reruns
in every layer (4 passes instead of 3; the output head, 6 B s h V, is not rerun), i.e.
hardware FLOPs under full recomputation
(:func:`distlesson.efficiency.mfu.recompute_flops_per_token` adds that forward).
"""

from __future__ import annotations

from distlesson.catalog.models import Architecture, parameter_tensors

__all__ = ["layer_flops_per_token", "matmul_params", "training_flops_per_token"]

_EMBEDDINGS = ("embed_tokens.weight", "embed_positions.weight")


def matmul_params(arch: Architecture, *, layer: int | None = None) -> int:
    """Weights that take part in a matrix multiplication.

    Every 2-D weight except the embedding lookups, plus the output projection (when the
    embedding is tied, the head multiplies by the same vocab x h matrix, so it is counted
    once as a matmul). With ``layer`` given, only that transformer layer's weights.
    """
    if layer is not None:
        if not 0 <= layer < arch.num_layers:
            raise ValueError(f"layer={layer!r} must be in 0..{arch.num_layers - 1}")
        prefix = f"layers.{layer}."
        return sum(t.numel for t in parameter_tensors(arch)
                   if t.name.startswith(prefix) and len(t.shape) == 2)
    count = sum(t.numel for t in parameter_tensors(arch)
                if len(t.shape) == 2 and t.name not in _EMBEDDINGS)
    if arch.tied_embeddings:
        count += arch.vocab_size * arch.hidden_size
    return count


def layer_flops_per_token(arch: Architecture, *, seq_len: int) -> int:
    """Training FLOPs of one transformer layer per token: 6 x matmul weights + 12 s h.

    Source and assumptions: see the module docstring. Units: FLOPs, exact.
    """
    if not isinstance(seq_len, int) or seq_len < 1:
        raise ValueError(f"seq_len={seq_len!r} must be a positive integer")
    return 6 * matmul_params(arch, layer=0) + 12 * seq_len * arch.hidden_size


def training_flops_per_token(arch: Architecture, *, seq_len: int) -> int:
    """Training FLOPs of the whole model per token: every layer plus the output head.

    Equation: 6 x matmul_params + 12 x num_layers x seq_len x hidden_size (Korthikanti et
    al. 2022's model FLOPs, per token). Units: FLOPs, exact.
    """
    if not isinstance(seq_len, int) or seq_len < 1:
        raise ValueError(f"seq_len={seq_len!r} must be a positive integer")
    attention = 12 * arch.num_layers * seq_len * arch.hidden_size
    return 6 * matmul_params(arch) + attention
