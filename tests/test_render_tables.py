"""Markdown tables and the left-to-right cells of right-to-left pages."""

import pytest

from distlesson.render.tables import Table, ltr, markdown_table


def test_ltr_isolates_only_on_persian_pages():
    assert ltr("16 × 4", "en") == "16 × 4"
    assert ltr("16 × 4", "ca") == "16 × 4"
    assert ltr("۱۶ × ۴", "fa") == '<bdi dir="ltr">۱۶ × ۴</bdi>'


def test_ltr_refuses_an_unknown_locale():
    with pytest.raises(ValueError, match="xx"):
        ltr("a", "xx")


def test_rows_must_match_the_headers():
    with pytest.raises(ValueError, match="row 0 has 1 cells for 2 columns"):
        Table(("a", "b"), (("1",),), (True, True))


def test_numbers_align_right_and_text_left():
    text = markdown_table(Table(("n", "name"), (("1", "x"),), (True, False)), "en")
    assert text.splitlines() == ["| n | name |", "| ---: | --- |", "| 1 | x |"]
