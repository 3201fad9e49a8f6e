"""Architectures: parameter counts computed from tensor shapes against published counts."""

import pytest

from distlesson.catalog.models import MODELS, Architecture, get_model, parameter_tensors


@pytest.mark.parametrize("key", sorted(k for k in MODELS if MODELS[k].published_params))
def test_computed_count_equals_published_checkpoint_count(key):
    arch = MODELS[key]
    assert arch.num_params == arch.published_params


def test_gpt3_175b_is_the_papers_175_billion_within_its_rounding():
    # Brown et al. 2020, Table 2.1 states 175.0B; no weights are released to count exactly.
    arch = get_model("gpt3-175b")
    assert arch.published_params is None
    assert abs(arch.num_params - 175.0e9) <= 0.05e9 * 10  # "175.0B": within half a billion


def test_published_counts_are_those_of_the_checkpoints():
    # Typed here from the sources (HF checkpoints / safetensors index total_size / 2).
    assert get_model("gpt2-small").published_params == 124_439_808
    assert get_model("llama3-8b").published_params == 8_030_261_248
    assert get_model("llama3-70b").published_params == 70_553_706_496
    assert get_model("llama3-405b").published_params == 405_853_388_800
    assert get_model("llama2-70b").published_params == 68_976_648_192
    assert get_model("qwen2.5-7b").published_params == 7_615_616_512
    assert get_model("qwen2.5-72b").published_params == 72_706_203_648


def test_qwen25_7b_by_hand_with_biases_on_q_k_v_only():
    h, kv, f, v, layers = 3584, 4 * 128, 18944, 152064, 28
    per_layer = 2 * h * h + 2 * kv * h + (h + 2 * kv) + 3 * h * f + 2 * h
    arch = get_model("qwen2.5-7b")
    assert arch.num_params == 2 * v * h + layers * per_layer + h
    names = [t.name for t in parameter_tensors(arch)]
    assert "layers.0.self_attn.q_proj.bias" in names
    assert "layers.0.self_attn.o_proj.bias" not in names
    assert "layers.0.mlp.up_proj.bias" not in names


def test_gpt2_small_by_hand():
    h, v, p, f, layers = 768, 50257, 1024, 3072, 12
    per_layer = (
        2 * h  # ln_1 weight and bias
        + h * 3 * h + 3 * h  # c_attn weight and bias
        + h * h + h  # attn c_proj
        + 2 * h  # ln_2
        + h * f + f  # mlp c_fc
        + f * h + h  # mlp c_proj
    )
    total = v * h + p * h + layers * per_layer + 2 * h  # wte, wpe, blocks, ln_f; tied head
    assert total == 124_439_808
    assert get_model("gpt2-small").num_params == total


def test_llama3_8b_by_hand():
    h, kv, f, v, layers = 4096, 8 * 128, 14336, 128256, 32
    per_layer = 2 * h * h + 2 * kv * h + 3 * h * f + 2 * h
    assert get_model("llama3-8b").num_params == 2 * v * h + layers * per_layer + h


def test_course_tiny_by_hand():
    h, f, v = 32, 88, 96
    per_layer = 4 * h * h + 3 * h * f + 2 * h  # q k v o, gate up down, two rms norms
    expected = v * h + 2 * per_layer + h  # tied embeddings, final norm
    arch = get_model("course-tiny")
    assert arch.num_params == expected == arch.published_params
    assert arch.source == "this course"


def test_tensor_listing_is_complete_and_named_uniquely():
    tensors = parameter_tensors(get_model("llama3-8b"))
    names = [t.name for t in tensors]
    assert len(names) == len(set(names))
    assert "lm_head.weight" in names  # untied
    assert "layers.0.self_attn.k_proj.weight" in names
    k = next(t for t in tensors if t.name == "layers.0.self_attn.k_proj.weight")
    assert k.shape == (1024, 4096)  # 8 kv heads x head_dim 128
    assert not any(name.endswith(".bias") for name in names)
    gpt2 = [t.name for t in parameter_tensors(get_model("gpt2-small"))]
    assert "lm_head.weight" not in gpt2  # tied
    assert "embed_positions.weight" in gpt2
    assert "layers.11.attn.c_attn.bias" in gpt2


def _fields(**changes):
    base = dict(
        key="x", display_name="x", num_layers=2, hidden_size=32, num_heads=4, num_kv_heads=2,
        ffn_hidden_size=64, vocab_size=10, norm="rmsnorm", mlp="swiglu", bias=False,
        tied_embeddings=True, max_positions=None, published_params=1, source="test",
    )
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"num_heads": 5}, "num_heads=5 must divide hidden_size=32"),
        ({"num_kv_heads": 3}, "num_kv_heads=3 must divide num_heads=4"),
        ({"num_layers": 0}, "num_layers=0 must be a positive integer"),
        ({"hidden_size": 32.0}, "hidden_size=32.0 must be a positive integer"),
        ({"norm": "batchnorm"}, "norm='batchnorm'"),
        ({"mlp": "relu"}, "mlp='relu'"),
        ({"max_positions": 0}, "max_positions=0"),
    ],
)
def test_architecture_validation_names_the_value(changes, message):
    with pytest.raises(ValueError, match=message):
        Architecture(**_fields(**changes))


def test_get_model_lists_allowed_keys():
    with pytest.raises(ValueError, match=r"allowed: .*llama3-70b"):
        get_model("llama-70b")


def test_bloom_by_hand_with_its_embedding_layernorm():
    # BigScience's README: each block 12 h^2 + 13 h; the tied embedding v h; a LayerNorm
    # (2 h) after the embedding and one at the end; ALiBi has no parameters. The BLOOM paper
    # gives 176,247M.
    from distlesson.catalog.published_runs import BLOOM_176B
    h, v, layers = 14336, 250880, 70
    by_hand = layers * (12 * h * h + 13 * h) + v * h + 2 * h + 2 * h
    assert BLOOM_176B.num_params == by_hand == BLOOM_176B.published_params
    assert round(by_hand / 1e6) == 176_247
