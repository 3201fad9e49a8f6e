"""The pipeline section's figures and tables, against hand derivations of the bubble."""

from fractions import Fraction

import pytest

from distlesson.pages import pipeline
from distlesson.site.figures import figure_registry


def value(name):
    return figure_registry()[name].value


@pytest.mark.parametrize(("name", "expected"), [
    # p = 4, m = 8, forward 1, backward 2: (m + p - 1)(f + b) = 33, of which (p - 1)(f + b)
    # = 9 idle per stage
    ("pipe.makespan_1f1b", 33),
    ("pipe.idle_per_stage", 9),
    ("pipe.ideal", 24),
    ("pipe.bubble_1f1b", 3 / 11),
    ("pipe.peak_first", 4),
    ("pipe.peak_last", 1),
    # interleaved, v = 2: (p - 1)/(v m + p - 1) = 3/19
    ("pipe.bubble_interleaved", 3 / 19),
    # ZB-H1 with F = B = W = 1: idle (p - 1)(F + B - W) = 3 per stage, makespan 24 + 3
    ("pipe.idle_zb", 3),
    ("pipe.bubble_zb", 3 / 27),
    ("pipe.fa_one_bubble", 3 / 4),
    ("pipe.fa_many_bubble", 3 / 19),
    ("pipe.fa_many_over_ideal", 3 / 16),
    # (p - 1)/(m + p - 1) < 1/10 <=> m > 9 (p - 1): with p = 2, m = 10
    ("pipe.fewest_two_stages", 10),
    ("pipe.bench_ops", 2 * 64 * 1024 * 2),
])
def test_figures_by_hand(name, expected):
    assert value(name) == pytest.approx(expected, rel=1e-12)


def test_exercise_answer_is_the_closed_form():
    for p in pipeline.TARGET_STAGES:
        m = pipeline._fewest_microbatches(p)
        assert m == 9 * (p - 1) + 1
        assert Fraction(p - 1, m + p - 1) < Fraction(1, 10) <= Fraction(p - 1, m + p - 2)


def test_measured_simulation_time_is_within_bounds():
    seconds = value("pipe.bench_seconds")
    assert 0 < seconds < 2.0  # a bound for this 2-core machine, not a pinned value


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_and_timelines(locale):
    table = pipeline.schedule_table(locale).splitlines()
    assert len(table) == 2 + len(pipeline.SCHEDULES)
    for row in table[2:]:
        cells = [c.strip() for c in row.split("|")]
        assert cells[3] == cells[4]  # simulated and closed-form bubble agree
    for name in pipeline.SCHEDULES:
        svg = pipeline.gantt(name, locale)
        assert f"pipe-{name}-{locale}-op0" in svg
    assert len(pipeline.bubble_table(locale).splitlines()) == 2 + len(pipeline.SWEEP)
