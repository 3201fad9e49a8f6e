"""The pipeline widget in real headless Chromium: it shows the library's numbers for the
settings chosen, by mouse or keyboard, right to left on Persian pages, and fetches nothing
from another host. Screenshots of the widget go to build/screenshots/ for a person to see."""

import json
from fractions import Fraction

from playwright.sync_api import expect

from distlesson.pages import pipeline
from distlesson.pages.pipeline_widget import goal_text
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate
from distlesson.render.numbers import format_percent
from tests import browser as shared

# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser

PAGES = {"en": "/pipeline/", "ca": "/ca/pipeline/", "fa": "/fa/pipeline/"}
DURATIONS = Durations(1, 2, 1)
WIDGET = '.dl-widget[data-widget="pipeline"]'
DEFAULT = (4, 8, "1f1b")  # the chapter's example, the widget's initial setting
FORGET = "window.localStorage.removeItem('distlesson-solved')"  # after each test
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, ("stages", "microbatches", "schedule"),
                                           DEFAULT, reset=FORGET)
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
out, choose = WIDGET_UNDER_TEST.out, WIDGET_UNDER_TEST.choose


def run(p: int, m: int, name: str = "1f1b"):
    return simulate(build_schedule(name, p, m), DURATIONS)


def bubble(p: int, m: int, locale: str) -> str:
    return format_percent(float(run(p, m).bubble_fraction), locale, digits=1)


def test_default_shows_the_library_values(page, locale):
    example = run(4, 8)
    assert example.bubble_fraction == Fraction(3, 11)
    assert example.peak_activations == (4, 3, 2, 1)
    for name, value in zip(("stages", "microbatches", "schedule"), DEFAULT, strict=True):
        expect(page.locator(f"{WIDGET} select[data-in={name}]")).to_have_value(str(value))
    expect(out(page, "bubble")).to_have_text(
        format_percent(float(Fraction(3, 11)), locale, digits=1))
    expect(out(page, "peaks")).to_have_text(pipeline._peaks(example, locale))
    rects = page.locator(f'{WIDGET} svg[data-out="timeline"] rect')
    assert rects.count() == 4 * 8 * 2
    assert page.locator(f'{WIDGET} svg[data-out="timeline"] rect[data-kind]').count() == 64
    kinds = rects.evaluate_all("rs => rs.map(r => r.dataset.kind)")
    assert sorted(set(kinds)) == ["B", "F"] and kinds.count("F") == 32
    shared.screenshot(page.locator(WIDGET), f"pipeline-widget-{locale}")


def test_choosing_a_setting_shows_its_values_and_the_goal(page, locale):
    choose(page, 2, 16, "1f1b")
    expect(out(page, "bubble")).to_have_text(bubble(2, 16, locale))
    expect(out(page, "goal")).to_have_text(goal_text(True, locale))
    expect(page.locator(f'{WIDGET} svg[data-out="timeline"] rect')).to_have_count(2 * 16 * 2)
    choose(page, 4, 8, "1f1b")
    expect(out(page, "bubble")).to_have_text(bubble(4, 8, locale))
    expect(out(page, "goal")).to_have_text(goal_text(False, locale))


def test_reaching_the_goal_marks_it_solved_for_the_exercises(page, locale):
    def solved() -> dict:
        return json.loads(page.evaluate(
            "window.localStorage.getItem('distlesson-solved') || '{}'"))

    choose(page, 2, 8, "1f1b")  # one ninth of the step idle: not yet
    expect(out(page, "goal")).to_have_attribute("data-reached", "false")
    assert "bubble-goal" not in solved()
    choose(page, 4, 32, "interleaved")
    expect(out(page, "goal")).to_have_attribute("data-reached", "true")
    schedule = build_schedule("interleaved", 4, 32, pipeline.CHUNKS)
    bubble_text = format_percent(float(simulate(schedule, DURATIONS).bubble_fraction), locale,
                                 digits=1)
    assert solved()["bubble-goal"] == {"pp": 4, "m": 32, "schedule": "interleaved",
                                       "bubble_text": bubble_text}


def test_a_setting_the_schedule_refuses_says_why(page, locale):
    choose(page, 3, 8, "interleaved")
    expect(out(page, "message")).to_be_visible()
    expect(page.locator(f'{WIDGET} svg[data-out="timeline"] rect')).to_have_count(0)
    choose(page, 4, 8, "interleaved")
    expect(out(page, "message")).to_be_hidden()
    schedule = build_schedule("interleaved", 4, 8, pipeline.CHUNKS)
    expect(out(page, "bubble")).to_have_text(
        format_percent(float(simulate(schedule, DURATIONS).bubble_fraction), locale, digits=1))
    expect(page.locator(f'{WIDGET} svg[data-out="timeline"] rect')).to_have_count(
        4 * 8 * 2 * pipeline.CHUNKS)


def test_keyboard_changes_the_setting(page, locale):
    stages = page.locator(f"{WIDGET} select[data-in=stages]")
    stages.focus()
    page.keyboard.press("ArrowDown")
    expect(stages).to_have_value("6")
    expect(out(page, "bubble")).to_have_text(bubble(6, 8, locale))
    expect(page.locator(f'{WIDGET} svg[data-out="timeline"] rect')).to_have_count(6 * 8 * 2)


def test_persian_reads_right_to_left_with_time_left_to_right(page, locale):
    WIDGET_UNDER_TEST.check_reading_order(
        page, locale, plots=("timeline",), controls=("stages", "microbatches", "schedule"),
        digits_in="bubble")

