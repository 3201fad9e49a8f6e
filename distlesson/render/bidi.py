"""Direction inside a line: Unicode isolates for mixed Persian and Latin text and numbers.

A label such as «گیگابایت در هر GPU» or «Adam هشت‌بیتی» drawn in an SVG ``<text>`` is laid
out by the browser's bidi algorithm with the text's own direction, which inside a plot is
left to right: the Persian words then land on the wrong side of the Latin ones. Wrapping the
label in a right-to-left isolate (U+2067 RLI ... U+2069 PDI) makes it read as its writer
meant, whatever surrounds it. A negative number is the opposite case: in a right-to-left line
the minus sign would drift to the right of the digits, so it goes in a left-to-right isolate
(U+2066 LRI ... U+2069 PDI), as CLDR's Persian minus sign does with its left-to-right mark.
Isolates (UAX #9, section 2.7) rather than embeddings: nothing outside leaks in.
"""

from __future__ import annotations

import re

__all__ = ["LRI", "PDI", "RLI", "RTL_LOCALES", "has_rtl_letters", "isolate", "isolate_ltr"]

LRI, RLI, PDI = "\u2066", "\u2067", "\u2069"
RTL_LOCALES = frozenset({"fa"})
"""The site's languages written right to left."""

_RTL_LETTERS = re.compile("[\u0590-\u05ff\u0600-\u065f\u066e-\u06ef\u06fa-\u08ff"
                          "\ufb1d-\ufdff\ufe70-\ufefc]")


def has_rtl_letters(text: str) -> bool:
    """Whether ``text`` holds a Hebrew or Arabic-script letter (digits do not count)."""
    return bool(_RTL_LETTERS.search(text))


def isolate(text: str, locale: str) -> str:
    """On a right-to-left page, a label with right-to-left letters inside a right-to-left
    isolate, so that "GB", "tp" and the digits stay where its reader expects them; any other
    text as it is. An already isolated label is not wrapped twice."""
    if locale in RTL_LOCALES and has_rtl_letters(text) and not text.startswith(RLI):
        return f"{RLI}{text}{PDI}"
    return text


def isolate_ltr(text: str) -> str:
    """``text`` inside a left-to-right isolate: a signed number keeps its sign on the left."""
    return text if text.startswith(LRI) else f"{LRI}{text}{PDI}"
