"""The claims register as pages show it: what a source states, what the library computes.

The register itself is :mod:`distlesson.claims.register`; this module formats it for a locale, and
turns each claim's values into figures that prose (and the claims' own texts) can cite as
``{{ claim.<id>.stated }}``.
"""

from __future__ import annotations

import functools
import math
import re

from distlesson.claims.claim import Claim
from distlesson.claims.register import CLAIMS
from distlesson.claims.translations import CLAIM_TEXTS
from distlesson.render.figure import Figure
from distlesson.render.numbers import check_locale
from distlesson.render.tables import Table, markdown_table

__all__ = ["claims_table", "figures", "render_text"]

_HEADERS = {
    "en": ("Source", "What it says", "Stated", "Computed", "Verdict", "Why"),
    "ca": ("Font", "Què diu", "Xifra de la font", "Xifra calculada", "Veredicte", "Per què"),
    "fa": ("منبع", "ادعا", "مقدار منبع", "مقدار محاسبه‌شده", "نتیجه", "توضیح"),
}
_VERDICT = {
    "en": ("✓ agrees", "✗ differs"),
    "ca": ("✓ coincideix", "✗ difereix"),
    "fa": ("✓ مطابق", "✗ مغایر"),
}
_BOUND = {  # how a stated bound reads in the Stated column ("about" shows the bare figure)
    "at_most": {"en": "up to {}", "ca": "fins a {}", "fa": "حداکثر {}"},
    "at_least": {"en": "at least {}", "ca": "com a mínim {}", "fa": "دست‌کم {}"},
    "more_than": {"en": "more than {}", "ca": "més de {}", "fa": "بیش از {}"},
    "less_than": {"en": "less than {}", "ca": "menys de {}", "fa": "کمتر از {}"},
}
_SOURCE_NAMES = {
    "ca": {"en": "Catalan chapter", "ca": "Capítol català", "fa": "فصل کاتالانی"},
    "fa": {"en": "Persian lesson", "ca": "Lliçó persa", "fa": "درس فارسی"},
}


def _figure(name: str, value: float, unit: str, *, precision: float | None = None,
            binary: bool = False) -> Figure:
    """A claim value as a site figure, shown at a precision that fits its size.

    A source's figure (``.stated``) keeps the decimals it was written with: those of the
    claim's ``precision`` when it gives one (10.0, 18.0 %), else those of the value (8.1).
    """
    stated = name.endswith(".stated")

    def written(scale: float, shown: float) -> int:
        """Decimals of the source's figure shown in a unit of ``scale`` base units."""
        if stated and precision is not None:
            return max(0, -math.floor(math.log10(precision / scale) + 1e-9))
        return _written_decimals(shown)

    if unit == "bytes":
        if binary and _binary(value):  # 2 GiB reads better than 2.147 GB, 64 MiB than 67.1 MB
            return Figure(name, value, "GiB" if value >= 2**30 else "MiB")
        if stated:  # as the source wrote it: 122.5 GB, 0.5 GB, 91.0 GB
            return Figure(name, value, "GB", digits=written(1e9, round(value / 1e9, 9)))
        whole = value >= 100e9 or float(value / 1e9).is_integer()
        return Figure(name, value, "GB", digits=0 if whole else 1 if value >= 1e9 else 2)
    if unit == "bytes_per_second":  # a link's bandwidth: a rate, never bare bytes (900 GB/s)
        if stated:
            return Figure(name, value, "GB/s", digits=written(1e9, round(value / 1e9, 9)))
        whole = value >= 100e9 or float(value / 1e9).is_integer()
        return Figure(name, value, "GB/s", digits=0 if whole else 1)
    if unit == "fraction":
        # as written in the source (27.3 %), and computed shares to a tenth unless whole
        percent = round(value * 100, 9)
        if stated:
            return Figure(name, value, "%", digits=written(0.01, percent))
        if percent == int(percent):
            return Figure(name, value, "%")
        return Figure(name, value, "%", digits=1 if abs(percent) >= 1 else 2)
    if unit == "usd":
        return Figure(name, value, "M$", digits=1 if value < 1e7 else 0)
    if unit == "flop_per_byte":
        return Figure(name, value, "FLOP/B", digits=written(1, value) if stated else 1)
    if unit == "ratio":
        return Figure(name, value, "x", digits=written(1, value) if stated else 2)
    if unit == "count":
        if value >= 1e9:  # 37B as written, 36.6B computed, 7.5B
            billions = round(value / 1e9, 9)
            if stated or billions.is_integer():
                return Figure(name, value, "B params", digits=written(1e9, billions))
            return Figure(name, value, "B params", digits=1)
        return Figure(name, value, digits=0)
    # A source's number keeps the decimals it was written with (8.1, not 8.100).
    digits = written(1, value) if stated else _decimals(value)
    return Figure(name, value, "bytes", digits=digits)


def _binary(value: float) -> bool:
    """A byte count that is a whole number of MiB but not of MB: it was made in binary."""
    return value > 0 and float(value / 2**20).is_integer() and not float(value / 1e6).is_integer()


def _written_decimals(value: float) -> int:
    text = repr(float(value))
    return 0 if text.endswith(".0") else len(text.partition(".")[2])


def _decimals(value: float) -> int:
    """Whole values bare; others to three decimals (10.031, 8.001), or two significant
    digits below one (0.00080), so a tiny non-zero part never shows as zero."""
    if value == int(value):
        return 0
    if abs(value) >= 1:
        return 3
    return 1 - math.floor(math.log10(abs(value)))


@functools.cache
def figures() -> tuple[Figure, ...]:
    """Every placeholder of the register (:func:`~distlesson.claims.register.claim_figures`)
    as a site figure."""
    return tuple(_figure(name, value, unit, precision=claim.precision,
                         binary=claim.binary)
                 for claim in CLAIMS for name, (value, unit) in claim.figures().items())


def render_text(text: str, locale: str) -> str:
    """A claim's prose with its placeholders resolved for ``locale``."""
    from distlesson.site.figures import figure_registry
    from distlesson.site.placeholders import resolve_placeholders

    return resolve_placeholders(text, locale, figure_registry(),
                                where="distlesson/claims/register.py")


def _text(texts: dict[str, str] | object, locale: str) -> str:
    """The text in ``locale``; the register must hold every language the site shows."""
    try:
        return texts[locale]  # type: ignore[index]
    except KeyError:
        raise ValueError(f"a claim has no text in locale={locale!r}") from None


def _row(claim: Claim, locale: str) -> tuple[str, ...]:
    registry = {f.name: f for f in figures()}
    prefix = f"claim.{claim.id}."
    origin, section = claim.source[:2], claim.source[2:].strip(" :")
    if locale != "en":
        section = CLAIM_TEXTS[locale].get(claim.id, {}).get("source", section)
    comma = "، " if locale == "fa" else ", "  # Persian has its own comma
    source = _SOURCE_NAMES[origin][locale] + (comma + section if section else "")
    stated = registry[prefix + "stated"].render(locale)
    if claim.relation in _BOUND:
        figure = stated
        if locale == "ca" and stated.endswith("%"):  # a percentage takes its article
            figure = f"un {stated}"  # «menys d'un 35 %», «com a mínim un 99 %»
        stated = _BOUND[claim.relation][locale].format(figure)
        if locale == "ca":  # "més d'1×", "menys d'un 35 %": de elides before u, un and onze
            stated = re.sub(r"\bde (un |1{1,2}(?![0-9]|\.[0-9]))", r"d'\1", stated)
    return (
        source,
        render_text(_text(claim.statement, locale), locale),
        stated,
        registry[prefix + "computed"].render(locale),
        _VERDICT[locale][0 if claim.agrees else 1],
        render_text(_text(claim.why, locale), locale),
    )


def claims_table(locale: str, chapter: str | None = None) -> str:
    """The register (or one chapter's part of it) as a Markdown table."""
    check_locale(locale)
    claims = [c for c in CLAIMS if chapter is None or c.chapter == chapter]
    if not claims:
        raise ValueError(f"chapter={chapter!r} has no claims; chapters: "
                         f"{sorted({c.chapter for c in CLAIMS})}")
    rows = tuple(_row(claim, locale) for claim in claims)
    return markdown_table(
        Table(_HEADERS[locale], rows, (False, False, True, True, False, False)), locale)
