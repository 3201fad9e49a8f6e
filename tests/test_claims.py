"""The claims register: each source figure against a value derived here by hand."""

import math
from decimal import Decimal

import pytest

from distlesson.claims.claim import LOCALES, Claim, Figure, place_value, placeholders
from distlesson.claims.register import CLAIMS, claim_figures, get_claim
from distlesson.site.prose_lint import typed_numbers
from tests.hand_counts import llama_layer_bytes_per_token

LLAMA3_70B = 70_553_706_496
LLAMA3_405B = 405_853_388_800
GPU = 80e9  # H100 SXM and A100 80GB, nominal

# id -> (stated in the source, computed by hand here, agrees)
V70, H70, KV70, F70 = 128_256, 8192, 8 * 128, 28_672  # Llama 3 70B's vocabulary and widths
STAGE0_70B = 20 * (LLAMA3_70B - 2 * V70 * H70 - H70) // 80 + V70 * H70  # 20 layers, embedding
WIDGET_BUSIEST = (
    (4 * STAGE0_70B / 8 + 12 * STAGE0_70B / (8 * 16)  # bf16 w + g over tp; the rest over dp too
     + 20 * 4 * 2 * 8192 * H70 / 8  # each layer's input, 4 micro-batches in flight
     # one layer rebuilt in the backward: norms' inputs and outputs, attention output, q k v,
     # gate up activation (bf16), 64 heads' log-sum-exp and two norm statistics (fp32)
     + llama_layer_bytes_per_token(H70, KV70, F70, 64) * 8192 / 8)
    / 0.95 + 2e9)  # 5% fragmentation, 1 GB CUDA context, 1 GB communicator buffers
"""The Catalan widget's layout, counted by hand as the performance model counts it."""


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


def _tp_layer_seconds(bandwidth, scores=12):
    """Llama 3 70B, s = 8192, tp = 8: four all-reduces of s h bf16 values against the layer's
    6 x matmul weights + 12 s h FLOPs per token (6 s h: the causal half of the scores) at
    40 % of 989 TFLOP/s."""
    h, kv, f, s, tp = 8192, 1024, 28672, 8192, 8
    sent = 4 * 2 * (tp - 1) / tp * s * h * 2
    flops = (6 * (2 * h * h + 2 * kv * h + 3 * h * f) + scores * s * h) * s / tp
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
    # 1.22 rounds to 1.2, not to the source's 1.3 (section 2, item 13 of the review)
    "ca_tp_infiniband_ratio": (1.3, _tp_layer_seconds(50e9), False),
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
    # 295.2 rounds to 295: the source divided a peak rounded up to 990
    "ca_ridge_point": (296.0, 989 / 3.35, False),
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
    # "hardware failures are daily events" (at least one a day): Llama 3's Table 5, GPU
    # rows 148 + 72 + 19 + 17 + 6 + 6 = 268, host 7 + 3 + 3 + 2 + 2 + 2 + 2 = 21, network
    # 35: 324 in 54 days = 6.0 a day
    "ca_failures_daily": (1, 324 / 54, True),
}


# The claims added from the sources' listings and the review's coverage table.
S, H70, H405 = 2048, 8192, 16384  # the Persian calculator's sequence; Llama 3 widths
FLASH_70B = 80 * 34 * S * H70  # bytes: 80 layers keeping 34 s h each (no attention scores)
FLASH_405B = 126 * 34 * S * H405
FLASH_7B = 32 * 34 * S * 4096  # the lesson's own shape: width 4096, 32 layers
TWO_P = 2 * LLAMA3_70B  # bf16 weights (or gradients) of Llama 3 70B
ACT = 8192 * 8192 * 2  # one bf16 activation of a sequence of 8192 tokens, width 8192
RING = 2 * 7 / 8  # all-reduce over tp = 8: 2 (n - 1)/n of the buffer


def _deepseek_v3_total():
    h = 7168
    mla = (h * 1536 + 1536 + 1536 * 128 * 192 + h * 576 + 512 + 512 * 128 * 256
           + 128 * 128 * h)
    dense = 3 * (mla + 2 * h + 3 * h * 18432)
    moe = 58 * (mla + 2 * h + 256 * h + 256 + (256 + 1) * 3 * h * 2048)
    return dense + moe + 2 * 129280 * h + h  # untied embedding and head, final norm


EXPECTED |= {
    # "FP32 (32-byte)": 32 bits are 4 bytes
    "fa_master_weight_bytes": (32, 32 / 8, False),
    # course decoder, 4 blocks of 4 x 32^2 + 3 x 88 x 32 + 2 x 32, tied 96 x 32, final norm
    "ca_model_size": (28_832, 4 * (4 * 32 * 32 + 3 * 88 * 32 + 2 * 32) + 96 * 32 + 32, False),
    # the demo's memory table: states at 12 B/param over the GPUs + activations, s = 2048
    "fa_calc_seven_b_one_gpu": (91.0e9, 7e9 * 12 + FLASH_7B, False),
    "fa_calc_seven_b_fsdp_eight": (17.5e9, 7e9 * 12 / 8 + FLASH_7B, False),
    "fa_calc_seventy_b_one_gpu": (910.0e9, 70e9 * 12 + FLASH_70B, False),
    "fa_calc_seventy_b_fsdp_eight": (175.0e9, 70e9 * 12 / 8 + FLASH_70B, False),
    "fa_calc_seventy_b_fsdp_sixteen": (122.5e9, 70e9 * 12 / 16 + FLASH_70B, False),
    "fa_calc_largest_fsdp_sixty_four": (480.9e9, 405e9 * 12 / 64 + FLASH_405B, False),
    "fa_calc_largest_fsdp_one_twenty_eight": (443.0e9, 405e9 * 12 / 128 + FLASH_405B,
                                              False),
    # ZeRO-2: reduce-scatter + all-gather, (n-1)/n W each, against 2 (n-1)/n W
    "fa_zero_two_traffic": (1.0, 1.0, False),
    # a ring all-reduce over 8 GPUs: 7 rounds of reduce-scatter, 7 of all-gather
    "fa_ring_steps": (7, 2 * (8 - 1), False),
    # the H100's NVLink: 900 GB/s both directions summed
    "fa_nvlink_bandwidth": (900e9, 900e9 / 2, False),
    # the Catalan chapter's NVLink 4, already one way
    "ca_link_bandwidths": (450e9, 450e9, True),
    "fa_moe_memory": (37e9, _deepseek_v3_total(), False),
    # 2,048 H800s against 16,384 H100s
    "fa_moe_gpu_share": (1 / 8, 2048 / 16384, False),
    # the widget: Llama 3 70B, dp 16 x tp 8 x pp 4, ZeRO-1, 8 micro-batches of one sequence,
    # full recomputation; the busiest GPU is on the first stage (see WIDGET_BUSIEST below)
    "ca_widget_memory": (11.7e9, WIDGET_BUSIEST, False),
    "ca_widget_dp_traffic": (8.2e9, 2 * 15 / 16 * TWO_P / 32, False),
    # six all-reduces per layer and micro-batch (the rerun forward's two), 20 layers, 8
    "ca_widget_tp_traffic": (150e9, 6 * RING * ACT * 20 * 8, False),
    "ca_widget_pp_traffic": (0.5e9, 2 * ACT / 8 * 8, False),
    "ca_widget_total_traffic": (159e9, 2 * 15 / 16 * TWO_P / 32 + 6 * RING * ACT * 20 * 8
                                + 2 * ACT / 8 * 8, False),
    # the strategy table: 16 GPUs, 128 sequences per step (8 micro-batches per replica)
    "ca_table_zero_two_traffic": (263e9, (8 + 1) * 15 / 16 * TWO_P, False),
    "ca_table_zero_three_traffic": (394e9, 8 * 3 * 15 / 16 * TWO_P, False),
    # tp 8 x dp 2: 64 micro-batches of 80 layers x 6 all-reduces, + the dp all-reduce
    "ca_table_tp_traffic": (601e9, 6 * RING * ACT * 80 * 64 + TWO_P / 8, False),
    # pp 16: 128 micro-batches, each an activation forward and a gradient back
    "ca_table_pp_traffic": (4.3e9, 2 * ACT * 128, False),
    # ZeRO-Offload: 14 B/param offloaded exceed one node's 512 GB: two nodes of 8 GPUs
    "fa_offload_gpus": (8, math.ceil(70e9 * 14 / 512e9) * 8, False),
    # EP: dispatch and combine forward, their mirrors backward, per MoE layer
    "ca_ep_all_to_all": (1, 4, False),
    # DeepSeek-V3: 6 x 36,625,618,432 active x 14.8e12 tokens over 2.664M pre-training
    # H800-hours at 989 TFLOP/s bf16: 34.3 %, below the 35 % of good dense runs
    "ca_moe_mfu": (0.35, 6 * 36_625_618_432 * 14.8e12 / (2.664e6 * 3600 * 989e12), True),
    # 671,026,419,200 total / 36,625,618,432 active: 18.3, at least an order of magnitude
    "fa_moe_order": (10, 671_026_419_200 / 36_625_618_432, True),
}


def _adafactor_llama3_70b_bpp():
    h, kv, f, v, layers = 8192, 1024, 28672, 128256, 80
    per_layer = 2 * (h + h) + 2 * (kv + h) + 3 * (f + h) + 2 * h
    values = layers * per_layer + 2 * (v + h) + h
    return 8 + values * 4 / LLAMA3_70B


def test_register_has_every_claim_once():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert set(ids) == {*EXPECTED, "ca_adafactor", "fa_dp_unweighted_mean"}


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
        assert unit in ("bytes", "bytes_per_second", "count", "fraction", "bytes_per_param",
                        "ratio", "usd", "flop_per_byte")
        assert math.isfinite(value)


def _claim(**changes):
    fields = dict(id="test_claim", source="test", statement={"en": "a {{ claim.x.stated }}"},
                  stated=1.0, computed=lambda: 1.0, unit="count", why={"en": "because"})
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
        ({"relation": "roughly"}, "relation='roughly'"),
        ({"precision": 0.2}, "power of ten"),
        ({"precision": -0.1}, "power of ten"),
        ({"precision": 0.1, "relation": "at_most"}, "only to relation='about'"),
        ({"stated": 0.0}, "explicit precision"),
        ({"extras": (Figure("a", lambda: 1, "count"), Figure("a", lambda: 2, "count"))},
         "repeat"),
    ],
)
def test_claim_validation(changes, message):
    with pytest.raises(ValueError, match=message):
        _claim(**changes)


def test_names_with_digits_are_allowed_and_agreement_is_derived():
    claim = _claim(statement={"en": "Llama 3 70B on an H100 in bf16 and fp32"},
                   stated=104.0, computed=lambda: 104.4)
    assert claim.agrees
    assert not _claim(stated=104.0, computed=lambda: 104.6).agrees


@pytest.mark.parametrize(("value", "place"), [
    (0.273, 0.001), (37e9, 1e9), (296.0, 1), (10.0, 10), (100e6, 1e8), (1.1e12, 1e11),
    (0.0034, 0.0001), (122.5e9, 1e8), (4.0, 1),
])
def test_place_value_is_the_last_significant_digit(value, place):
    assert place_value(value) == pytest.approx(place, rel=1e-12)


@pytest.mark.parametrize(("stated", "relation", "precision", "computed", "agrees"), [
    # "1.3x" is written to a tenth: 1.22 rounds to 1.2, 1.26 to 1.3
    (1.3, "about", None, 1.22, False),
    (1.3, "about", None, 1.26, True),
    # "10.0" written with its decimal: 10.04 rounds to it, 10.06 does not
    (10.0, "about", 0.1, 10.04, True),
    (10.0, "about", 0.1, 10.06, False),
    # "~30 %": one significant figure, so 33 % rounds to it
    (0.30, "about", None, 1 / 3, True),
    # "up to 10x" is a bound: rounding does not widen it
    (10.0, "at_most", None, 14.02, False),
    (10.0, "at_most", None, 3.4, True),
    (0.99, "at_least", None, 0.998, True),
    (0.99, "at_least", None, 0.989, False),
    (1.0, "more_than", None, 1.0, False),
    (1.0, "more_than", None, 1.5, True),
    (0.125, "less_than", None, 0.125, False),
])
def test_one_rule_decides_every_verdict(stated, relation, precision, computed, agrees):
    claim = _claim(stated=stated, relation=relation, precision=precision,
                   computed=lambda: computed)
    assert claim.agrees is agrees


def test_about_claims_agree_exactly_when_the_computed_value_rounds_to_the_source():
    """The register's verdicts by rounding at the source's precision, done here with
    Decimal's half-even quantize, independently of Claim.agrees."""
    for claim in CLAIMS:
        if claim.relation != "about":
            continue
        place = Decimal(repr(claim.precision or place_value(claim.stated)))
        rounded = (Decimal(repr(claim.computed_value)) / place).quantize(Decimal(1)) * place
        expected = rounded == Decimal(repr(float(claim.stated)))
        assert claim.agrees is expected, claim.id


# Precision written in the source where the value alone cannot show it (a trailing zero):
WRITTEN = {
    "ca_eight_bit_adam": 0.1,  # "10,0 bytes per paràmetre"
    "ca_lion": 0.1,  # "12,0"
    "ca_adafactor": 0.1,  # "8,1"
    "ca_mfu_two_ways": 0.001,  # "MFU 18,0 %"
    "ca_decode_intensity": 0.1,  # "1,0 FLOP/byte"
    "ca_widget_tp_traffic": 1e9,  # "TP 150" GB
    "fa_calc_seven_b_one_gpu": 1e8,  # "91.0GB"
    "fa_calc_seventy_b_one_gpu": 1e8,  # "910.0GB"
    "fa_calc_seventy_b_fsdp_eight": 1e8,  # "175.0GB"
    "fa_calc_largest_fsdp_one_twenty_eight": 1e8,  # "443.0GB"
}


@pytest.mark.parametrize("claim_id", sorted(WRITTEN))
def test_tolerance_is_half_the_last_written_digit(claim_id):
    assert get_claim(claim_id).tolerance == pytest.approx(WRITTEN[claim_id] / 2, rel=1e-12)


def test_bounds_have_no_tolerance_and_their_own_relation():
    relations = {c.id: c.relation for c in CLAIMS if c.relation != "about"}
    assert relations == {"ca_checkpoint_ten_x": "at_most",  # "fins a 10x"
                         "ca_lora_optimizer_states": "at_least",  # "elimina el 99%"
                         "fa_zero_two_traffic": "more_than",  # "slightly more"
                         "fa_moe_gpu_share": "less_than",  # "less than 1/8"
                         "ca_moe_mfu": "less_than",  # MFUs lower than dense runs' 35 %
                         "fa_moe_order": "at_least",  # "by an order of magnitude"
                         "ca_failures_daily": "at_least"}  # "esdeveniments diaris"
    assert all(get_claim(i).tolerance == 0 for i in relations)


def test_unknown_claim():
    with pytest.raises(ValueError, match="allowed: ca_states_total"):
        get_claim("nope")


def test_extras_of_the_added_claims_by_hand():
    figures = {name: value for name, (value, _) in claim_figures().items()}

    def fig(name):
        return figures[f"claim.{name}"]

    # ZeRO's Figure 1: 7.5B on 64 GPUs, 16 B/param: 120 GB over 31.4 GB and over 16.6 GB
    assert fig("ca_zero_one_factor.paper") == pytest.approx(16 / (4 + 12 / 64), rel=1e-12)
    assert fig("fa_zero_two_factor.paper") == pytest.approx(16 / (2 + 14 / 64), rel=1e-12)
    assert fig("ca_tp_infiniband_ratio.causal_half") == pytest.approx(
        _tp_layer_seconds(50e9, scores=6), rel=1e-12)
    # Llama 3 70B, s = 8192, a = 64: keeping the scores adds 5 a s / h = 320 to the 34
    assert fig("ca_checkpoint_ten_x.with_scores") == pytest.approx(
        80 * (34 + 320) / (80 * 2 + 34 + 320), rel=1e-12)
    # the Catalan widget shows 3.4x for its small model; the library counts the same decoder
    assert fig("ca_checkpoint_ten_x.tiny_model") == pytest.approx(3.4, rel=0.05)
    assert fig("fa_zero_two_traffic.zero_three") == pytest.approx(1.5, rel=1e-12)
    # 8 reduce-scatters of the gradients and one all-gather of the weights, against 2
    assert fig("fa_zero_two_traffic.accumulating") == pytest.approx((8 + 1) / 2, rel=1e-12)
    assert fig("fa_ring_steps.reduce_scatter") == 8 - 1
    assert fig("fa_nvlink_bandwidth.infiniband") == 400e9 / 8
    assert fig("fa_moe_memory.states") == 16 * _deepseek_v3_total()
    assert fig("fa_moe_memory.active_states") == 16 * _deepseek_v3_active()
    assert fig("ca_model_size.two_blocks") == 2 * (4 * 32 * 32 + 3 * 88 * 32 + 2 * 32) \
        + 96 * 32 + 32
    # the calculator: its activation rule, half the weights' bytes, and full recomputation
    assert fig("fa_calc_seventy_b_fsdp_sixteen.listing_activations") == 70e9
    assert fig("fa_calc_seventy_b_fsdp_sixteen.full_recompute") == pytest.approx(
        70e9 * 12 / 16 + 80 * 2 * S * H70, rel=1e-12)
    assert fig("fa_calc_largest_fsdp_one_twenty_eight.full_recompute") == pytest.approx(
        405e9 * 12 / 128 + 126 * 2 * S * H405, rel=1e-12)
    assert fig("fa_calc_seventy_b_one_gpu.states") == 70e9 * 12
    # the widget with the round 70e9: its 11.7 GB and 8.2 GB
    assert fig("ca_widget_memory.nominal") == pytest.approx(
        4 * 70e9 / 32 + 12 * 70e9 / 512 + 20 * 4 * 2 * 8192 * 8192 / 8, rel=1e-12)
    assert fig("ca_widget_dp_traffic.nominal") == pytest.approx(2 * 15 / 16 * 140e9 / 32,
                                                               rel=1e-12)
    assert fig("ca_widget_tp_traffic.four") == pytest.approx(4 * RING * ACT * 20 * 8, rel=1e-12)
    assert fig("ca_widget_pp_traffic.both_ways") == 2 * 2 * ACT / 8 * 8
    # the table: one synchronisation per step, and the source's own micro-batch counts
    assert fig("ca_table_zero_two_traffic.once_per_step") == pytest.approx(2 * 15 / 16 * TWO_P,
                                                                          rel=1e-12)
    assert fig("ca_table_zero_three_traffic.once_per_step") == pytest.approx(
        3 * 15 / 16 * TWO_P, rel=1e-12)
    assert fig("ca_table_tp_traffic.source_way") == pytest.approx(4 * RING * ACT * 80 * 8,
                                                                 rel=1e-12)
    assert fig("ca_table_pp_traffic.source_way") == 2 * ACT * 16
    # offload: 14 B/param of 70e9 in CPU memory; PCIe 2 + 2 bytes per parameter of a shard
    assert fig("fa_offload_gpus.cpu_states") == 70e9 * 14
    assert fig("fa_offload_gpus.nvme") == 8
    assert fig("fa_offload_gpus.pcie") == pytest.approx(4 * 70e9 / 16, rel=1e-12)


def test_claims_page_shows_bounds_and_written_decimals():
    from distlesson.pages.claims_page import figures

    shown = {f.name: f.render("en") for f in figures()}
    assert shown["claim.ca_eight_bit_adam.stated"] == "10.0\u00a0bytes"
    assert shown["claim.fa_calc_seventy_b_fsdp_sixteen.stated"] == "122.5\u00a0GB"
    assert shown["claim.fa_calc_seventy_b_one_gpu.stated"] == "910.0\u00a0GB"
    assert shown["claim.ca_widget_pp_traffic.computed"] == "0.27\u00a0GB"
    # only the lesson's binary slip is shown in MiB and GiB
    assert shown["claim.fa_layer_activations.source_per_layer"] == "64\u00a0MiB"
    assert "GiB" not in shown["claim.ca_widget_tp_traffic.computed"]


def test_claims_page_shows_a_link_bandwidth_as_a_rate():
    """A link's bandwidth is a rate in every language, never bare bytes: the Persian lesson's
    NVLink figure is 900e9 bytes a second (both directions), InfiniBand NDR 400 Gb/s = 50e9
    bytes a second, the one-way NVLink 4 figure 450e9."""
    from distlesson.pages.claims_page import figures

    shown = {(f.name, locale): f.render(locale) for f in figures() for locale in ("en", "fa")}
    assert shown["claim.fa_nvlink_bandwidth.stated", "en"] == "900\u00a0GB/s"
    assert shown["claim.fa_nvlink_bandwidth.computed", "en"] == "450\u00a0GB/s"
    assert shown["claim.fa_nvlink_bandwidth.infiniband", "fa"] == "۵۰\u00a0گیگابایت بر ثانیه"
    assert shown["claim.ca_link_bandwidths.stated", "fa"] == "۴۵۰\u00a0گیگابایت بر ثانیه"
