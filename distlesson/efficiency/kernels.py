"""How long one GPU computes a transformer layer: matrix products by shape, attention, the rest.

Three kinds of kernel, each timed from its own shape (per micro-batch, on one GPU of a
layout with tensor parallelism t and context parallelism c; T = s b / c local tokens):

* **Matrix products** of the layer (q k v, output projection, the MLP's two or three
  matrices; forward once, backward twice: input and weight gradients). A product
  (M, N, K) takes max(2 M N K / (peak x eta x waves), bytes / HBM bandwidth): eta is the
  share of the peak that large, well-shaped products reach (the model's one calibrated
  input, :mod:`distlesson.efficiency.accuracy`), ``waves`` the share of the multiprocessors
  busy in the last wave of output tiles (NVIDIA, *Matrix Multiplication Background*, 2023,
  section 3.2). Small shards, from high tp or cp, lose here.
* **Attention**, ``flash`` (FlashAttention: no s x s matrix in memory): causal, so each
  query meets half the keys on average; forward 4 T (s/2) h / t FLOPs, backward 2.5 times
  the forward (Dao 2023, section 3.1: five matrix products against two, with the scores
  recomputed), at the kernel spec's attention efficiency. ``unfused`` (Megatron-LM before
  FlashAttention): the full s x s scores per head as batched products of head width, and
  the scores, softmax, dropout mask and output read and written in memory (11 bytes per
  score forward, twice that backward).
* **Memory-bound** operations (norms, residual adds, rotary embedding, the gated
  activation): the bytes they read and write, at the HBM bandwidth; unfused, an upper
  bound. With sequence parallelism (Korthikanti et al. 2022) the h-wide ones are split by
  t; without it (Megatron-LM before 2022, Megatron-DeepSpeed's BLOOM) every rank of the
  tensor-parallel group runs them on the whole activation.

The *model* FLOPs that MFU counts are :mod:`distlesson.efficiency.mfu`'s; this module only
says how long the hardware takes. Units: seconds.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from distlesson.catalog.achieved import get_kernel_spec
from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import Architecture

__all__ = ["LayerTimes", "gemm_time", "head_times", "layer_times", "wave_efficiency"]

_BF16 = 2


def wave_efficiency(rows: int, cols: int, gpu: str) -> float:
    """Share of the multiprocessor-waves that do work: tiles / (waves x multiprocessors)."""
    spec = get_kernel_spec(gpu)
    tm, tn = spec.tile
    tiles = math.ceil(rows / tm) * math.ceil(cols / tn)
    waves = math.ceil(tiles / spec.multiprocessors)
    return tiles / (waves * spec.multiprocessors)


def gemm_time(m: int, n: int, k: int, gpu: str, eta: float) -> float:
    """Seconds for one bf16 product (m, k) x (k, n): compute-bound or memory-bound."""
    spec = get_gpu(gpu)
    flops = 2 * m * n * k
    moved = _BF16 * (m * k + k * n + m * n)
    return max(flops / (spec.bf16_dense_flops * eta * wave_efficiency(m, n, gpu)),
               moved / spec.hbm_bandwidth)


@dataclass(frozen=True)
class LayerTimes:
    """Seconds one GPU spends on one layer for one micro-batch."""

    forward: float
    backward: float
    matmul_forward: float
    """Of ``forward``, the matrix products (what selective recomputation does not redo)."""
    attention_forward: float
    """Of ``forward``, the attention core (what selective recomputation redoes)."""
    weight_grads: float
    """Of ``backward``, the weight-gradient products (what TP communication can hide behind)."""


@functools.cache
def layer_times(arch: Architecture, *, seq_len: int, micro_batch: int, tp: int, cp: int,
                gpu: str, eta: float, attention: str = "flash",
                sequence_parallel: bool = True) -> LayerTimes:
    """A layer's forward and backward on one GPU (see the module docstring)."""
    h, f, kv = arch.hidden_size, arch.ffn_hidden_size, arch.num_kv_heads * arch.head_dim
    tokens = seq_len // cp * micro_batch
    mlp = ([(2 * f // tp, h), (h, f // tp)] if arch.mlp == "swiglu"
           else [(f // tp, h), (h, f // tp)])
    shapes = [((h + 2 * kv) // tp, h), (h, h // tp), *mlp]  # (out, in) per product
    forward = [gemm_time(tokens, n, k, gpu, eta) for n, k in shapes]
    # backward: input gradient (tokens, in) = (tokens, out) x (out, in); weight gradient
    # (out, in) = (out, tokens) x (tokens, in)
    dgrad = [gemm_time(tokens, k, n, gpu, eta) for n, k in shapes]
    wgrad = [gemm_time(n, k, tokens, gpu, eta) for n, k in shapes]
    attention, attention_backward = _attention_times(arch, tokens, seq_len, tp, gpu, eta,
                                                     attention)
    elementwise = (_elementwise_bytes(arch, tokens, tp, sequence_parallel)
                   / get_gpu(gpu).hbm_bandwidth)
    matmul_f = math.fsum(forward)
    return LayerTimes(
        forward=matmul_f + attention + elementwise,
        backward=math.fsum(dgrad) + math.fsum(wgrad) + attention_backward + 2 * elementwise,
        matmul_forward=matmul_f, attention_forward=attention, weight_grads=math.fsum(wgrad))


def _attention_times(arch: Architecture, tokens: int, seq_len: int, tp: int, gpu: str,
                     eta: float, kind: str) -> tuple[float, float]:
    """(forward, backward) seconds of the attention core (see the module docstring)."""
    spec = get_gpu(gpu)
    if kind == "flash":
        forward = 4 * tokens * (seq_len / 2) * (arch.hidden_size / tp) / (
            spec.bf16_dense_flops * get_kernel_spec(gpu).attention_efficiency)
        return forward, 2.5 * forward
    if kind != "unfused":
        raise ValueError(f"attention={kind!r} is not known; allowed: flash, unfused")
    heads, d = arch.num_heads // tp, arch.head_dim
    products = heads * (gemm_time(tokens, seq_len, d, gpu, eta)
                        + gemm_time(tokens, d, seq_len, gpu, eta))
    memory = 11 * heads * tokens * seq_len / spec.hbm_bandwidth
    return products + memory, 2 * (products + memory)


def _elementwise_bytes(arch: Architecture, tokens: int, tp: int,
                       sequence_parallel: bool = True) -> float:
    """Bytes the forward's memory-bound operations read and write, per GPU (bf16).

    Two norms (read h, write h), two residual adds (read 2h, write h), rotary embedding on
    q and k (read and write; none with learned positions), the MLP's activation (gated:
    read 2f, write f; else f, f). The norms and adds are split by tp only under sequence
    parallelism."""
    h, f, kv = arch.hidden_size, arch.ffn_hidden_size, arch.num_kv_heads * arch.head_dim
    per_token = (2 * 2 * h + 2 * 3 * h) / (tp if sequence_parallel else 1)
    if arch.max_positions is None:  # rotary embeddings (ALiBi's bias, BLOOM's, counted so)
        per_token += 2 * (h + kv) / tp
    per_token += (3 * f if arch.mlp == "swiglu" else 2 * f) / tp
    return _BF16 * tokens * per_token


@functools.cache
def head_times(arch: Architecture, *, seq_len: int, micro_batch: int, tp: int, cp: int,
               gpu: str, eta: float) -> tuple[float, float]:
    """(forward, backward) seconds of the output head and its loss on the last stage: the
    (tokens, h) x (h, V / t) product, and the fp32 softmax read and written once."""
    tokens = seq_len // cp * micro_batch
    vocab = arch.vocab_size // tp
    forward = gemm_time(tokens, vocab, arch.hidden_size, gpu, eta)
    backward = (gemm_time(tokens, arch.hidden_size, vocab, gpu, eta)
                + gemm_time(vocab, arch.hidden_size, tokens, gpu, eta))
    softmax = 3 * 4 * tokens * vocab / get_gpu(gpu).hbm_bandwidth
    return forward + softmax, backward + softmax
