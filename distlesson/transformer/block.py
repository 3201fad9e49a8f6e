"""One pre-norm transformer block (Llama style), its tape, and its backward.

Forward, with x the block's input (B, L, C)::

    n1 = rmsnorm(x) w1;  q, k, v = n1 Wq^T, n1 Wk^T, n1 Wv^T, split into heads
    qr, kr = rope(q), rope(k);  probs = causal softmax(qr kr^T / sqrt(D))
    attn = probs v, heads merged;  h = x + attn Wo^T
    n2 = rmsnorm(h) w2;  gate, up = n2 Wg^T, n2 Wu^T;  act = silu(gate) up
    out = h + act Wd^T

The tape keeps exactly the arrays the backward reads, and nothing else: the unrotated q
and k are not kept (RoPE's backward is the inverse rotation, which needs only the angles),
nor the raw scores (the softmax backward reads its output, probs), nor out (the next
block's x). The rotation angles and the causal mask depend on L alone and are rebuilt.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields

import numpy as np

from distlesson.transformer import ops
from distlesson.transformer.params import BlockParams

__all__ = ["BlockTape", "block_backward", "block_forward", "split_heads"]


@dataclass(frozen=True, eq=False)
class BlockTape:
    """What one block's forward keeps for its backward, by name, in forward order."""

    x: np.ndarray
    """Block input, (B, L, C); read by the first norm's backward."""
    rstd1: np.ndarray
    """1 / rms of x, (B, L, 1)."""
    n1: np.ndarray
    """Normed input, (B, L, C); the input of the q, k, v projections."""
    qr: np.ndarray
    """Rotated queries, (B, A, L, D)."""
    kr: np.ndarray
    """Rotated keys, (B, K, L, D)."""
    v: np.ndarray
    """Values, (B, K, L, D)."""
    probs: np.ndarray | None
    """Attention weights, (B, A, L, L): the quadratic term; None where selective
    checkpointing dropped them (recomputed from qr and kr before the backward)."""
    attn: np.ndarray
    """Attention output with heads merged, (B, L, C); the input of the o projection."""
    h: np.ndarray
    """Residual stream after attention, (B, L, C); read by the second norm's backward."""
    rstd2: np.ndarray
    """1 / rms of h, (B, L, 1)."""
    n2: np.ndarray
    """Normed h, (B, L, C); the input of the gate and up projections."""
    gate: np.ndarray
    """Gate pre-activation, (B, L, F)."""
    up: np.ndarray
    """Up projection, (B, L, F)."""
    act: np.ndarray
    """silu(gate) up, (B, L, F); the input of the down projection."""

    def arrays(self) -> Iterator[tuple[str, np.ndarray]]:
        """(name, array) for every array held, in forward order (a dropped probs is skipped)."""
        for field in fields(self):
            value = getattr(self, field.name)
            if value is not None:
                yield field.name, value


def split_heads(x: np.ndarray, num_heads: int) -> np.ndarray:
    """(B, L, H D) -> (B, H, L, D), a view."""
    b, length, width = x.shape
    return x.reshape(b, length, num_heads, width // num_heads).transpose(0, 2, 1, 3)


def _merge_heads(x: np.ndarray) -> np.ndarray:
    """(B, H, L, D) -> (B, L, H D), a copy."""
    b, heads, length, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, length, heads * d)


def block_forward(p: BlockParams, x: np.ndarray, num_heads: int,
                  ) -> tuple[np.ndarray, BlockTape]:
    """(out, tape) of one block on x (B, L, C); ``num_heads`` A query heads."""
    head_dim = x.shape[-1] // num_heads
    num_kv = p.k.shape[0] // head_dim
    cos, sin = ops.rope_angles(x.shape[1], head_dim, dtype=x.dtype)  # (L, D/2) each
    n1, rstd1 = ops.rms_norm(x, p.input_norm)  # (B, L, C), (B, L, 1)
    qr = ops.rope(split_heads(ops.linear(n1, p.q), num_heads), cos, sin)  # (B, A, L, D)
    kr = ops.rope(split_heads(ops.linear(n1, p.k), num_kv), cos, sin)  # (B, K, L, D)
    v = split_heads(ops.linear(n1, p.v), num_kv)  # (B, K, L, D)
    probs = ops.attention_probs(qr, kr)  # (B, A, L, L)
    attn = _merge_heads(ops.attention_values(probs, v))  # (B, L, C)
    h = x + ops.linear(attn, p.o)  # (B, L, C)
    n2, rstd2 = ops.rms_norm(h, p.post_norm)  # (B, L, C), (B, L, 1)
    gate, up = ops.linear(n2, p.gate), ops.linear(n2, p.up)  # (B, L, F) each
    act = ops.swiglu(gate, up)  # (B, L, F)
    out = h + ops.linear(act, p.down)  # (B, L, C)
    return out, BlockTape(x, rstd1, n1, qr, kr, v, probs, attn, h, rstd2, n2, gate, up, act)


def block_backward(p: BlockParams, tape: BlockTape, dout: np.ndarray,
                   ) -> tuple[np.ndarray, BlockParams]:
    """(dx, weight gradients) of :func:`block_forward`, from its tape and dL/dout (B, L, C)."""
    if tape.probs is None:
        raise ValueError("tape.probs is None: recompute the attention weights first "
                         "(selective checkpointing); allowed: a full BlockTape")
    num_heads, head_dim = tape.qr.shape[1], tape.qr.shape[-1]
    cos, sin = ops.rope_angles(tape.x.shape[1], head_dim, dtype=tape.x.dtype)  # (L, D/2)
    # MLP, last op first
    dact, d_down = ops.linear_backward(dout, tape.act, p.down)  # (B, L, F), (C, F)
    dgate, dup = ops.swiglu_backward(dact, tape.gate, tape.up)  # (B, L, F) each
    dn2_gate, d_gate = ops.linear_backward(dgate, tape.n2, p.gate)  # (B, L, C), (F, C)
    dn2_up, d_up = ops.linear_backward(dup, tape.n2, p.up)  # (B, L, C), (F, C)
    dh_norm, d_post = ops.rms_norm_backward(dn2_gate + dn2_up, tape.h, tape.rstd2, p.post_norm)
    dh = dout + dh_norm  # (B, L, C): the residual adds
    # attention
    dattn, d_o = ops.linear_backward(dh, tape.attn, p.o)  # (B, L, C), (C, C)
    dqr, dkr, dv = ops.attention_backward(split_heads(dattn, num_heads), tape.qr, tape.kr,
                                          tape.v, tape.probs)  # (B, A|K, L, D)
    dq = _merge_heads(ops.rope_backward(dqr, cos, sin))  # (B, L, C)
    dk = _merge_heads(ops.rope_backward(dkr, cos, sin))  # (B, L, K D)
    dn1_q, d_q = ops.linear_backward(dq, tape.n1, p.q)  # (B, L, C), (C, C)
    dn1_k, d_k = ops.linear_backward(dk, tape.n1, p.k)  # (B, L, C), (K D, C)
    dn1_v, d_v = ops.linear_backward(_merge_heads(dv), tape.n1, p.v)  # (B, L, C), (K D, C)
    dx_norm, d_input = ops.rms_norm_backward(dn1_q + dn1_k + dn1_v, tape.x, tape.rstd1,
                                             p.input_norm)  # (B, L, C), (C,)
    grads = BlockParams(d_input, d_q, d_k, d_v, d_o, d_post, d_gate, d_up, d_down)
    return dh + dx_norm, grads  # (B, L, C)
