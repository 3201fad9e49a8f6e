"""Numbers formatted per locale; every expected string is written out by hand from CLDR's
conventions (English 1,120.5; Catalan 1.120,5; Persian ۱٬۱۲۰٫۵ with Persian digits)."""

import pytest

from distlesson.render.numbers import format_number, format_percent, format_quantity


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "1,120"), ("ca", "1.120"), ("fa", "۱٬۱۲۰")],
)
def test_grouping(locale, expected):
    assert format_number(1120, locale) == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "11.7"), ("ca", "11,7"), ("fa", "۱۱٫۷")],
)
def test_decimals(locale, expected):
    assert format_number(11.7, locale, digits=1) == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "27.3%"), ("ca", "27,3\u00a0%"), ("fa", "۲۷٫۳٪")],
)
def test_percent(locale, expected):
    assert format_percent(3 / 11, locale, digits=1) == expected


@pytest.mark.parametrize(
    ("unit", "locale", "expected"),
    [
        ("GB", "en", "1,120\u00a0GB"),
        ("GB", "fa", "۱٬۱۲۰\u00a0گیگابایت"),
        ("GiB", "en", "1,043\u00a0GiB"),  # 1.12e12 / 2**30 = 1043.08
        ("TB", "ca", "1\u00a0TB"),
        ("B params", "en", "1,120B"),
    ],
)
def test_quantities(unit, locale, expected):
    assert format_quantity(1.12e12, unit, locale) == expected


def test_ratio_is_attached():
    assert format_quantity(16 / 4.75, "x", "ca", digits=2) == "3,37×"  # 3.368...


def test_year_is_not_grouped():
    assert format_number(2020, "fa", grouping=False) == "۲۰۲۰"


@pytest.mark.parametrize("bad", [{"locale": "de"}, {"unit": "furlongs"}, {"value": float("nan")}])
def test_bad_input_is_named(bad):
    args = {"value": 1.0, "unit": "GB", "locale": "en"} | bad
    name = next(iter(bad))
    with pytest.raises(ValueError, match=name if name != "value" else "finite"):
        format_quantity(args["value"], args["unit"], args["locale"])
