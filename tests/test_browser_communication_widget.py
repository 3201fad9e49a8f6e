"""The all-reduce widget and the chapter's exercises in real headless Chromium: the widget
shows the alpha-beta model's values for the size, GPUs and GPUs per node chosen, right to
left on Persian pages with its bar left to right; a right answer to an exercise is accepted
and a wrong one refused; nothing is fetched from another host. Screenshots go to
build/screenshots/."""

from playwright.sync_api import expect

from distlesson.chapter_exercises import chapter_exercises
from distlesson.parallel.alpha_beta import group_collective
from distlesson.render.numbers import format_percent, format_quantity
from tests import browser as shared
from tests.browser import SCREENSHOTS

# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser

PAGES = {"en": "/communication/", "ca": "/ca/communication/", "fa": "/fa/communication/"}
WIDGET = '.dl-widget[data-widget="communication"]'
DEFAULT = (2**27, 8, 8)
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, ("size", "ranks", "node"), DEFAULT)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose
DOMINANT = {"en": ("latency (T₀ + steps × α)", "bandwidth (bytes / β)"),
            "ca": ("latència (T₀ + passos × α)", "amplada de banda (bytes / β)"),
            "fa": ("تأخیر (T₀ + گام‌ها × α)", "پهنای باند (بایت‌ها / β)")}


def expect_setting(page, locale: str, size: int, ranks: int, per_node: int) -> None:
    c = group_collective("all-reduce", size, ranks, min(ranks, per_node), intra="nvlink4",
                         inter="ib-ndr")
    expect(out(page, "latency")).to_have_text(format_percent(c.latency / c.time, locale,
                                                             digits=1))
    busbw = format_quantity(c.busbw, "GB/s", locale, digits=2 if c.busbw < 10e9 else 1)
    expect(out(page, "busbw")).to_have_text(busbw)
    term = 0 if c.latency > c.transfer else 1
    expect(out(page, "dominant")).to_have_text(DOMINANT[locale][term])
    width = float(page.locator(f'{WIDGET} rect[data-bar="latency"]').get_attribute("width"))
    assert abs(width - 560 * c.latency / c.time) < 0.02


def test_default_and_other_settings(page, locale):
    expect_setting(page, locale, *DEFAULT)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"communication-widget-{locale}.png")
    for setting in ((8, 1024, 1), (2**33, 8, 8), (2**21, 64, 8), (2**15, 16, 2)):
        choose(page, *setting)
        expect_setting(page, locale, *setting)
    page.locator(WIDGET).screenshot(
        path=SCREENSHOTS / f"communication-widget-{locale}-latency.png")


def test_persian_reads_right_to_left_with_the_bar_left_to_right(page, locale):
    WIDGET_UNDER_TEST.check_reading_order(page, locale, plots=("bar",),
                                          controls=("size", "ranks", "node"),
                                          digits_in="latency")



def test_chapter_exercises_check_answers(page, locale):
    numeric = [p for e in chapter_exercises() for p in e.parts if hasattr(p, "value")]
    assert numeric
    shared.answer_numeric_parts(page, numeric, locale)
    page.evaluate("localStorage.clear()")
