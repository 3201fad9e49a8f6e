"""Mixture-of-experts models: total parameters, and the parameters one token activates.

A mixture-of-experts (MoE) layer holds many expert MLPs and a router that sends each token
to a few of them: memory pays for every expert, compute only for the chosen ones. The
catalog holds DeepSeek-V3 (multi-head latent attention, 256 routed experts and one shared,
three dense layers first) and Mixtral 8x7B (grouped-query attention, 8 experts, top-2, no
shared expert, no dense layer). Like the dense catalog (:mod:`distlesson.catalog.models`)
their counts are computed tensor by tensor from the published configuration, never typed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import ParameterTensor

__all__ = ["MOE_MODELS", "GroupedQueryAttention", "LatentAttention", "MoEArchitecture",
           "get_moe_model", "moe_parameter_tensors"]


@dataclass(frozen=True)
class LatentAttention:
    """DeepSeek's multi-head latent attention (MLA): queries, keys and values pass through
    low-rank latents (DeepSeek-V2, DeepSeek-AI 2024, section 2.1)."""

    q_lora_rank: int
    """Rank of the compressed query."""
    kv_lora_rank: int
    """Rank of the compressed key/value latent."""
    qk_nope_head_dim: int
    """Per-head query/key width without rotary embedding."""
    qk_rope_head_dim: int
    """Per-head query/key width with rotary embedding (the key's part is shared by heads)."""
    v_head_dim: int
    """Per-head value width."""

    def tensors(self, prefix: str, hidden: int, heads: int) -> list[ParameterTensor]:
        """Seven tensors, named as in DeepSeek-V3's checkpoint."""
        qk = self.qk_nope_head_dim + self.qk_rope_head_dim
        p = f"{prefix}.self_attn"
        return [
            ParameterTensor(f"{p}.q_a_proj.weight", (self.q_lora_rank, hidden)),
            ParameterTensor(f"{p}.q_a_layernorm.weight", (self.q_lora_rank,)),
            ParameterTensor(f"{p}.q_b_proj.weight", (heads * qk, self.q_lora_rank)),
            ParameterTensor(f"{p}.kv_a_proj_with_mqa.weight",
                            (self.kv_lora_rank + self.qk_rope_head_dim, hidden)),
            ParameterTensor(f"{p}.kv_a_layernorm.weight", (self.kv_lora_rank,)),
            ParameterTensor(f"{p}.kv_b_proj.weight",
                            (heads * (self.qk_nope_head_dim + self.v_head_dim),
                             self.kv_lora_rank)),
            ParameterTensor(f"{p}.o_proj.weight", (hidden, heads * self.v_head_dim)),
        ]


@dataclass(frozen=True)
class GroupedQueryAttention:
    """Grouped-query attention without biases (Ainslie et al. 2023), as in Llama and
    Mixtral: query and output projections of hidden x hidden, keys and values of
    num_kv_heads x head_dim."""

    num_kv_heads: int
    """Key/value heads, each shared by num_heads / num_kv_heads query heads."""

    def tensors(self, prefix: str, hidden: int, heads: int) -> list[ParameterTensor]:
        """Four tensors, named as in Mixtral's checkpoint."""
        if hidden % heads or heads % self.num_kv_heads:
            raise ValueError(f"num_heads={heads} must divide hidden_size={hidden}, and "
                             f"num_kv_heads={self.num_kv_heads} must divide num_heads={heads}")
        kv = self.num_kv_heads * (hidden // heads)
        p = f"{prefix}.self_attn"
        return [ParameterTensor(f"{p}.{name}.weight", shape)
                for name, shape in (("q_proj", (hidden, hidden)), ("k_proj", (kv, hidden)),
                                    ("v_proj", (kv, hidden)), ("o_proj", (hidden, hidden)))]


Attention = LatentAttention | GroupedQueryAttention


@dataclass(frozen=True)
class MoEArchitecture:
    """A decoder whose MLPs are mixtures of SwiGLU experts (some leading layers may be dense)."""

    key: str
    """Catalog key."""
    display_name: str
    """Name for prose and tables."""
    num_layers: int
    """Transformer blocks; the first ``dense_layers`` have a dense MLP, the rest MoE."""
    dense_layers: int
    """Leading blocks with a dense MLP (DeepSeek's ``first_k_dense_replace``; 0: none)."""
    hidden_size: int
    """Width of the residual stream."""
    num_heads: int
    """Attention (query) heads."""
    attention: Attention
    """The attention's own shapes: MLA or grouped-query."""
    dense_ffn_size: int
    """Inner width of a dense SwiGLU MLP (unused when dense_layers = 0)."""
    expert_ffn_size: int
    """Inner width of one expert's SwiGLU MLP."""
    routed_experts: int
    """Routed experts per MoE layer."""
    shared_experts: int
    """Experts every token passes through (0: none)."""
    experts_per_token: int
    """Routed experts chosen per token (top-k)."""
    vocab_size: int
    """Rows of the token embedding (untied from the output head)."""
    router_bias: bool
    """Whether the router keeps a per-expert bias for load balancing (DeepSeek-V3's
    ``e_score_correction_bias``, which selects experts and is not trained by gradients)."""
    expert_names: tuple[str, str, str, str]
    """How the checkpoint names the MoE block and an expert's gate, up and down matrices."""
    published_params: float
    """Total parameters as the authors state them (rounded: an input, kept for checking)."""
    published_active: float
    """Activated parameters per token as the authors state them (rounded)."""
    published_active_has_embedding: bool
    """Whether the authors' active count includes the input embedding (see
    :attr:`active_params`): it is the convention that reproduces their rounded figure."""
    source: str
    """Where the configuration and the published counts come from."""

    def __post_init__(self) -> None:
        if not 0 < self.experts_per_token <= self.routed_experts:
            raise ValueError(f"experts_per_token={self.experts_per_token} must be in "
                             f"1..routed_experts={self.routed_experts}")
        if not 0 <= self.dense_layers <= self.num_layers:
            raise ValueError(f"dense_layers={self.dense_layers} must be in "
                             f"0..num_layers={self.num_layers}")

    @property
    def moe_layers(self) -> int:
        """Blocks with a mixture-of-experts MLP."""
        return self.num_layers - self.dense_layers

    @property
    def expert_params(self) -> int:
        """Parameters of one expert: gate, up and down, 3 x hidden x expert_ffn."""
        return 3 * self.hidden_size * self.expert_ffn_size

    @property
    def routed_expert_params(self) -> int:
        """Parameters of all routed experts of all MoE layers: what expert parallelism
        splits over its ranks."""
        return self.moe_layers * self.routed_experts * self.expert_params

    @property
    def num_params(self) -> int:
        """Total parameters: every tensor of :func:`moe_parameter_tensors`."""
        return _num_params(self)

    @property
    def active_params(self) -> int:
        """Parameters one token computes with: all but the routed experts it is not sent to
        and the input embedding (a lookup reads one row of it; the output head is a matmul
        and counts). DeepSeek-V3's "37B" follows this convention."""
        unused = self.routed_experts - self.experts_per_token
        embedding = self.vocab_size * self.hidden_size
        return self.num_params - self.moe_layers * unused * self.expert_params - embedding

    @property
    def active_params_with_embedding(self) -> int:
        """:attr:`active_params` plus the input embedding: Mixtral's "12.9B" follows this
        convention (without it, the count rounds to 12.7B)."""
        return self.active_params + self.vocab_size * self.hidden_size

    @property
    def published_convention_active(self) -> int:
        """The active count in the convention the authors' figure uses."""
        return (self.active_params_with_embedding if self.published_active_has_embedding
                else self.active_params)


def _swiglu(prefix: str, hidden: int, inner: int,
            names: tuple[str, str, str] = ("gate_proj", "up_proj", "down_proj"),
            ) -> list[ParameterTensor]:
    gate, up, down = names
    return [ParameterTensor(f"{prefix}.{name}.weight", shape)
            for name, shape in ((gate, (inner, hidden)), (up, (inner, hidden)),
                                (down, (hidden, inner)))]


@functools.cache  # a frozen configuration: its tensors are the same on every call
def _num_params(arch: MoEArchitecture) -> int:
    return sum(t.numel for t in moe_parameter_tensors(arch))


@functools.cache  # DeepSeek-V3 lists ~47,000 tensors; pages and claims ask again and again
def moe_parameter_tensors(arch: MoEArchitecture) -> tuple[ParameterTensor, ...]:
    """Every weight tensor, named as in the Hugging Face checkpoint.

    Per layer: two RMSNorm weights, the attention's tensors, then a dense SwiGLU MLP or, in
    MoE layers, the router (a matrix, and DeepSeek-V3's per-expert bias), the routed experts
    and the shared expert(s), if any. The multi-token-prediction module that DeepSeek-V3's
    released checkpoint adds for training is not part of the main model and not counted.
    """
    h = arch.hidden_size
    block, gate, up, down = arch.expert_names
    tensors = [ParameterTensor("embed_tokens.weight", (arch.vocab_size, h))]
    for i in range(arch.num_layers):
        prefix = f"layers.{i}"
        tensors.append(ParameterTensor(f"{prefix}.input_layernorm.weight", (h,)))
        tensors += arch.attention.tensors(prefix, h, arch.num_heads)
        tensors.append(ParameterTensor(f"{prefix}.post_attention_layernorm.weight", (h,)))
        if i < arch.dense_layers:
            tensors += _swiglu(f"{prefix}.mlp", h, arch.dense_ffn_size)
            continue
        moe = f"{prefix}.{block}"
        tensors.append(ParameterTensor(f"{moe}.gate.weight", (arch.routed_experts, h)))
        if arch.router_bias:
            tensors.append(ParameterTensor(f"{moe}.gate.e_score_correction_bias",
                                           (arch.routed_experts,)))
        for e in range(arch.routed_experts):
            tensors += _swiglu(f"{moe}.experts.{e}", h, arch.expert_ffn_size, (gate, up, down))
        if arch.shared_experts:
            tensors += _swiglu(f"{moe}.shared_experts", h,
                               arch.shared_experts * arch.expert_ffn_size)
    tensors.append(ParameterTensor("norm.weight", (h,)))
    tensors.append(ParameterTensor("lm_head.weight", (arch.vocab_size, h)))
    return tuple(tensors)


_DEEPSEEK_V3 = MoEArchitecture(
    key="deepseek-v3", display_name="DeepSeek-V3", num_layers=61, dense_layers=3,
    hidden_size=7168, num_heads=128,
    attention=LatentAttention(q_lora_rank=1536, kv_lora_rank=512, qk_nope_head_dim=128,
                              qk_rope_head_dim=64, v_head_dim=128),
    dense_ffn_size=18432, expert_ffn_size=2048, routed_experts=256, shared_experts=1,
    experts_per_token=8, vocab_size=129280, router_bias=True,
    expert_names=("mlp", "gate_proj", "up_proj", "down_proj"),
    published_params=671e9, published_active=37e9, published_active_has_embedding=False,
    source="DeepSeek-V3 Technical Report (DeepSeek-AI 2024), sections 2 and 4.2; Hugging "
    "Face deepseek-ai/DeepSeek-V3 config.json",
)

_MIXTRAL_8X7B = MoEArchitecture(
    key="mixtral-8x7b", display_name="Mixtral 8x7B", num_layers=32, dense_layers=0,
    hidden_size=4096, num_heads=32, attention=GroupedQueryAttention(num_kv_heads=8),
    dense_ffn_size=0, expert_ffn_size=14336, routed_experts=8, shared_experts=0,
    experts_per_token=2, vocab_size=32000, router_bias=False,
    expert_names=("block_sparse_moe", "w1", "w3", "w2"),
    published_params=46.7e9, published_active=12.9e9, published_active_has_embedding=True,
    source="Mixtral of Experts (Jiang et al. 2024), section 2: 47B parameters, 13B active "
    "(Mistral AI's announcement: 46.7B total, 12.9B per token); Hugging Face "
    "mistralai/Mixtral-8x7B-v0.1 config.json",
)

MOE_MODELS: dict[str, MoEArchitecture] = {m.key: m for m in (_DEEPSEEK_V3, _MIXTRAL_8X7B)}
"""The catalog of mixture-of-experts architectures, by key."""


def get_moe_model(key: str) -> MoEArchitecture:
    """The catalog entry named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(MOE_MODELS, key, what="moe model")
