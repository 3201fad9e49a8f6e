"""Chapter 1's figures and tables, each expected value derived by hand from the inputs
(bytes per format, published parameter counts, an H100's nominal 80e9 bytes)."""

import math

import pytest

from distlesson.pages import fit
from distlesson.site.figures import figure_registry

LLAMA3_70B = 70_553_706_496  # published count of the released weights
LLAMA3_405B = 405_853_388_800
H100 = 80e9


def value(name):
    return figure_registry()[name].value


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("fit.bpp_mixed", 2 + 2 + 4 + 4 + 4),  # bf16 w, bf16 g, fp32 master, fp32 m and v
        ("fit.bpp_weights_grads", 2 + 2),
        ("fit.bpp_master_and_moments", 4 + 4 + 4),
        ("fit.bookkeeping_share", 12 / 16),  # master + moments: no pass touches them
        ("fit.forward_unread_share", 14 / 16),  # the forward reads the bf16 weights alone
        ("fit.bpp_no_master", 2 + 2 + 4 + 4),
        ("fit.states_70b", 70e9 * 16),
        ("fit.gpus_70b", 14),  # 1120 GB / 80 GB exactly
        ("fit.llama70_states", LLAMA3_70B * 16),
        ("fit.llama70_gpus", math.ceil(LLAMA3_70B * 16 / H100)),
        ("fit.floor_with_master", 2 + 2 + 4),
        ("fit.bpp_adam8bit", 2 + 2 + 4 + 2 * (1 + 4 / 256)),
        ("fit.bpp_lion", 2 + 2 + 4 + 4),
        ("fit.states_7b_fp32", 7e9 * (4 + 4 + 8)),
        ("fit.states_7b_mixed", 7e9 * (2 + 2 + 4 + 8)),
        ("fit.states_7b_no_master", 7e9 * (2 + 2 + 8)),
        ("fit.saving_with_master", 0.0),
        ("fit.saving_without_master", 0.25),
        ("fit.bf16_gap_at_one", 2.0**-7),
        ("fit.fp32_gap_ratio", 2.0**16),  # 2**-7 / 2**-23
        ("fit.half_gap_low", 2.0**-9),  # half of 2**-7 x 2**e over w -> 2**(e+1)
        ("fit.half_gap_high", 2.0**-8),  # half of 2**-7 x 2**e over w = 2**e
        ("fit.matrix_step", 3e-4 / 0.02),
        ("fit.final_matrix_step", 3e-5 / 0.02),
        ("fit.bf16_gain_after_step", 1.0),  # 3e-4 < 2**-8, half the gap after 1.0
        ("fit.bf16_over_fp32", 989 / 67),  # H100 SXM datasheet
        ("fit.bf16_over_tf32", 2.0),
        ("fit.fp16_max", (2 - 2**-10) * 2**15),
        ("fit.tiny_gradient_scaled", 2.0**-10),
        ("fit.exercise_states", 13e9 * 16),
    ],
)
def test_figure(name, expected):
    assert value(name) == pytest.approx(expected, rel=1e-12)


def test_adafactor_is_just_above_the_master_copy_floor():
    # its factored state is (rows + cols) per matrix: tiny against rows x cols
    assert 8 < value("fit.bpp_adafactor") < 8.01


def test_persian_convention_table_shows_the_lessons_count_in_persian_digits():
    # 405B without master: 12 bytes per parameter over 80 GB, rounded up, is 61
    assert math.ceil(LLAMA3_405B * 12 / H100) == 61
    assert "| ۶۱ |" in fit.conventions_table("fa")
    assert "| 61 |" in fit.conventions_table("en")


def test_states_table_sums_to_sixteen_in_every_locale():
    assert "**16**" in fit.states_table("en")
    assert "**۱۶**" in fit.states_table("fa")


def test_plot_is_inline_svg_with_themeable_ink_and_no_fixed_size():
    svg = fit.optimizer_plot("fa")
    assert svg.startswith("<svg")
    assert "currentColor" in svg
    assert 'width="' not in svg.split(">", 1)[0]
    assert "بایت به‌ازای هر پارامتر" in svg  # the axis label is text, in Persian


def test_what_bf16_loses_lies_between_the_half_gaps():
    # the chapter's three cases, against the bounds it states: a matrix entry's peak step
    # (1.5 %) is above 2**-8 and kept; a norm gain's (0.03 %) and the decayed step of a
    # matrix entry (0.15 %) are below 2**-9 and lost, as ml_dtypes' own bf16 shows
    import ml_dtypes
    bf16 = ml_dtypes.bfloat16
    assert value("fit.matrix_step") > value("fit.half_gap_high")
    assert value("fit.gain_step") < value("fit.half_gap_low")
    assert value("fit.final_matrix_step") < value("fit.half_gap_low")
    assert float(bf16(0.02) + bf16(3e-4)) != float(bf16(0.02))
    assert float(bf16(0.02) + bf16(3e-5)) == float(bf16(0.02))
    # every update below 2**-9 of the weight is lost, wherever the weight sits
    for w in (1.0, 1.5, 1.99, 0.02, 3.0e3):
        assert float(bf16(w) + bf16(float(bf16(w)) * 2.0**-9 * 0.99)) == float(bf16(w))
