"""Hostile values at the public boundary: each call refuses (ValueError or TypeError, naming
the argument) or answers finite values within physical bounds. Hypothesis, 500 examples."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.efficiency.failures import job_mtbf, young_interval
from distlesson.efficiency.mfu import hfu, ideal_step_time, mfu
from distlesson.memory.states import Layout, min_gpus, model_states, per_gpu_states
from distlesson.parallel.alpha_beta import collective_time
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import simulate

HOSTILE = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-10**30,
                                                                 max_value=10**30),
    st.just(True), st.none(), st.text(max_size=4), st.just(1e308), st.just(-0.0))
REFUSALS = (ValueError, TypeError)


def _answer_or_refusal(call):
    try:
        return call()
    except REFUSALS as error:
        assert str(error), "a refusal says why"
        return None


@settings(max_examples=500, deadline=None)
@given(HOSTILE, HOSTILE, HOSTILE, HOSTILE)
def test_utilisation_is_a_fraction_or_refused(flops, step, gpus, peak):
    for function in (mfu, hfu):
        got = _answer_or_refusal(lambda f=function: f(flops, step_time=step, gpus=gpus,
                                                      peak_flops=peak))
        assert got is None or (isinstance(got, float) and 0 <= got <= 1), got


@settings(max_examples=500, deadline=None)
@given(HOSTILE, HOSTILE, HOSTILE)
def test_ideal_step_time_is_finite_or_refused(flops, gpus, peak):
    got = _answer_or_refusal(lambda: ideal_step_time(flops, gpus=gpus, peak_flops=peak))
    assert got is None or (math.isfinite(got) and got >= 0), got


@settings(max_examples=500, deadline=None)
@given(HOSTILE, HOSTILE)
def test_failures_are_finite_or_refused(a, b):
    for got in (_answer_or_refusal(lambda: job_mtbf(a, b)),
                _answer_or_refusal(lambda: young_interval(a, b))):
        assert got is None or (math.isfinite(got) and got > 0), got


@settings(max_examples=500, deadline=None)
@given(HOSTILE, HOSTILE)
def test_memory_is_finite_or_refused(params, memory):
    states = _answer_or_refusal(lambda: model_states(params))
    assert states is None or math.isfinite(float(states.total))
    got = _answer_or_refusal(lambda: min_gpus(params, memory))
    assert got is None or (isinstance(got, int) and got >= 0), got


@settings(max_examples=500, deadline=None)
@given(HOSTILE, HOSTILE)
def test_collectives_are_finite_or_refused(size, ranks):
    got = _answer_or_refusal(lambda: collective_time("all-reduce", size, ranks, "nvlink4"))
    assert got is None or (math.isfinite(got.time) and got.time >= 0), got


@settings(max_examples=500, deadline=None)
@given(HOSTILE, HOSTILE)
def test_schedules_are_built_or_refused_quickly(pp, m):
    got = _answer_or_refusal(lambda: build_schedule("1f1b", pp, m))
    assert got is None or got.pp == pp


@pytest.mark.parametrize(("call", "message"), [
    (lambda: build_schedule("1f1b", 4, 10**30), r"allowed: up to 1e\+07"),
    (lambda: simulate("1f1b"), "schedule='1f1b' must be a Schedule"),
    (lambda: per_gpu_states(1.5, Layout()), "states=1.5 must be a MemoryBreakdown"),
    (lambda: per_gpu_states(model_states(10**9), (8, 2)), "must be a Layout"),
])
def test_guards_name_the_argument(call, message):
    with pytest.raises(REFUSALS, match=message):
        call()
