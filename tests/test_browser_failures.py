"""The chapter "Months on a cluster" in real headless Chromium: its exercises accept the
library's answers typed the way each language writes numbers and refuse wrong ones; its two
figures are drawn; nothing is fetched from another host. Screenshots go to build/screenshots/."""

import pytest

from distlesson.chapter_exercises import chapter_exercises
from tests import browser as shared

# the shared fixtures, where pytest looks for this module's
site, server, browser = shared.site, shared.server, shared.browser

PAGES = {"en": "/failures/", "ca": "/ca/failures/", "fa": "/fa/failures/"}


@pytest.mark.parametrize("locale", list(PAGES))
def test_exercises_and_figures(browser, server, locale):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server + PAGES[locale])
    assert page.locator("svg.dl-plot").count() == 2
    numeric = [p for e in chapter_exercises("failures") for p in e.parts if hasattr(p, "value")]
    assert len(numeric) == 6
    shared.answer_numeric_parts(page, numeric, locale)
    shared.screenshot(page.locator(".dl-exercises"), f"failures-exercises-{locale}")
    page.evaluate("localStorage.clear()")
    shared.only_local(requests)
    page.close()
