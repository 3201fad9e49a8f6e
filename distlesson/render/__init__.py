"""Formatting at the edge: numbers, tables and plots for a page's language.

The library computes in bytes, FLOPs, seconds and fractions; this package turns those into
text for one locale (``en``, ``ca`` or ``fa``) and nothing else.
"""

from distlesson.render.numbers import (
    LOCALES,
    Locale,
    check_locale,
    format_number,
    format_percent,
    format_quantity,
    to_locale_digits,
)

__all__ = [
    "LOCALES",
    "Locale",
    "check_locale",
    "format_number",
    "format_percent",
    "format_quantity",
    "to_locale_digits",
]
