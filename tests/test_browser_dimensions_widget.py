"""The five dimensions widget in real headless Chromium: it shows the library's numbers for
the settings chosen (context parallelism and micro-batches too), by mouse or keyboard, draws
the step's pipeline, marks the bubble goal solved when it is reached, reads right to left on
Persian pages, and fetches nothing from another host. Screenshots go to build/screenshots/."""

import json
from fractions import Fraction

from playwright.sync_api import expect

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload, analyse_layout
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate
from distlesson.render.numbers import format_number, format_percent, format_quantity
from tests import browser as shared

PAGES = {"en": "/parallelism/", "ca": "/ca/parallelism/", "fa": "/fa/parallelism/"}
WIDGET = '.dl-widget[data-widget="dimensions"]'
CONTROLS = ("dp", "tp", "pp", "cp", "zero", "microbatches")
DEFAULT = (16, 1, 1, 1, 0, 8)
FORGET = "window.localStorage.removeItem('distlesson-solved')"  # after each test
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, CONTROLS, DEFAULT, reset=FORGET)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose
site, server, browser = shared.site, shared.server, shared.browser

MEMORY = get_gpu("h100-sxm").memory_bytes
YES = {"en": ("yes", "no"), "ca": ("sí", "no"), "fa": ("بله", "خیر")}
REACHED = {"en": ("not yet", "reached"), "ca": ("encara no", "assolit"),
           "fa": ("هنوز نه", "برآورده شد")}
SEQUENCES, SEQ_LEN = 128, 8192  # the chapter's step


def run(pp: int, m: int):
    return simulate(build_schedule("1f1b", pp, m), Durations(fwd=1, bwd=2, wgrad=1))


def expected(setting: tuple, locale: str) -> dict[str, str]:
    """What the widget must show, computed here from the library."""
    dp, tp, pp, cp, zero, m = setting
    step = Workload(seq_len=SEQ_LEN, micro_batch=SEQUENCES // (dp * m), global_batch=SEQUENCES)
    r = analyse_layout(get_model("llama3-70b"), Layout(dp=dp, tp=tp, pp=pp, cp=cp, zero=zero),
                       step)
    assert r.num_microbatches == m

    def gb(value):
        return format_quantity(float(value), "GB", locale, digits=1)

    total, bubble = r.per_gpu_bytes, run(pp, m).bubble_fraction
    reached = pp >= 2 and bubble < Fraction(1, 10)
    return {"memory": gb(total), "fits": YES[locale][0 if total <= MEMORY else 1],
            "gpus": format_number(dp * tp * pp * cp, locale),
            "sequences": format_number(SEQUENCES // (dp * m), locale),
            **{f"sent_{dim}": gb(getattr(r.communication, dim))
               for dim in ("dp", "tp", "pp", "cp")},
            "bubble": format_percent(float(bubble), locale, digits=1),
            "goal": REACHED[locale][reached]}


def shows(page, setting: tuple, locale: str) -> None:
    for name, value in expected(setting, locale).items():
        expect(out(page, name)).to_have_text(value)
    expect(out(page, "message")).to_be_hidden()
    pp, m = setting[2], setting[5]
    expect(page.locator(f'{WIDGET} svg[data-out="timeline"] rect')).to_have_count(2 * pp * m)
    expect(page.locator(f'{WIDGET} svg[data-out="bar"] line[data-mark="limit"]')).to_have_count(1)


def solved(page) -> dict:
    return json.loads(page.evaluate("window.localStorage.getItem('distlesson-solved') || '{}'"))


def test_default_shows_the_library_values(page, locale):
    for name, value in zip(CONTROLS, DEFAULT, strict=True):
        expect(page.locator(f"{WIDGET} select[data-in={name}]")).to_have_value(str(value))
    shows(page, DEFAULT, locale)
    # one stage holds everything at the default: every part of the bar is there, logits too
    assert page.locator(f'{WIDGET} svg[data-out="bar"] rect').count() == 7
    expect(out(page, "goal")).to_have_attribute("data-reached", "false")


def test_context_parallelism_and_microbatches_show_the_library_values(page, locale):
    for setting in ((8, 4, 2, 2, 1, 16), (2, 8, 4, 8, 3, 4), (1, 2, 16, 4, 2, 32)):
        choose(page, *setting)
        shows(page, setting, locale)
    shared.screenshot(page.locator(WIDGET), f"dimensions-widget-{locale}")


def test_reaching_the_bubble_goal_marks_it_solved(page, locale):
    choose(page, 8, 1, 2, 1, 0, 8)  # two stages, eight micro-batches: one ninth idle
    expect(out(page, "goal")).to_have_text(REACHED[locale][0])
    assert "bubble-goal" not in solved(page)
    choose(page, 8, 1, 2, 1, 0, 16)
    expect(out(page, "goal")).to_have_text(REACHED[locale][1])
    expect(out(page, "goal")).to_have_attribute("data-reached", "true")
    goal = solved(page)["bubble-goal"]
    assert goal == {"pp": 2, "m": 16, "schedule": "1f1b",
                    "bubble_text": format_percent(float(run(2, 16).bubble_fraction), locale,
                                                  digits=1)}


def test_refused_settings_show_the_library_message(page, locale):
    # tp = 3 divides neither the 64 heads, cp = 3 nor the 8192 tokens, and 64 replicas of
    # 4 micro-batches need 256 sequences from a step of 128: the library refuses all three
    for setting, words, number in (
            ((16, 3, 1, 1, 0, 8), "tp=3 must divide num_heads=64", 3),
            ((16, 1, 1, 3, 0, 8), "cp=3 must divide seq_len=8192", 3),
            ((64, 1, 1, 1, 0, 4), "= 256 must divide global_batch=128", 256)):
        choose(page, *setting)
        expect(out(page, "memory")).to_have_text("–")
        expect(out(page, "bubble")).to_have_text("–")
        expect(page.locator(f'{WIDGET} svg[data-out="bar"]')).to_be_hidden()
        expect(page.locator(f'{WIDGET} svg[data-out="timeline"]')).to_be_hidden()
        message = out(page, "message")
        expect(message).to_be_visible()
        if locale == "en":
            expect(message).to_contain_text(words)
        else:
            expect(message).to_contain_text(format_number(number, locale))


def test_keyboard_changes_the_setting(page, locale):
    cp = page.locator(f"{WIDGET} select[data-in=cp]")
    cp.focus()
    page.keyboard.press("ArrowDown")
    expect(cp).to_have_value("2")
    page.keyboard.press("Tab")  # on to the ZeRO stage, then the micro-batches
    page.keyboard.press("Tab")
    microbatches = page.locator(f"{WIDGET} select[data-in=microbatches]")
    expect(microbatches).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(microbatches).to_have_value("4")
    shows(page, (16, 1, 1, 2, 0, 4), locale)


def test_persian_reads_right_to_left_with_the_plots_left_to_right(page, locale):
    WIDGET_UNDER_TEST.check_reading_order(  # the first row of controls
        page, locale, plots=("bar", "timeline"), controls=CONTROLS[:3], digits_in="memory")
    first = page.locator(f'{WIDGET} svg[data-out="bar"] rect[data-part="0"]').bounding_box()
    last = page.locator(f'{WIDGET} svg[data-out="bar"] rect[data-part="6"]').bounding_box()
    assert first["x"] < last["x"]
