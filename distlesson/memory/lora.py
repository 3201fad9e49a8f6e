"""LoRA: the trainable parameters of low-rank adapters, and the optimizer states they remove.

Hu et al. 2022 (LoRA, ICLR), section 4.1: a frozen matrix W of d_out x d_in gets two trainable
matrices, A of r x d_in and B of d_out x r, and the layer computes W x + B A x. Only A and B
are trained: r (d_in + d_out) parameters per adapted matrix instead of d_out d_in.

Model states under a precision preset (default ``mixed``) and an optimizer (default AdamW):
full fine-tuning keeps :func:`~distlesson.memory.states.model_states` of every parameter; LoRA keeps
the frozen weights in the weights' format only (no gradients, master copy or moments), and
the adapters' full states. With ``mixed`` AdamW, N frozen and P adapter parameters:
16 N bytes against 2 N + 16 P. Exact integers and fractions; bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import Architecture, ParameterTensor, parameter_tensors
from distlesson.checks import check_positive_int
from distlesson.memory.optimizers import Optimizer, optimizer_state_bytes
from distlesson.memory.precision import PrecisionPreset, get_preset
from distlesson.memory.states import MemoryBreakdown, model_states

__all__ = ["TARGETS", "LoraResult", "adapted_matrices", "adapter_tensors", "lora"]

_ATTENTION = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
              "attn.c_attn", "attn.c_proj")
_MLP = ("mlp.gate_proj", "mlp.up_proj", "mlp.down_proj", "mlp.c_fc", "mlp.c_proj")

TARGETS: dict[str, tuple[str, ...]] = {
    "attention": _ATTENTION,
    "qv": ("self_attn.q_proj", "self_attn.v_proj"),
    "all-linear": _ATTENTION + _MLP,
}
"""Which matrices of each layer get adapters, by the names of :func:`parameter_tensors`.

``attention``: the four attention projections q, k, v, o, the matrices Hu et al. 2022
consider (section 4.2: "we limit our study to only adapting the attention weights"; GPT-2's
fused ``c_attn`` counts as one matrix). ``qv``: q and v only, the pair that section 7.1
finds best for GPT-3 175B at a fixed budget of trainable parameters. ``all-linear``:
attention and MLP matrices (as QLoRA does, Dettmers et al. 2023). Embeddings, the output
head, norms and biases are never adapted."""


def adapted_matrices(arch: Architecture, targets: str = "attention",
                     ) -> tuple[ParameterTensor, ...]:
    """The weight matrices of ``arch`` that ``targets`` adapts, in checkpoint order."""
    suffixes = lookup(TARGETS, targets, what="targets")
    if targets == "qv" and arch.fused_qkv:
        raise ValueError(f"targets='qv' needs separate q and v matrices; {arch.key} fuses "
                         "them in c_attn; allowed here: attention, all-linear")
    return tuple(
        t for t in parameter_tensors(arch)
        if t.name.startswith("layers.") and t.name.endswith(".weight")
        and t.name.split(".", 2)[2].removesuffix(".weight") in suffixes
    )


def adapter_tensors(arch: Architecture, *, rank: int, targets: str = "attention",
                    ) -> tuple[ParameterTensor, ...]:
    """A (rank x d_in) and B (d_out x rank) for every adapted matrix W (d_out x d_in).

    ValueError unless 1 <= rank <= min(d_out, d_in) of every adapted matrix (a larger rank
    adds parameters but no expressiveness: B A cannot exceed the rank of W's shape).
    """
    check_positive_int("rank", rank)
    tensors: list[ParameterTensor] = []
    for matrix in adapted_matrices(arch, targets):
        d_out, d_in = matrix.shape
        if rank > min(d_out, d_in):
            raise ValueError(f"rank={rank} must not exceed min(d_out, d_in) = "
                             f"{min(d_out, d_in)} of {matrix.name} {matrix.shape}")
        name = matrix.name.removesuffix(".weight")
        tensors.append(ParameterTensor(f"{name}.lora_A.weight", (rank, d_in)))
        tensors.append(ParameterTensor(f"{name}.lora_B.weight", (d_out, rank)))
    return tuple(tensors)


@dataclass(frozen=True)
class LoraResult:
    """LoRA against full fine-tuning for one model, rank and choice of matrices."""

    model: str
    """Catalog key of the architecture."""
    rank: int
    """The adapters' rank r."""
    targets: str
    """Which matrices are adapted (a key of :data:`TARGETS`)."""
    base_params: int
    """N: the model's own parameters (all frozen under LoRA)."""
    trainable_params: int
    """P: the adapters' parameters, sum of r (d_in + d_out) over adapted matrices."""
    full: MemoryBreakdown
    """Model states of full fine-tuning (every parameter trained), bytes."""
    lora: MemoryBreakdown
    """Model states of LoRA: frozen weights plus the adapters' full states, bytes."""

    @property
    def trainable_share(self) -> Fraction:
        """P / (N + P): the trainable share of the adapted model's parameters (the
        "trainable%" that Hugging Face PEFT prints)."""
        return Fraction(self.trainable_params, self.base_params + self.trainable_params)

    @property
    def optimizer_states_removed(self) -> Fraction:
        """1 - (master + optimizer under LoRA) / (master + optimizer, full): the share of the
        optimizer's states (master copy and moments) that LoRA removes; 1 - P / N with
        AdamW under any preset."""
        full = self.full.master + self.full.optimizer
        return 1 - Fraction(self.lora.master + self.lora.optimizer) / full

    @property
    def states_saved(self) -> Fraction:
        """1 - LoRA's model states / full fine-tuning's: 1 - (2N + 16P) / 16N with ``mixed``
        AdamW (the frozen weights stay, so this tends to 7/8, not to 1)."""
        return 1 - Fraction(self.lora.total) / Fraction(self.full.total)


def lora(
    arch: Architecture,
    *,
    rank: int,
    targets: str = "attention",
    optimizer: str | Optimizer = "adamw",
    precision: str | PrecisionPreset = "mixed",
) -> LoraResult:
    """Trainable parameters and model states of LoRA on ``arch``, against full fine-tuning.

    Equations (N = arch.num_params, P = sum of r (d_in + d_out), b_x the preset's bytes):
    full = model_states(arch); LoRA weights = N b_w + P b_w, grads = P b_g, master = P b_m,
    optimizer = the optimizer's state of the adapter tensors (shapes kept, so Adafactor's
    factored moment is exact). Source: Hu et al. 2022, section 4.1. Assumptions: the frozen
    weights are stored in the training format (no quantization as in QLoRA); activations and
    the adapters' dropout are not counted. Units: counts and bytes, exact.
    """
    if not isinstance(arch, Architecture):
        raise ValueError(f"arch={arch!r} must be an Architecture of the catalog (get_model)")
    preset = precision if isinstance(precision, PrecisionPreset) else get_preset(precision)
    adapters = adapter_tensors(arch, rank=rank, targets=targets)
    p = sum(t.numel for t in adapters)
    master = preset.master_format.bytes if preset.master_format is not None else 0
    lora_states = MemoryBreakdown(
        weights=(arch.num_params + p) * preset.weight_format.bytes,
        grads=p * preset.grad_format.bytes,
        master=p * master,
        optimizer=optimizer_state_bytes(optimizer, adapters, preset.state_format),
    )
    return LoraResult(
        model=arch.key, rank=rank, targets=targets, base_params=arch.num_params,
        trainable_params=p,
        full=model_states(arch, optimizer=optimizer, precision=preset),
        lora=lora_states,
    )
