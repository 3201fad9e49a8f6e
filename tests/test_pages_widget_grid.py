"""The factored lookup tables of large widget grids: a table keeps the controls its values
change with and no other, each distinct value once, and reads back every setting's value."""

import itertools

import pytest

from distlesson.pages.widget_grid import Grid, factored_table, lookup
from tests.widget_checks import table_value

GRID = Grid((("a", (1, 2, 3)), ("b", ("x", "y")), ("c", (10, 20, 30, 40))))


def read(table, setting):
    """Through the test's own reader, as the script reads it."""
    return table_value(table, GRID.as_json(), dict(zip(GRID.names, setting, strict=True)))


def test_the_table_keeps_only_the_controls_the_values_change_with():
    values = {s: s[0] * s[2] for s in GRID.settings()}  # b changes nothing
    table = factored_table(GRID, values)
    assert table["k"] == ["a", "c"]
    assert len(table["i"]) == 3 * 4
    assert len(table["u"]) == len(set(values.values()))
    for setting, value in values.items():
        assert read(table, setting) == value == lookup(table, GRID, setting)


def test_a_constant_needs_no_control_and_everything_needs_all():
    constant = factored_table(GRID, dict.fromkeys(GRID.settings(), "same"))
    assert constant == {"k": [], "u": ["same"], "i": [0]}
    every = factored_table(GRID, {s: s for s in GRID.settings()}, render=list)
    assert every["k"] == ["a", "b", "c"] and len(every["u"]) == 24
    assert read(every, (3, "y", 40)) == [3, "y", 40]


def test_refused_settings_constrain_nothing_and_read_as_none():
    # c = 40 is refused: what is shown depends on a alone, though the refused cells differ
    values = {s: None if s[2] == 40 else s[0] for s in GRID.settings()}
    table = factored_table(GRID, values)
    assert table["k"] == ["a"]
    # a refused setting reads as any shown one of the same cell: the script shows the refusal
    anything = factored_table(GRID, {s: None if s[0] == 3 else s[1] for s in GRID.settings()})
    assert anything["k"] == ["b"] and read(anything, (3, "y", 10)) == "y"
    # a cell that only refused settings reach holds nothing
    holes = factored_table(GRID, {s: None if s[:2] == (3, "y") else s[:2]
                                  for s in GRID.settings()}, render=list)
    assert holes["k"] == ["a", "b"] and holes["i"].count(-1) == 1
    assert read(holes, (3, "y", 10)) is None
    assert read(holes, (3, "x", 10)) == [3, "x"]


def test_the_values_must_cover_the_grid():
    values = {s: 1 for s in itertools.islice(GRID.settings(), 5)}
    with pytest.raises(ValueError, match="cover the grid"):
        factored_table(GRID, values)
