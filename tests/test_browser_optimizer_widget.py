"""The optimizer memory widget in real headless Chromium: it shows the library's numbers for
the settings chosen, by mouse or keyboard, right to left on Persian pages, and fetches
nothing from another host. Screenshots of the widget go to build/screenshots/."""

import pytest
from playwright.sync_api import expect

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.memory.states import bytes_per_param, min_gpus, model_states
from distlesson.render.numbers import format_number, format_quantity
from tests import browser as shared
from tests.browser import SCREENSHOTS

PAGES = {"en": "/why-it-does-not-fit/", "ca": "/ca/why-it-does-not-fit/",
         "fa": "/fa/why-it-does-not-fit/"}
WIDGET = '.dl-widget[data-widget="optimizer"]'
DEFAULT = ("adamw", "mixed", "llama3-70b")
CONTROLS = ("optimizer", "precision", "model")
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, CONTROLS, DEFAULT)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose
MEMORY = get_gpu("h100-sxm").memory_bytes


def expected(optimizer: str, precision: str, model: str, locale: str) -> dict[str, str]:
    """What the widget must show, computed here from the library."""
    arch = get_model(model)
    per = bytes_per_param(arch, optimizer=optimizer, precision=precision).total
    states = model_states(arch, optimizer=optimizer, precision=precision).total
    digits = 0 if per == int(per) else 2
    return {"bpp": format_number(float(per), locale, digits=digits),
            "states": format_quantity(float(states), "GB", locale, digits=1),
            "gpus": format_number(min_gpus(states, MEMORY), locale)}


# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser


def shows(page, setting: tuple[str, str, str], locale: str) -> None:
    for name, value in expected(*setting, locale).items():
        expect(out(page, name)).to_have_text(value)


def test_default_shows_the_library_values(page, locale):
    for name, value in zip(CONTROLS, DEFAULT, strict=True):
        expect(page.locator(f"{WIDGET} select[data-in={name}]")).to_have_value(value)
    shows(page, DEFAULT, locale)
    assert page.locator(f'{WIDGET} svg[data-out="bar"] rect').count() == 4
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"optimizer-widget-{locale}.png")


@pytest.mark.parametrize("setting", [("adam8bit", "mixed", "llama3-405b"),
                                     ("adafactor", "fp32", "llama3-8b"),
                                     ("lion", "mixed-no-master", "gpt2-small")])
def test_choosing_a_setting_shows_its_values(page, locale, setting):
    choose(page, *setting)
    shows(page, setting, locale)
    parts = 4 if setting[1] in {"mixed", "mixed-fp32-grads"} else 3  # no master copy: none
    expect(page.locator(f'{WIDGET} svg[data-out="bar"] rect')).to_have_count(parts)


def test_keyboard_changes_the_setting(page, locale):
    optimizer = page.locator(f"{WIDGET} select[data-in=optimizer]")
    optimizer.focus()
    page.keyboard.press("ArrowDown")
    expect(optimizer).to_have_value("adam8bit")
    shows(page, ("adam8bit", "mixed", "llama3-70b"), locale)


def test_persian_reads_right_to_left_with_the_bar_left_to_right(page, locale):
    WIDGET_UNDER_TEST.check_reading_order(page, locale, plots=("bar",), controls=CONTROLS,
                                          digits_in="states")
    # the bar starts with the weights on the left, on every page
    first = page.locator(f'{WIDGET} svg[data-out="bar"] rect[data-part="0"]').bounding_box()
    last = page.locator(f'{WIDGET} svg[data-out="bar"] rect[data-part="3"]').bounding_box()
    assert first["x"] < last["x"]
