"""The chapter "Mixture of experts" in real headless Chromium: the expert-parallelism widget
shows the library's values for the setting chosen, and the reason for a refused one; the
exercises accept a right answer typed the way each language writes numbers and refuse a
wrong one; the plots are drawn; nothing is fetched from another host."""

import pytest
from playwright.sync_api import expect

from distlesson.exercises_experts import expert_exercises
from distlesson.pages.experts_widget import setting_key, widget_data
from tests import browser as shared

# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser

PAGES = {"en": "/experts/", "ca": "/ca/experts/", "fa": "/fa/experts/"}
WIDGET = '.dl-widget[data-widget="experts"]'
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, ("model", "ep", "capacity"),
                                           ("deepseek-v3", 64, "none"))
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose


@pytest.mark.parametrize("setting", [("deepseek-v3", 16, "none"), ("deepseek-v3", 8, "1.25"),
                                     ("mixtral-8x7b", 8, "2.0"), ("mixtral-8x7b", 16, "none")])
def test_widget_shows_the_library_s_values(page, locale, setting):
    choose(page, *setting)
    entry = widget_data(locale)["d"][setting_key(*setting)]
    if "x" in entry:  # refused: the reason, and no figure
        expect(out(page, "experts")).to_have_text(entry["x"])
        expect(out(page, "bytes")).to_have_text("—")
        return
    for name, key in (("experts", "e"), ("bytes", "b"), ("time", "t"), ("memory", "m"),
                      ("fits", "f")):
        expect(out(page, name)).to_have_text(entry[key])



def test_expert_exercises_check_answers(page, locale):
    numeric = [p for e in expert_exercises() for p in e.parts if hasattr(p, "value")]
    assert len(numeric) == 3
    shared.answer_numeric_parts(page, numeric, locale)
    page.evaluate("localStorage.clear()")


def test_the_three_plots_are_drawn(page, locale):
    for name in ("moe-drops", "moe-imbalance", "moe-load"):
        figure = page.locator(f"figure#fig-{name} svg.dl-plot")
        expect(figure).to_have_count(1)
        assert figure.bounding_box()["width"] > 300
