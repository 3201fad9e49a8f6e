"""The shared check of counts: whole numbers >= 1, named in the refusal."""

import pytest

from distlesson.checks import check_positive_int


@pytest.mark.parametrize("value", [1, 7, 10**30])
def test_counts_pass(value):
    assert check_positive_int("n", value) is None


@pytest.mark.parametrize("value", [0, -1, 1.0, 2.5, True, "3", None, float("nan")])
def test_anything_else_is_refused_by_name(value):
    with pytest.raises(ValueError, match=rf"^tp={value!r} must be a positive integer$"
                       .replace("(", r"\(").replace(")", r"\)")):
        check_positive_int("tp", value)
