"""The shared checks: counts, sizes, times and fractions, each refusal naming the argument."""

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from distlesson.checks import (
    check_finite_nonneg,
    check_finite_positive,
    check_fraction,
    check_nonneg_int,
    check_positive_int,
    check_positive_ints,
    check_type,
)


@pytest.mark.parametrize("value", [1, 7, 10**30])
def test_counts_pass(value):
    assert check_positive_int("n", value) is None


@pytest.mark.parametrize("value", [0, -1, 1.0, 2.5, True, "3", None, float("nan")])
def test_anything_else_is_refused_by_name(value):
    with pytest.raises(ValueError, match=rf"^tp={value!r} must be a positive integer$"
                       .replace("(", r"\(").replace(")", r"\)")):
        check_positive_int("tp", value)


def test_a_maximum_is_named():
    with pytest.raises(ValueError, match=r"^pp=11 is too large; allowed: 1 to 10$"):
        check_positive_int("pp", 11, maximum=10)
    assert check_positive_int("pp", 10, maximum=10) is None


def test_positive_ints_checks_in_order():
    with pytest.raises(ValueError, match=r"^b=0 "):
        check_positive_ints(a=1, b=0, c=-1)


@pytest.mark.parametrize("value", [0, 5, 10**30])
def test_indices_may_be_zero(value):
    assert check_nonneg_int("op chunk", value) is None


@pytest.mark.parametrize("value", [-1, 0.0, False, None])
def test_indices_are_whole_and_not_negative(value):
    with pytest.raises(ValueError, match=r"^op chunk=.* must be an integer >= 0$"):
        check_nonneg_int("op chunk", value)


@pytest.mark.parametrize("value", [1e-300, 3, Fraction(1, 3), 10**400, 1.7e308])
def test_finite_positive_numbers_pass(value):
    assert check_finite_positive("step_time", value) is None
    assert check_finite_nonneg("step_time", value) is None


@pytest.mark.parametrize("value", [0, 0.0, -0.0, -1, math.nan, math.inf, -math.inf, True,
                                   "1", None, 1j, Decimal(1)])
def test_anything_else_is_not_a_positive_number(value):
    with pytest.raises(ValueError, match=r"^step_time=.* must be a finite number > 0$"):
        check_finite_positive("step_time", value)


def test_zero_is_a_size_but_nan_and_negatives_are_not():
    assert check_finite_nonneg("bytes", 0) is None
    assert check_finite_nonneg("bytes", -0.0) is None
    for value in (-1e-9, math.nan, math.inf, False):
        with pytest.raises(ValueError, match=r"^bytes=.* must be a finite number >= 0$"):
            check_finite_nonneg("bytes", value)


@pytest.mark.parametrize("value", [0, 1, 0.5, Fraction(2, 3)])
def test_fractions_in_the_unit_interval_pass(value):
    assert check_fraction("mfu", value) is None


@pytest.mark.parametrize("value", [-0.01, 1.0000001, 2, math.nan, math.inf, True, "0.5"])
def test_fractions_outside_the_unit_interval_are_refused(value):
    with pytest.raises(ValueError, match=r"^mfu=.* must be a fraction in \[0, 1\]$"):
        check_fraction("mfu", value)


def test_a_wrong_type_names_what_was_expected():
    with pytest.raises(TypeError, match=r"^layout=3 must be a str or tuple$"):
        check_type("layout", 3, (str, tuple))
    assert check_type("layout", "x", str) is None
