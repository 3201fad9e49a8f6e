"""Edits to the prose of rendered pages (distlesson.render.html_text)."""

from __future__ import annotations

from distlesson.render.catalan import elide_html
from distlesson.render.html_text import keep_compounds_whole, map_text, mark_numbers_after_latin

NB = '<span class="dl-nobreak">'


def test_compounds_are_kept_whole_in_prose():
    html = "<p>یک all-reduce و ZeRO-3 و Megatron-LM روی bf16</p>"
    assert keep_compounds_whole(html) == (
        f"<p>یک {NB}all-reduce</span> و {NB}ZeRO-3</span> و {NB}Megatron-LM</span>"
        " روی bf16</p>")  # a word without a hyphen is left as it is


def test_code_drawings_formulas_and_controls_are_left_alone():
    html = ('<code>all-reduce</code><pre>x-y</pre><svg><text>all-gather</text></svg>'
            '<p>\\(p-1\\) and \\[m-1\\]</p><select><option>zero-3</option></select>'
            '<a href="/all-reduce/">link</a>')
    assert keep_compounds_whole(html) == html  # attributes are tags: the href too


def test_a_link_text_is_prose():
    assert keep_compounds_whole('<a href="#x">all-gather</a>') == (
        f'<a href="#x">{NB}all-gather</span></a>')


def test_map_text_sees_only_the_prose_runs():
    seen: list[str] = []
    map_text("<p>one <b>two</b></p><script>three</script> \\(four\\) five",
             lambda text: seen.append(text) or text)
    # " \\(four\\) five" is one run, split around its formula: " " and " five"
    assert seen == ["one ", "two", " ", " five"]


def test_catalan_elision_still_reaches_drawings_but_not_code():
    assert elide_html("<p>de 11,1</p><svg><text>de 1,0</text></svg><code>de 11</code>") == (
        "<p>d'11,1</p><svg><text>d'1,0</text></svg><code>de 11</code>")


def test_a_persian_number_after_a_latin_word_gets_a_right_to_left_mark():
    # UAX #9, W7: a European-number digit (Persian digits are) whose nearest strong letter
    # before it is Latin becomes left to right; the mark (a strong R) prevents it.
    rlm = "\u200f"
    assert mark_numbers_after_latin("<p>یک H100 ۸۰ گیگابایت</p>") == \
        f"<p>یک H100 {rlm}۸۰ گیگابایت</p>"
    assert mark_numbers_after_latin("<p>fp32: ۵۶</p>") == f"<p>fp32: {rlm}۵۶</p>"
    # the Arabic comma is a separator, not a strong letter: the mark goes after it, which
    # also parts two Latin words it separates
    assert mark_numbers_after_latin("<p>GPU، ۵۱۲</p>") == f"<p>GPU،{rlm} ۵۱۲</p>"
    assert mark_numbers_after_latin("<p>DeepSeek-V3، MFU</p>") == f"<p>DeepSeek-V3،{rlm} MFU</p>"
    # across an inline tag, and after code, which the page shows left to right
    assert mark_numbers_after_latin("<p>LoRA <b>۹۹٪</b></p>") == f"<p>LoRA <b>{rlm}۹۹٪</b></p>"
    assert mark_numbers_after_latin("<p><code>tp</code> ۸</p>") == f"<p><code>tp</code> {rlm}۸</p>"


def test_numbers_after_persian_words_isolates_and_paragraph_ends_are_left_alone():
    for html in ("<p>با ۸ GPU و ۱۶ لایه</p>",  # after «با» and «و»
                 "<p>GPU</p><p>۵۱۲ تا</p>",  # a new paragraph starts afresh
                 "<p>GPU \u2066−۳٫۰\u2069 و</p>",  # a signed number in its own isolate
                 "<pre>x = H100 ۸۰</pre>",  # code is never edited
                 # an element its author marked left to right keeps its layout
                 '<td><bdi dir="ltr">GPT 22B، ۸ × <b>A100</b> ۳</bdi> و ۴</td>'):
        assert mark_numbers_after_latin(html) == html
