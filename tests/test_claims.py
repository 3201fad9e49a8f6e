"""The claims register: each source figure against a value derived here by hand."""

import math

import pytest

from distlesson.claims.claim import LOCALES, Claim, Figure, placeholders
from distlesson.claims.register import CLAIMS, claim_figures, get_claim
from distlesson.site.prose_lint import typed_numbers

LLAMA3_70B = 70_553_706_496
LLAMA3_405B = 405_853_388_800
GPU = 80e9  # H100 SXM and A100 80GB, nominal

# id -> (stated in the source, computed by hand here, agrees)
EXPECTED = {
    # ca §1: "~1,1 TB" for 70B at 16 B/param
    "ca_states_total": (1.1e12, 70e9 * (2 + 2 + 4 + 4 + 4), True),
    "ca_gpus_to_hold": (14, math.ceil(1120 / 80), True),
    # 2 + 2 + 4 + two moments of (1 byte + 4 bytes / 256)
    "ca_eight_bit_adam": (10.0, 8 + 2 * (1 + 4 / 256), True),
    "ca_lion": (12.0, 2 + 2 + 4 + 4, True),
    # fa: the problem: two fp32 moments of 7B; weights + grads + moments without master
    "fa_adam_moments": (28e9, 7e9 * 4 * 2, False),
    "fa_states_before_activations": (56e9, 7e9 * (2 + 2 + 8), False),
    # with the master copy mixed precision saves nothing against fp32 (16 vs 16)
    "fa_mixed_precision_savings": (0.25, 1 - 16 / 16, False),
    # 405e9 x 12 B = 4860 GB over 80 GB = 60.75
    "fa_gpus_for_largest_llama": (61, math.ceil(4860 / 80), True),
    # 70e9 x 12 B = 840 GB over 80 GB = 10.5
    "fa_min_gpus_states": (3, math.ceil(840 / 80), False),
    "fa_fsdp_gpus": (16, math.ceil(840 / 80), False),
    # two fp32 moments of 70e9 = 560 GB over 80 GB
    "fa_optimizer_gpus": (7, 560 / 80, True),
}


def _tp_layer_seconds(bandwidth):
    """Llama 3 70B, s = 8192, tp = 8: four all-reduces of s h bf16 values against the layer's
    6 x matmul weights + 12 s h FLOPs per token at 40 % of 989 TFLOP/s."""
    h, kv, f, s, tp = 8192, 1024, 28672, 8192, 8
    sent = 4 * 2 * (tp - 1) / tp * s * h * 2
    flops = (6 * (2 * h * h + 2 * kv * h + 3 * h * f) + 12 * s * h) * s / tp
    return sent / bandwidth / (flops / (0.4 * 989e12))


def _deepseek_v3_active():
    h, layers, dense = 7168, 61, 3
    mla = (h * 1536 + 1536 + 1536 * 128 * 192 + h * 576 + 512 + 512 * 128 * 256
           + 128 * 128 * h)
    expert = 3 * h * 2048
    moe = mla + 2 * h + 256 * h + 256 + 9 * expert  # router, bias, 8 routed + 1 shared
    return dense * (mla + 2 * h + 3 * h * 18432) + (layers - dense) * moe + 129280 * h + h


# The parallelism chapter: ZeRO's factors at 16 GPUs are 16 / (kept + sharded / 16).
EXPECTED |= {
    "ca_zero_one_factor": (4.0, 16 / (2 + 2 + 12 / 16), False),
    "fa_zero_one_factor": (4.0, 16 / (2 + 2 + 12 / 16), False),
    "fa_zero_two_factor": (8.0, 16 / (2 + 14 / 16), False),
    "ca_tp_nvlink_share": (0.14, _tp_layer_seconds(450e9), True),
    "ca_tp_infiniband_ratio": (1.3, _tp_layer_seconds(50e9), True),
    "fa_deepseek_active": (37e9, _deepseek_v3_active(), True),
    # 1F1B bubble (p - 1)/(m + p - 1): p = 4 with m = 8, 1 and 16 microbatches
    "ca_pipeline_bubble": (0.273, 3 / 11, True),
    "fa_bubble_one_microbatch": (0.75, 3 / 4, True),
    "fa_bubble_sixteen": (0.19, 3 / 19, False),
    # Llama 3 70B at s = 8192 with FlashAttention: a layer keeps 34 s b h without
    # recomputation, 2 s b h with it; 80 layers, plus one layer recomputed at the peak
    "ca_checkpoint_ten_x": (10.0, 80 * 34 / (80 * 2 + 34), False),
    # one more forward (2 FLOPs per weight and token) over forward + backward (2 + 4)
    "ca_recompute_thirty": (0.30, 2 / 6, True),
    "fa_recompute_thirty_three": (0.33, 2 / 6, True),
    # s = 2048, h = 4096, a = 32: 5 a s / h = 80, so s h (34 + 80) bytes
    "fa_layer_activations": (64e9, 2048 * 4096 * 114, False),
    # Llama 3 8B, r = 16 on q, k, v, o: r (4096 + 4096) x 2 + r (4096 + 1024) x 2 per layer
    # H100: 989e12 FLOP/s over 3.35e12 B/s; decode of one token through an h x h bf16 matrix,
    # h = 8192: 2 h^2 FLOPs over 2 (h + h^2 + h) bytes = h / (h + 2)
    "ca_ridge_point": (296.0, 989 / 3.35, True),
    "ca_decode_intensity": (1.0, 8192 / 8194, True),
    "ca_decode_share": (0.0034, 8192 / 8194 / (989 / 3.35), True),
    # a batch B: intensity B h / (h + 2 B) >= R  <=>  B >= R h / (h - 2 R) = 318.2
    "ca_decode_batch_ridge": (512, math.ceil(989 / 3.35 * 8192 / (8192 - 2 * 989 / 3.35)),
                              False),
    # 8192 tokens through an h -> 4h matrix: 2 m k n / (2 (m k + k n + m n)) = 4 h / 9
    "ca_training_intensity": (3641.0, 4 * 8192 / 9, True),
    # model card: 30.84M H100-hours at the lesson's $3.50; DeepSeek: 2.788M x $2
    # 6 x 405e9 x 16e6 FLOPs over 13.327 s x 16,384 x 989e12 FLOP/s
    "ca_mfu_two_ways": (0.180, 6 * 405e9 * 16e6 / (13.327 * 16384 * 989e12), True),
    "fa_cost_llama": (100e6, 30.84e6 * 3.5, True),
    "fa_cost_deepseek": (5.6e6, 2.788e6 * 2, True),
    "ca_lora_optimizer_states": (0.99, 1 - 32 * 16 * (2 * 8192 + 2 * 5120) / 8_030_261_248,
                                 True),
}


def _adafactor_llama3_70b_bpp():
    h, kv, f, v, layers = 8192, 1024, 28672, 128256, 80
    per_layer = 2 * (h + h) + 2 * (kv + h) + 3 * (f + h) + 2 * h
    values = layers * per_layer + 2 * (v + h) + h
    return 8 + values * 4 / LLAMA3_70B


def test_register_has_every_claim_once():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert set(ids) == {*EXPECTED, "ca_adafactor"}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_stated_computed_and_agreement(claim_id):
    stated, computed, agrees = EXPECTED[claim_id]
    claim = get_claim(claim_id)
    assert claim.stated == stated
    assert claim.computed_value == pytest.approx(computed, rel=1e-12, abs=1e-12)
    assert claim.agrees is agrees


def test_adafactor_factored_state_is_tiny_so_the_source_is_high():
    claim = get_claim("ca_adafactor")
    assert claim.stated == 8.1
    assert claim.computed_value == pytest.approx(_adafactor_llama3_70b_bpp(), rel=1e-12)
    assert not claim.agrees


def test_extras_by_hand():
    figures = claim_figures()
    assert figures["claim.ca_states_total.exact_count"] == (LLAMA3_70B * 16, "bytes")
    assert figures["claim.fa_gpus_for_largest_llama.with_master"] == (
        math.ceil(LLAMA3_405B * 16 / GPU), "count")
    assert figures["claim.fa_gpus_for_largest_llama.with_master"][0] == 82
    assert figures["claim.fa_states_before_activations.with_master"][0] == 7e9 * 16
    assert figures["claim.fa_mixed_precision_savings.without_master"][0] == 1 - 12 / 16
    assert figures["claim.fa_min_gpus_states.with_master"][0] == 1120 / 80
    assert figures["claim.fa_fsdp_gpus.with_master"][0] == 1120 / 80
    assert figures["claim.fa_fsdp_gpus.per_gpu_at_source_dp"][0] == 840e9 / 8
    assert figures["claim.fa_optimizer_gpus.with_master"][0] == math.ceil(70e9 * 12 / GPU)


def test_every_placeholder_resolves_and_prose_has_no_digits():
    figures = claim_figures()
    for claim in CLAIMS:
        for texts in (claim.statement, claim.why):
            assert "en" in texts and set(texts) <= set(LOCALES)
            for text in texts.values():
                for name in placeholders(text):
                    assert name in figures, (claim.id, name)
                # the site's own lint: digits only inside placeholders and names (fp32, 1F1B)
                assert not typed_numbers(text), (claim.id, text)


def test_figures_have_units():
    for name, (value, unit) in claim_figures().items():
        assert name.startswith("claim.")
        assert unit in ("bytes", "count", "fraction", "bytes_per_param", "ratio", "usd",
                        "flop_per_byte")
        assert math.isfinite(value)


def _claim(**changes):
    fields = dict(id="test_claim", source="test", statement={"en": "a {{ claim.x.stated }}"},
                  stated=1.0, computed=lambda: 1.0, unit="count", rel_tol=0.0,
                  why={"en": "because"})
    fields.update(changes)
    return Claim(**fields)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"statement": {"en": "needs 16 bytes"}}, "types a digit"),
        ({"why": {"en": "ok", "fa": "شانزده ۱۶ بایت"}}, r"why\[fa\] types a digit"),
        ({"statement": {"ca": "sense anglès"}}, "needs an 'en' text"),
        ({"why": {"en": "ok", "de": "gut"}}, "locale='de'"),
        ({"id": "claim7"}, "lowercase letters"),
        ({"unit": "GB"}, "unit='GB'"),
        ({"rel_tol": -0.1}, "rel_tol=-0.1"),
        ({"extras": (Figure("a", lambda: 1, "count"), Figure("a", lambda: 2, "count"))},
         "repeat"),
    ],
)
def test_claim_validation(changes, message):
    with pytest.raises(ValueError, match=message):
        _claim(**changes)


def test_names_with_digits_are_allowed_and_agreement_is_derived():
    claim = _claim(statement={"en": "Llama 3 70B on an H100 in bf16 and fp32"},
                   stated=100.0, computed=lambda: 104.0, rel_tol=0.05)
    assert claim.agrees
    assert not _claim(stated=100.0, computed=lambda: 106.0, rel_tol=0.05).agrees


def test_unknown_claim():
    with pytest.raises(ValueError, match="allowed: ca_states_total"):
        get_claim("nope")
