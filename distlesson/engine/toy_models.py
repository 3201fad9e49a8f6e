"""The library's small models as torch modules, with the library's weights.

The checks build torch models from :mod:`distlesson.parallel.toy_mlp` and
:mod:`distlesson.parallel.swiglu`
weights, so that torch's result and the library's reference start from the same numbers.
``nn.Linear`` stores its weight as (out, in), the transpose of the library's (in, out).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from distlesson.parallel.swiglu import SwiGLUWeights
from distlesson.parallel.toy_mlp import MLPParams

from .config import SEED

__all__ = ["SwiGLU", "batch", "half_squared_error", "mlp_grads",
           "mlp_module", "mlp_params", "to_numpy", "torch_shapes"]


def batch(d_in: int, d_out: int, examples: int, dtype: type,
          step: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A fixed batch (x (examples, d_in), y (examples, d_out)) from a seeded generator;
    ``step`` picks another fixed batch (the second optimizer step's)."""
    rng = np.random.default_rng(SEED + step)
    return (rng.standard_normal((examples, d_in)).astype(dtype),
            rng.standard_normal((examples, d_out)).astype(dtype))


def _linear(w: np.ndarray, b: np.ndarray | None, dtype: torch.dtype) -> nn.Linear:
    layer = nn.Linear(w.shape[0], w.shape[1], bias=b is not None, dtype=dtype)
    with torch.no_grad():
        layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))  # (out, in)
        if b is not None:
            layer.bias.copy_(torch.from_numpy(b))
    return layer


def mlp_module(params: MLPParams, device: str) -> nn.Sequential:
    """The toy MLP x W1 + b1 -> tanh -> W2 + b2 as ``Linear, Tanh, Linear``, in the
    weights' dtype."""
    dtype = getattr(torch, params.dtype.name)
    return nn.Sequential(_linear(params.w1, params.b1, dtype), nn.Tanh(),
                         _linear(params.w2, params.b2, dtype)).to(device)


def to_numpy(tensor: torch.Tensor) -> np.ndarray:
    """A float64 numpy copy; a DTensor is gathered whole first."""
    if hasattr(tensor, "full_tensor"):
        tensor = tensor.full_tensor()
    return tensor.detach().to("cpu", torch.float64).numpy()


def mlp_params(module: nn.Sequential) -> MLPParams:
    """The weights of :func:`mlp_module` back in the library's layout, float64."""
    first, _, second = module
    return MLPParams(to_numpy(first.weight).T, to_numpy(first.bias),
                     to_numpy(second.weight).T, to_numpy(second.bias))


def mlp_grads(module: nn.Sequential) -> MLPParams:
    """The ``.grad`` of each weight of :func:`mlp_module`, in the library's layout."""
    first, _, second = module
    return MLPParams(to_numpy(first.weight.grad).T, to_numpy(first.bias.grad),
                     to_numpy(second.weight.grad).T, to_numpy(second.bias.grad))


def torch_shapes(params: MLPParams) -> tuple[tuple[int, ...], ...]:
    """The shapes torch stores, in ``module.parameters()`` order (weights transposed)."""
    return tuple(a.shape[::-1] for a in params.arrays())


def half_squared_error(output: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The toy MLP's loss, as :func:`distlesson.parallel.toy_mlp.backward` defines it: the mean over
    the examples of half the squared error, 1/(2B) sum (yhat - y)^2."""
    return 0.5 * ((output - target) ** 2).sum() / output.shape[0]


class SwiGLU(nn.Module):
    """(silu(x W_gate) * (x W_up)) W_down without biases
    (:func:`distlesson.parallel.swiglu.swiglu_mlp`)."""

    def __init__(self, weights: SwiGLUWeights, device: str) -> None:
        super().__init__()
        dtype = getattr(torch, weights.gate.dtype.name)
        self.gate = _linear(weights.gate, None, dtype).to(device)  # (f, h) in torch
        self.up = _linear(weights.up, None, dtype).to(device)  # (f, h)
        self.down = _linear(weights.down, None, dtype).to(device)  # (h, f)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(nn.functional.silu(self.gate(x)) * self.up(x))  # (N, h)
