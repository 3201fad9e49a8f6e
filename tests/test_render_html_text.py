"""Edits to the prose of rendered pages (distlesson.render.html_text)."""

from __future__ import annotations

from distlesson.render.catalan import elide_html
from distlesson.render.html_text import keep_compounds_whole, map_text

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
