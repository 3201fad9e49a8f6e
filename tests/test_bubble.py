"""Every closed form against the simulation it summarises, exactly, as Fractions."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.pipeline.bubble import (
    bubble_fraction,
    bubble_over_ideal,
    peak_activations,
    zb_h1_closed_form_holds,
)
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate

GRID = [(p, m) for p in range(1, 17) for m in range(1, 17)]  # 256 (p, m) pairs
DURATIONS = [Durations(1, 2, 1), Durations(3, 1, 1), Durations(Fraction(2, 3), 5, 0)]


def simulated(name, pp, m, chunks=1, durations=None):
    return simulate(build_schedule(name, pp, m, chunks), durations)


def test_hand_values():
    # p = 4, m = 8: (p - 1) / (m + p - 1) = 3 / 11; m = 1: 3 / 4; m = 16: 3 / 19
    assert bubble_fraction("1f1b", 4, 8) == bubble_fraction("gpipe", 4, 8) == Fraction(3, 11)
    assert bubble_fraction("1f1b", 4, 1) == Fraction(3, 4)
    assert bubble_fraction("1f1b", 4, 16) == Fraction(3, 19)
    # the "about 19%" some sources give for p = 4, m = 16 is the bubble over the ideal
    # time, (p - 1) / m = 3 / 16 = 18.75%; as a share of the stage-time it is 3 / 19
    assert bubble_over_ideal(4, 16) == Fraction(3, 16)
    # interleaved, v = 2: (p - 1) / (v m + p - 1) = 3 / 19 for p = 4, m = 8
    assert bubble_fraction("interleaved", 4, 8, 2) == Fraction(3, 19)
    # ZB-H1, F = B = W = 1: bubble 3 x (1 + 1 - 1) = 3 over 8 x 3 + 3 = 27: 1/9
    assert bubble_fraction("zb-h1", 4, 8) == Fraction(1, 9)
    assert peak_activations("1f1b", 4, 8) == (4, 3, 2, 1)
    assert peak_activations("gpipe", 4, 8) == (8, 8, 8, 8)
    # interleaved p = 4, v = 2, stage 0: (2 x 3 + 1 x 4 + 1) / 2 = 11/2
    assert peak_activations("interleaved", 4, 8, 2)[0] == Fraction(11, 2)


@pytest.mark.parametrize("name", ["gpipe", "1f1b"])
@pytest.mark.parametrize("durations", DURATIONS)
def test_gpipe_1f1b_formula_is_the_simulation(name, durations):
    for p, m in GRID:
        timeline = simulated(name, p, m, durations=durations)
        assert timeline.bubble_fraction == bubble_fraction(name, p, m), (p, m)
        assert timeline.peak_activations == peak_activations(name, p, m), (p, m)


@pytest.mark.parametrize("chunks", [2, 3, 4])
def test_interleaved_formula_is_the_simulation(chunks):
    cases = [(p, p * k) for p in range(1, 17) for k in range(1, 7)]  # m a multiple of p
    for (p, m), durations in product(cases, DURATIONS):  # 96 x 3 = 288 cases
        timeline = simulated("interleaved", p, m, chunks, durations)
        assert timeline.bubble_fraction == bubble_fraction("interleaved", p, m, chunks), (p, m)
        assert timeline.peak_activations == peak_activations("interleaved", p, m, chunks)
        # the bubble over the ideal time is (p - 1) / (v m), the idle share r / (1 + r)
        r = bubble_over_ideal(p, m, chunks=chunks)
        assert Fraction(sum(timeline.idle)) / sum(timeline.busy) == r
        assert timeline.bubble_fraction == r / (1 + r)


ZB_INSIDE = [Durations(1, 2, 1), Durations(2, 3, 1), Durations(3, 5, 2), Durations(5, 3, 1),
             Durations(Fraction(3, 2), Fraction(5, 2), Fraction(1, 2))]


@pytest.mark.parametrize("durations", ZB_INSIDE)
def test_zb_h1_formula_is_the_simulation_when_m_at_least_p(durations):
    # all these have T_W <= min(T_F, T_B): exact for every m >= p (136 pairs each)
    for p, m in GRID:
        timeline = simulated("zb-h1", p, m, durations=durations)
        assert timeline.peak_activations == peak_activations("zb-h1", p, m) == (min(p, m),) * p
        if m >= p or p == 1:
            assert timeline.bubble_fraction == bubble_fraction("zb-h1", p, m,
                                                               durations=durations), (p, m)
        else:
            with pytest.raises(ValueError, match="exact only for num_microbatches >= pp"):
                bubble_fraction("zb-h1", p, m, durations=durations)
            assert timeline.idle[0] > _zb_bubble_time(p, durations)


def _zb_bubble_time(p, d):
    """Qi et al. 2024: (p - 1)(T_F + T_B - T_W), T_B = bwd - wgrad, T_W = wgrad."""
    return (p - 1) * (d.fwd + d.bwd - 2 * d.wgrad)


def test_zb_h1_without_weight_gradient_is_1f1b():
    # T_W = 0: the bubble (p - 1)(T_F + T_B) is 1F1B's, for every m, even m < p
    d = Durations(1, 2, 0)
    for p, m in GRID:
        assert simulated("zb-h1", p, m, durations=d).bubble_fraction == Fraction(p - 1, m + p - 1)
        assert bubble_fraction("zb-h1", p, m, durations=d) == Fraction(p - 1, m + p - 1)


@pytest.mark.parametrize("durations", [Durations(1, 3, 2), Durations(3, 3, 2),
                                       Durations(1, 2, 2)])
def test_zb_h1_formula_fails_when_w_is_longest(durations):
    # T_W > T_F (first), T_W > T_B (second), or both: the simulated bubble is longer
    for p, m in GRID:
        if p == 1:
            continue
        assert not zb_h1_closed_form_holds(p, m, durations)
        with pytest.raises(ValueError, match="simulate the schedule instead"):
            bubble_fraction("zb-h1", p, m, durations=durations)
        assert simulated("zb-h1", p, m, durations=durations).idle[0] > _zb_bubble_time(
            p, durations)


time_values = st.fractions(min_value=Fraction(1, 8), max_value=8, max_denominator=8)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["gpipe", "1f1b", "interleaved"]), p=st.integers(1, 8),
       m=st.integers(1, 16), k=st.integers(1, 4), chunks=st.integers(2, 4), fwd=time_values,
       bwd=time_values)
def test_one_f_one_b_family_any_durations(name, p, m, k, chunks, fwd, bwd):
    m, v = (p * k, chunks) if name == "interleaved" else (m, 1)
    timeline = simulated(name, p, m, v, Durations(fwd, bwd, bwd / 2))
    assert timeline.bubble_fraction == bubble_fraction(name, p, m, v)


@settings(max_examples=120, deadline=None)
@given(p=st.integers(1, 8), m=st.integers(1, 12), t_f=time_values, t_b=time_values,
       t_w=st.fractions(min_value=0, max_value=8, max_denominator=8))
def test_zb_h1_condition_is_exact(p, m, t_f, t_b, t_w):
    durations = Durations(t_f, t_b + t_w, t_w)
    timeline = simulated("zb-h1", p, m, durations=durations)
    if zb_h1_closed_form_holds(p, m, durations):
        assert timeline.bubble_fraction == bubble_fraction("zb-h1", p, m, durations=durations)
        assert timeline.idle[0] == (p - 1) * (t_f + t_b - t_w)
    else:
        assert timeline.idle[0] > (p - 1) * (t_f + t_b - t_w)


def test_errors():
    with pytest.raises(ValueError, match="schedule='dualpipe' is not one of"):
        bubble_fraction("dualpipe", 4, 8)
    with pytest.raises(ValueError, match="num_microbatches=6 must be a multiple of pp=4"):
        bubble_fraction("interleaved", 4, 6, 2)
    with pytest.raises(ValueError, match="chunks=2 is only for the 'interleaved'"):
        peak_activations("1f1b", 4, 8, 2)
    with pytest.raises(ValueError, match="num_microbatches=0 must be a positive integer"):
        bubble_over_ideal(4, 0)
