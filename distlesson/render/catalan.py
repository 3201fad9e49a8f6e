"""Catalan elision before numbers written in digits: «de 11,1» becomes «d'11,1».

Catalan elides *de*, and the article of *del*, before a word that starts with a vowel
sound (IEC, *Gramàtica de la llengua catalana*, the apostrophe). A number in digits is read
aloud, so the rule follows how it is read: *u*, *un* or *una* (1) and *onze* (11) start with
a vowel, and so do the numbers read from them, *un milió*, *onze mil*, *u coma cinc*.
*Mil* (1.000 to 1.999), *cent* (100 to 199) and every other number start with a consonant.
Templates write «de {x}», «del {x}», «al {x}» and «el {x}»; :func:`elide` corrects them once the
number is in, so that no author has to think of it (the Catalan reviews found "de 11,1",
"dins de 1,0", "al 1,0 %" and "el 11,4 %").
"""

from __future__ import annotations

import re

from distlesson.render.html_text import map_text

__all__ = ["elide", "elide_html", "feminine_article", "starts_with_vowel"]

_BEFORE_NUMBER = re.compile(r"\b(de|De|del|Del|al|Al|el|El)(\s+)(\d[\d.]*)(?=[,\s\xa0%)]|$)")
# the same numbers spelled in words (distlesson.render.numbers.spell_number): «d'una»
_BEFORE_WORD = re.compile(r"\b([dD])e\s+(u|un|una|onze)\b")


def starts_with_vowel(integer: int) -> bool:
    """Whether ``integer``, read aloud in Catalan, starts with a vowel sound."""
    if integer < 0:
        raise ValueError(f"integer={integer!r} must be >= 0")
    if integer >= 10**6:  # un milió, onze milions; mil milions starts with "mil"
        millions = integer // 10**6
        return millions == 1 or starts_with_vowel(millions)
    if integer >= 1000:  # mil (not "un mil"), onze mil, vint mil...
        thousands = integer // 1000
        return thousands != 1 and starts_with_vowel(thousands)
    return integer in (1, 11)


# letters whose Catalan names start with a vowel sound: a, e, efa, hac, i, ela, ema, ena, o,
# erra, essa, u, ics (IEC: a name read letter by letter elides like a word: l'H100, l'MI300X)
_VOWEL_LETTERS = frozenset("AEFHILMNORSUX")


def feminine_article(name: str) -> str:
    """«la» before a name read letter by letter, elided where its first letter's name starts
    with a vowel: «l'H100», «l'A100», «l'MI300X», but «la B200» (be)."""
    if not name:
        raise ValueError("name must not be empty")
    return f"l'{name}" if name[0].upper() in _VOWEL_LETTERS else f"la {name}"


def _integer_part(number: str) -> int:
    return int(number.replace(".", ""))  # Catalan groups thousands with a point


def _replace(found: re.Match) -> str:
    word, _, number = found.groups()
    if not starts_with_vowel(_integer_part(number)):
        return found.group(0)
    if word.lower() == "del":
        return f"{word[0]}e l'{number}"
    if word.lower() == "al":  # «baixen del 45,8 % al 1,0 %» -> «a l'1,0 %»
        return f"{word[0]} l'{number}"
    if word.lower() == "el":  # «el 11,4 %» -> «l'11,4 %»
        return f"{'L' if word[0] == 'E' else 'l'}'{number}"
    return f"{word[0]}'{number}"


def elide(text: str) -> str:
    """``text`` with «de N», «del N», «al N» and «el N» elided where N is read with a vowel
    first, and «de» before the words «u», «un», «una», «onze»."""
    return _BEFORE_WORD.sub(r"\1'\2", _BEFORE_NUMBER.sub(_replace, text))


def elide_html(html: str) -> str:
    """:func:`elide` on the text of ``html``, leaving tags, code and scripts alone."""
    return map_text(html, elide, drawings=True)
