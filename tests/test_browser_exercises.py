"""The exercises page in real headless Chromium, in each language: an answer typed the way a
reader of the language writes it is accepted and counted, a wrong one is refused without
giving the answer away, the tolerance's edges hold, the count survives a reload and resets,
the bubble goal set by a widget shows as solved, model answers stay hidden until asked, and
nothing is fetched from another host. Screenshots in light and dark mode go to
build/screenshots/."""

import json

import pytest
from playwright.sync_api import expect

from tests import browser as shared
from tests.browser import SCREENSHOTS, only_local

PAGES = {"en": "/exercises/", "ca": "/ca/exercises/", "fa": "/fa/exercises/"}
WIDGET = '.dl-widget[data-widget="exercises"]'
READY = f'{WIDGET}[data-ready="true"]'
STORE = "distlesson-solved"
WIDGET_UNDER_TEST = shared.WidgetUnderTest(WIDGET, PAGES, (), (),
                                           reset=f"localStorage.removeItem('{STORE}')")
locale, tabs, page = WIDGET_UNDER_TEST.fixtures()
site, server, browser = shared.site, shared.server, shared.browser

PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
EXERCISES = 10  # the Catalan chapter's five questions and the Persian lesson's five

# The 13B model's states: 13e9 parameters x 16 bytes (2 + 2 + 4 + 4 + 4) = 208 GB, accepted
# within 2 %: from 203.84 to 212.16 GB.
STATES = "states-13b"
# Right answers as a reader of each language types them: decimal comma in Catalan, Persian
# digits and separators in Persian, grouping of thousands where it is customary.
RIGHT = {
    "states-13b": {"en": "208", "ca": "208", "fa": "۲۰۸"},
    # 148 x 8192 x 8192 bytes = 9.93 GB
    "checkpoint-peak": {"en": "9.93", "ca": "9,93", "fa": "۹٫۹۳"},
    # 8 all-reduces x 2 x 7/8 x 140 GB = 1,960 GB
    "accumulation-every": {"en": "1,960", "ca": "1.960", "fa": "۱٬۹۶۰"},
    # 3/11 of the step
    "pipeline-bubble": {"en": "27.3%", "ca": "27,3 %", "fa": "۲۷٫۳٪"},
    # GPipe's first stage holds all 8 micro-batches
    "pipeline-gpipe-peak": {"en": "8", "ca": "8", "fa": "۸"},
}
EDGES = {  # (typed, accepted) around 208 GB +- 2 %
    "en": [("212.1", True), ("212.2", False), ("203.9", True), ("203.8", False)],
    "ca": [("212,1", True), ("212,2", False), ("203,9", True), ("203,8", False)],
    "fa": [("۲۱۲٫۱", True), ("۲۱۲٫۲", False), ("۲۰۳٫۹", True), ("۲۰۳٫۸", False)],
}
TOLERANCE = {"en": "2%", "ca": "2\u00a0%", "fa": "۲٪"}
# a point in Catalan, a comma in English, separate groups of three: never a decimal mark
MISREAD = {"en": "9,93", "ca": "9.93", "fa": "۹٫۹۳٫۱"}


def count_text(n: int, locale: str) -> str:
    text = {"en": "{n} of {m} solved", "ca": "{n} de {m} resolts",
            "fa": "{n} از {m} تمرین حل شده"}[locale].format(n=n, m=EXERCISES)
    return text.translate(PERSIAN) if locale == "fa" else text


@pytest.fixture
def tab(page):
    """The locale's page with nothing solved, as a reader who pressed its reset button and
    cleared the other widgets' goals would see it: loaded once per locale, since a reload per
    test made this the suite's longest file (the tests that need a reload do it themselves,
    and test_a_fresh_load_shows_nothing_solved checks that a load starts from the same state).
    """
    page.evaluate(f"localStorage.removeItem('{STORE}')")
    page.locator(f'{WIDGET} [data-out="reset"]').click()
    return page


def part(tab, part_id: str):
    return tab.locator(f'{WIDGET} [data-part="{part_id}"]')


def submit(tab, part_id: str, typed: str) -> None:
    tab.fill(f'{WIDGET} [data-part="{part_id}"] [data-input]', typed)
    part(tab, part_id).locator('button[type="submit"]').click()


def feedback(tab, part_id: str):
    return part(tab, part_id).locator("[data-feedback]")


def count(tab):
    return tab.locator(f'{WIDGET} [data-out="count"]')


def test_questions_show_and_nothing_is_solved(tab, locale):
    expect(count(tab)).to_have_text(count_text(0, locale))
    assert tab.locator(f"{WIDGET} section[data-exercise]").count() == EXERCISES
    expect(tab.locator(f'{WIDGET} [data-badge]:visible')).to_have_count(0)
    direction = tab.locator(WIDGET).evaluate("el => getComputedStyle(el).direction")
    assert direction == ("rtl" if locale == "fa" else "ltr")


# What a reader sees of the widget's state: each part's verdict and input, each answer's
# fold, each exercise's badge, the count.
STATE = f"""() => {{
  const root = document.querySelector('{WIDGET}');
  const seen = el => el && !el.hidden && el.checkVisibility();
  return {{
    parts: [...root.querySelectorAll('[data-part]')].map(p => [
      p.dataset.part, p.dataset.solved, p.querySelector('[data-input]')?.value ?? null,
      seen(p.querySelector('[data-feedback]')), seen(p.querySelector('[data-done]')),
      p.querySelector('[data-answer]')?.open ?? null]),
    badges: [...root.querySelectorAll('[data-badge]')].map(seen),
    count: root.querySelector('[data-out="count"]').textContent,
  }};
}}"""


def test_a_fresh_load_shows_nothing_solved(tab, locale):
    """The premise of ``tab``: the reset page and a freshly loaded one look the same."""
    submit(tab, STATES, "300")  # a verdict, an input, an answer unfolded and a part
    part(tab, "tp-node").locator("[data-answer] summary").click()  # marked done: all to clear
    part(tab, "tp-node").locator("[data-done]").click()
    expect(count(tab)).not_to_have_text(count_text(0, locale))
    tab.locator(f'{WIDGET} [data-out="reset"]').click()
    reset = tab.evaluate(STATE)
    tab.reload(wait_until="domcontentloaded")
    tab.wait_for_selector(READY)
    assert tab.evaluate(STATE) == reset
    assert {solved for _, solved, *_ in reset["parts"]} == {"false"}


@pytest.mark.parametrize("part_id", list(RIGHT))
def test_a_right_answer_in_the_readers_writing_counts(tab, locale, part_id):
    submit(tab, part_id, RIGHT[part_id][locale])
    expect(part(tab, part_id)).to_have_attribute("data-solved", "true")
    expect(feedback(tab, part_id)).to_have_attribute("data-state", "right")
    stored = json.loads(tab.evaluate(f"localStorage.getItem('{STORE}')"))
    assert part_id in stored
    if part_id == STATES:  # a one-part exercise: solving the part solves the exercise
        expect(count(tab)).to_have_text(count_text(1, locale))
        expect(tab.locator(f'[data-exercise="{STATES}"] [data-badge]')).to_be_visible()
    else:  # one part of several: the exercise is not solved yet
        expect(count(tab)).to_have_text(count_text(0, locale))


def test_a_wrong_answer_is_refused_without_the_answer(tab, locale):
    typed = {"en": "300", "ca": "300", "fa": "۳۰۰"}[locale]
    submit(tab, STATES, typed)
    message = feedback(tab, STATES)
    expect(message).to_have_attribute("data-state", "wrong")
    expect(message).to_contain_text(TOLERANCE[locale])
    assert "208" not in message.inner_text() and "۲۰۸" not in message.inner_text()
    expect(part(tab, STATES)).to_have_attribute("data-solved", "false")
    expect(count(tab)).to_have_text(count_text(0, locale))
    assert tab.evaluate(f"localStorage.getItem('{STORE}')") in (None, "{}")


def test_the_tolerance_edges(tab, locale):
    for typed, accepted in EDGES[locale]:
        submit(tab, STATES, typed)
        state = "right" if accepted else "wrong"
        expect(feedback(tab, STATES)).to_have_attribute("data-state", state)
        tab.evaluate(f"localStorage.removeItem('{STORE}')")  # start each try unsolved
        tab.evaluate("document.dispatchEvent(new CustomEvent('distlesson:solved'))")
    # a count is exact: 1F1B's first stage holds 4 of the 8 micro-batches
    four, five = ("۴", "۵") if locale == "fa" else ("4", "5")
    submit(tab, "pipeline-1f1b-peak", five)
    expect(feedback(tab, "pipeline-1f1b-peak")).to_have_attribute("data-state", "wrong")
    submit(tab, "pipeline-1f1b-peak", four)
    expect(feedback(tab, "pipeline-1f1b-peak")).to_have_attribute("data-state", "right")


def test_a_number_in_another_languages_writing_is_not_misread(tab, locale):
    submit(tab, "checkpoint-peak", MISREAD[locale])
    expect(feedback(tab, "checkpoint-peak")).to_have_attribute("data-state", "unreadable")
    expect(part(tab, "checkpoint-peak")).to_have_attribute("data-solved", "false")


def test_the_count_survives_a_reload_and_resets(tab, locale):
    submit(tab, STATES, RIGHT[STATES][locale])
    expect(count(tab)).to_have_text(count_text(1, locale))
    tab.reload(wait_until="domcontentloaded")
    tab.wait_for_selector(READY)
    expect(count(tab)).to_have_text(count_text(1, locale))
    expect(part(tab, STATES)).to_have_attribute("data-solved", "true")
    expect(part(tab, STATES).locator("[data-input]")).to_have_value(RIGHT[STATES][locale])
    tab.locator(f'{WIDGET} [data-out="reset"]').click()
    expect(count(tab)).to_have_text(count_text(0, locale))
    expect(part(tab, STATES)).to_have_attribute("data-solved", "false")
    expect(feedback(tab, STATES)).to_be_hidden()
    tab.reload(wait_until="domcontentloaded")
    tab.wait_for_selector(READY)
    expect(count(tab)).to_have_text(count_text(0, locale))


def test_the_bubble_goal_reached_in_a_widget_is_solved(tab, locale):
    detail = {"pp": 4, "m": 28, "schedule": "1f1b", "bubble_text": "9.7%"}
    tab.evaluate(f"localStorage.setItem('{STORE}', JSON.stringify({{'bubble-goal': "
                 f"{json.dumps(detail)}, 'another-widget-goal': true}}))")
    tab.reload(wait_until="domcontentloaded")
    tab.wait_for_selector(READY)
    goal = part(tab, "bubble-goal").locator("[data-goal]")
    expect(goal).to_have_attribute("data-state", "right")
    digits = (lambda s: s.translate(PERSIAN)) if locale == "fa" else str
    expect(goal).to_contain_text(digits("28"))
    expect(goal).to_contain_text(digits("4"))
    expect(goal).to_contain_text("1F1B")
    expect(tab.locator('[data-exercise="bubble-goal"] [data-badge]')).to_be_visible()
    expect(count(tab)).to_have_text(count_text(1, locale))  # another page's key is not ours
    # reset forgets the goal too, and only this page's keys
    tab.locator(f'{WIDGET} [data-out="reset"]').click()
    expect(count(tab)).to_have_text(count_text(0, locale))
    stored = json.loads(tab.evaluate(f"localStorage.getItem('{STORE}')"))
    assert stored == {"another-widget-goal": True}


def test_the_bubble_goal_updates_live(tab, locale):
    tab.evaluate("window.distlessonWidgets.solved.mark('bubble-goal', "
                 "{pp: 2, m: 10, schedule: 'gpipe', bubble_text: '9.1%'})")
    expect(count(tab)).to_have_text(count_text(1, locale))
    expect(part(tab, "bubble-goal").locator("[data-goal]")).to_contain_text("GPipe")


def test_the_goal_links_to_the_widgets(tab, locale, server):
    links = part(tab, "bubble-goal").locator("xpath=..").locator(".dl-ex-question a")
    hrefs = [links.nth(i).evaluate("a => a.href") for i in range(links.count())]
    prefix = "" if locale == "en" else f"/{locale}"
    assert hrefs == [f"{server}{prefix}/pipeline/#dl-pipeline",
                     f"{server}{prefix}/parallelism/#dl-dimensions"]
    other = tab.context.new_page()
    try:
        for href, widget in zip(hrefs, ("pipeline", "dimensions"), strict=True):
            other.goto(href, wait_until="domcontentloaded")
            expect(other.locator(f'#dl-{widget}[data-widget="{widget}"]')).to_have_count(1)
    finally:
        other.close()


def test_model_answers_stay_hidden_until_asked(tab, locale):
    answer = part(tab, STATES).locator("[data-answer]")
    assert answer.evaluate("el => el.open") is False
    expect(answer.locator("strong")).to_be_hidden()  # the value, in bold in the answer
    answer.locator("summary").click()
    expect(answer.locator("strong")).to_be_visible()
    digits = "۲۰۸" if locale == "fa" else "208"
    expect(answer.locator("strong")).to_contain_text(digits)
    expect(count(tab)).to_have_text(count_text(0, locale))  # reading it solves nothing


def test_an_open_question_is_marked_done_after_reading(tab, locale):
    question = part(tab, "tp-node")
    done = question.locator("[data-done]")
    expect(done).to_be_hidden()
    expect(question.locator("[data-answer] p").first).to_be_hidden()
    question.locator("[data-answer] summary").click()
    expect(question.locator("[data-answer] p").first).to_be_visible()
    expect(done).to_be_visible()
    expect(count(tab)).to_have_text(count_text(0, locale))
    done.click()
    expect(count(tab)).to_have_text(count_text(1, locale))
    expect(done).to_be_hidden()
    expect(feedback(tab, "tp-node")).to_have_attribute("data-state", "right")


def test_light_screenshot(tab, locale):
    submit(tab, STATES, RIGHT[STATES][locale])
    submit(tab, "accumulation-every", {"en": "3,000", "ca": "3.000", "fa": "۳٬۰۰۰"}[locale])
    part(tab, "accumulation-same").locator("[data-answer] summary").click()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for exercise in ("states-13b", "accumulation"):
        tab.locator(f'[data-exercise="{exercise}"]').screenshot(
            path=SCREENSHOTS / f"exercises-{locale}-{exercise}-light.png")


def test_dark_screenshot(browser, server, locale):
    """Material follows the system's colour scheme: in dark mode the page is slate and the
    exercises' text and buttons follow it."""
    context = browser.new_context(viewport={"width": 1200, "height": 900},
                                  color_scheme="dark")
    try:
        dark = context.new_page()
        requests: list[str] = []
        dark.on("request", lambda request: requests.append(request.url))
        dark.goto(server + PAGES[locale], wait_until="domcontentloaded")
        dark.wait_for_selector(READY)
        assert dark.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
        colour = dark.locator(f"{WIDGET} h2").first.evaluate("el => getComputedStyle(el).color")
        assert colour not in ("rgba(0, 0, 0, 0.87)", "rgb(0, 0, 0)")
        submit(dark, STATES, {"en": "250", "ca": "250", "fa": "۲۵۰"}[locale])
        part(dark, "dp-zero3").locator("[data-answer] summary").click()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        dark.locator(f'{WIDGET} [data-exercise="{STATES}"]').screenshot(
            path=SCREENSHOTS / f"exercises-{locale}-{STATES}-dark.png")
        dark.locator(f'{WIDGET} [data-exercise="dp-zero3"]').screenshot(
            path=SCREENSHOTS / f"exercises-{locale}-dp-zero3-dark.png")
        only_local(requests)
    finally:
        context.close()


def test_without_javascript_the_questions_and_answers_read(browser, server, locale):
    context = browser.new_context(java_script_enabled=False)
    try:
        plain = context.new_page()
        plain.goto(server + PAGES[locale], wait_until="domcontentloaded")
        expect(plain.locator(f"{WIDGET} .dl-ex-question").first).to_be_visible()
        expect(plain.locator(f"{WIDGET} .dl-ex-noscript")).to_be_visible()
        expect(plain.locator(f"{WIDGET} [data-form]").first).to_be_hidden()
        expect(plain.locator(f"{WIDGET} [data-progress]")).to_be_hidden()
        answer = plain.locator(f'{WIDGET} [data-part="{STATES}"] [data-answer]')
        answer.locator("summary").click()
        expect(answer.locator("strong")).to_be_visible()
    finally:
        context.close()
