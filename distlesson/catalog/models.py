"""Published model architectures, and their parameter counts computed tensor by tensor.

A parameter count is never typed: :func:`parameter_tensors` lists every weight tensor of an
architecture with its shape, and :attr:`Architecture.num_params` sums them. A catalog entry
whose weights are released also carries ``published_params``, the count read from them, so
the tests can check the computation against an independent source; GPT-3's weights are not
released, and its paper's rounded "175B" is checked within its rounding.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

from distlesson.catalog.lookup import lookup
from distlesson.checks import check_positive_int, check_type

__all__ = [
    "MODELS",
    "Architecture",
    "ParameterTensor",
    "get_model",
    "parameter_tensors",
]

Norm = Literal["layernorm", "rmsnorm"]
Mlp = Literal["gelu", "swiglu"]


@dataclass(frozen=True)
class ParameterTensor:
    """One weight tensor of a model."""

    name: str
    """Name in the style of the Hugging Face checkpoint (``layers.0.self_attn.q_proj.weight``)."""
    shape: tuple[int, ...]
    """Shape as stored; a matrix is (rows, columns)."""

    @property
    def numel(self) -> int:
        """Number of scalars in the tensor."""
        return math.prod(self.shape)


MAX_LAYERS = 10_000
"""Blocks of the deepest model worth counting: published LLMs have under 200."""


@dataclass(frozen=True)
class Architecture:
    """A decoder-only transformer, as its authors published it."""

    key: str
    """Catalog key used on the command line (``--model llama3-70b``)."""
    display_name: str
    """Name for prose and tables."""
    num_layers: int
    """Number of transformer blocks."""
    hidden_size: int
    """Width of the residual stream."""
    num_heads: int
    """Query heads per attention layer; head_dim = hidden_size / num_heads."""
    num_kv_heads: int
    """Key/value heads (grouped-query attention when fewer than num_heads)."""
    ffn_hidden_size: int
    """Inner width of the MLP."""
    vocab_size: int
    """Rows of the token embedding."""
    norm: Norm
    """``layernorm`` (weight and, with bias, a bias) or ``rmsnorm`` (weight only)."""
    mlp: Mlp
    """``gelu``: two matrices (up, down); ``swiglu``: three (gate, up, down)."""
    bias: bool
    """Whether linear layers (and layer norms) carry biases."""
    tied_embeddings: bool
    """Whether the output head reuses the token embedding matrix."""
    max_positions: int | None
    """Rows of a learned position embedding, or None for rotary embeddings (RoPE)."""
    published_params: int | None
    """The exact count from the model's released weights (an input, kept for checking);
    None where no weights are released (GPT-3) or the shapes come from the user."""
    source: str
    """Where the architecture and the published count come from."""
    fused_qkv: bool = False
    """GPT-2 style: one fused ``c_attn`` matrix instead of separate q, k, v projections."""
    qkv_bias: bool = False
    """Qwen2 style: biases on the q, k and v projections only (``bias`` puts them on every
    linear layer)."""
    embedding_norm: bool = False
    """BLOOM style: a norm right after the token embedding (bitsandbytes' StableEmbedding),
    which BigScience added for stability."""

    def __post_init__(self) -> None:
        for field in ("key", "display_name", "source"):
            check_type(field, getattr(self, field), str)
        for field in ("bias", "tied_embeddings", "fused_qkv", "qkv_bias"):
            check_type(field, getattr(self, field), bool)
        for field in ("num_layers", "hidden_size", "num_heads", "num_kv_heads",
                      "ffn_hidden_size", "vocab_size", "published_params"):
            value = getattr(self, field)
            if field == "published_params" and value is None:
                continue
            check_positive_int(field, value)
        # parameter_tensors lists every layer's tensors: the guard keeps that list small
        check_positive_int("num_layers", self.num_layers, maximum=MAX_LAYERS)
        if self.hidden_size % self.num_heads:
            raise ValueError(
                f"num_heads={self.num_heads} must divide hidden_size={self.hidden_size}"
            )
        if self.num_heads % self.num_kv_heads:
            raise ValueError(
                f"num_kv_heads={self.num_kv_heads} must divide num_heads={self.num_heads}"
            )
        if self.norm not in ("layernorm", "rmsnorm"):
            raise ValueError(f"norm={self.norm!r} must be 'layernorm' or 'rmsnorm'")
        if self.mlp not in ("gelu", "swiglu"):
            raise ValueError(f"mlp={self.mlp!r} must be 'gelu' or 'swiglu'")
        if self.max_positions is not None and (
            not isinstance(self.max_positions, int) or isinstance(self.max_positions, bool)
            or self.max_positions <= 0
        ):
            raise ValueError(
                f"max_positions={self.max_positions!r} must be a positive integer or None (RoPE)"
            )
        if self.fused_qkv and self.num_kv_heads != self.num_heads:
            raise ValueError(
                f"fused_qkv needs num_kv_heads={self.num_kv_heads} == num_heads={self.num_heads}"
            )

    @property
    def head_dim(self) -> int:
        """Width of one attention head: hidden_size / num_heads."""
        return self.hidden_size // self.num_heads

    @property
    def num_params(self) -> int:
        """Parameter count: the sum of :func:`parameter_tensors`' sizes (never typed)."""
        return sum(t.numel for t in parameter_tensors(self))


def _norm(arch: Architecture, name: str) -> list[ParameterTensor]:
    tensors = [ParameterTensor(f"{name}.weight", (arch.hidden_size,))]
    if arch.norm == "layernorm" and arch.bias:
        tensors.append(ParameterTensor(f"{name}.bias", (arch.hidden_size,)))
    return tensors


def _linear(arch: Architecture, name: str, out_features: int, in_features: int, *,
            bias: bool = False) -> list[ParameterTensor]:
    tensors = [ParameterTensor(f"{name}.weight", (out_features, in_features))]
    if arch.bias or bias:
        tensors.append(ParameterTensor(f"{name}.bias", (out_features,)))
    return tensors


def _attention(arch: Architecture, prefix: str) -> list[ParameterTensor]:
    h = arch.hidden_size
    kv = arch.num_kv_heads * arch.head_dim
    if arch.fused_qkv:  # GPT-2: c_attn maps h -> q, k, v concatenated
        tensors = _linear(arch, f"{prefix}.attn.c_attn", 3 * h, h)
        return tensors + _linear(arch, f"{prefix}.attn.c_proj", h, h)
    tensors = []
    for name, width in (("q_proj", h), ("k_proj", kv), ("v_proj", kv)):
        tensors += _linear(arch, f"{prefix}.self_attn.{name}", width, h, bias=arch.qkv_bias)
    return tensors + _linear(arch, f"{prefix}.self_attn.o_proj", h, h)


def _mlp(arch: Architecture, prefix: str) -> list[ParameterTensor]:
    h, f = arch.hidden_size, arch.ffn_hidden_size
    if arch.mlp == "gelu":  # up: h -> f, down: f -> h
        return _linear(arch, f"{prefix}.mlp.c_fc", f, h) + _linear(
            arch, f"{prefix}.mlp.c_proj", h, f
        )
    # SwiGLU (Shazeer 2020): down(silu(gate(x)) * up(x))
    tensors = _linear(arch, f"{prefix}.mlp.gate_proj", f, h)
    tensors += _linear(arch, f"{prefix}.mlp.up_proj", f, h)
    return tensors + _linear(arch, f"{prefix}.mlp.down_proj", h, f)


def parameter_tensors(arch: Architecture) -> tuple[ParameterTensor, ...]:
    """Every weight tensor of ``arch``, in checkpoint order.

    Embeddings (tokens, learned positions if any, the embedding norm if any), then per
    layer: the pre-attention norm, the attention projections (fused ``c_attn`` for GPT-2,
    else q/k/v/o with k and v of width num_kv_heads x head_dim), the pre-MLP norm, the MLP
    matrices; then the final norm and, if embeddings are untied, the output head. Linear
    biases only when ``arch.bias``. Shapes are (out, in) except embeddings (rows,
    hidden_size); GPT-2's Conv1D stores (in, out), which has the same count.
    """
    check_type("arch", arch, Architecture)  # before the cache hashes it
    return _parameter_tensors(arch)


# Pure in a frozen architecture, and asked for again by every memory and FLOP count: a grid
# of layouts (the widgets') would otherwise rebuild Llama 3 70B's 700 tensors per setting.
@functools.lru_cache(maxsize=128)
def _parameter_tensors(arch: Architecture) -> tuple[ParameterTensor, ...]:
    h = arch.hidden_size
    tensors = [ParameterTensor("embed_tokens.weight", (arch.vocab_size, h))]
    if arch.max_positions is not None:
        tensors.append(ParameterTensor("embed_positions.weight", (arch.max_positions, h)))
    if arch.embedding_norm:
        tensors += _norm(arch, "embed_layernorm")
    for i in range(arch.num_layers):
        prefix = f"layers.{i}"
        tensors += _norm(arch, f"{prefix}.input_layernorm")
        tensors += _attention(arch, prefix)
        tensors += _norm(arch, f"{prefix}.post_attention_layernorm")
        tensors += _mlp(arch, prefix)
    tensors += _norm(arch, "norm")
    if not arch.tied_embeddings:
        tensors.append(ParameterTensor("lm_head.weight", (arch.vocab_size, h)))
    return tuple(tensors)


_LLAMA3_SOURCE = (
    "Llama 3 Herd of Models (Grattafiori et al. 2024), Table 3; Hugging Face meta-llama "
    "{repo} config.json and model.safetensors.index.json (total_size / 2 bytes for bf16)"
)


def _llama3(key: str, name: str, repo: str, *, layers: int, hidden: int, heads: int,
            ffn: int, published: int) -> Architecture:
    return Architecture(
        key=key, display_name=name, num_layers=layers, hidden_size=hidden, num_heads=heads,
        num_kv_heads=8, ffn_hidden_size=ffn, vocab_size=128256, norm="rmsnorm",
        mlp="swiglu", bias=False, tied_embeddings=False, max_positions=None,
        published_params=published, source=_LLAMA3_SOURCE.format(repo=repo),
    )


_GPT2_SMALL = Architecture(
    key="gpt2-small", display_name="GPT-2 small", num_layers=12, hidden_size=768,
    num_heads=12, num_kv_heads=12, ffn_hidden_size=3072, vocab_size=50257, norm="layernorm",
    mlp="gelu", bias=True, tied_embeddings=True, max_positions=1024,
    published_params=124_439_808, fused_qkv=True,
    source="Radford et al. 2019 (GPT-2); Hugging Face openai-community/gpt2 checkpoint "
    "(model.safetensors, sum of tensor sizes)",
)


_GPT3_175B = Architecture(
    key="gpt3-175b", display_name="GPT-3 175B", num_layers=96, hidden_size=12288,
    num_heads=96, num_kv_heads=96, ffn_hidden_size=4 * 12288, vocab_size=50257,
    norm="layernorm", mlp="gelu", bias=True, tied_embeddings=True, max_positions=2048,
    published_params=None,
    source="Brown et al. 2020 (GPT-3), Table 2.1: 96 layers, d_model 12288, 96 heads, "
    "context 2048, GPT-2's tokenizer (vocabulary 50257) and architecture; weights not "
    "released, the paper states 175.0B",
)

_LLAMA2_70B = Architecture(
    key="llama2-70b", display_name="Llama 2 70B", num_layers=80, hidden_size=8192,
    num_heads=64, num_kv_heads=8, ffn_hidden_size=28672, vocab_size=32000, norm="rmsnorm",
    mlp="swiglu", bias=False, tied_embeddings=False, max_positions=None,
    published_params=68_976_648_192,
    source="Touvron et al. 2023 (Llama 2), Table 1 and section 2.2; Hugging Face "
    "meta-llama/Llama-2-70b-hf config.json and model.safetensors.index.json (total_size / 2 "
    "bytes for bf16)",
)


def _qwen25(key: str, name: str, repo: str, *, layers: int, hidden: int, heads: int,
            kv_heads: int, ffn: int, tied: bool, published: int) -> Architecture:
    return Architecture(
        key=key, display_name=name, num_layers=layers, hidden_size=hidden, num_heads=heads,
        num_kv_heads=kv_heads, ffn_hidden_size=ffn, vocab_size=152064, norm="rmsnorm",
        mlp="swiglu", bias=False, qkv_bias=True, tied_embeddings=tied, max_positions=None,
        published_params=published,
        source=f"Qwen2.5 Technical Report (Qwen Team 2024), Table 1; Hugging Face Qwen/{repo} "
        "config.json and model.safetensors.index.json (total_size / 2 bytes for bf16)",
    )


def _course_tiny() -> Architecture:
    # Our own numpy decoder: its published count is, by definition, the computed one.
    fields = dict(
        key="course-tiny", display_name="the course's tiny decoder", num_layers=2,
        hidden_size=32, num_heads=4, num_kv_heads=4, ffn_hidden_size=88, vocab_size=96,
        norm="rmsnorm", mlp="swiglu", bias=False, tied_embeddings=True, max_positions=None,
        source="this course",
    )
    draft = Architecture(published_params=1, **fields)
    return Architecture(published_params=draft.num_params, **fields)


MODELS: dict[str, Architecture] = {
    arch.key: arch
    for arch in (
        _GPT2_SMALL,
        _llama3("llama3-8b", "Llama 3 8B", "Meta-Llama-3-8B", layers=32, hidden=4096,
                heads=32, ffn=14336, published=8_030_261_248),
        _llama3("llama3-70b", "Llama 3 70B", "Meta-Llama-3-70B", layers=80, hidden=8192,
                heads=64, ffn=28672, published=70_553_706_496),
        _llama3("llama3-405b", "Llama 3 405B", "Llama-3.1-405B", layers=126,
                hidden=16384, heads=128, ffn=53248, published=405_853_388_800),
        _LLAMA2_70B,
        _GPT3_175B,
        _qwen25("qwen2.5-7b", "Qwen2.5 7B", "Qwen2.5-7B", layers=28, hidden=3584, heads=28,
                kv_heads=4, ffn=18944, tied=False, published=7_615_616_512),
        _qwen25("qwen2.5-72b", "Qwen2.5 72B", "Qwen2.5-72B", layers=80, hidden=8192,
                heads=64, kv_heads=8, ffn=29568, tied=False, published=72_706_203_648),
        _course_tiny(),
    )
}
"""The catalog of architectures, by key."""


def get_model(key: str) -> Architecture:
    """The catalog entry named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(MODELS, key, what="model")
