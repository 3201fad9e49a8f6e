"""A claim of a source text, checked against the library (the register is in ``claims``).

A :class:`Claim` keeps the source's number as a typed input (with the section it comes
from) and a zero-argument callable that computes the same quantity with the library;
whether they agree is derived, never typed, by one rule (:attr:`Claim.agrees`): a figure
the source gives as a value agrees when the computed value rounds to it at the precision
the source wrote it (half a unit in its last significant digit); a figure the source gives
as a bound ("up to", "at least", "more than", "less than") agrees when the computed value
keeps to the bound. Prose (``statement`` and ``why``, one text per
locale) carries no digits: values appear through placeholders ``{{ claim.<id>.<figure> }}``
(``stated``, ``computed`` or one of the claim's ``extras``), which :func:`claim_figures`
resolves to (value, unit) and the site formats for each locale.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from distlesson.site.placeholders import placeholder_names
from distlesson.site.prose_lint import typed_numbers

__all__ = ["LOCALES", "RELATIONS", "UNITS", "Claim", "Figure", "Relation", "Unit",
           "place_value", "placeholders"]

Unit = Literal["bytes", "bytes_per_second", "count", "fraction", "bytes_per_param", "ratio",
               "usd", "flop_per_byte"]
UNITS: tuple[str, ...] = ("bytes", "bytes_per_second", "count", "fraction", "bytes_per_param",
                          "ratio", "usd", "flop_per_byte")
LOCALES: tuple[str, ...] = ("en", "ca", "fa")
Relation = Literal["about", "at_most", "at_least", "more_than", "less_than"]
RELATIONS: tuple[str, ...] = ("about", "at_most", "at_least", "more_than", "less_than")
"""How the source states its figure: a rounded value ("about", the default), or a bound:
"up to" (``at_most``), "at least", "more than", "less than"."""
_SLACK = 1e-9  # relative float round-off allowed at the edge of a rounding interval

_NAME = re.compile(r"^[a-z_]+$")


def placeholders(text: str) -> list[str]:
    """The figure names referenced by ``{{ name }}`` placeholders in ``text``, in order."""
    return placeholder_names(text)


def place_value(value: float) -> float:
    """The place of the last significant digit of ``value`` as written in decimal, the
    trailing zeros of a whole number not counted: 0.273 -> 0.001, 37e9 -> 1e9, 296 -> 1,
    10 -> 10, 100e6 -> 1e8. ValueError for zero, which has no such digit."""
    if value == 0 or not math.isfinite(value):
        raise ValueError(f"value={value!r} has no last significant digit; give the "
                         "precision explicitly")
    return float(Decimal(1).scaleb(Decimal(repr(float(value))).normalize().as_tuple().exponent))


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
    why: Mapping[str, str]
    """Why they agree or differ, per locale."""
    extras: tuple[Figure, ...] = ()
    """Further figures the prose cites as ``{{ claim.<id>.<name> }}``."""
    chapter: str = "fit"
    """The chapter whose page shows the claim (the register page shows them all)."""
    relation: Relation = "about"
    """How the source states ``stated``: a rounded value (``about``) or a bound."""
    binary: bool = False
    """True if the source counts bytes in binary units (its "2 GB" are 2 GiB): pages then
    show this claim's byte figures in MiB and GiB, every other claim's in GB (1e9)."""
    precision: float | None = None
    """Place value of the last significant digit the source wrote, in the claim's unit
    (0.1 for "1.3x", 1e9 for "28 GB", 0.001 for "18.0 %"); only for ``about``. None takes
    it from ``stated`` (:func:`place_value`), which cannot see a written trailing zero
    ("10.0", "18.0 %"): give those explicitly."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.id):
            raise ValueError(f"claim id={self.id!r} must be lowercase letters and underscores")
        if self.unit not in UNITS:
            raise ValueError(f"claim {self.id}: unit={self.unit!r}; allowed: {UNITS}")
        if not math.isfinite(self.stated):
            raise ValueError(f"claim {self.id}: stated={self.stated!r} must be finite")
        if self.relation not in RELATIONS:
            raise ValueError(f"claim {self.id}: relation={self.relation!r}; "
                             f"allowed: {', '.join(RELATIONS)}")
        if self.precision is not None:
            if self.relation != "about":
                raise ValueError(f"claim {self.id}: precision={self.precision!r} applies only "
                                 f"to relation='about', not {self.relation!r}")
            digits = Decimal(repr(float(self.precision))).normalize().as_tuple().digits
            if not self.precision > 0 or digits != (1,):
                raise ValueError(f"claim {self.id}: precision={self.precision!r} must be a "
                                 "power of ten (the place of a written digit)")
        elif self.relation == "about" and self.stated == 0:
            raise ValueError(f"claim {self.id}: stated=0 needs an explicit precision")
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
    def tolerance(self) -> float:
        """Half a unit in the source's last written digit for ``about``; 0 for a bound."""
        if self.relation != "about":
            return 0.0
        place = self.precision if self.precision is not None else place_value(self.stated)
        return place / 2

    @property
    def rel_tol(self) -> float:
        """:attr:`tolerance` relative to the stated value (0 for a bound)."""
        return self.tolerance / abs(self.stated) if self.stated else self.tolerance

    @property
    def agrees(self) -> bool:
        """The register's one rule: ``about``, the computed value rounds to the stated one
        at the source's precision (within :attr:`tolerance`); a bound, the computed value
        keeps to it (``at_most``: computed <= stated; ``at_least``: >=; ``more_than``: >;
        ``less_than``: <). A bound is compared exactly: rounding does not widen it."""
        value, stated = self.computed_value, float(self.stated)
        if self.relation == "about":
            return abs(value - stated) <= self.tolerance * (1 + _SLACK)
        return {"at_most": value <= stated, "at_least": value >= stated,
                "more_than": value > stated, "less_than": value < stated}[self.relation]

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
