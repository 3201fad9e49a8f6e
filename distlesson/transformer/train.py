"""A short AdamW training run of the course's decoder on the shipped corpus.

Each step draws ``batch_size`` random windows of ``seq_len`` characters (seeded), runs the
forward and the hand-written backward, and updates every tensor with
:func:`distlesson.parallel.toy_mlp.adamw_step` (PyTorch's order of operations). The loss is measured
before and after on a fixed evaluation batch, so the drop is deterministic for a seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from distlesson.catalog.models import Architecture, get_model
from distlesson.checks import check_positive_int
from distlesson.parallel.toy_mlp import AdamW, AdamWState, adamw_step
from distlesson.transformer.model import backward, forward
from distlesson.transformer.params import Params, init_params
from distlesson.transformer.text import encode, load_corpus

__all__ = ["TrainConfig", "TrainResult", "TrainState", "evaluate", "train", "train_step"]


@dataclass(frozen=True)
class TrainConfig:
    """How long and on what a short run trains."""

    steps: int = 60
    """Optimizer steps; enough for the loss to leave the uniform guess ln 96 ~ 4.56 nats."""
    batch_size: int = 8
    """Windows per step."""
    seq_len: int = 32
    """Characters per window (L)."""
    seed: int = 0
    """Seeds the weights and the windows."""
    dtype: type = np.float64
    """Dtype of the weights, gradients and moments (float64 or float32)."""
    optimizer: AdamW = field(default_factory=lambda: AdamW(lr=1e-2))
    """AdamW with PyTorch's defaults but a toy's learning rate of 1e-2."""

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "seq_len"):
            check_positive_int(name, getattr(self, name))
        if self.seq_len < 2:
            raise ValueError(f"seq_len={self.seq_len} must be >= 2 (one next-token target)")
        if np.dtype(self.dtype) not in (np.float64, np.float32):
            raise ValueError(f"dtype={self.dtype!r}; allowed: float64, float32")


@dataclass(frozen=True, eq=False)
class TrainState:
    """The training states held between and during steps, as live arrays."""

    params: Params
    """Weights, also the copy the optimizer updates (full precision: no master copy)."""
    moments: tuple[AdamWState, ...]
    """AdamW's first and second moments, one state per tensor in checkpoint order."""
    grads: Params | None = None
    """The last step's gradients (None before the first step)."""
    master: Params | None = None
    """A separate high-precision copy of the weights; None here, the weights are it."""


@dataclass(frozen=True, eq=False)
class TrainResult:
    """The losses of a run and its final state."""

    losses: tuple[float, ...]
    """Training loss of each step's batch, before its update (nats)."""
    eval_before: float
    """Loss on the fixed evaluation batch before training (nats)."""
    eval_after: float
    """Loss on the same batch after the last step (nats)."""
    state: TrainState
    """Weights, moments and last gradients after the run."""


def _windows(ids: np.ndarray, rng: np.random.Generator, batch: int, length: int) -> np.ndarray:
    starts = rng.integers(0, ids.size - length + 1, size=batch)  # (B,)
    return np.stack([ids[s:s + length] for s in starts])  # (B, L)


def evaluate(params: Params, tokens: np.ndarray) -> float:
    """Mean next-token loss of ``tokens`` (B, L), in nats."""
    return forward(params, tokens)[0]


def train_step(state: TrainState, tokens: np.ndarray, opt: AdamW) -> tuple[float, TrainState]:
    """(loss before the update, new state): forward, backward, AdamW on every tensor."""
    loss, tape = forward(state.params, tokens)
    grads = backward(state.params, tape)
    updated = [adamw_step(opt, w, g, s) for w, g, s in
               zip(state.params.arrays(), grads.arrays(), state.moments, strict=True)]
    params = state.params.from_arrays([w for w, _ in updated])
    return loss, TrainState(params, tuple(s for _, s in updated), grads)


def train(arch: Architecture | None = None, config: TrainConfig | None = None) -> TrainResult:
    """Train ``arch`` (``course-tiny`` by default) for ``config.steps`` steps on the corpus."""
    arch = get_model("course-tiny") if arch is None else arch
    config = TrainConfig() if config is None else config
    if arch.vocab_size != 96:
        raise ValueError(f"{arch.key}: vocab_size={arch.vocab_size}; allowed: 96 (the "
                         "character vocabulary)")
    ids = encode(load_corpus())  # (N,)
    if ids.size < config.seq_len:
        raise ValueError(f"seq_len={config.seq_len} exceeds the corpus of {ids.size} chars")
    rng = np.random.default_rng(config.seed)
    params = init_params(arch, seed=config.seed, dtype=config.dtype)
    state = TrainState(params, tuple(AdamWState.zeros_like(a) for a in params.arrays()))
    eval_tokens = _windows(ids, np.random.default_rng(config.seed + 1), 16, config.seq_len)
    eval_before = evaluate(state.params, eval_tokens)
    losses = []
    for _ in range(config.steps):
        loss, state = train_step(state, _windows(ids, rng, config.batch_size, config.seq_len),
                                 config.optimizer)
        losses.append(loss)
    return TrainResult(tuple(losses), eval_before, evaluate(state.params, eval_tokens), state)
