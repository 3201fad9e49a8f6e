"""The five dimensions widget in real headless Chromium: it shows the library's numbers for
the settings chosen, by mouse or keyboard, right to left on Persian pages, and fetches
nothing from another host. Screenshots of the widget go to build/screenshots/."""

from playwright.sync_api import expect

from distlesson.hardware import get_gpu
from distlesson.memory import Layout
from distlesson.models import get_model
from distlesson.pages.parallelism import STEP
from distlesson.parallel_layout import analyse_layout
from distlesson.render.numbers import format_number, format_quantity
from tests import browser as shared
from tests.browser import SCREENSHOTS

PAGES = {"en": "/parallelism/", "ca": "/ca/parallelism/", "fa": "/fa/parallelism/"}
WIDGET = '.dl-widget[data-widget="dimensions"]'
DEFAULT = (16, 1, 1, 0)
CONTROLS = ("dp", "tp", "pp", "zero")
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, CONTROLS, DEFAULT)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose
MEMORY = get_gpu("h100-sxm").memory_bytes
YES = {"en": ("yes", "no"), "ca": ("sí", "no"), "fa": ("بله", "خیر")}


def expected(dp: int, tp: int, pp: int, zero: int, locale: str) -> dict[str, str]:
    """What the widget must show, computed here from the library."""
    r = analyse_layout(get_model("llama3-70b"), Layout(dp=dp, tp=tp, pp=pp, zero=zero), STEP)

    def gb(value):
        return format_quantity(float(value), "GB", locale, digits=1)

    total = r.per_gpu_bytes
    return {"memory": gb(total), "fits": YES[locale][0 if total <= MEMORY else 1],
            "gpus": format_number(dp * tp * pp, locale),
            "sent_dp": gb(r.communication.dp), "sent_tp": gb(r.communication.tp),
            "sent_pp": gb(r.communication.pp)}


site, server, browser = shared.site, shared.server, shared.browser


def shows(page, setting, locale: str) -> None:
    for name, value in expected(*setting, locale).items():
        expect(out(page, name)).to_have_text(value)
    expect(out(page, "message")).to_be_hidden()


def test_default_shows_the_library_values(page, locale):
    for name, value in zip(CONTROLS, DEFAULT, strict=True):
        expect(page.locator(f"{WIDGET} select[data-in={name}]")).to_have_value(str(value))
    shows(page, DEFAULT, locale)
    assert page.locator(f'{WIDGET} svg[data-out="bar"] rect').count() == 5
    assert page.locator(f'{WIDGET} svg[data-out="bar"] line[data-mark="limit"]').count() == 1


def test_choosing_a_setting_shows_its_values(page, locale):
    choose(page, 2, 8, 1, 1)
    shows(page, (2, 8, 1, 1), locale)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(WIDGET).screenshot(path=SCREENSHOTS / f"dimensions-widget-{locale}.png")


def test_a_refused_setting_shows_its_message(page, locale):
    # tp = 3 does not divide Llama 3 70B's 64 heads: the library refuses, and so must the page
    choose(page, 16, 3, 1, 0)
    expect(out(page, "memory")).to_have_text("–")
    expect(page.locator(f'{WIDGET} svg[data-out="bar"]')).to_be_hidden()
    message = page.locator(f'{WIDGET} [data-out="message"]')
    expect(message).to_be_visible()
    expect(message).not_to_be_empty()


def test_keyboard_changes_the_setting(page, locale):
    tp = page.locator(f"{WIDGET} select[data-in=tp]")
    tp.focus()
    page.keyboard.press("ArrowDown")
    expect(tp).to_have_value("2")
    shows(page, (16, 2, 1, 0), locale)


def test_persian_reads_right_to_left_with_the_bar_left_to_right(page, locale):
    direction = "el => getComputedStyle(el).direction"
    assert page.locator(WIDGET).evaluate(direction) == ("rtl" if locale == "fa" else "ltr")
    assert out(page, "bar").evaluate(direction) == "ltr"
    xs = [page.locator(f"{WIDGET} select[data-in={name}]").bounding_box()["x"]
          for name in CONTROLS]
    assert xs == sorted(xs, reverse=locale == "fa")
    first = page.locator(f'{WIDGET} svg[data-out="bar"] rect[data-part="0"]').bounding_box()
    last = page.locator(f'{WIDGET} svg[data-out="bar"] rect[data-part="4"]').bounding_box()
    assert first["x"] < last["x"]
    text = out(page, "memory").inner_text()
    persian = any("۰" <= c <= "۹" for c in text)
    latin = any(c.isascii() and c.isdigit() for c in text)
    assert (persian, latin) == ((True, False) if locale == "fa" else (False, True))
