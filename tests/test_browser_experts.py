"""The chapter "Mixture of experts" in real headless Chromium: its exercises accept a right
answer typed the way each language writes numbers and refuse a wrong one; its plots are
drawn; nothing is fetched from another host."""

from playwright.sync_api import expect

from distlesson.exercises_experts import expert_exercises
from distlesson.pages.exercises_widget import in_answer_unit
from distlesson.render.numbers import format_number
from tests import browser as shared

# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser

PAGES = {"en": "/experts/", "ca": "/ca/experts/", "fa": "/fa/experts/"}
WIDGET_UNDER_TEST = shared.WidgetUnderTest('.dl-widget[data-widget="exercises"]', PAGES, (), ())
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()


def _typed(value: float, locale: str) -> str:
    """An answer as a reader of ``locale`` types it: their digits and decimal separator."""
    return format_number(value, locale, digits=2, grouping=False)


def test_expert_exercises_check_answers(page, locale):
    numeric = [p for e in expert_exercises() for p in e.parts if hasattr(p, "value")]
    assert len(numeric) == 3
    for part in numeric:
        block = page.locator(f'.dl-exercises [data-part="{part.id}"]')
        feedback = block.locator("[data-feedback]")
        for factor, verdict in ((1.5, "wrong"), (1.0, "right")):
            block.locator("[data-input]").fill(_typed(in_answer_unit(part) * factor, locale))
            block.locator('button[type="submit"]').click()
            expect(feedback).to_have_attribute("data-state", verdict)
    page.evaluate("localStorage.clear()")


def test_the_three_plots_are_drawn(page, locale):
    for name in ("moe-drops", "moe-imbalance", "moe-load"):
        figure = page.locator(f"figure#fig-{name} svg.dl-plot")
        expect(figure).to_have_count(1)
        assert figure.bounding_box()["width"] > 300
