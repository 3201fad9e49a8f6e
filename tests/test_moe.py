"""The MoE catalog's parameter counts (DeepSeek-V3, Mixtral 8x7B), computed from their
configurations and derived by hand."""

import pytest

from distlesson.catalog.moe import MoEArchitecture, get_moe_model, moe_parameter_tensors

V3 = get_moe_model("deepseek-v3")

# By hand from config.json (h = 7168, 128 heads, q rank 1536, kv rank 512, rope 64, nope 128):
MLA = (7168 * 1536 + 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 + 512 * 128 * 256
       + 128 * 128 * 7168)  # 187,107,328
NORMS = 2 * 7168
EXPERT = 3 * 7168 * 2048
DENSE_LAYER = MLA + NORMS + 3 * 7168 * 18432
MOE_LAYER = MLA + NORMS + 256 * 7168 + 256 + 257 * EXPERT  # router, bias, 256 + 1 shared
EMBEDDINGS = 2 * 129280 * 7168  # untied input and output


def test_mla_by_hand():
    assert MLA == 187_107_328


def test_total_by_hand():
    total = 3 * DENSE_LAYER + 58 * MOE_LAYER + EMBEDDINGS + 7168
    assert V3.num_params == total == 671_026_419_200


def test_active_by_hand():
    # every token: attention, norms, dense MLPs, router, 8 routed + 1 shared experts, the
    # output head; not the input embedding, of which a token reads one row
    active = 3 * DENSE_LAYER + 58 * (MOE_LAYER - 248 * EXPERT) + EMBEDDINGS // 2 + 7168
    assert V3.active_params == active


def test_close_to_the_published_rounded_counts():
    assert V3.num_params == pytest.approx(V3.published_params, rel=0.005)
    # the report rounds to whole billions
    assert abs(V3.active_params - V3.published_active) <= 0.5e9


def test_tensor_names_are_unique():
    names = [t.name for t in moe_parameter_tensors(V3)]
    assert len(names) == len(set(names))


def test_bad_configuration_is_refused():
    fields = {f: getattr(V3, f) for f in V3.__dataclass_fields__}
    message = r"experts_per_token=300 must be in 1\.\.routed_experts=256"
    with pytest.raises(ValueError, match=message):
        MoEArchitecture(**{**fields, "experts_per_token": 300})
    with pytest.raises(ValueError, match="moe model='mixtral' is not known; allowed: "
                       "deepseek-v3, mixtral-8x7b"):
        get_moe_model("mixtral")


# Mixtral 8x7B by hand from config.json (hidden 4096, 32 layers, 32 heads of 128, 8 KV heads,
# intermediate 14336, vocab 32000, untied, 8 experts, top-2, no shared expert, no dense layer):
MX = get_moe_model("mixtral-8x7b")
MX_ATTENTION = 2 * 4096 * 4096 + 2 * 4096 * (8 * 128)  # q, o; k, v: 41,943,040
MX_EXPERT = 3 * 4096 * 14336  # w1, w3, w2: 176,160,768
MX_LAYER = MX_ATTENTION + 8 * MX_EXPERT + 8 * 4096 + 2 * 4096  # experts, router, norms
MX_EMBEDDINGS = 2 * 32000 * 4096


def test_mixtral_total_by_hand():
    assert MX_ATTENTION == 41_943_040 and MX_EXPERT == 176_160_768
    # 32 x 1,451,270,144 + 262,144,000 + 4096 (final norm)
    assert MX.num_params == 32 * MX_LAYER + MX_EMBEDDINGS + 4096 == 46_702_792_704


def test_mixtral_active_by_hand():
    # each token: attention, router, norms, 2 of the 8 experts, the output head
    without = 32 * (MX_LAYER - 6 * MX_EXPERT) + MX_EMBEDDINGS // 2 + 4096
    assert MX.active_params == without == 12_748_853_248
    assert MX.active_params_with_embedding == without + 32000 * 4096 == 12_879_925_248


def test_each_published_active_count_has_its_convention():
    # Mistral's "12.9B" counts the input embedding (12.88B); without it, 12.75B rounds to
    # 12.7B. DeepSeek's "37B" does not (36.63B); with it, 37.55B rounds to 38B.
    assert round(MX.active_params_with_embedding / 1e8) == 129
    assert round(MX.active_params / 1e8) == 127
    assert round(V3.active_params / 1e9) == 37
    assert round(V3.active_params_with_embedding / 1e9) == 38
    for model in (V3, MX):
        # the totals to the authors' rounding: 671B, 46.7B
        digits = 1 if model is MX else 0
        assert round(model.num_params / 1e9, digits) == model.published_params / 1e9
        assert round(model.published_convention_active / 1e9, digits) == pytest.approx(
            model.published_active / 1e9)


def test_mixtral_has_no_shared_expert_no_dense_layer_no_router_bias():
    names = [t.name for t in moe_parameter_tensors(MX)]
    assert len(names) == len(set(names))
    assert not [n for n in names if "shared" in n or "e_score" in n or ".mlp." in n]
    assert "layers.0.block_sparse_moe.experts.7.w2.weight" in names
    assert "layers.31.self_attn.k_proj.weight" in names
    assert MX.moe_layers == 32 and V3.moe_layers == 58
    assert MX.routed_expert_params == 32 * 8 * MX_EXPERT
    assert V3.routed_expert_params == 58 * 256 * EXPERT
