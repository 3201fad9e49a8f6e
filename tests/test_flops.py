"""Training FLOPs against the closed forms printed in Korthikanti et al. (2022), model FLOPs,
and Narayanan et al. (2021, SC21), the same with full recomputation."""

from fractions import Fraction

import pytest

from distlesson.catalog.models import MODELS, get_model
from distlesson.efficiency.flops import (
    layer_flops_per_token,
    matmul_params,
    training_flops_per_token,
)
from distlesson.efficiency.mfu import recompute_flops_per_token


def test_gpt2_matches_korthikanti_model_flops():
    # F / token = 72 s l h^2 (1 + s/(6h) + V/(12 h l)) / s, with s = 1024 tokens per sequence:
    # the source's GPT layer has 12 h^2 matmul weights, as GPT-2 small does.
    h, layers, s, v = 768, 12, 1024, 50257
    expected = 72 * layers * h * h * (1 + Fraction(s, 6 * h) + Fraction(v, 12 * h * layers))
    assert training_flops_per_token(get_model("gpt2-small"), seq_len=s) == expected


def test_narayanan_closed_form_adds_full_recomputation():
    # Narayanan et al. 2021, section 5.1: F / token = 96 l h^2 (1 + s/(6h) + V/(16 l h)):
    # the layers run 4 passes (forward, recomputed forward, backward x 2) instead of 3, the
    # output head (96 l h^2 V / (16 l h) = 6 h V) is not rerun
    h, layers, s, v = 768, 12, 1024, 50257
    expected = 96 * layers * h * h * (1 + Fraction(s, 6 * h) + Fraction(v, 16 * layers * h))
    arch = get_model("gpt2-small")
    hardware = (training_flops_per_token(arch, seq_len=s)
                + recompute_flops_per_token(arch, seq_len=s, recompute="full"))
    assert hardware == expected


def test_llama_layer_by_hand():
    # Llama 3 70B: q, o 8192 x 8192; k, v 1024 x 8192; gate, up, down 8192 x 28672
    h, kv, f = 8192, 1024, 28672
    layer = 2 * h * h + 2 * kv * h + 3 * h * f
    arch = get_model("llama3-70b")
    assert matmul_params(arch, layer=0) == layer
    assert layer_flops_per_token(arch, seq_len=8192) == 6 * layer + 12 * 8192 * h


@pytest.mark.parametrize("key", list(MODELS))
def test_whole_model_is_layers_plus_head(key):
    arch = MODELS[key]
    per_layer = layer_flops_per_token(arch, seq_len=128)
    head = 6 * arch.vocab_size * arch.hidden_size
    assert training_flops_per_token(arch, seq_len=128) == arch.num_layers * per_layer + head


def test_errors_name_the_value():
    arch = get_model("llama3-8b")
    with pytest.raises(ValueError, match="seq_len=0 must be a positive integer"):
        training_flops_per_token(arch, seq_len=0)
    with pytest.raises(ValueError, match=r"layer=32 must be in 0..31"):
        matmul_params(arch, layer=32)
