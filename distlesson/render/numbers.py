"""Numbers as a reader of each language expects them.

Babel's CLDR data gives the separators of each locale (``1,120.5`` in English, ``1.120,5`` in
Catalan, ``1٬120٫5`` in Persian); the digits are rounded here as Babel's ``format_decimal``
rounds them (the decimal of ``str(value)``, half to even), with the same output, at a tenth
of its cost: a build formats half a million numbers. Persian prose also expects Persian
digits, which Babel leaves Latin, so they are mapped here. Unit conversions (GB = 1e9 bytes,
GiB = 2**30 bytes) happen in this module and nowhere else on the way to a page.

Each language's conventions (distlesson/site/termbase.toml says why):

- a ratio: ``4.5×`` in English, ``4,5×`` in Catalan, ``۴٫۵ برابر`` in Persian (the word, in
  prose and tables alike; «×» stays between two factors, ``۸ × H100``);
- money: ``$2.00`` in English, ``2,00 $`` in Catalan, ``۲٫۰۰ دلار`` in Persian
  (:func:`format_money`);
- small whole numbers in running prose, in words (:func:`spell_number`): ``three times``,
  «tres vegades», «سه بار»; Catalan agrees in gender (dos cops, dues vegades; un, una, and
  u for the number's own name);
- a range, its unit once (:func:`format_range`): ``87 to 98 million dollars``, «entre 87 i 98
  milions de dòlars», ``۸۷ تا ۹۸ میلیون دلار``;
- units: English and Catalan keep the symbols (GB, GB/s, TFLOP/s); Persian writes out a unit
  that has a Persian name, the byte and its multiples and the second, rates included
  (``گیگابایت بر ثانیه``), and keeps FLOP, which has none, in Latin (``TFLOP بر ثانیه``).
"""

from __future__ import annotations

import decimal
import functools
import math
from typing import Literal, get_args

from babel import Locale as BabelLocale

from distlesson.render.bidi import LRI, PDI, isolate_ltr

__all__ = [
    "LOCALES",
    "UNITS",
    "Locale",
    "check_locale",
    "format_money",
    "format_number",
    "format_percent",
    "format_quantity",
    "format_range",
    "format_scientific",
    "list_comma",
    "numbered",
    "spell_number",
    "to_locale_digits",
]

Locale = Literal["en", "ca", "fa"]
LOCALES: tuple[Locale, ...] = get_args(Locale)

_PERSIAN_DIGITS = str.maketrans("0123456789%", "۰۱۲۳۴۵۶۷۸۹٪")

# The scale of each unit and its label per locale. A quantity is stored in base units
# (bytes, parameters, plain numbers) and divided by the scale when shown.
UNITS: dict[str, tuple[float, dict[str, str]]] = {
    "": (1.0, {"en": "", "ca": "", "fa": ""}),
    "B": (1.0, {"en": "B", "ca": "bytes", "fa": "بایت"}),  # Catalan «B» reads as billions
    "bytes": (1.0, {"en": "bytes", "ca": "bytes", "fa": "بایت"}),
    "MB": (1e6, {"en": "MB", "ca": "MB", "fa": "مگابایت"}),
    "GB": (1e9, {"en": "GB", "ca": "GB", "fa": "گیگابایت"}),
    "TB": (1e12, {"en": "TB", "ca": "TB", "fa": "ترابایت"}),
    "KiB": (2.0**10, {"en": "KiB", "ca": "KiB", "fa": "کیبی‌بایت"}),
    "MiB": (2.0**20, {"en": "MiB", "ca": "MiB", "fa": "مبی‌بایت"}),
    "GiB": (2.0**30, {"en": "GiB", "ca": "GiB", "fa": "گیبی‌بایت"}),
    "B/param": (1.0, {"en": "bytes per parameter", "ca": "bytes per paràmetre",
                      "fa": "بایت به‌ازای هر پارامتر"}),
    "x": (1.0, {"en": "×", "ca": "×", "fa": "برابر"}),
    "M params": (1e6, {"en": "M", "ca": "milions", "fa": "میلیون"}),
    "B params": (1e9, {"en": "B", "ca": "mil\u00a0milions", "fa": "میلیارد"}),
    "TFLOP/s": (1e12, {"en": "TFLOP/s", "ca": "TFLOP/s", "fa": "TFLOP بر ثانیه"}),
    "GB/s": (1e9, {"en": "GB/s", "ca": "GB/s", "fa": "گیگابایت بر ثانیه"}),
    "TB/s": (1e12, {"en": "TB/s", "ca": "TB/s", "fa": "ترابایت بر ثانیه"}),
    "ms": (1e-3, {"en": "ms", "ca": "ms", "fa": "میلی‌ثانیه"}),
    "µs": (1e-6, {"en": "µs", "ca": "µs", "fa": "میکروثانیه"}),
    "FLOP/B": (1.0, {"en": "FLOP/byte", "ca": "FLOP/byte", "fa": "FLOP بر بایت"}),
    "M$": (1e6, {"en": "million dollars", "ca": "milions de dòlars",
                 "fa": "میلیون دلار"}),
    "s": (1.0, {"en": "s", "ca": "s", "fa": "ثانیه"}),
}

# Units written against the number, as in "3.4×" or English "70B"; the others take a
# no-break space ("1,120 GB", "70 mil milions", "۷۰ میلیارد", "۴٫۵ برابر").
_ATTACHED = {"en": {"x", "M params", "B params"}, "ca": {"x"}, "fa": set()}


def check_locale(locale: str) -> Locale:
    """Return ``locale`` if the site has it, else raise naming the allowed ones."""
    if locale not in LOCALES:
        raise ValueError(f"locale={locale!r} is not one of {', '.join(LOCALES)}")
    return locale  # type: ignore[return-value]


def to_locale_digits(text: str, locale: str) -> str:
    """Persian digits (and the Persian percent sign) for ``fa``; other locales unchanged."""
    return text.translate(_PERSIAN_DIGITS) if check_locale(locale) == "fa" else text


@functools.cache
def _separators(locale: str) -> tuple[str, str]:
    """(group, decimal) separators of ``locale``'s default numbering system (CLDR)."""
    data = BabelLocale.parse(locale)
    symbols = data.number_symbols[data.default_numbering_system]
    return symbols["group"], symbols["decimal"]


def _decimal_text(value: float, locale: str, digits: int, grouping: bool) -> str:
    """Babel's ``format_decimal(value, "#,##0.00…", locale, numbering_system="default")``:
    the decimal of ``str(value)`` rounded half to even, a hyphen for any negative value (so
    -0.001 gives "-0", as Babel does)."""
    number = decimal.Decimal(str(value))
    places = decimal.Decimal(1).scaleb(-digits)
    context = decimal.Context(prec=max(28, number.adjusted() + digits + 2),
                              rounding=decimal.ROUND_HALF_EVEN)
    rounded = abs(number).quantize(places, context=context)
    text = f"{rounded:,.{digits}f}" if grouping else f"{rounded:.{digits}f}"
    group, point = _separators(locale)
    text = text.translate({ord(","): group, ord("."): point})
    return "-" + text if number.is_signed() else text


def format_number(value: float, locale: str, *, digits: int = 0, grouping: bool = True) -> str:
    """``value`` with exactly ``digits`` decimals, in the separators and digits of ``locale``."""
    check_locale(locale)
    if not math.isfinite(value):
        raise ValueError(f"cannot format value={value!r}: it must be finite")
    if digits < 0:
        raise ValueError(f"digits={digits} must be >= 0")
    text = _decimal_text(value, locale, digits, grouping)
    # CLDR's minus is a hyphen for these locales; typography wants the minus sign.
    text = to_locale_digits(text.replace("-", "\u2212"), locale)
    if locale == "fa" and text.startswith("\u2212"):
        # in a right-to-left line the sign would show on the right of the digits: keep the
        # number left to right (CLDR's Persian minus carries a left-to-right mark for this)
        text = isolate_ltr(text)
    return text


def format_percent(fraction: float, locale: str, *, digits: int = 0) -> str:
    """A fraction as a percentage: 0.273 -> ``27.3%``, ``27,3 %``, ``۲۷٫۳٪``."""
    number = format_number(fraction * 100, locale, digits=digits)
    if locale == "ca":
        return f"{number}\u00a0%"  # Catalan typography separates the sign
    if locale == "fa":  # the sign goes inside a negative number's isolate, beside the digits
        return number[:-1] + "٪" + PDI if number.startswith(LRI) else number + "٪"
    return number + "%"


def format_quantity(value: float, unit: str, locale: str, *, digits: int = 0) -> str:
    """``value`` in base units shown in ``unit`` with its label: 1.12e12, "GB" -> ``1,120 GB``."""
    if unit == "%":
        return format_percent(value, locale, digits=digits)
    if unit not in UNITS:
        raise ValueError(f"unit={unit!r} is not one of {', '.join(sorted(UNITS))} or '%'")
    scale, labels = UNITS[unit]
    number = format_number(value / scale, locale, digits=digits)
    label = labels[check_locale(locale)]
    if not label:
        return number
    attached = unit in _ATTACHED[locale]
    return f"{number}{label}" if attached else f"{number}\u00a0{label}"


def list_comma(locale: str) -> str:
    """The comma between the parts of a label: Persian has its own («،»)."""
    return "، " if check_locale(locale) == "fa" else ", "


def numbered(word: str, number: int, locale: str) -> str:
    """A noun and its number, «Stage 1», «Etapa 1», «مرحلهٔ ۱»: Persian links a noun to
    the number that follows with the ezafe, written «ٔ» after a final «ه»."""
    text = format_number(number, locale)
    if locale == "fa" and word.endswith("ه"):
        word += "\u0654"
    return f"{word} {text}"


def format_money(dollars: float, locale: str, *, digits: int = 2) -> str:
    """US dollars as each language writes them: ``$2.00``, ``2,00 $``, ``۲٫۰۰ دلار``."""
    number = format_number(dollars, locale, digits=digits)
    if locale == "fa":  # the word: a "$" beside Persian digits breaks the line's order
        return f"{number}\u00a0دلار"
    return f"{number}\u00a0$" if locale == "ca" else f"${number}"


def format_scientific(value: float, locale: str, *, digits: int = 1) -> str:
    """``value`` as mantissa × 10 to a power, the power as HTML superscript:
    3.4028e38 -> ``3.4 × 10<sup>38</sup>`` (``۳٫۴ × ۱۰<sup>۳۸</sup>`` in Persian)."""
    if value == 0:
        return format_number(0, locale, digits=digits)
    exponent = math.floor(math.log10(abs(value)))
    mantissa = value / 10**exponent
    if round(abs(mantissa), digits) >= 10:  # 9.96 shown with one digit is 10.0: carry
        exponent += 1
        mantissa /= 10
    power = to_locale_digits(str(exponent).replace("-", "\u2212"), locale)
    ten = to_locale_digits("10", locale)
    text = f"{format_number(mantissa, locale, digits=digits)}\u00a0×\u00a0{ten}<sup>{power}</sup>"
    # After Persian letters the bidi algorithm reads the digits as Arabic numbers, which a
    # minus does not join: «۱۰<sup>−۵</sup>» would show as «۵−۱۰». The notation reads left
    # to right, as formulas do (always wrapped: a negative mantissa's own isolate ends
    # before the power)
    return f"{LRI}{text}{PDI}" if locale == "fa" else text


Gender = Literal["m", "f", "name"]

# One to ten in words (style guides of all three languages spell these in running prose).
# Catalan: 1 and 2 agree with the noun (un cop, una vegada; dos cops, dues vegades), and
# the number named on its own is «u» (IEC, Gramàtica, els numerals cardinals).
_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten"),
    "ca": ("zero", "un", "dos", "tres", "quatre", "cinc", "sis", "set", "vuit", "nou", "deu"),
    "fa": ("صفر", "یک", "دو", "سه", "چهار", "پنج", "شش", "هفت", "هشت", "نه", "ده"),
}
_CA_FORMS = {("f", 1): "una", ("f", 2): "dues", ("name", 1): "u"}


def spell_number(value: float, locale: str, *, gender: Gender = "m") -> str:
    """A whole number from zero to ten in words: 2 -> «two», «dos» (``gender="f"``:
    «dues»), «دو». ``gender`` matters in Catalan only; ``"name"`` gives «u» for 1."""
    check_locale(locale)
    if gender not in get_args(Gender):
        raise ValueError(f"gender={gender!r} is not one of {', '.join(get_args(Gender))}")
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not float(value).is_integer() or not 0 <= value <= 10):
        raise ValueError(f"value={value!r} must be a whole number from 0 to 10 to be spelled")
    number = int(value)
    if locale == "ca":
        return _CA_FORMS.get((gender, number), _WORDS["ca"][number])
    return _WORDS[locale][number]


def format_range(low: float, high: float, unit: str, locale: str, *, digits: int = 0) -> str:
    """A range with its unit written once: 87e6 to 98e6 in ``"M$"`` -> ``87 to 98 million
    dollars``, «entre 87 i 98 milions de dòlars», ``۸۷ تا ۹۸ میلیون دلار``; a Catalan
    percentage takes its article, «entre un 30 i un 50 %»."""
    if low > high:
        raise ValueError(f"range low={low!r} must not exceed high={high!r}")
    end = format_quantity(high, unit, locale, digits=digits)
    scale = 1.0 if unit == "%" else UNITS[unit][0]
    start = format_number(low * (100 if unit == "%" else 1) / scale, locale, digits=digits)
    if locale == "ca":  # a percentage takes its article: «entre un 30 i un 50 %»
        article = "un " if unit == "%" else ""
        return f"entre {article}{start} i {article}{end}"
    if locale == "fa":
        return f"{start} تا {end}"
    return f"{start} to {end}"
