"""Placeholders in prose become figures in the page's locale; code is left alone."""

import pytest

from distlesson.render.figure import Figure, Text
from distlesson.site.placeholders import UnknownFigureError, resolve_placeholders

FIGURES = {
    "fit.states": Figure("fit.states", 1.12e12, "GB"),
    "cite.zero": Text("cite.zero", "Rajbhandari et al. ({0})", (2020,)),
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
