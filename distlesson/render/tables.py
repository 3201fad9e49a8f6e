"""Tables as Markdown, ready to print from a page's ``python exec="on"`` block."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from distlesson.render.numbers import check_locale

__all__ = ["Table", "group_header", "joined_label", "ltr", "markdown_table"]


@dataclass(frozen=True)
class Table:
    """Headers and rows of already formatted cells; ``numeric`` marks columns of numbers."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]

    def __post_init__(self) -> None:
        width = len(self.headers)
        if len(self.numeric) != width:
            raise ValueError(f"numeric has {len(self.numeric)} flags for {width} columns")
        for i, row in enumerate(self.rows):
            if len(row) != width:
                raise ValueError(f"row {i} has {len(row)} cells for {width} columns")


def joined_label(first: str, second: str, locale: str, *, sep: str) -> str:
    """Two labels joined into one: ``first<sep>second``. Catalan, like French, goes on in
    lowercase inside a phrase («Còpia mestra + estats de l'optimitzador»); a label that
    starts with an acronym (MFU, GPU) keeps its capitals. English and Persian are unchanged."""
    if check_locale(locale) == "ca" and second[:2].istitle():
        second = second[0].lower() + second[1:]
    return f"{first}{sep}{second}"


def group_header(group: str, label: str, locale: str) -> str:
    """A column header under a group, on one line: ``group: label`` («Acumular i després
    all-reduce: enviat per rang»), lowercased in Catalan as :func:`joined_label` does."""
    return joined_label(group, label, locale, sep=": ")


def ltr(text: str, locale: str) -> str:
    """Text that reads left to right (Latin names, layouts, signed numbers) kept so on a
    right-to-left page, where the bidirectional algorithm would reorder its parts."""
    check_locale(locale)
    return f'<bdi dir="ltr">{text}</bdi>' if locale == "fa" else text


def markdown_table(table: Table, locale: str) -> str:
    """Numbers aligned at the end of their column: right in English and Catalan, and
    centred on right-to-left Persian pages, where text starts at the right."""
    number_rule = ":---:" if check_locale(locale) == "fa" else "---:"

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    rules = [number_rule if numeric else "---" for numeric in table.numeric]
    return "\n".join([line(table.headers), line(rules), *(line(row) for row in table.rows)])
