"""The claims register of the efficiency chapters: the roofline's numbers, the cost of
published runs, and the MFU of the Catalan chapter's step.

Like :mod:`distlesson.claims.register`, each claim keeps the source's number as a typed input and
computes the same quantity with the library. Assembled into the register there.
"""

from __future__ import annotations

from fractions import Fraction

from distlesson.catalog.hardware import get_gpu
from distlesson.claims.claim import Claim, Figure
from distlesson.efficiency.cost import deepseek_v3_cost_usd, llama3_405b_cost
from distlesson.efficiency.mfu import mfu
from distlesson.efficiency.roofline import decode_batch_at_ridge, matmul_intensity, ridge_point

__all__ = ["efficiency_claims"]

H100 = "h100-sxm"
HIDDEN = 8192  # the Catalan chart's weight matrices: width 8192 (Llama 3 70B)
TRAINING_TOKENS = 8192  # its "8 k tokens"


def _h100_ridge() -> Fraction:
    return ridge_point(get_gpu(H100))


def _decode() -> Fraction:
    return matmul_intensity(1, HIDDEN, HIDDEN)


def _roofline_claims() -> list[Claim]:
    return [
        Claim(
            id="ca_ridge_point", source="ca §5 (widget: the hardware's roof)",
            unit="flop_per_byte", stated=296.0, chapter="hardware",
            computed=_h100_ridge,
            statement={"en": "The H100's ridge point is "
                       "{{ claim.ca_ridge_point.stated }}."},
            why={"en": "The datasheet's dense bf16 peak over its memory bandwidth gives "
                 "{{ claim.ca_ridge_point.computed }}, which rounds one below the source's "
                 "figure: the source divides a peak rounded up to "
                 "{{ claim.ca_ridge_point.rounded_peak }} TFLOP/s by the same bandwidth. The "
                 "difference is in an input's rounding, not in the method."},
            extras=(Figure("rounded_peak", lambda: 990, "count"),),
        ),
        Claim(
            id="ca_decode_intensity", source="ca §5 (widget: the hardware's roof)",
            unit="flop_per_byte", stated=1.0, chapter="hardware",
            precision=0.1,  # the widget shows "1,0 FLOP/byte",
            computed=_decode,
            statement={"en": "Decoding one token multiplies a vector by the weights at "
                       "{{ claim.ca_decode_intensity.stated }}, not the two often quoted."},
            why={"en": "Each weight read, two bytes in bf16, serves one multiplication and "
                 "one addition; with the vector and the output also moved, the intensity is "
                 "{{ claim.ca_decode_intensity.computed }}. The often quoted two is per "
                 "parameter, not per byte."},
        ),
        Claim(
            id="ca_decode_share", source="ca §5 (widget: the hardware's roof)",
            unit="fraction", stated=0.0034, chapter="hardware",
            computed=lambda: _decode() / _h100_ridge(),
            statement={"en": "At batch one the GPU does at most "
                       "{{ claim.ca_decode_share.stated }} of what it could."},
            why={"en": "Attainable throughput is bandwidth times intensity, so the share of "
                 "the peak is the intensity over the ridge point: "
                 "{{ claim.ca_decode_share.computed }}."},
        ),
        Claim(
            id="ca_decode_batch_ridge", source="ca §5", unit="count", stated=512,
            chapter="hardware",
            computed=lambda: decode_batch_at_ridge(get_gpu(H100), HIDDEN),
            statement={"en": "Decoding reaches the H100's ridge with about "
                       "{{ claim.ca_decode_batch_ridge.stated }} tokens at once."},
            why={"en": "The intensity of a batch of decodes grows almost like the batch, so "
                 "it crosses the ridge at {{ claim.ca_decode_batch_ridge.computed }} "
                 "sequences for weights of this width; the source's figure is the next "
                 "power of two."},
        ),
        Claim(
            id="ca_training_intensity", source="ca §5 (widget: the hardware's roof)",
            unit="flop_per_byte", stated=3641.0, chapter="hardware",
            computed=lambda: matmul_intensity(TRAINING_TOKENS, HIDDEN, 4 * HIDDEN),
            statement={"en": "A training step with {{ claim.ca_training_intensity.tokens }} "
                       "tokens reaches {{ claim.ca_training_intensity.stated }}."},
            why={"en": "That is the intensity of those tokens through a weight matrix from "
                 "the model's width to four times it: {{ claim.ca_training_intensity.computed }}"
                 ", far above the ridge."},
            extras=(Figure("tokens", lambda: TRAINING_TOKENS, "count"),),
        ),
    ]


def _cost_claims() -> list[Claim]:
    llama = llama3_405b_cost
    return [
        Claim(
            id="fa_cost_llama", source="fa: exercises", unit="usd", stated=100e6,
            chapter="planning", computed=lambda: llama().reported_cost_usd,
            statement={"en": "Training Llama 3 405B cost about "
                       "{{ claim.fa_cost_llama.stated }} in compute."},
            why={"en": "Meta reports {{ claim.fa_cost_llama.gpu_hours }} H100 GPU-hours for "
                 "it; at the lesson's price for an H100-hour that is "
                 "{{ claim.fa_cost_llama.computed }}. From the paper's FLOPs at its reported "
                 "MFU the estimate is lower, "
                 "{{ claim.fa_cost_llama.low | to claim.fa_cost_llama.high }}: the GPU-hours "
                 "include more than the final run at its best utilisation."},
            extras=(
                Figure("gpu_hours", lambda: llama().run.gpu_hours, "count"),
                Figure("low", lambda: llama().estimated_cost_usd[0], "usd"),
                Figure("high", lambda: llama().estimated_cost_usd[1], "usd"),
            ),
        ),
        Claim(
            id="fa_cost_deepseek", source="fa: exercises", unit="usd", stated=5.6e6,
            chapter="planning", computed=deepseek_v3_cost_usd,
            statement={"en": "DeepSeek-V3 cost about {{ claim.fa_cost_deepseek.stated }}."},
            why={"en": "The report's H800 GPU-hours at its assumed rental price give "
                 "{{ claim.fa_cost_deepseek.computed }}, for the final training run only, "
                 "not the research before it."},
        ),
    ]


# The Catalan chapter's step, as it states it: 405G parameters, 16M tokens, 13.327 s,
# 16,384 H100s (its widget's inputs).
CA_STEP = {"params": 405e9, "tokens": 16e6, "step_time": 13.327, "gpus": 16384}


def _mfu_claims() -> list[Claim]:
    def computed() -> float:
        flops = 6 * CA_STEP["params"] * CA_STEP["tokens"]
        return mfu(flops, step_time=CA_STEP["step_time"], gpus=CA_STEP["gpus"],
                   peak_flops=get_gpu(H100).bf16_dense_flops)

    return [
        Claim(
            id="ca_mfu_two_ways", source="ca §4 (widget: where the time goes)",
            unit="fraction", stated=0.180, chapter="mfu", computed=computed,
            precision=0.001,  # written "18,0 %"
            statement={"en": "Six FLOPs per parameter and token for "
                       "{{ claim.ca_mfu_two_ways.params }} parameters and "
                       "{{ claim.ca_mfu_two_ways.tokens }} tokens per step, over the step's "
                       "time and the peak of {{ claim.ca_mfu_two_ways.gpus }} H100s, give an "
                       "MFU of {{ claim.ca_mfu_two_ways.stated }}."},
            why={"en": "The arithmetic holds: {{ claim.ca_mfu_two_ways.computed }} with the "
                 "H100's dense bf16 peak."},
            extras=(Figure("params", lambda: CA_STEP["params"], "count"),
                    Figure("tokens", lambda: CA_STEP["tokens"], "count"),
                    Figure("gpus", lambda: CA_STEP["gpus"], "count")),
        ),
    ]


def efficiency_claims() -> list[Claim]:
    """The efficiency chapters' claims, in the order of the chapters."""
    return [*_roofline_claims(), *_mfu_claims(), *_cost_claims()]
