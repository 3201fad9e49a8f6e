"""Mixture-of-experts models: total parameters, and the parameters one token activates.

A mixture-of-experts (MoE) layer holds many expert MLPs and a router that sends each token
to a few of them: memory pays for every expert, compute only for the chosen ones. The
catalog entry is DeepSeek-V3; like the dense catalog (:mod:`distlesson.catalog.models`) its counts
are computed tensor by tensor from the published configuration, never typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import ParameterTensor

__all__ = ["MOE_MODELS", "MoEArchitecture", "get_moe_model", "moe_parameter_tensors"]


@dataclass(frozen=True)
class MoEArchitecture:
    """A DeepSeek-V3-style decoder: multi-head latent attention (MLA) and MoE MLPs."""

    key: str
    """Catalog key."""
    display_name: str
    """Name for prose and tables."""
    num_layers: int
    """Transformer blocks; the first ``dense_layers`` have a dense MLP, the rest MoE."""
    dense_layers: int
    """Leading blocks with a dense MLP (``first_k_dense_replace``)."""
    hidden_size: int
    """Width of the residual stream."""
    num_heads: int
    """Attention heads."""
    q_lora_rank: int
    """Rank of the compressed query (MLA)."""
    kv_lora_rank: int
    """Rank of the compressed key/value latent (MLA)."""
    qk_nope_head_dim: int
    """Per-head query/key width without rotary embedding."""
    qk_rope_head_dim: int
    """Per-head query/key width with rotary embedding (the key's part is shared by heads)."""
    v_head_dim: int
    """Per-head value width."""
    dense_ffn_size: int
    """Inner width of a dense SwiGLU MLP."""
    expert_ffn_size: int
    """Inner width of one expert's SwiGLU MLP."""
    routed_experts: int
    """Routed experts per MoE layer."""
    shared_experts: int
    """Experts every token passes through."""
    experts_per_token: int
    """Routed experts chosen per token (top-k)."""
    vocab_size: int
    """Rows of the token embedding (untied from the output head)."""
    published_params: float
    """Total parameters as the authors state them (rounded: an input, kept for checking)."""
    published_active: float
    """Activated parameters per token as the authors state them (rounded)."""
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
    def num_params(self) -> int:
        """Total parameters: every tensor of :func:`moe_parameter_tensors`."""
        return sum(t.numel for t in moe_parameter_tensors(self))

    @property
    def active_params(self) -> int:
        """Parameters one token computes with: all but the routed experts it is not sent to
        and the input embedding (a lookup reads one row of it; the output head is a matmul
        and counts). This convention gives the report's rounded "37B".
        """
        unused = self.routed_experts - self.experts_per_token
        per_expert = 3 * self.hidden_size * self.expert_ffn_size
        embedding = self.vocab_size * self.hidden_size
        moe_layers = self.num_layers - self.dense_layers
        return self.num_params - moe_layers * unused * per_expert - embedding


def _mla(arch: MoEArchitecture, prefix: str) -> list[ParameterTensor]:
    h, heads = arch.hidden_size, arch.num_heads
    qk = arch.qk_nope_head_dim + arch.qk_rope_head_dim
    p = f"{prefix}.self_attn"
    return [
        ParameterTensor(f"{p}.q_a_proj.weight", (arch.q_lora_rank, h)),
        ParameterTensor(f"{p}.q_a_layernorm.weight", (arch.q_lora_rank,)),
        ParameterTensor(f"{p}.q_b_proj.weight", (heads * qk, arch.q_lora_rank)),
        ParameterTensor(f"{p}.kv_a_proj_with_mqa.weight",
                        (arch.kv_lora_rank + arch.qk_rope_head_dim, h)),
        ParameterTensor(f"{p}.kv_a_layernorm.weight", (arch.kv_lora_rank,)),
        ParameterTensor(f"{p}.kv_b_proj.weight",
                        (heads * (arch.qk_nope_head_dim + arch.v_head_dim), arch.kv_lora_rank)),
        ParameterTensor(f"{p}.o_proj.weight", (h, heads * arch.v_head_dim)),
    ]


def _swiglu(prefix: str, hidden: int, inner: int) -> list[ParameterTensor]:
    return [ParameterTensor(f"{prefix}.{name}.weight", shape)
            for name, shape in (("gate_proj", (inner, hidden)), ("up_proj", (inner, hidden)),
                                ("down_proj", (hidden, inner)))]


def moe_parameter_tensors(arch: MoEArchitecture) -> tuple[ParameterTensor, ...]:
    """Every weight tensor, named as in the Hugging Face checkpoint.

    Per layer: two RMSNorm weights, MLA's seven tensors, then a dense SwiGLU MLP or, in MoE
    layers, the router (a matrix and DeepSeek-V3's per-expert bias for load balancing), the
    routed experts and the shared expert(s). The multi-token-prediction module that the
    released checkpoint adds for training is not part of the main model and not counted.
    """
    h = arch.hidden_size
    tensors = [ParameterTensor("embed_tokens.weight", (arch.vocab_size, h))]
    for i in range(arch.num_layers):
        prefix = f"layers.{i}"
        tensors.append(ParameterTensor(f"{prefix}.input_layernorm.weight", (h,)))
        tensors += _mla(arch, prefix)
        tensors.append(ParameterTensor(f"{prefix}.post_attention_layernorm.weight", (h,)))
        if i < arch.dense_layers:
            tensors += _swiglu(f"{prefix}.mlp", h, arch.dense_ffn_size)
            continue
        tensors.append(ParameterTensor(f"{prefix}.mlp.gate.weight", (arch.routed_experts, h)))
        tensors.append(ParameterTensor(f"{prefix}.mlp.gate.e_score_correction_bias",
                                       (arch.routed_experts,)))
        for e in range(arch.routed_experts):
            tensors += _swiglu(f"{prefix}.mlp.experts.{e}", h, arch.expert_ffn_size)
        tensors += _swiglu(f"{prefix}.mlp.shared_experts", h,
                           arch.shared_experts * arch.expert_ffn_size)
    tensors.append(ParameterTensor("norm.weight", (h,)))
    tensors.append(ParameterTensor("lm_head.weight", (arch.vocab_size, h)))
    return tuple(tensors)


_DEEPSEEK_V3 = MoEArchitecture(
    key="deepseek-v3", display_name="DeepSeek-V3", num_layers=61, dense_layers=3,
    hidden_size=7168, num_heads=128, q_lora_rank=1536, kv_lora_rank=512,
    qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128, dense_ffn_size=18432,
    expert_ffn_size=2048, routed_experts=256, shared_experts=1, experts_per_token=8,
    vocab_size=129280, published_params=671e9, published_active=37e9,
    source="DeepSeek-V3 Technical Report (DeepSeek-AI 2024), sections 2 and 4.2; Hugging "
    "Face deepseek-ai/DeepSeek-V3 config.json",
)

MOE_MODELS: dict[str, MoEArchitecture] = {_DEEPSEEK_V3.key: _DEEPSEEK_V3}
"""The catalog of mixture-of-experts architectures, by key."""


def get_moe_model(key: str) -> MoEArchitecture:
    """The catalog entry named ``key``; ValueError listing the allowed keys otherwise."""
    return lookup(MOE_MODELS, key, what="moe model")


