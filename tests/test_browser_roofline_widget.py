"""The roofline widget in real headless Chromium: it shows the library's numbers for the GPU
and the batch chosen, by mouse or keyboard, right to left on Persian pages with the plot left
to right, and fetches nothing from another host. Screenshots go to build/screenshots/."""

from fractions import Fraction

from playwright.sync_api import expect

from distlesson.catalog.hardware import GPUS
from distlesson.efficiency.roofline import decode_shape, ridge_point, roofline_point, training_shape
from distlesson.pages.roofline_widget import bound_text
from distlesson.render.numbers import format_number, format_percent
from tests import browser as shared
from tests.browser import SCREENSHOTS

# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser

PAGES = {"en": "/hardware/", "ca": "/ca/hardware/", "fa": "/fa/hardware/"}
WIDGET = '.dl-widget[data-widget="roofline"]'
DEFAULT = ("h100-sxm", 1)
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, ("gpu", "batch"), DEFAULT)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose
HIDDEN = 8192


def decode(gpu: str, batch: int):
    return roofline_point(GPUS[gpu], "decode", decode_shape(batch, HIDDEN))


def intensity(value: Fraction, locale: str) -> str:
    return format_number(float(value), locale, digits=0 if value >= 100 else 1)


def percent(share: float, locale: str) -> str:
    """No decimals from 10%, one from 1%, two below (no false precision)."""
    return format_percent(share, locale, digits=0 if share >= 0.1 else 1 if share >= 0.01 else 2)


def expect_setting(page, locale: str, gpu: str, batch: int) -> None:
    point = decode(gpu, batch)
    training = roofline_point(GPUS[gpu], "training", training_shape(8192, HIDDEN, 4 * HIDDEN))
    expect(out(page, "ridge")).to_have_text(
        format_number(float(ridge_point(GPUS[gpu])), locale, digits=1))
    expect(out(page, "decode-intensity")).to_have_text(intensity(point.intensity, locale))
    expect(out(page, "decode-share")).to_have_text(percent(float(point.share_of_peak), locale))
    expect(out(page, "decode-bound")).to_have_text(bound_text(point.memory_bound, locale))
    expect(out(page, "training-intensity")).to_have_text(intensity(training.intensity, locale))
    expect(out(page, "training-share")).to_have_text(
        percent(float(training.share_of_peak), locale))


def test_default_and_every_gpu(page, locale):
    expect_setting(page, locale, *DEFAULT)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"roofline-widget-{locale}.png")
    for gpu in GPUS:
        choose(page, gpu, 64)
        expect_setting(page, locale, gpu, 64)


def test_a_large_batch_becomes_compute_bound_and_moves_the_point(page, locale):
    before = page.locator(f'{WIDGET} circle[data-plot="decode"]').get_attribute("cx")
    choose(page, "a100-80gb", 512)
    expect_setting(page, locale, "a100-80gb", 512)
    expect(out(page, "decode-bound")).to_have_text(bound_text(False, locale))
    after = page.locator(f'{WIDGET} circle[data-plot="decode"]').get_attribute("cx")
    assert float(after) > float(before)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"roofline-widget-{locale}-a100.png")


def test_keyboard_changes_the_setting(page, locale):
    batch = page.locator(f"{WIDGET} select[data-in=batch]")
    batch.focus()
    page.keyboard.press("ArrowDown")
    expect(batch).to_have_value("2")
    expect_setting(page, locale, "h100-sxm", 2)


def test_persian_reads_right_to_left_with_the_plot_left_to_right(page, locale):
    WIDGET_UNDER_TEST.check_reading_order(page, locale, plots=("plot",),
                                          controls=("gpu", "batch"), digits_in="decode-share")
