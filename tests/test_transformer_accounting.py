"""Memory counted from the decoder's live arrays: training states against the formulas of
:mod:`distlesson.memory.states`, saved arrays by hand, the L^2 attention term, the crossover, and
Korthikanti et al.'s terms beside the counted ones."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.catalog.models import get_model
from distlesson.memory.activations import activation_bytes_per_layer
from distlesson.memory.states import MemoryBreakdown, model_states
from distlesson.transformer import checkpointing
from distlesson.transformer.accounting import counted_training_states, saved_table
from distlesson.transformer.formula_vs_count import formula_vs_count
from distlesson.transformer.saved_scaling import (
    attention_scalars,
    counted_attention_split,
    counted_peak,
    crossover,
    peak_scalars,
)
from tests.test_transformer_model import tiny_arch

COURSE_TINY = get_model("course-tiny")


@pytest.mark.parametrize(("dtype", "size"), [(np.float64, 8), (np.float32, 4)])
def test_training_states_per_parameter(dtype, size):
    counted = counted_training_states(dtype=dtype)
    # weights, grads, first and second moments: one scalar of `size` bytes each per parameter;
    # no master copy (the weights are already in full precision): 32 or 16 bytes in all
    assert counted.per_param() == MemoryBreakdown(size, size, 0, 2 * size)
    assert counted.per_param().total == 4 * size
    assert counted.num_params == 28_320
    assert counted.weights == 28_320 * size
    assert counted.exp_avg == counted.exp_avg_sq == 28_320 * size
    assert counted.dtype == np.dtype(dtype).name


def test_float32_states_equal_the_fp32_preset_formula():
    counted = counted_training_states(dtype=np.float32)
    assert counted.breakdown() == model_states(COURSE_TINY, optimizer="adamw", precision="fp32")


def test_saved_table_by_hand():
    # course-tiny, B = 1, L = 4. Per block: 4 x 522 = 2088 linear scalars + 64 probs = 2152.
    rows = saved_table(batch_size=1, seq_len=4)
    block0 = {r.name: r for r in rows if r.part == "block 0"}
    assert {n: r.scalars for n, r in block0.items()} == {
        "x": 128, "rstd1": 4, "n1": 128, "qr": 128, "kr": 128, "v": 128, "probs": 64,
        "attn": 128, "h": 128, "rstd2": 4, "n2": 128, "gate": 352, "up": 352, "act": 352}
    assert block0["probs"].share == Fraction(64, 2152)
    assert block0["gate"].nbytes == 352 * 8
    head = {r.name: r.scalars for r in rows if r.part == "head"}
    assert head == {"x": 128, "rstd": 4, "n": 128, "probs": 384, "targets": 4}  # 648
    for part in {r.part for r in rows}:
        assert sum(r.share for r in rows if r.part == part) == 1


@settings(max_examples=20, deadline=None)
@given(layers=st.integers(1, 3), seq_len=st.integers(2, 24), batch=st.integers(1, 2),
       kv_heads=st.sampled_from([1, 2]))
def test_attention_term_is_layers_heads_l_squared(layers, seq_len, batch, kv_heads):
    arch = tiny_arch(kv_heads=kv_heads, layers=layers)
    rows = saved_table(arch, batch_size=batch, seq_len=seq_len)
    counted = sum(r.scalars for r in rows if r.part.startswith("block") and r.name == "probs")
    assert counted == layers * arch.num_heads * seq_len**2 * batch
    assert counted == attention_scalars(arch, seq_len=seq_len, batch_size=batch)


@settings(max_examples=15, deadline=None)
@given(layers=st.integers(1, 3), seq_len=st.integers(2, 20), batch=st.integers(1, 2),
       mode=st.sampled_from(checkpointing.MODES))
def test_peak_formula_equals_the_counted_peak(layers, seq_len, batch, mode):
    arch = tiny_arch(layers=layers)
    formula = peak_scalars(arch, batch_size=batch, seq_len=seq_len, mode=mode)
    counted = counted_peak(arch, batch_size=batch, seq_len=seq_len, mode=mode)
    assert (formula.end_of_forward, formula.recomputed) == (
        counted.end_of_forward.scalars, counted.recomputed.scalars)


def test_course_tiny_at_128_tokens():
    # per block 522 L + 4 L^2 = 66,816 + 65,536 = 132,352; attention half of it, just under
    peak = {m: peak_scalars(COURSE_TINY, batch_size=1, seq_len=128, mode=m).peak
            for m in checkpointing.MODES}
    assert peak == {"none": 2 * 132_352 + 163 * 128,  # 285,568
                    "selective": 2 * 66_816 + 163 * 128 + 65_536,  # 220,032
                    "full": 2 * 4_096 + 163 * 128 + 132_352 - 4_096}  # 157,312
    attention, rest = counted_attention_split(COURSE_TINY, seq_len=128, include_head=False)
    assert (attention, rest) == (2 * 65_536, 2 * 66_816)


def test_crossover_by_hand():
    # blocks only: 4 L^2 > 522 L  <=>  L > 130.5, so L = 131
    blocks = crossover(COURSE_TINY, include_head=False)
    assert (blocks.seq_len, blocks.quadratic, blocks.linear) == (131, 8, 1044)
    assert blocks.before[0] <= blocks.before[1] and blocks.at[0] > blocks.at[1]
    # whole tape: 8 L^2 > (2 x 522 + 163) L = 1207 L  <=>  L > 150.875, so L = 151
    whole = crossover(COURSE_TINY)
    assert (whole.seq_len, whole.quadratic, whole.linear) == (151, 8, 1207)
    assert whole.at == (8 * 151**2, 1207 * 151)


def test_formula_terms_add_up_to_korthikanti_with_a_4h_mlp():
    # with f = 4h the paper's terms are eq. 1 exactly: sbh (34 + 5 a s / h)
    rows = formula_vs_count(tiny_arch(kv_heads=2, ffn=32), seq_len=6, micro_batch=2)  # h = 8
    assert sum(r.paper_bytes for r in rows) == activation_bytes_per_layer(
        seq_len=6, micro_batch=2, hidden_size=8, num_heads=2)


def test_formula_rows_cover_every_saved_array_once():
    rows = formula_vs_count(seq_len=128)
    names = [n for r in rows for n in r.counted]
    assert sorted(names) == sorted(["x", "rstd1", "n1", "qr", "kr", "v", "probs", "attn", "h",
                                    "rstd2", "n2", "gate", "up", "act"])
    assert sum(r.counted_scalars for r in rows) == 522 * 128 + 4 * 128**2
    by_term = {r.term: r for r in rows}
    assert by_term["softmax output"].counted_scalars == 4 * 128**2
    assert by_term["softmax output"].paper_bytes == 2 * 4 * 128**2  # 2 bytes a scalar
    assert by_term["GeLU input"].counted_scalars == 2 * 88 * 128  # SwiGLU: gate and up
    assert by_term["softmax dropout mask"].counted == ()
    assert by_term["softmax output"].counted_bytes == 8 * 4 * 128**2  # float64
