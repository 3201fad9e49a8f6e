"""The operations of the course's decoder, each forward written next to its backward.

Every backward takes the gradient of the loss with respect to the forward's output and
returns the gradients with respect to its inputs (and weights), reading only what the
forward returned for it to keep. The ops are dtype-generic: float64 arrays in, float64
out; float32 in, float32 out (Python-float constants do not promote, NEP 50).

Shape letters: B batch, L sequence length, C hidden_size, A query heads, K key/value heads,
D head_dim = C / A, F ffn_hidden_size, V vocab_size, N any number of rows.
Matrices are stored as checkpoints store them, (out, in), so a linear layer is x W^T.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "IGNORE",
    "RMS_EPS",
    "ROPE_BASE",
    "attention_backward",
    "attention_probs",
    "attention_values",
    "cross_entropy",
    "cross_entropy_backward",
    "embedding",
    "embedding_backward",
    "linear",
    "linear_backward",
    "rms_norm",
    "rms_norm_backward",
    "rope",
    "rope_angles",
    "rope_backward",
    "swiglu",
    "swiglu_backward",
]

RMS_EPS = 1e-5
"""Added to the mean square in RMSNorm (Llama 3's ``rms_norm_eps``, config.json)."""
ROPE_BASE = 10000.0
"""Base of RoPE's frequencies theta_i = base^(-2i/D) (Su et al. 2021, section 3.4.2)."""
IGNORE = -1
"""A target equal to this is not scored (the last position, which has no next token)."""


# --- token embedding: a row lookup; its tied twin, the output head, is a linear layer ---

def embedding(table: np.ndarray, tokens: np.ndarray) -> np.ndarray:
    """Rows of ``table`` (V, C) picked by integer ``tokens`` (B, L): x[b, l] = table[t[b, l]]."""
    return table[tokens]  # (B, L, C)


def embedding_backward(dx: np.ndarray, tokens: np.ndarray, vocab_size: int) -> np.ndarray:
    """d table: each token's row receives the sum of the gradients at its positions."""
    dtable = np.zeros((vocab_size, dx.shape[-1]), dtype=dx.dtype)  # (V, C)
    np.add.at(dtable, tokens.reshape(-1), dx.reshape(-1, dx.shape[-1]))  # scatter-add
    return dtable


def linear(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """y = x W^T, no bias; ``weight`` (out, in) as in a checkpoint."""
    return x @ weight.T  # (..., out)


def linear_backward(dy: np.ndarray, x: np.ndarray, weight: np.ndarray,
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(dx, dW) of y = x W^T: dx = dy W, dW = dy^T x summed over every leading axis."""
    dx = dy @ weight  # (..., in)
    dw = dy.reshape(-1, dy.shape[-1]).T @ x.reshape(-1, x.shape[-1])  # (out, in)
    return dx, dw


# --- RMSNorm (Zhang & Sennrich 2019): y = x / rms(x) * w, rms = sqrt(mean(x^2) + eps) ---

def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float = RMS_EPS,
             ) -> tuple[np.ndarray, np.ndarray]:
    """(y, rstd): y = x rstd w with rstd = 1 / sqrt(mean over C of x^2 + eps), (..., 1)."""
    rstd = 1.0 / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)  # (..., 1)
    return x * rstd * weight, rstd  # (..., C), (..., 1)


def rms_norm_backward(dy: np.ndarray, x: np.ndarray, rstd: np.ndarray, weight: np.ndarray,
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(dx, dw) of :func:`rms_norm`, from its input x and the kept rstd.

    With xhat = x rstd and g = dy w: dw = sum over rows of dy xhat;
    dx = rstd (g - xhat mean_C(g xhat)) (the mean square's own derivative is the second term).
    """
    xhat = x * rstd  # (..., C)
    g = dy * weight  # (..., C)
    dw = np.sum((dy * xhat).reshape(-1, x.shape[-1]), axis=0)  # (C,)
    dx = rstd * (g - xhat * np.mean(g * xhat, axis=-1, keepdims=True))  # (..., C)
    return dx, dw


# --- RoPE (Su et al. 2021), rotate-half pairing of Llama's Hugging Face code: dimension i is
# paired with i + D/2 and the pair is turned by the angle l theta_i at position l ---

def rope_angles(seq_len: int, head_dim: int, *, base: float = ROPE_BASE,
                dtype: type = np.float64) -> tuple[np.ndarray, np.ndarray]:
    """(cos, sin) of the angles l theta_i, each (L, D/2); a function of L alone, never saved."""
    if head_dim % 2:
        raise ValueError(f"head_dim={head_dim} must be even for RoPE's pairs")
    theta = base ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)  # (D/2,)
    angles = np.arange(seq_len, dtype=np.float64)[:, None] * theta  # (L, D/2)
    return np.cos(angles).astype(dtype), np.sin(angles).astype(dtype)


def rope(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Rotate each pair (x1, x2) of x (B, H, L, D): (x1 cos - x2 sin, x1 sin + x2 cos)."""
    x1, x2 = np.split(x, 2, axis=-1)  # (B, H, L, D/2) each
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)  # (B, H, L, D)


def rope_backward(dy: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """dx of :func:`rope`: a rotation's transpose is its inverse, the turn by -l theta_i.

    It needs only the angles, so the forward keeps the rotated q and k, not the unrotated.
    """
    return rope(dy, cos, -sin)  # (B, H, L, D)


# --- causal attention: probs = softmax(q k^T / sqrt(D) + mask), out = probs v ---

def _repeat_kv(x: np.ndarray, num_heads: int) -> np.ndarray:
    """Grouped-query attention: key/value head j serves query heads j g .. j g + g - 1."""
    return np.repeat(x, num_heads // x.shape[1], axis=1)  # (B, A, L, D)


def _sum_groups(dx: np.ndarray, num_kv_heads: int) -> np.ndarray:
    """Transpose of :func:`_repeat_kv`: add the gradients of the query heads of a group."""
    b, a, length, d = dx.shape
    return dx.reshape(b, num_kv_heads, a // num_kv_heads, length, d).sum(axis=2)  # (B, K, L, D)


def attention_probs(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Causal softmax of q k^T / sqrt(D): q (B, A, L, D), k (B, K, L, D) -> (B, A, L, L).

    Position l attends to positions 0..l; the others get probability exactly 0. The row
    maximum is subtracted before exp (the diagonal is never masked, so it is finite).
    """
    length, d = q.shape[-2], q.shape[-1]
    scores = q @ _repeat_kv(k, q.shape[1]).swapaxes(-1, -2) / math.sqrt(d)  # (B, A, L, L)
    future = np.triu(np.ones((length, length), dtype=bool), k=1)  # (L, L): key after query
    scores = np.where(future, -np.inf, scores)  # (B, A, L, L)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))  # (B, A, L, L)
    return e / e.sum(axis=-1, keepdims=True)  # (B, A, L, L)


def attention_values(probs: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The weighted sum of the values: probs (B, A, L, L) @ v (B, K, L, D) -> (B, A, L, D)."""
    return probs @ _repeat_kv(v, probs.shape[1])  # (B, A, L, D)


def attention_backward(dout: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                       probs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dq, dk, dv) of :func:`attention_values` after :func:`attention_probs`.

    dv = probs^T dout; dprobs = dout v^T; through the softmax,
    dscores = probs (dprobs - sum_row(dprobs probs)) (masked entries have probs 0, so 0);
    dq = dscores k / sqrt(D); dk = dscores^T q / sqrt(D). Grouped heads add up (K < A).
    """
    a, num_kv, d = q.shape[1], k.shape[1], q.shape[-1]
    kk, vv = _repeat_kv(k, a), _repeat_kv(v, a)  # (B, A, L, D) each
    dv = probs.swapaxes(-1, -2) @ dout  # (B, A, L, D)
    dprobs = dout @ vv.swapaxes(-1, -2)  # (B, A, L, L)
    dscores = probs * (dprobs - np.sum(dprobs * probs, axis=-1, keepdims=True))  # (B, A, L, L)
    dscores = dscores / math.sqrt(d)  # (B, A, L, L)
    dq = dscores @ kk  # (B, A, L, D)
    dk = dscores.swapaxes(-1, -2) @ q  # (B, A, L, D)
    return dq, _sum_groups(dk, num_kv), _sum_groups(dv, num_kv)


# --- SwiGLU (Shazeer 2020), the elementwise part: act = silu(gate) up ---

def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -x))  # sigma(x) without overflow, as in swiglu.py


def swiglu(gate: np.ndarray, up: np.ndarray) -> np.ndarray:
    """act = silu(gate) up = gate sigma(gate) up, elementwise, (..., F)."""
    return gate * _sigmoid(gate) * up  # (..., F)


def swiglu_backward(dact: np.ndarray, gate: np.ndarray, up: np.ndarray,
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(dgate, dup) of :func:`swiglu`: silu'(a) = sigma(a) (1 + a (1 - sigma(a)))."""
    sig = _sigmoid(gate)  # (..., F)
    dgate = dact * up * sig * (1 + gate * (1 - sig))  # (..., F)
    return dgate, dact * gate * sig  # (..., F), (..., F)


# --- softmax cross-entropy over the vocabulary, mean over the scored positions ---

def _scored(targets: np.ndarray) -> tuple[np.ndarray, int]:
    mask = targets != IGNORE  # (B, L)
    count = int(mask.sum())
    if count == 0:
        raise ValueError(f"every target is IGNORE={IGNORE}; at least one must be scored")
    return mask, count


def cross_entropy(logits: np.ndarray, targets: np.ndarray) -> tuple[float, np.ndarray]:
    """(loss, probs): loss = mean over scored positions of -log softmax(logits)[target].

    logits (B, L, V); targets (B, L) ints in [0, V) or IGNORE. probs (B, L, V) is what the
    backward needs. Units: nats.
    """
    mask, count = _scored(targets)
    shifted = logits - logits.max(axis=-1, keepdims=True)  # (B, L, V)
    log_z = np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))  # (B, L, 1)
    safe = np.where(mask, targets, 0)  # (B, L): any index for an ignored position
    picked = np.take_along_axis(shifted - log_z, safe[..., None], axis=-1)[..., 0]  # (B, L)
    loss = -float(np.sum(picked * mask)) / count
    return loss, np.exp(shifted - log_z)  # (B, L, V)


def cross_entropy_backward(probs: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """dlogits = (probs - onehot(target)) / count at scored positions, 0 elsewhere."""
    mask, count = _scored(targets)
    onehot = np.zeros_like(probs)  # (B, L, V)
    np.put_along_axis(onehot, np.where(mask, targets, 0)[..., None], 1.0, axis=-1)
    return (probs - onehot) * mask[..., None] / count  # (B, L, V)
