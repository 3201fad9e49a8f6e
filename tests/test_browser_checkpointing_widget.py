"""The checkpointing widget in real headless Chromium: it shows the library's counts for the
layers and the sequence length chosen, by mouse or keyboard, right to left on Persian pages
with the bars left to right, and fetches nothing from another host. Screenshots go to
build/screenshots/."""

import dataclasses

from playwright.sync_api import expect

from distlesson.catalog.models import get_model
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.transformer import attention_scalars, peak_scalars
from tests import browser as shared
from tests.browser import SCREENSHOTS

# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser

PAGES = {"en": "/saving-memory/", "ca": "/ca/saving-memory/", "fa": "/fa/saving-memory/"}
WIDGET = '.dl-widget[data-widget="checkpointing"]'
DEFAULT = (get_model("course-tiny").num_layers, 128)
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, ("layers", "seq"), DEFAULT)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose


def expect_setting(page, locale: str, layers: int, seq_len: int) -> None:
    arch = dataclasses.replace(get_model("course-tiny"), num_layers=layers)
    none = peak_scalars(arch, batch_size=1, seq_len=seq_len, mode="none").peak
    full = peak_scalars(arch, batch_size=1, seq_len=seq_len, mode="full").peak
    attention = attention_scalars(arch, seq_len=seq_len, batch_size=1)
    expect(out(page, "none")).to_have_text(format_number(none, locale))
    expect(out(page, "full")).to_have_text(format_number(full, locale))
    expect(out(page, "reduction")).to_have_text(
        format_quantity(none / full, "x", locale, digits=1))
    expect(out(page, "attention")).to_have_text(format_percent(attention / none, locale,
                                                               digits=1))
    expect(page.locator(f'{WIDGET} text[data-bar-value="full"]')).to_have_text(
        format_number(full, locale))


def test_default_and_other_settings(page, locale):
    expect_setting(page, locale, *DEFAULT)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"checkpointing-widget-{locale}.png")
    for layers, seq_len in ((32, 1024), (2, 16), (16, 256)):
        choose(page, layers, seq_len)
        expect_setting(page, locale, layers, seq_len)
    page.locator(WIDGET).screenshot(
        path=SCREENSHOTS / f"checkpointing-widget-{locale}-16-256.png")


def test_bars_follow_the_counts(page, locale):
    choose(page, 32, 1024)
    widths = [float(page.locator(f'{WIDGET} rect[data-bar="{n}"]').get_attribute("width"))
              for n in ("none", "full")]
    assert widths[0] > 10 * widths[1] > 0


def test_keyboard_changes_the_setting(page, locale):
    layers = page.locator(f"{WIDGET} select[data-in=layers]")
    layers.focus()
    page.keyboard.press("ArrowDown")
    expect(layers).to_have_value("4")
    expect_setting(page, locale, 4, 128)


def test_persian_reads_right_to_left_with_the_bars_left_to_right(page, locale):
    WIDGET_UNDER_TEST.check_reading_order(page, locale, plots=("bars",),
                                          controls=("layers", "seq"), digits_in="none")
