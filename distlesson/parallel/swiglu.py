"""The SwiGLU MLP of Llama 3 and DeepSeek-V3 (Shazeer 2020), forward and backward by hand.

The single-device reference that tensor parallelism (:mod:`distlesson.parallel.tensor`)
and expert parallelism (:mod:`distlesson.parallel.expert`) split and are checked against.
Shapes: activations (tokens, hidden_size), float64 numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from distlesson.checks import check_positive_int

__all__ = ["SwiGLUGrads", "SwiGLUWeights", "swiglu_mlp", "swiglu_mlp_backward"]


@dataclass(frozen=True, eq=False)
class SwiGLUWeights:
    """SwiGLU MLP weights: y = (silu(x W_gate) * (x W_up)) W_down, no biases (Llama 3)."""

    gate: np.ndarray
    """(hidden_size, ffn_hidden_size)."""
    up: np.ndarray
    """(hidden_size, ffn_hidden_size)."""
    down: np.ndarray
    """(ffn_hidden_size, hidden_size)."""

    def __post_init__(self) -> None:
        if (self.gate.ndim != 2 or self.up.shape != self.gate.shape
                or self.down.shape != self.gate.shape[::-1]):
            raise ValueError(f"gate {self.gate.shape}, up {self.up.shape}, down "
                             f"{self.down.shape}: allowed (h, f), (h, f), (f, h)")

    @property
    def ffn_hidden_size(self) -> int:
        return self.gate.shape[1]

    def shard(self, tp: int) -> tuple[SwiGLUWeights, ...]:
        """Rank r's weights: columns r of gate and up, rows r of down (f/tp each)."""
        check_positive_int("tp", tp)
        if self.ffn_hidden_size % tp:
            raise ValueError(f"tp={tp} must divide ffn_hidden_size={self.ffn_hidden_size}")
        return tuple(SwiGLUWeights(g, u, d) for g, u, d in zip(
            np.split(self.gate, tp, axis=1), np.split(self.up, tp, axis=1),
            np.split(self.down, tp, axis=0), strict=True))


@dataclass(frozen=True, eq=False)
class SwiGLUGrads:
    """Gradients of a SwiGLU MLP: of its input and of each weight (same shapes)."""

    x: np.ndarray
    weights: SwiGLUWeights


def swiglu_mlp(x: np.ndarray, weights: SwiGLUWeights) -> np.ndarray:
    """Single-device SwiGLU MLP: (silu(x W_gate) * (x W_up)) W_down; x (tokens, h)."""
    a = x @ weights.gate  # (N, f)
    silu = a * np.exp(-np.logaddexp(0.0, -a))  # (N, f): a sigmoid(a), without overflow
    return (silu * (x @ weights.up)) @ weights.down  # (N, h)


def swiglu_mlp_backward(x: np.ndarray, weights: SwiGLUWeights,
                        grad_output: np.ndarray) -> SwiGLUGrads:
    """Gradients of sum(grad_output * swiglu_mlp(x, weights)), by hand.

    With a = x W_gate, u = x W_up, s = silu(a) = a sigma(a), y = (s u) W_down:
    dW_down = (s u)^T dy; dh = dy W_down^T; du = dh s; da = dh u sigma(a)(1 + a(1 - sigma(a)));
    dW_gate = x^T da; dW_up = x^T du; dx = da W_gate^T + du W_up^T.
    """
    a, u = x @ weights.gate, x @ weights.up  # (N, f), (N, f)
    sig = np.exp(-np.logaddexp(0.0, -a))  # (N, f): sigmoid without overflow
    s = a * sig  # (N, f)
    dh = grad_output @ weights.down.T  # (N, f)
    du, da = dh * s, dh * u * sig * (1 + a * (1 - sig))  # (N, f), (N, f)
    grads = SwiGLUWeights(x.T @ da, x.T @ du, (s * u).T @ grad_output)
    return SwiGLUGrads(da @ weights.gate.T + du @ weights.up.T, grads)  # dx (N, h)
