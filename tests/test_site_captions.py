"""Numbered figures: captions per page in order, per language, references that resolve."""

import re

import markdown
import pytest

from distlesson.site.captions import (
    FigureError,
    captioned,
    figure_label,
    figure_ref,
    number_figures,
    wrap_figures,
)
from distlesson.site.parity import page_signature
from tests.pages import LOCALES, page_names, page_path

FENCE = '```python exec="on" html="true"\nprint(plot())\n```'
PAGE = f"""# A page

As {{{{ fig:second }}}} shows, and before it {{{{ fig:first }}}}:

{FENCE}

{{{{ caption:first }}}} The first plot, with `code`.

Prose between.

{FENCE}

{{{{ caption:second }}}} The second plot.

Again {{{{ fig:first }}}}.
"""


def _html(page: str, locale: str) -> str:
    """The page through Markdown as the site runs it, the fences standing for figures."""
    text = number_figures(page, locale)
    return wrap_figures(markdown.markdown(text))


def test_captions_are_numbered_in_page_order():
    assert [(c.name, c.number) for c in captioned(PAGE)] == [("first", 1), ("second", 2)]


@pytest.mark.parametrize(("locale", "label", "ref"), [
    ("en", "Figure\u00a02.", "Figure\u00a02"),
    ("ca", "Figura\u00a02.", "figura\u00a02"),
    ("fa", "شکل\u00a0۲.", "شکل\u00a0۲"),
])
def test_labels_and_references_per_language(locale, label, ref):
    assert figure_label(2, locale) == label
    assert figure_ref(2, locale) == ref


def test_persian_numbers_are_persian_digits():
    assert figure_label(12, "fa") == "شکل\u00a0۱۲."


def test_each_figure_is_wrapped_with_its_caption():
    html = _html(PAGE, "en")
    figures = re.findall(r'<figure class="dl-figure" id="fig-([a-z-]+)">(.*?)</figure>', html,
                         re.S)
    assert [name for name, _ in figures] == ["first", "second"]
    first = figures[0][1]
    assert "print(plot())" in first  # the figure's own output stays inside
    assert re.search(r"<figcaption><span class=\"dl-figure-label\">Figure\u00a01\.</span> "
                     r"The first plot, with <code>code</code>\.</figcaption>", first)
    assert "Prose between" not in first and "Prose between" in html
    assert "dl-figure:" not in html  # no marker left


def test_references_link_to_their_figure_by_number():
    html = _html(PAGE, "ca")
    assert re.findall(r'<a href="#fig-([a-z-]+)">([^<]*)</a>', html) == [
        ("second", "figura\u00a02"), ("first", "figura\u00a01"), ("first", "figura\u00a01")]


def test_unknown_reference_fails_with_page_and_line():
    page = PAGE + "\nSee {{ fig:third }}.\n"
    with pytest.raises(FigureError, match=r"docs/x.en.md:\d+: no figure 'third'"):
        number_figures(page, "en", where="docs/x.en.md")


def test_caption_twice_fails():
    page = PAGE + f"\n{FENCE}\n\n{{{{ caption:first }}}} Again.\n"
    with pytest.raises(FigureError, match="captioned twice"):
        captioned(page)


def test_caption_that_follows_no_figure_fails():
    with pytest.raises(FigureError, match="follows no figure"):
        captioned("{{ caption:lost }} A caption at the top of a page.\n")
    with pytest.raises(FigureError, match="follows no figure"):
        captioned("```python\nprint(1)\n```\n\n{{ caption:shown }} Code is not a figure.\n")
    with pytest.raises(FigureError, match="must begin"):
        captioned(f"{FENCE}\n\nProse first {{{{ caption:late }}}} then.\n")


def test_a_figure_not_wrapped_is_an_error():
    with pytest.raises(FigureError, match="could not be wrapped"):
        wrap_figures("<!-- dl-figure:x --><svg></svg><p>no caption</p>")


@pytest.mark.parametrize("name", page_names())
def test_every_plot_on_a_page_is_captioned(name):
    """Each exec block that prints a plot or a diagram (not a widget, not a table) is
    followed by its caption, in every language."""
    for locale in LOCALES:
        text = page_path(name, locale).read_text(encoding="utf-8")
        plots = re.findall(r"print\((?:diagrams\.\w+_diagram|\w+\.(?:\w*plot|step_bar|scatter|"
                           r"gantt|\w+_figure|\w*timeline))\(", text)
        assert len(captioned(text, where=name)) == len(plots), (name, locale)


def test_every_language_numbers_the_same_figures():
    for name in page_names():
        signatures = {loc: page_signature(page_path(name, loc).read_text(encoding="utf-8"))
                      for loc in LOCALES}
        assert len({s.captions for s in signatures.values()}) == 1, name
        assert len({s.references for s in signatures.values()}) == 1, name
        # each captioned figure is referred to from the prose
        assert set(signatures["en"].captions) <= signatures["en"].references, name
