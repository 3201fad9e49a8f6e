"""Placeholders in prose become figures in the page's locale; code is left alone."""

import pytest

from distlesson.render.figure import Figure, Text
from distlesson.site.placeholders import UnknownFigureError, resolve_placeholders

FIGURES = {
    "fit.states": Figure("fit.states", 1.12e12, "GB"),
    "cite.zero": Text("cite.zero", "Rajbhandari et al. ({0})", (2020,)),
    "pipe.chunks": Figure("pipe.chunks", 2),
    "cost.low": Figure("cost.low", 87e6, "M$"),
    "cost.high": Figure("cost.high", 98e6, "M$"),
}


def test_prose_is_resolved_per_locale():
    page = "States: {{ fit.states }}, see {{cite.zero}}."
    assert resolve_placeholders(page, "en", FIGURES) == (
        "States: 1,120\u00a0GB, see Rajbhandari et al. (2020).")
    assert resolve_placeholders(page, "fa", FIGURES) == (
        "States: ۱٬۱۲۰\u00a0گیگابایت, see Rajbhandari et al. (۲۰۲۰).")


def test_code_is_left_as_written():
    page = "`{{ fit.states }}`\n\n```python\nprint('{{ fit.states }}')\n```\n{{ fit.states }}"
    out = resolve_placeholders(page, "ca", FIGURES)
    assert out == ("`{{ fit.states }}`\n\n```python\nprint('{{ fit.states }}')\n```\n"
                   "1.120\u00a0GB")


def test_unknown_name_names_page_line_and_neighbours():
    page = "# Title\n\nText.\nHere {{ fit.state }}."
    with pytest.raises(UnknownFigureError, match=r"docs/x.en.md:4: .*fit\.state.*fit\.states"):
        resolve_placeholders(page, "en", FIGURES, where="docs/x.en.md")


@pytest.mark.parametrize(
    ("locale", "expected"),
    # «voltes» is feminine: dues; «cops» masculine: dos; English and Persian have no gender
    [("ca", "dues voltes, dos cops"), ("en", "two voltes, two cops"),
     ("fa", "دو voltes, دو cops")],
)
def test_words_filter_spells_a_count_with_its_gender(locale, expected):
    page = "{{ pipe.chunks | words_f }} voltes, {{pipe.chunks|words}} cops"
    assert resolve_placeholders(page, locale, FIGURES) == expected


def test_to_filter_writes_a_range_with_its_unit_once():
    page = "{{ cost.low | to cost.high }}"
    assert resolve_placeholders(page, "ca", FIGURES) == "entre 87 i 98\u00a0milions de dòlars"
    assert resolve_placeholders(page, "fa", FIGURES) == "۸۷ تا ۹۸\u00a0میلیون دلار"


@pytest.mark.parametrize(
    ("page", "message"),
    [("{{ fit.states | words }}", "cannot be spelled"),  # a quantity with a unit
     ("{{ cost.low | to fit.states }}", "units or decimals differ"),
     ("{{ cost.low | to }}", "'to' takes the range's upper figure"),
     ("{{ cost.low | to cost.hig }}", "unknown figure.*cost.high")],
)
def test_filters_refuse_what_they_cannot_show(page, message):
    with pytest.raises(UnknownFigureError, match=message):
        resolve_placeholders(page, "ca", FIGURES, where="docs/x.ca.md")
