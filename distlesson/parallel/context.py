"""Context parallelism by ring attention: queries stay, keys and values travel round a ring.

The sequence is cut into blocks, one set per rank of the context-parallel group (cp ranks).
Each rank keeps its query rows for the whole computation; the key/value blocks are passed
to the next rank cp - 1 times, so that every rank sees every block once. Each arriving
block updates a running maximum, a running sum and an output accumulator: the online
softmax (Milakov & Gimelshein 2018; the same update FlashAttention uses), which makes the
blockwise result equal full attention up to float round-off, whatever the order of blocks.
Source: Liu et al. 2023, "Ring Attention with Blockwise Transformers for Near-Infinite
Context", section 3.

Causal masking makes the plain split unfair: a block of keys that lies entirely in the
future of a query block is skipped, so rank r computes r + 1 blocks and the last rank does
cp times the work of the first. The zig-zag split (Llama Team, AI @ Meta 2024, "The
Llama 3 Herd of Models", section 3.3.2; Megatron-LM context parallelism) gives rank i
chunks i and 2cp - 1 - i of 2cp equal chunks, and every rank then does the same work.
Only the forward pass is simulated.

Shapes: q is (num_heads, seq_len, head_dim); k and v are (num_kv_heads, seq_len, head_dim)
with num_kv_heads dividing num_heads (grouped-query attention: query head h reads kv head
h // (num_heads / num_kv_heads)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from distlesson.checks import check_positive_int

__all__ = [
    "LAYOUTS",
    "RingAttentionResult",
    "causal_attention",
    "causal_work_per_rank",
    "ring_attention",
    "ring_attention_bytes",
    "sequence_chunks",
]

LAYOUTS: tuple[str, ...] = ("contiguous", "zigzag")
"""How the sequence is split over the cp ranks (see :func:`sequence_chunks`)."""


def _check_qkv(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> None:
    """ValueError unless q, k, v have the shapes of (grouped-query) attention."""
    if q.ndim != 3 or k.shape != v.shape or k.ndim != 3:
        raise ValueError(f"q {q.shape}, k {k.shape}, v {v.shape}: allowed q (num_heads, "
                         "seq_len, head_dim) and k, v both (num_kv_heads, seq_len, head_dim)")
    if k.shape[1:] != q.shape[1:]:
        raise ValueError(f"k and v (seq_len, head_dim)={k.shape[1:]} must equal q's "
                         f"{q.shape[1:]}")
    if q.shape[0] % k.shape[0] != 0:
        raise ValueError(f"num_kv_heads={k.shape[0]} must divide num_heads={q.shape[0]}")


def _expand_kv(kv: np.ndarray, num_heads: int) -> np.ndarray:
    """Repeat each kv head for its group of query heads (grouped-query attention)."""
    return np.repeat(kv, num_heads // kv.shape[0], axis=0)  # (num_heads, n, head_dim)


def causal_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Single-device causal attention, the reference: softmax(q k^T / sqrt(d) + M) v.

    M is 0 where the key position is at or before the query position, -inf after it.
    Shapes: q (num_heads, seq_len, head_dim), k and v (num_kv_heads, seq_len, head_dim);
    returns (num_heads, seq_len, head_dim).
    """
    _check_qkv(q, k, v)
    num_heads, seq_len, head_dim = q.shape
    k, v = _expand_kv(k, num_heads), _expand_kv(v, num_heads)  # (H, S, D)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(head_dim)  # (H, S, S)
    future = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)  # (S, S)
    scores = np.where(future, -np.inf, scores)  # (H, S, S)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))  # (H, S, S)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v  # (H, S, D)


def sequence_chunks(seq_len: int, cp: int, layout: str = "contiguous") -> tuple[
        tuple[range, ...], ...]:
    """Per rank, the ranges of sequence positions it holds (queries, and its K/V block).

    ``contiguous``: rank r holds positions [r s/cp, (r + 1) s/cp); cp must divide seq_len.
    ``zigzag``: the sequence is cut into 2cp chunks of s/(2cp) and rank r holds chunks r
    and 2cp - 1 - r (Llama Team 2024, section 3.3.2); 2cp must divide seq_len.
    Uneven splits are refused rather than padded: real implementations pad the sequence.
    """
    check_positive_int("seq_len", seq_len)
    check_positive_int("cp", cp)
    if layout == "contiguous":
        if seq_len % cp:
            raise ValueError(f"cp={cp} must divide seq_len={seq_len}")
        block = seq_len // cp
        return tuple((range(r * block, (r + 1) * block),) for r in range(cp))
    if layout == "zigzag":
        if seq_len % (2 * cp):
            raise ValueError(f"2 x cp={2 * cp} must divide seq_len={seq_len} "
                             "(the zig-zag layout cuts 2 x cp equal chunks)")
        c = seq_len // (2 * cp)
        return tuple((range(r * c, (r + 1) * c), range((2 * cp - 1 - r) * c, (2 * cp - r) * c))
                     for r in range(cp))
    raise ValueError(f"layout={layout!r}; allowed: {', '.join(LAYOUTS)}")


@dataclass(frozen=True, eq=False)
class RingAttentionResult:
    """What a simulated ring-attention forward leaves on each rank, and what it cost."""

    output: np.ndarray
    """The ranks' outputs put back in sequence order: (num_heads, seq_len, head_dim)."""
    rank_outputs: tuple[np.ndarray, ...]
    """Per rank, the output rows of its own queries: (num_heads, seq_len / cp, head_dim)."""
    sent_bytes: tuple[int, ...]
    """Per rank, bytes of K and V blocks it sent (``nbytes`` of the simulated arrays)."""
    received_bytes: tuple[int, ...]
    """Per rank, bytes of K and V blocks it received."""
    score_entries: tuple[int, ...]
    """Per rank, query-key scores computed: the sum of rows x columns of every block pair
    not skipped (a diagonal block is computed whole and masked, as in FlashAttention)."""
    steps: int
    """Ring passes: cp - 1."""


def _online_update(
    state: tuple[np.ndarray, np.ndarray, np.ndarray], scores: np.ndarray, v: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge one block into (running max m, running sum z, accumulator acc).

    m' = max(m, rowmax(S)); P = exp(S - m'); z' = z e^(m - m') + rowsum(P);
    acc' = acc e^(m - m') + P v. Masked scores are -inf, so their P is 0.
    """
    m, z, acc = state  # (H, nq), (H, nq), (H, nq, D)
    m_new = np.maximum(m, scores.max(axis=-1))  # (H, nq)
    p = np.exp(scores - m_new[..., None])  # (H, nq, nk)
    correction = np.exp(m - m_new)  # (H, nq); 0 while m is still -inf
    return m_new, z * correction + p.sum(axis=-1), acc * correction[..., None] + p @ v


def _attend(
    state: tuple[np.ndarray, np.ndarray, np.ndarray],
    q: np.ndarray, q_chunks: tuple[range, ...],
    k: np.ndarray, v: np.ndarray, kv_chunks: tuple[range, ...],
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], int]:
    """Update a rank's state with one K/V block, chunk pair by chunk pair; (state, work).

    Chunks are disjoint ranges of positions, so a pair is either wholly in the past (no
    mask), the same chunk (causal mask inside), or wholly in the future (skipped).
    """
    m, z, acc = (a.copy() for a in state)
    scale, work, q_start = 1 / math.sqrt(q.shape[-1]), 0, 0
    for qc in q_chunks:
        rows = slice(q_start, q_start + len(qc))
        q_start += len(qc)
        k_start = 0
        for kc in kv_chunks:
            cols = slice(k_start, k_start + len(kc))
            k_start += len(kc)
            if kc.start > qc.stop - 1:
                continue  # every key is in the future of every query: skip the pair
            scores = q[:, rows] @ k[:, cols].transpose(0, 2, 1) * scale  # (H, nq, nk)
            future = np.arange(kc.start, kc.stop)[None, :] > np.arange(qc.start, qc.stop)[:, None]
            scores = np.where(future, -np.inf, scores)  # (H, nq, nk)
            m[:, rows], z[:, rows], acc[:, rows] = _online_update(
                (m[:, rows], z[:, rows], acc[:, rows]), scores, v[:, cols])
            work += len(qc) * len(kc)
    return (m, z, acc), work


def ring_attention(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, cp: int, *, layout: str = "contiguous"
) -> RingAttentionResult:
    """Causal attention over cp simulated ranks by passing K/V blocks round a ring.

    Step t = 0 .. cp - 1: rank r attends its queries to the K/V block it holds (block
    (r - t) mod cp of the layout), then, if t < cp - 1, sends that block to rank r + 1 and
    receives one from rank r - 1. Equals :func:`causal_attention` to round-off.
    Shapes: as :func:`causal_attention`; ``layout`` is one of :data:`LAYOUTS`.
    """
    _check_qkv(q, k, v)
    num_heads, seq_len, head_dim = q.shape
    chunks = sequence_chunks(seq_len, cp, layout)
    positions = [np.concatenate([np.arange(c.start, c.stop) for c in rank]) for rank in chunks]
    queries = [q[:, pos] for pos in positions]  # cp x (H, S/cp, D)
    held = [(k[:, pos], v[:, pos], owner) for owner, pos in enumerate(positions)]
    states = [(np.full((num_heads, len(pos)), -np.inf), np.zeros((num_heads, len(pos))),
               np.zeros((num_heads, len(pos), head_dim))) for pos in positions]
    sent, received, work = [0] * cp, [0] * cp, [0] * cp
    for step in range(cp):
        for r in range(cp):
            k_blk, v_blk, owner = held[r]
            states[r], done = _attend(states[r], queries[r], chunks[r],
                                      _expand_kv(k_blk, num_heads), _expand_kv(v_blk, num_heads),
                                      chunks[owner])
            work[r] += done
        if step < cp - 1:  # ring pass: rank r sends what it holds to rank r + 1
            for r in range(cp):
                k_blk, v_blk, _ = held[r]
                sent[r] += k_blk.nbytes + v_blk.nbytes
                received[(r + 1) % cp] += k_blk.nbytes + v_blk.nbytes
            held = [held[(r - 1) % cp] for r in range(cp)]
    rank_outputs = tuple(acc / z[..., None] for _, z, acc in states)  # cp x (H, S/cp, D)
    output = np.empty_like(q, dtype=rank_outputs[0].dtype)  # (H, S, D)
    for pos, out in zip(positions, rank_outputs, strict=True):
        output[:, pos] = out
    return RingAttentionResult(output, rank_outputs, tuple(sent), tuple(received), tuple(work),
                               steps=cp - 1)


def ring_attention_bytes(seq_len: int, num_kv_heads: int, head_dim: int, cp: int,
                         bytes_per_value: int = 2) -> Fraction:
    """Bytes each rank sends in one layer's ring-attention forward, for one sequence.

    Equation: 2 (K and V) x (cp - 1) passes x (seq_len / cp) positions x num_kv_heads x
    head_dim x bytes_per_value. Source: Liu et al. 2023, section 3 (each host sends its
    K/V block to the next host while computing on the current one). Llama 3 all-gathers
    K and V instead (Llama Team 2024, section 3.3.2): the same (cp - 1)/cp of the
    sequence's K and V per rank. Assumptions: one sequence (multiply by the micro-batch),
    no overlap savings counted, forward only; bf16 is bytes_per_value = 2.
    Units: bytes, a Fraction (whole whenever cp divides seq_len).
    """
    for name, value in (("seq_len", seq_len), ("num_kv_heads", num_kv_heads),
                        ("head_dim", head_dim), ("cp", cp), ("bytes_per_value", bytes_per_value)):
        check_positive_int(name, value)
    return 2 * (cp - 1) * Fraction(seq_len, cp) * num_kv_heads * head_dim * bytes_per_value


def causal_work_per_rank(seq_len: int, cp: int, layout: str = "contiguous") -> tuple[int, ...]:
    """Per rank, the query-key scores a causal ring attention computes (blocks skipped).

    Equations: contiguous, rank r computes r + 1 blocks of (s/cp)^2, so the busiest rank
    does cp times the least busy one and 2cp/(cp + 1) times the mean; zig-zag, every
    rank computes 2cp + 1 chunk pairs of (s/(2cp))^2 (chunk r meets chunks 0..r; chunk
    2cp - 1 - r meets the cp low chunks and cp - r high ones). Source: Llama Team 2024,
    section 3.3.2, for the zig-zag split. Units: query-key pairs per head (each costs
    head_dim multiply-adds in q k^T and as many in P v).
    """
    chunks = sequence_chunks(seq_len, cp, layout)  # validates
    if layout == "contiguous":
        return tuple((r + 1) * (seq_len // cp) ** 2 for r in range(len(chunks)))
    return tuple((2 * cp + 1) * (seq_len // (2 * cp)) ** 2 for _ in chunks)
