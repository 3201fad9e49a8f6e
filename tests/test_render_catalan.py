"""Catalan elision before numbers, by the rule of how each number is read aloud."""

import pytest

from distlesson.render.catalan import elide, elide_html, feminine_article, starts_with_vowel


@pytest.mark.parametrize(("integer", "vowel"), [
    (1, True),  # u / un / una
    (11, True),  # onze
    (0, False), (2, False), (8, False), (10, False), (12, False), (18, False),  # zero, dos...
    (100, False), (111, False),  # cent, cent onze
    (1000, False), (1999, False),  # mil...
    (11_000, True), (11_500, True),  # onze mil
    (21_000, False),  # vint-i-un mil
    (1_000_000, True), (1_500_000, True),  # un milió
    (11_000_000, True),  # onze milions
    (2_000_000, False),  # dos milions
    (1_000_000_000, False),  # mil milions
    (10**12, True),  # un bilió (un milió de milions)
])
def test_numbers_read_with_a_vowel_first(integer, vowel):
    assert starts_with_vowel(integer) is vowel


@pytest.mark.parametrize(("text", "expected"), [
    ("és de 11,1 minuts", "és d'11,1 minuts"),  # the review's example
    ("dins de 1,0\xa0×\xa010", "dins d'1,0\xa0×\xa010"),  # and its other one
    ("un augment del 11 %", "un augment de l'11 %"),
    ("De 1 a 8", "D'1 a 8"),
    ("de 1.000 GPU", "de 1.000 GPU"),  # mil
    ("de 11.000 GPU", "d'11.000 GPU"),  # onze mil
    ("de 1.000.000 de tokens", "d'1.000.000 de tokens"),  # un milió
    ("de 12,5 GB i del 80 %", "de 12,5 GB i del 80 %"),
    ("de\n11,1 minuts", "d'11,1 minuts"),  # a line break in the source
    ("onde 1", "onde 1"),  # not the word "de"
    ("de 1F1B", "de 1F1B"),  # a name, not a number
    ("de 8 GPU", "de 8 GPU"),  # vuit: a consonant
    ("dins de 1,0 × 10", "dins d'1,0 × 10"),  # u coma zero
    ("de 18 etapes", "de 18 etapes"),  # divuit
    ("del 1,5 %", "de l'1,5 %"),  # u coma cinc
    ("baixen del 45,8 % al 1,0 %", "baixen del 45,8 % a l'1,0 %"),  # u coma zero
    ("Al 11 %", "A l'11 %"),
    ("al 10 %", "al 10 %"),  # deu
    ("Bombolla: el 11,4 %", "Bombolla: l'11,4 %"),  # the exercises review's case: onze
    ("El 1,5 % del pas", "L'1,5 % del pas"),  # u coma cinc
    ("el 10 %", "el 10 %"),  # deu
    ("el 1F1B", "el 1F1B"),  # a name, not a number
    ("model 11 %", "model 11 %"),  # not the word "el"
    ("de una vegada", "d'una vegada"),  # a count spelled in words (spell_number)
    ("De un cop", "D'un cop"),
    ("de onze", "d'onze"),
    ("de uns quants", "de uns quants"),  # not a number spelled by the formatter
    ("de dues vegades", "de dues vegades"),  # dues: a consonant
])
def test_elide(text, expected):
    assert elide(text) == expected


def test_elide_html_leaves_code_and_tags_alone():
    html = ('<p>és de 11,1 minuts</p><code>de 1</code><pre><span>de 11</span></pre>'
            '<td class="de 1">del 1 %</td>')
    assert elide_html(html) == ('<p>és d\'11,1 minuts</p><code>de 1</code>'
                                '<pre><span>de 11</span></pre><td class="de 1">de l\'1 %</td>')


@pytest.mark.parametrize(("name", "expected"), [
    ("H100 SXM", "l'H100 SXM"),  # hac
    ("A100 80GB", "l'A100 80GB"),  # a
    ("MI300X", "l'MI300X"),  # ema
    ("B200", "la B200"),  # be
    ("GB200 NVL72", "la GB200 NVL72"),  # ge
])
def test_feminine_article_before_a_gpu_name(name, expected):
    assert feminine_article(name) == expected
