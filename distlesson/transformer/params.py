"""The weights of the course's decoder (and their gradients, which have the same structure).

Built from an :class:`~distlesson.catalog.models.Architecture`: the names and shapes are those of
:func:`~distlesson.catalog.models.parameter_tensors`, so the count is ``arch.num_params`` by
construction, and a test checks it tensor by tensor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from itertools import zip_longest

import numpy as np

from distlesson.catalog.models import Architecture, get_model, parameter_tensors

__all__ = ["BlockParams", "Params", "check_supported", "init_params"]

INIT_STD = 0.02
"""Standard deviation of the initial matrices (GPT-2's and Llama's initializer_range)."""

_BLOCK_NAMES = {
    "input_norm": "input_layernorm.weight",
    "q": "self_attn.q_proj.weight",
    "k": "self_attn.k_proj.weight",
    "v": "self_attn.v_proj.weight",
    "o": "self_attn.o_proj.weight",
    "post_norm": "post_attention_layernorm.weight",
    "gate": "mlp.gate_proj.weight",
    "up": "mlp.up_proj.weight",
    "down": "mlp.down_proj.weight",
}


@dataclass(frozen=True, eq=False)
class BlockParams:
    """One transformer block's weights, in checkpoint order; matrices are (out, in)."""

    input_norm: np.ndarray
    """RMSNorm weight before attention, (C,)."""
    q: np.ndarray
    """Query projection, (C, C): A heads of D = C / A."""
    k: np.ndarray
    """Key projection, (K D, C)."""
    v: np.ndarray
    """Value projection, (K D, C)."""
    o: np.ndarray
    """Output projection of the attention, (C, C)."""
    post_norm: np.ndarray
    """RMSNorm weight before the MLP, (C,)."""
    gate: np.ndarray
    """SwiGLU gate projection, (F, C)."""
    up: np.ndarray
    """SwiGLU up projection, (F, C)."""
    down: np.ndarray
    """SwiGLU down projection, (C, F)."""

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The tensors in checkpoint order."""
        return tuple(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True, eq=False)
class Params:
    """The whole model's weights (or gradients): embedding, blocks, final norm."""

    embed: np.ndarray
    """Token embedding (V, C); with tied embeddings also the output head's matrix."""
    blocks: tuple[BlockParams, ...]
    """One entry per layer, input side first."""
    norm: np.ndarray
    """Final RMSNorm weight, (C,)."""
    lm_head: np.ndarray | None
    """Output head (V, C) when embeddings are untied; None when tied."""
    arch: Architecture
    """The architecture these arrays implement; names and shapes are checked against it."""

    def __post_init__(self) -> None:
        check_supported(self.arch)
        want = [(t.name, t.shape) for t in parameter_tensors(self.arch)]
        got = [(name, array.shape) for name, array in self.named()]
        for g, w in zip_longest(got, want):
            if g != w:
                raise ValueError(f"tensor (name, shape) {g} does not match {self.arch.key}; "
                                 f"allowed: {w}")

    def named(self) -> tuple[tuple[str, np.ndarray], ...]:
        """(checkpoint name, array) in the order of :func:`parameter_tensors`."""
        out = [("embed_tokens.weight", self.embed)]
        for i, block in enumerate(self.blocks):
            out += [(f"layers.{i}.{_BLOCK_NAMES[f.name]}", getattr(block, f.name))
                    for f in fields(block)]
        out.append(("norm.weight", self.norm))
        if self.lm_head is not None:
            out.append(("lm_head.weight", self.lm_head))
        return tuple(out)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The tensors in checkpoint order (the order of :meth:`named`)."""
        return tuple(array for _, array in self.named())

    @property
    def num_params(self) -> int:
        """Number of scalars."""
        return sum(a.size for a in self.arrays())

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the weights."""
        return self.embed.dtype

    @property
    def head(self) -> np.ndarray:
        """The output head's matrix (V, C): the embedding itself when tied."""
        return self.embed if self.lm_head is None else self.lm_head

    def map(self, fn: Callable[..., np.ndarray], *others: Params) -> Params:
        """A new Params with ``fn`` applied tensor by tensor to self and ``others``."""
        results = [fn(*group) for group in zip(
            self.arrays(), *(o.arrays() for o in others), strict=True)]
        return self.from_arrays(results)

    def from_arrays(self, arrays: list[np.ndarray] | tuple[np.ndarray, ...]) -> Params:
        """Params shaped like self from tensors in checkpoint order."""
        it = iter(arrays)
        embed = next(it)
        blocks = tuple(BlockParams(*(next(it) for _ in fields(BlockParams)))
                       for _ in self.blocks)
        norm = next(it)
        lm_head = next(it) if self.lm_head is not None else None
        return Params(embed, blocks, norm, lm_head, self.arch)


def check_supported(arch: Architecture) -> None:
    """ValueError unless ``arch`` is a Llama-style decoder this numpy model implements.

    Supported: RMSNorm, SwiGLU, no biases, RoPE (no learned positions), separate q/k/v,
    an even head_dim; tied or untied embeddings; grouped-query attention.
    """
    wanted = {"norm": "rmsnorm", "mlp": "swiglu", "bias": False, "max_positions": None,
              "fused_qkv": False}
    for name, value in wanted.items():
        if getattr(arch, name) != value:
            raise ValueError(f"{arch.key}: {name}={getattr(arch, name)!r} is not supported; "
                             f"allowed: {value!r}")
    if arch.head_dim % 2:
        raise ValueError(f"{arch.key}: head_dim={arch.head_dim} must be even for RoPE")


def init_params(arch: Architecture | None = None, *, seed: int = 0, dtype: type = np.float64,
                std: float = INIT_STD) -> Params:
    """Random weights: matrices normal(0, std), norm weights 1 (``course-tiny`` by default)."""
    arch = get_model("course-tiny") if arch is None else arch
    check_supported(arch)
    if not std > 0:
        raise ValueError(f"std={std!r} must be > 0")
    rng = np.random.default_rng(seed)
    c, kv, f = arch.hidden_size, arch.num_kv_heads * arch.head_dim, arch.ffn_hidden_size

    def matrix(rows: int, cols: int) -> np.ndarray:
        return (std * rng.standard_normal((rows, cols))).astype(dtype)

    def ones() -> np.ndarray:
        return np.ones(c, dtype=dtype)

    embed = matrix(arch.vocab_size, c)  # (V, C)
    blocks = tuple(
        BlockParams(input_norm=ones(), q=matrix(c, c), k=matrix(kv, c), v=matrix(kv, c),
                    o=matrix(c, c), post_norm=ones(), gate=matrix(f, c), up=matrix(f, c),
                    down=matrix(c, f))
        for _ in range(arch.num_layers))
    lm_head = None if arch.tied_embeddings else matrix(arch.vocab_size, c)  # (V, C)
    return Params(embed, blocks, ones(), lm_head, arch)
