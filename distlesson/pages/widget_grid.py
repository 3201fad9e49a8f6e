"""Lookup tables for a widget whose grid is too large to embed setting by setting.

A widget with six controls has as many settings as the product of their values (the five
dimensions widget: 21,000). Most of what it shows depends on a few of its controls only: the
model states do not change with the micro-batches, the pipeline's timeline depends on the
stages and the micro-batches alone. :func:`factored_table` stores one output as a table over
the controls it depends on, found by looking at the library's values on the whole grid, not
assumed; each distinct value is written once and the table lists indices into them.
``docs/assets/widget-core.js`` reads them with ``lookup``.

A value of ``None`` marks a setting whose output is not shown (the library refused it):
it constrains nothing, and a cell that only such settings reach holds -1.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Grid", "factored_table", "lookup"]


@dataclass(frozen=True)
class Grid:
    """The controls of a widget and the values each one offers, in the page's order."""

    axes: tuple[tuple[str, tuple[Any, ...]], ...]
    """(control name, its values): the names are the controls' ``data-in``."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.axes)

    def settings(self) -> Iterator[tuple[Any, ...]]:
        """Every setting, one value per control, the last control changing fastest."""
        return itertools.product(*(values for _, values in self.axes))

    def as_json(self) -> dict[str, list[str]]:
        """Each control's values as its ``<option value>`` strings: the script's index."""
        return {name: [str(v) for v in values] for name, values in self.axes}


def _function_of(values: Mapping[tuple, Hashable], kept: tuple[int, ...]) -> bool:
    """Whether the values are determined by the controls at positions ``kept``."""
    seen: dict[tuple, Hashable] = {}
    for setting, value in values.items():
        cell = tuple(setting[i] for i in kept)
        if seen.setdefault(cell, value) != value:
            return False
    return True


def factored_table(grid: Grid, values: Mapping[tuple, Hashable | None],
                   render: Callable[[Any], Any] = lambda value: value) -> dict[str, Any]:
    """One output of every setting of ``grid``, as ``{"k", "u", "i"}``.

    ``k``: the controls it depends on (the fewest found by dropping, one at a time, each
    control the values do not change with); ``u``: each distinct value, ``render``-ed to
    JSON; ``i``: for every combination of the ``k`` controls' values (the last changing
    fastest), the index of its value in ``u``, or -1 where no shown setting reaches it.
    """
    shown = {s: v for s, v in values.items() if v is not None}
    if set(values) != set(grid.settings()):
        raise ValueError("the values must cover the grid's settings exactly")
    kept = tuple(range(len(grid.axes)))
    for position in reversed(range(len(grid.axes))):
        fewer = tuple(i for i in kept if i != position)
        if _function_of(shown, fewer):
            kept = fewer
    cells = {tuple(s[i] for i in kept): v for s, v in shown.items()}
    distinct: dict[Hashable, int] = {}
    indices = []
    for cell in itertools.product(*(grid.axes[i][1] for i in kept)):
        if cell in cells:
            indices.append(distinct.setdefault(cells[cell], len(distinct)))
        else:
            indices.append(-1)
    return {"k": [grid.axes[i][0] for i in kept], "u": [render(v) for v in distinct],
            "i": indices}


def lookup(table: dict[str, Any], grid: Grid, setting: tuple[Any, ...]) -> Any:
    """The value ``table`` holds for ``setting`` (``None`` for -1), as the script finds it."""
    index = 0
    for name in table["k"]:
        position = grid.names.index(name)
        options = grid.axes[position][1]
        index = index * len(options) + options.index(setting[position])
    found = table["i"][index]
    return None if found < 0 else table["u"][found]
