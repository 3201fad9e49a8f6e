"""A claim of a source text, checked against the library (the register is in ``claims``).

A :class:`Claim` keeps the source's number as a typed input (with the section it comes
from) and a zero-argument callable that computes the same quantity with the library;
whether they agree is derived, never typed. Prose (``statement`` and ``why``, one text per
locale) carries no digits: values appear through placeholders ``{{ claim.<id>.<figure> }}``
(``stated``, ``computed`` or one of the claim's ``extras``), which :func:`claim_figures`
resolves to (value, unit) and the site formats for each locale.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from distlesson.site.placeholders import PLACEHOLDER
from distlesson.site.prose_lint import typed_numbers

__all__ = ["LOCALES", "UNITS", "Claim", "Figure", "Unit", "placeholders"]

Unit = Literal["bytes", "count", "fraction", "bytes_per_param", "ratio", "usd",
               "flop_per_byte"]
UNITS: tuple[str, ...] = ("bytes", "count", "fraction", "bytes_per_param", "ratio", "usd",
                          "flop_per_byte")
LOCALES: tuple[str, ...] = ("en", "ca", "fa")

_NAME = re.compile(r"^[a-z_]+$")


def placeholders(text: str) -> list[str]:
    """The figure names referenced by ``{{ name }}`` placeholders in ``text``, in order."""
    return PLACEHOLDER.findall(text)


def _check_prose(field: str, claim_id: str, texts: Mapping[str, str]) -> None:
    if "en" not in texts:
        raise ValueError(f"claim {claim_id}: {field} needs an 'en' text; got {sorted(texts)}")
    for locale, text in texts.items():
        if locale not in LOCALES:
            raise ValueError(
                f"claim {claim_id}: {field} locale={locale!r}; allowed: {', '.join(LOCALES)}"
            )
        if typed_numbers(text):  # the pages' own lint: same names allowed, same digits caught
            raise ValueError(
                f"claim {claim_id}: {field}[{locale}] types a digit; use a placeholder "
                f"{{{{ claim.{claim_id}.stated }}}} or words: {text!r}"
            )


@dataclass(frozen=True, eq=False)
class Figure:
    """A further named value a claim's prose may cite (an input or a computed variant)."""

    name: str
    """Placeholder name after ``claim.<id>.``; lowercase letters and underscores."""
    compute: Callable[[], float]
    """Returns the value (in base units)."""
    unit: Unit
    """One of :data:`UNITS`."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name) or self.name in ("stated", "computed"):
            raise ValueError(
                f"figure name={self.name!r} must be lowercase letters and underscores, "
                "other than 'stated' and 'computed'"
            )
        if self.unit not in UNITS:
            raise ValueError(f"figure {self.name}: unit={self.unit!r}; allowed: {UNITS}")


@dataclass(frozen=True, eq=False)
class Claim:
    """One figure of a source text, checked against the library."""

    id: str
    """Stable identifier: lowercase letters and underscores (no digits: it sits in prose)."""
    source: str
    """Which seed text and section: ``ca §1`` or ``fa: why distribution is needed``."""
    statement: Mapping[str, str]
    """What the source says, per locale (``en`` required; ``ca`` and ``fa`` later)."""
    stated: float
    """The source's number, in base units (an input, typed from the source)."""
    computed: Callable[[], float]
    """Computes the same quantity with the library."""
    unit: Unit
    """Unit of ``stated`` and ``computed``: one of :data:`UNITS`."""
    rel_tol: float
    """Relative difference that still counts as agreement, given the source's rounding."""
    why: Mapping[str, str]
    """Why they agree or differ, per locale."""
    extras: tuple[Figure, ...] = ()
    """Further figures the prose cites as ``{{ claim.<id>.<name> }}``."""
    chapter: str = "fit"
    """The chapter whose page shows the claim (the register page shows them all)."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.id):
            raise ValueError(f"claim id={self.id!r} must be lowercase letters and underscores")
        if self.unit not in UNITS:
            raise ValueError(f"claim {self.id}: unit={self.unit!r}; allowed: {UNITS}")
        if not (0 <= self.rel_tol < 1):
            raise ValueError(f"claim {self.id}: rel_tol={self.rel_tol!r} must be in [0, 1)")
        if not math.isfinite(self.stated):
            raise ValueError(f"claim {self.id}: stated={self.stated!r} must be finite")
        names = [f.name for f in self.extras]
        if len(set(names)) != len(names):
            raise ValueError(f"claim {self.id}: extras repeat a name: {names}")
        _check_prose("statement", self.id, self.statement)
        _check_prose("why", self.id, self.why)

    @property
    def computed_value(self) -> float:
        """The library's value, as a float."""
        return float(self.computed())

    @property
    def agrees(self) -> bool:
        """Whether the library's value is within ``rel_tol`` of the stated one."""
        return math.isclose(self.computed_value, self.stated, rel_tol=self.rel_tol, abs_tol=0.0)

    def figures(self) -> dict[str, tuple[float, str]]:
        """This claim's placeholder names mapped to (value, unit)."""
        prefix = f"claim.{self.id}."
        result = {
            prefix + "stated": (float(self.stated), self.unit),
            prefix + "computed": (self.computed_value, self.unit),
        }
        for extra in self.extras:
            result[prefix + extra.name] = (float(extra.compute()), extra.unit)
        return result
