"""Figures shown in prose: a computed number, or a short text with numbers (a citation).

Both render themselves for a locale; the site's registry (:mod:`distlesson.site.figures`)
looks them up by name when a page writes ``{{ name }}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from distlesson.render.measured import measured
from distlesson.render.numbers import (
    UNITS,
    Gender,
    check_locale,
    format_number,
    format_quantity,
    format_range,
    spell_number,
)

__all__ = ["Figure", "Text"]

_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")


@dataclass(frozen=True)
class Figure:
    """A computed quantity shown in prose: ``value`` in base units, shown in ``unit``."""

    name: str
    value: float
    unit: str = ""  # a key of distlesson.render.numbers.UNITS, or "%" for a fraction
    digits: int = 0  # decimals shown
    doc: str = ""  # what the number is, for authors
    measured: bool = False  # measured at build (a wall time): marked, see render.measured

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"figure name {self.name!r} must look like 'page.snake_case'")
        if self.unit != "%" and self.unit not in UNITS:
            raise ValueError(f"figure {self.name}: unit={self.unit!r} is not a known unit")

    def render(self, locale: str) -> str:
        text = format_quantity(self.value, self.unit, locale, digits=self.digits)
        return measured(text) if self.measured else text

    def render_words(self, locale: str, gender: Gender = "m") -> str:
        """The figure in words («dues», ``two``, «دو»): a plain count from zero to ten."""
        if self.unit or self.measured:
            raise ValueError(f"figure {self.name} (unit={self.unit!r}) cannot be spelled in "
                             "words: only a plain count can")
        return spell_number(self.value, locale, gender=gender)

    def render_range(self, high: Figure, locale: str) -> str:
        """This figure to ``high``, the unit written once («entre 87 i 98 milions de
        dòlars»); both must share unit and decimals."""
        if (high.unit, high.digits) != (self.unit, self.digits):
            raise ValueError(f"range {self.name} to {high.name}: units or decimals differ "
                             f"({self.unit!r}/{self.digits} against {high.unit!r}/{high.digits})")
        return format_range(self.value, high.value, self.unit, locale, digits=self.digits)


@dataclass(frozen=True)
class Text:
    """A short text shown in prose, with numbers inside formatted per locale (a citation).

    ``template`` (one for all locales, or one per locale) holds ``{0}``, ``{1}``... for
    ``numbers``, rendered without grouping so a year stays ``2020`` (``۲۰۲۰`` in Persian).
    """

    name: str
    template: str | Mapping[str, str]
    numbers: tuple[int, ...] = field(default_factory=tuple)
    doc: str = ""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"figure name {self.name!r} must look like 'page.snake_case'")

    def render(self, locale: str) -> str:
        check_locale(locale)
        shown = [format_number(n, locale, grouping=False) for n in self.numbers]
        template = self.template if isinstance(self.template, str) else self.template[locale]
        return template.format(*shown)
