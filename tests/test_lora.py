"""LoRA: adapter parameters counted by hand, and the optimizer states they remove.

An adapted matrix W of d_out x d_in gets A (r x d_in) and B (d_out x r): r (d_in + d_out)
trainable parameters (Hu et al. 2022). Llama 3 uses grouped-query attention with 8 key/value
heads of 128: k and v map h -> 1024.
"""

from fractions import Fraction

import pytest

from distlesson.catalog.models import get_model
from distlesson.memory.lora import adapted_matrices, adapter_tensors, lora
from distlesson.memory.states import MemoryBreakdown, model_states

N8 = 8_030_261_248  # Llama 3 8B, counted tensor by tensor (= the released weights)
N70 = 70_553_706_496  # Llama 3 70B

# Llama 3 8B, h = 4096, per layer and per unit of rank r:
#   q (4096 x 4096): 4096 + 4096 = 8192;  k (1024 x 4096): 4096 + 1024 = 5120
#   v (1024 x 4096): 5120;                o (4096 x 4096): 8192
#   q, k, v, o: 26,624 r per layer, x 32 layers = 851,968 r
LLAMA8_QKVO = (8192 + 5120 + 5120 + 8192) * 32
# Llama 3 70B, h = 8192: q 16,384, k 9,216, v 9,216, o 16,384 = 51,200 r; x 80 = 4,096,000 r
LLAMA70_QKVO = (16384 + 9216 + 9216 + 16384) * 80


@pytest.mark.parametrize(("model", "rank", "expected", "base"), [
    ("llama3-8b", 8, 8 * LLAMA8_QKVO, N8),  # 6,815,744
    ("llama3-8b", 16, 16 * LLAMA8_QKVO, N8),  # 13,631,488
    ("llama3-70b", 8, 8 * LLAMA70_QKVO, N70),  # 32,768,000
    ("llama3-70b", 16, 16 * LLAMA70_QKVO, N70),  # 65,536,000
])
def test_the_catalan_ninety_nine_percent(model, rank, expected, base):
    result = lora(get_model(model), rank=rank)
    assert result.trainable_params == expected
    assert result.base_params == base
    assert result.trainable_share == Fraction(expected, base + expected)
    # master (4 B) and moments (8 B) remain for the P adapter parameters only: 12P of 12N
    removed = 1 - Fraction(expected, base)
    assert result.optimizer_states_removed == removed
    assert removed > Fraction(99, 100)  # "eliminates 99% of the optimizer states": more


def test_figures_of_the_four_cases():
    assert [lora(get_model(m), rank=r).trainable_params
            for m in ("llama3-8b", "llama3-70b") for r in (8, 16)] == [
        6_815_744, 13_631_488, 32_768_000, 65_536_000]
    # the least of the four: Llama 3 8B at r = 16, 1 - 13,631,488 / 8,030,261,248 = 99.830%
    assert float(lora(get_model("llama3-8b"), rank=16).optimizer_states_removed) == (
        pytest.approx(0.998302, abs=1e-6))


def test_model_states_of_lora_against_full_fine_tuning():
    p = 8 * LLAMA8_QKVO
    result = lora(get_model("llama3-8b"), rank=8)
    assert result.full == model_states(get_model("llama3-8b"))  # 16 N
    # frozen weights bf16 (2N) + adapters bf16 (2P); grads 2P; master 4P; moments 8P
    assert result.lora == MemoryBreakdown(2 * (N8 + p), 2 * p, 4 * p, 8 * p)
    assert result.lora.total == 2 * N8 + 16 * p
    assert result.states_saved == 1 - Fraction(2 * N8 + 16 * p, 16 * N8)


def test_query_and_value_only():
    # q and v of Llama 3 8B: (8192 + 5120) x 8 x 32 = 3,407,872 (PEFT prints the same)
    assert lora(get_model("llama3-8b"), rank=8, targets="qv").trainable_params == 3_407_872


def test_all_linear_layers():
    # + MLP: gate (14336 x 4096) and up: 4096 + 14336 = 18,432 each; down (4096 x 14336)
    # 18,432: 55,296 per layer; with attention 81,920 r per layer, x 32 = 2,621,440 r
    result = lora(get_model("llama3-8b"), rank=16, targets="all-linear")
    assert result.trainable_params == 16 * (26624 + 3 * 18432) * 32 == 41_943_040


def test_gpt2_fused_attention():
    # c_attn (2304 x 768): 768 + 2304 = 3,072 r; c_proj (768 x 768): 1,536 r; x 12 layers
    assert lora(get_model("gpt2-small"), rank=8).trainable_params == 8 * 4608 * 12 == 442_368
    # + c_fc (3072 x 768) and mlp.c_proj (768 x 3072): 3,840 r each
    result = lora(get_model("gpt2-small"), rank=8, targets="all-linear")
    assert result.trainable_params == 8 * (4608 + 2 * 3840) * 12


def test_adapted_matrices_and_adapter_shapes():
    arch = get_model("llama3-8b")
    assert len(adapted_matrices(arch)) == 4 * 32
    assert len(adapted_matrices(arch, "all-linear")) == 7 * 32
    tensors = adapter_tensors(arch, rank=8)
    assert tensors[2].name == "layers.0.self_attn.k_proj.lora_A.weight"
    assert tensors[2].shape == (8, 4096) and tensors[3].shape == (1024, 8)
    assert sum(t.numel for t in tensors) == 8 * LLAMA8_QKVO


def test_adafactor_factors_the_adapters():
    # A (8 x d_in) keeps 8 + d_in, B (d_out x 8) keeps d_out + 8, x 4 bytes.
    # q: 4104 + 4104; k: 4104 + 1032; v: the same; o: 4104 + 4104 = 26,688 per layer
    result = lora(get_model("llama3-8b"), rank=8, optimizer="adafactor")
    assert result.lora.optimizer == 26_688 * 32 * 4 == 3_416_064


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"rank": 0}, "rank=0 must be a positive integer"),
    ({"rank": "8"}, "rank='8' must be a positive integer"),
    ({"rank": 1025}, "rank=1025 must not exceed min(d_out, d_in) = 1024 of "
                     "layers.0.self_attn.k_proj.weight"),
    ({"rank": 8, "targets": "mlp"},
     "targets='mlp' is not known; allowed: attention, qv, all-linear"),
    ({"rank": 8, "precision": "fp64"}, "precision='fp64' is not known"),
])
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError) as error:
        lora(get_model("llama3-8b"), **kwargs)
    assert message in str(error.value)


def test_fused_qkv_cannot_adapt_q_and_v_alone():
    with pytest.raises(ValueError, match="gpt2-small fuses them in c_attn"):
        lora(get_model("gpt2-small"), rank=8, targets="qv")


def test_needs_an_architecture():
    with pytest.raises(ValueError, match="must be an Architecture"):
        lora("llama3-8b", rank=8)
