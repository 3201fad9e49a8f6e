"""The single-device reference: a two-layer MLP, its hand-written backward, and AdamW.

Every parallel simulation (data parallel, ZeRO-1/2/3) must reproduce what this module
computes on one device. The model is small on purpose: the point is exactness, not scale.

Model (B examples, d_in -> d_hidden -> d_out)::

    z = x W1 + b1,  h = tanh(z),  yhat = h W2 + b2
    loss = 1/(2B) sum_b sum_o (yhat - y)^2      (mean over the batch of half the squared error)

The loss is a mean over examples, so the full-batch gradient is the mean of per-example
gradients; data parallelism relies on exactly that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

import numpy as np

__all__ = [
    "AdamW",
    "AdamWState",
    "MLPCache",
    "MLPParams",
    "adamw_step",
    "backward",
    "flatten",
    "forward",
    "init_mlp",
    "loss_and_grads",
    "train_single_device",
    "unflatten",
]


@dataclass(frozen=True)
class MLPParams:
    """The weights of the MLP (or their gradients, which have the same shapes)."""

    w1: np.ndarray
    """First layer's weights, (d_in, d_hidden)."""
    b1: np.ndarray
    """First layer's bias, (d_hidden,)."""
    w2: np.ndarray
    """Second layer's weights, (d_hidden, d_out)."""
    b2: np.ndarray
    """Second layer's bias, (d_out,)."""

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The tensors in a fixed order: w1, b1, w2, b2 (the order of the flat vector)."""
        return tuple(getattr(self, f.name) for f in fields(self))

    @property
    def num_params(self) -> int:
        """Number of scalar parameters."""
        return sum(a.size for a in self.arrays())

    @property
    def dtype(self) -> np.dtype:
        """The common dtype of the tensors."""
        return self.w1.dtype

    def map(self, fn: Callable[..., np.ndarray], *others: MLPParams) -> MLPParams:
        """A new MLPParams with ``fn`` applied tensor by tensor to self and ``others``."""
        return MLPParams(*(fn(*group) for group in zip(
            self.arrays(), *(o.arrays() for o in others), strict=True)))


def init_mlp(d_in: int, d_hidden: int, d_out: int, *, seed: int = 0,
             dtype: type = np.float64) -> MLPParams:
    """Random weights with scale 1/sqrt(fan_in) (LeCun initialisation) and small biases."""
    for name, value in (("d_in", d_in), ("d_hidden", d_hidden), ("d_out", d_out)):
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}={value!r} must be a positive integer")
    rng = np.random.default_rng(seed)
    return MLPParams(
        w1=(rng.standard_normal((d_in, d_hidden)) / np.sqrt(d_in)).astype(dtype),
        b1=(0.1 * rng.standard_normal(d_hidden)).astype(dtype),
        w2=(rng.standard_normal((d_hidden, d_out)) / np.sqrt(d_hidden)).astype(dtype),
        b2=(0.1 * rng.standard_normal(d_out)).astype(dtype),
    )


def flatten(params: MLPParams) -> np.ndarray:
    """All tensors concatenated into one vector (like FSDP's FlatParameter), (P,)."""
    return np.concatenate([a.ravel() for a in params.arrays()])  # (P,)


def unflatten(flat: np.ndarray, like: MLPParams) -> MLPParams:
    """The inverse of :func:`flatten`: cut ``flat`` (P,) into tensors shaped like ``like``."""
    if flat.shape != (like.num_params,):
        raise ValueError(f"flat vector of shape {flat.shape} does not fit a model of "
                         f"{like.num_params} parameters; allowed: ({like.num_params},)")
    pieces, start = [], 0
    for a in like.arrays():
        pieces.append(flat[start:start + a.size].reshape(a.shape).copy())
        start += a.size
    return MLPParams(*pieces)


@dataclass(frozen=True)
class MLPCache:
    """What the forward pass keeps for the backward pass: activations, never weights."""

    x: np.ndarray
    """Input, (B, d_in)."""
    h: np.ndarray
    """Hidden activation tanh(z), (B, d_hidden)."""
    yhat: np.ndarray
    """Output, (B, d_out)."""


def forward(params: MLPParams, x: np.ndarray) -> MLPCache:
    """The forward pass; ``x`` is cast to the weights' dtype."""
    x = np.asarray(x, dtype=params.dtype)  # (B, d_in)
    z = x @ params.w1 + params.b1  # (B, d_hidden)
    h = np.tanh(z)  # (B, d_hidden)
    yhat = h @ params.w2 + params.b2  # (B, d_out)
    return MLPCache(x=x, h=h, yhat=yhat)


def backward(params: MLPParams, cache: MLPCache, y: np.ndarray) -> tuple[float, MLPParams]:
    """The loss and its gradient with respect to every weight, from a forward's cache.

    ``params`` only needs the weights that the backward reads (W2, for dL/dh); ZeRO-3 passes
    a copy gathered again for the backward.
    """
    y = np.asarray(y, dtype=params.dtype)  # (B, d_out)
    batch = cache.x.shape[0]
    diff = cache.yhat - y  # (B, d_out)
    loss = float(0.5 * np.sum(diff * diff) / batch)
    dyhat = diff / batch  # (B, d_out)      dL/dyhat
    dw2 = cache.h.T @ dyhat  # (d_hidden, d_out)
    db2 = dyhat.sum(axis=0)  # (d_out,)
    dh = dyhat @ params.w2.T  # (B, d_hidden)
    dz = dh * (1 - cache.h * cache.h)  # (B, d_hidden)   tanh' = 1 - tanh^2
    dw1 = cache.x.T @ dz  # (d_in, d_hidden)
    db1 = dz.sum(axis=0)  # (d_hidden,)
    return loss, MLPParams(w1=dw1, b1=db1, w2=dw2, b2=db2)


def loss_and_grads(params: MLPParams, x: np.ndarray, y: np.ndarray) -> tuple[float, MLPParams]:
    """Forward then backward on one batch: (mean loss, mean gradient)."""
    if x.shape[0] != y.shape[0] or x.shape[0] == 0:
        raise ValueError(f"x has {x.shape[0]} examples and y has {y.shape[0]}; "
                         "they must be equal and at least 1")
    return backward(params, forward(params, x), y)


@dataclass(frozen=True)
class AdamW:
    """AdamW hyperparameters (Loshchilov & Hutter 2019, Algorithm 2; torch.optim.AdamW)."""

    lr: float = 1e-2
    """Learning rate; large for a toy so that a few steps move the weights visibly."""
    beta1: float = 0.9
    """Decay of the first moment (the paper's and PyTorch's default)."""
    beta2: float = 0.999
    """Decay of the second moment (the paper's and PyTorch's default)."""
    eps: float = 1e-8
    """Added to sqrt(v hat) against division by zero (PyTorch's default)."""
    weight_decay: float = 1e-2
    """Decoupled weight decay, applied to the weights, not the gradient (PyTorch's default)."""

    def __post_init__(self) -> None:
        if not self.lr > 0:
            raise ValueError(f"lr={self.lr!r} must be > 0")
        for name in ("beta1", "beta2"):
            if not 0 <= getattr(self, name) < 1:
                raise ValueError(f"{name}={getattr(self, name)!r} must be in [0, 1)")
        if not self.eps > 0 or not self.weight_decay >= 0:
            raise ValueError(f"eps={self.eps!r} must be > 0 and "
                             f"weight_decay={self.weight_decay!r} >= 0")


@dataclass(frozen=True)
class AdamWState:
    """AdamW's moments for some weights (all of them, or one rank's shard)."""

    exp_avg: np.ndarray
    """First moment m, shaped like the weights it belongs to."""
    exp_avg_sq: np.ndarray
    """Second moment v, shaped like the weights it belongs to."""
    step: int = 0
    """Steps taken so far (for the bias correction)."""

    @classmethod
    def zeros_like(cls, weights: np.ndarray) -> AdamWState:
        """Fresh moments for ``weights``."""
        return cls(np.zeros_like(weights), np.zeros_like(weights), 0)

    @property
    def nbytes(self) -> int:
        """Bytes of the moments."""
        return self.exp_avg.nbytes + self.exp_avg_sq.nbytes


def adamw_step(opt: AdamW, weights: np.ndarray, grad: np.ndarray,
               state: AdamWState) -> tuple[np.ndarray, AdamWState]:
    """One AdamW update of ``weights`` (any shape; elementwise, so a shard works alike).

    Equations (t = state.step + 1), in torch.optim.AdamW's order:
    w <- w (1 - lr wd); m <- b1 m + (1 - b1) g; v <- b2 v + (1 - b2) g^2;
    w <- w - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps).
    Zero weights with zero gradients (the padding of a flat vector) stay zero.
    """
    t = state.step + 1
    m = opt.beta1 * state.exp_avg + (1 - opt.beta1) * grad  # (...)
    v = opt.beta2 * state.exp_avg_sq + (1 - opt.beta2) * grad * grad  # (...)
    m_hat = m / (1 - opt.beta1**t)
    v_hat = v / (1 - opt.beta2**t)
    decayed = weights * (1 - opt.lr * opt.weight_decay)
    return decayed - opt.lr * m_hat / (np.sqrt(v_hat) + opt.eps), AdamWState(m, v, t)


def train_single_device(params: MLPParams, batches: Sequence[tuple[np.ndarray, np.ndarray]],
                        opt: AdamW) -> tuple[MLPParams, tuple[float, ...]]:
    """The reference run: one AdamW step per (x, y) batch; the final weights and the losses."""
    states = [AdamWState.zeros_like(a) for a in params.arrays()]
    losses = []
    for x, y in batches:
        loss, grads = loss_and_grads(params, x, y)
        updated = [adamw_step(opt, w, g, s) for w, g, s in
                   zip(params.arrays(), grads.arrays(), states, strict=True)]
        params = MLPParams(*(w for w, _ in updated))
        states = [s for _, s in updated]
        losses.append(loss)
    return params, tuple(losses)
