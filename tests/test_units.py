"""Units and quantity parsing."""

import math

import pytest

from distlesson.units import GB, MB, TB, GiB, parse_quantity


def test_byte_prefixes_are_decimal_and_binary():
    assert GB == 1_000_000_000
    assert MB == 1_000_000
    assert TB == 1_000_000_000_000
    assert GiB == 1024 * 1024 * 1024


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("70e9", 70_000_000_000),
        ("7.5e9", 7_500_000_000),
        ("70B", 70_000_000_000),
        ("124M", 124_000_000),
        ("1.5T", 1_500_000_000_000),
        ("16e6", 16_000_000),
        ("16M", 16_000_000),
        ("2k", 2_000),
        ("2K", 2_000),
        ("8G", 8_000_000_000),
        ("0.3B", 300_000_000),
        (".5k", 500),
        ("0", 0),
        (" 70B ", 70_000_000_000),
    ],
)
def test_parse_quantity_accepts_numbers_and_suffixes(text, expected):
    assert parse_quantity(text, name="--params") == expected


@pytest.mark.parametrize(
    "text", ["-70B", "nan", "inf", "-inf", "70X", "", "B", "1.2.3", "70 B B", "1e400", "70b", "2m"]
)
def test_parse_quantity_rejects_with_a_message_naming_the_argument(text):
    with pytest.raises(ValueError, match="--tokens") as info:
        parse_quantity(text, name="--tokens")
    message = str(info.value)
    assert repr(text) in message
    assert "allowed" in message


def test_parse_quantity_result_is_finite_float():
    value = parse_quantity("1.5T", name="x")
    assert isinstance(value, float)
    assert math.isfinite(value)
