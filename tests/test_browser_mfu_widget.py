"""The MFU widget in real headless Chromium: it shows the library's estimate for the settings
chosen, by mouse or keyboard, says why a setting is refused, reads right to left on Persian
pages, and fetches nothing from another host. Screenshots go to build/screenshots/."""

import pytest
from playwright.sync_api import expect

from distlesson.efficiency.step_time import TERMS
from distlesson.pages import mfu_widget
from distlesson.render.numbers import format_percent, format_quantity
from tests import browser as shared
from tests.browser import SCREENSHOTS
from tests.test_pages_mfu_widget import estimate

PAGES = {"en": "/mfu/", "ca": "/ca/mfu/", "fa": "/fa/mfu/"}
WIDGET = '.dl-widget[data-widget="mfu"]'
DEFAULT = tuple(str(v) for v in mfu_widget.DEFAULT)  # the chapter's scenario
CONTROLS = ("efficiency", "microbatches", "schedule", "recompute")
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, CONTROLS, DEFAULT)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose


# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser


def shows(page, setting: tuple[float, int, str, str], locale: str) -> None:
    step = estimate(*setting)
    b = step.breakdown
    expect(out(page, "mfu")).to_have_text(format_percent(b.mfu, locale, digits=1))
    expect(out(page, "step")).to_have_text(format_quantity(b.total, "s", locale, digits=2))
    expect(out(page, "memory")).to_contain_text(
        format_quantity(step.per_gpu_bytes, "GB", locale, digits=1))
    expect(out(page, "message")).to_be_hidden()
    drawn = sum(getattr(b, t) > 0 for t in TERMS)  # a term of zero seconds draws nothing
    expect(page.locator(f'{WIDGET} svg[data-out="bar"] rect')).to_have_count(drawn)


def test_default_shows_the_chapter_step(page, locale):
    for name, value in zip(CONTROLS, DEFAULT, strict=True):
        expect(page.locator(f"{WIDGET} select[data-in={name}]")).to_have_value(value)
    shows(page, mfu_widget.DEFAULT, locale)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"mfu-widget-{locale}.png")


@pytest.mark.parametrize("setting", [(0.8, 64, "interleaved", "full"),
                                     (0.4, 8, "1f1b", "none"),
                                     (0.5, 32, "1f1b", "full")])
def test_choosing_a_setting_shows_its_values(page, locale, setting):
    choose(page, *(str(v) for v in setting))
    shows(page, setting, locale)


def test_a_refused_setting_says_why(page, locale):
    choose(page, "0.6", "8", "interleaved", "full")  # 8 micro-batches on 16 stages
    expect(out(page, "message")).to_be_visible()
    expect(out(page, "mfu")).to_have_text("—")
    expect(page.locator(f'{WIDGET} svg[data-out="bar"] rect')).to_have_count(0)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"mfu-widget-{locale}-refused.png")


def test_keyboard_changes_the_setting(page, locale):
    efficiency = page.locator(f"{WIDGET} select[data-in=efficiency]")
    efficiency.focus()
    page.keyboard.press("ArrowDown")
    following = mfu_widget.EFFICIENCIES[mfu_widget.EFFICIENCIES.index(mfu_widget.CALIBRATED) + 1]
    expect(efficiency).to_have_value(str(following))
    shows(page, (following, *mfu_widget.DEFAULT[1:]), locale)


def test_persian_reads_right_to_left_with_the_bar_left_to_right(page, locale):
    WIDGET_UNDER_TEST.check_reading_order(page, locale, plots=("bar",), controls=CONTROLS,
                                          digits_in="mfu")
    rects = page.locator(f'{WIDGET} svg[data-out="bar"] rect')
    lefts = [rects.nth(i).bounding_box()["x"] for i in range(rects.count())]
    assert lefts == sorted(lefts)  # useful compute first, on the left, on every page
