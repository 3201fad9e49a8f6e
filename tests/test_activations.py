"""Korthikanti et al. (2022) activation formulas: hand values and the relations between them."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from distlesson.memory.activations import activation_bytes_per_layer

# GPT-3 175B in the paper's Table 3: s = 2048, h = 12288, a = 96, t = 8, b = 1.
GPT3 = dict(seq_len=2048, micro_batch=1, hidden_size=12288, num_heads=96)
SBH = 2048 * 12288  # s b h
SCORES = Fraction(5 * 96 * 2048, 12288)  # 5 a s / h = 80


def test_gpt3_by_hand():
    assert SCORES == 80
    assert activation_bytes_per_layer(**GPT3) == SBH * (34 + 80)  # eq. 1
    assert activation_bytes_per_layer(**GPT3, tp=8) == SBH * (10 + Fraction(24, 8) + 10)  # eq. 2
    assert activation_bytes_per_layer(**GPT3, tp=8, sp=True) == SBH // 8 * 114  # eq. 4
    assert activation_bytes_per_layer(**GPT3, tp=8, sp=True, recompute="selective") == (
        SBH // 8 * 34
    )
    assert activation_bytes_per_layer(**GPT3, recompute="full") == 2 * SBH
    assert activation_bytes_per_layer(**GPT3, tp=8, sp=True, recompute="full") == 2 * SBH // 8


@given(st.integers(1, 4096), st.integers(1, 8), st.sampled_from([64, 128, 4096]),
       st.sampled_from([1, 2, 8, 32]), st.sampled_from([1, 2, 4, 8]))
def test_relations(seq_len, batch, hidden, heads, tp):
    shape = dict(seq_len=seq_len, micro_batch=batch, hidden_size=hidden, num_heads=heads)
    full = activation_bytes_per_layer(**shape)
    # with t = 1, equations 2 and 4 both reduce to equation 1
    assert activation_bytes_per_layer(**shape, sp=True) == full
    # sequence parallelism divides everything by t
    assert activation_bytes_per_layer(**shape, tp=tp, sp=True) == full / tp
    # recomputation only removes bytes
    for recompute in ("selective", "full"):
        assert activation_bytes_per_layer(**shape, tp=tp, sp=True, recompute=recompute) <= (
            full / tp
        )


def test_context_parallel_divides_the_local_tokens():
    per_layer = activation_bytes_per_layer(**GPT3, cp=4)
    # s b h with s = 2048 / 4 local queries, scores still against all 2048 keys
    assert per_layer == SBH // 4 * (34 + 80)
    with pytest.raises(ValueError, match="cp=3 must divide seq_len=2048"):
        activation_bytes_per_layer(**GPT3, cp=3)


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(tp=0), "tp=0 must be a positive integer"),
    (dict(recompute="half"), "recompute='half' is not known; allowed: none, selective, full"),
    (dict(seq_len=2.5), "seq_len=2.5 must be a positive integer"),
])
def test_bad_input_is_named(kwargs, message):
    shape = {**GPT3, **kwargs}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        activation_bytes_per_layer(**shape)


def test_selective_bytes_stay_exact():
    # the zero score term must not turn the exact Fraction into a float
    value = activation_bytes_per_layer(seq_len=2048, micro_batch=1, hidden_size=4096,
                                       num_heads=32, tp=4, recompute="selective")
    assert isinstance(value, Fraction)
    assert value == 2048 * 4096 * (10 + Fraction(24, 4))
