"""DeepSeek-V3's parameter counts, computed from its configuration and derived by hand."""

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
    with pytest.raises(ValueError, match="moe model='mixtral' is not known; allowed: deepseek-v3"):
        get_moe_model("mixtral")
