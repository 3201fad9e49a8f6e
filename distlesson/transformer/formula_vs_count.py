"""Korthikanti et al.'s per-layer activation formula, term by term, beside the counted tape.

Section 4.1 of Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
Transformer Models") lists what a GPT layer keeps, in bytes, with s sequence length,
b micro-batch, h hidden size, a heads, and 16-bit activations with 1-byte dropout masks:

    attention: QKV input 2sbh, Q and K 4sbh, softmax output 2as^2b, its dropout mask as^2b,
               dropout output 2as^2b, V 2sbh, output projection input 2sbh, dropout mask sbh
    MLP:       first linear input 2sbh, GeLU input 8sbh, second linear input 8sbh, mask sbh
    norms:     two LayerNorm inputs 4sbh                      total 34sbh + 5as^2b (eq. 1)

Here the MLP's 4h width is replaced by the model's ffn width f (8sbh = 2sb(4h) -> 2sbf), so
with f = 4h the terms add up to :func:`distlesson.memory.activations.activation_bytes_per_layer`.
Beside each term: the arrays this model's tape keeps for it, counted from a live forward
(block 0; float64, so 8 bytes a scalar), and a note on what one counts that the other not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from distlesson.catalog.models import Architecture, get_model
from distlesson.transformer import checkpointing
from distlesson.transformer.accounting import sample_tokens
from distlesson.transformer.held import count_held
from distlesson.transformer.params import init_params

__all__ = ["TermComparison", "formula_vs_count"]


@dataclass(frozen=True)
class TermComparison:
    """One term of the paper's per-layer sum, and this model's counted arrays for it."""

    group: str
    """``attention``, ``mlp`` or ``norms``, as the paper groups the terms."""
    term: str
    """What the paper keeps (``softmax output``, ``GeLU input``, ...)."""
    paper_bytes: int
    """The paper's bytes for this model's s, b, h, a and ffn width f (16-bit, 1-byte masks)."""
    counted: tuple[str, ...]
    """Names of this model's saved arrays for the same role (empty: none kept)."""
    counted_scalars: int
    """Their scalars, counted from the live tape of block 0."""
    counted_bytes: int
    """Their bytes (``nbytes``) in the run's dtype."""
    note: str
    """What differs between the paper's term and the counted arrays."""


_Term = tuple[str, str, int, tuple[str, ...], str]  # group, term, paper bytes, arrays, note


def _paper_terms(s: int, b: int, h: int, a: int, f: int) -> list[_Term]:
    quad = a * s * s * b
    return [
        ("attention", "QKV input", 2 * s * b * h, ("n1",), "the normed input, shared by q, k, v"),
        ("attention", "Q and K", 4 * s * b * h, ("qr", "kr"),
         "the rotated copies: RoPE's backward is the inverse rotation, so the unrotated q and "
         "k are not kept; k is K D wide (narrower under grouped-query attention)"),
        ("attention", "softmax output", 2 * quad, ("probs",),
         "the only term quadratic in s here: A L^2 per sequence"),
        ("attention", "softmax dropout mask", quad, (), "no dropout in this model"),
        ("attention", "dropout output", 2 * quad, (),
         "without dropout, probs itself is the input of probs v, kept once"),
        ("attention", "V", 2 * s * b * h, ("v",), "K D wide"),
        ("attention", "output projection input", 2 * s * b * h, ("attn",), "heads merged"),
        ("attention", "attention dropout mask", s * b * h, (), "no dropout in this model"),
        ("mlp", "first linear input", 2 * s * b * h, ("n2",),
         "shared by the gate and up projections"),
        ("mlp", "GeLU input", 2 * s * b * f, ("gate", "up"),
         "SwiGLU keeps two f-wide inputs, gate and up, where GeLU keeps one"),
        ("mlp", "second linear input", 2 * s * b * f, ("act",), "silu(gate) up, f wide"),
        ("mlp", "MLP dropout mask", s * b * h, (), "no dropout in this model"),
        ("norms", "norm inputs", 4 * s * b * h, ("x", "h"),
         "the inputs of the two RMSNorms (the block input and the residual after attention)"),
        ("norms", "norm statistics", 0, ("rstd1", "rstd2"),
         "1/rms per token, kept here, not counted by the paper"),
    ]


def formula_vs_count(arch: Architecture | None = None, *, seq_len: int, micro_batch: int = 1,
                     dtype: type = np.float64) -> tuple[TermComparison, ...]:
    """Each of the paper's terms for one layer beside this model's counted arrays.

    The paper's bytes assume 2-byte activations and 1-byte dropout masks; the counted bytes
    are those of the live arrays (float64 by default). Every array of a block's tape appears
    in exactly one row. Units: scalars and bytes, per layer and micro-batch.
    """
    arch = get_model("course-tiny") if arch is None else arch
    tokens = sample_tokens(arch, batch_size=micro_batch, seq_len=seq_len)
    _, tape = checkpointing.forward(init_params(arch, dtype=dtype), tokens, mode="none")
    block = dict(tape.blocks[0].arrays())
    rows = []
    for group, term, paper, names, note in _paper_terms(
            seq_len, micro_batch, arch.hidden_size, arch.num_heads, arch.ffn_hidden_size):
        held = count_held(block[name] for name in names)
        rows.append(TermComparison(group, term, paper, names, held.scalars, held.nbytes, note))
    return tuple(rows)
