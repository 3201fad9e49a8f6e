"""What the browser tests share: the built site served locally, headless Chromium, and the
check that a page fetched nothing from another host. Test modules import the fixtures
(``from tests.browser import browser, server, site``) and pytest finds them there."""

import functools
import os
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.pages import ROOT
from tests.test_site_built import SITE

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "HOST",
    "SCREENSHOTS",
    "WidgetUnderTest",
    "answer_numeric_parts",
    "browser",
    "elsewhere",
    "only_local",
    "screenshot",
    "server",
    "site",
    "widget_tabs",
]

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
"""Debian's chromium here; the CHROMIUM variable names another (a CI runner's Chrome)."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
HOST = "127.0.0.1"
SCREENSHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="module")
def site() -> Path:
    """scripts/test builds site/ before the tests; build it here when run alone (as
    tests/test_site_built.py does)."""
    if not (SITE / "index.html").exists():
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                        str(SITE)], cwd=ROOT, check=True,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return SITE


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # keep pytest's output clean
        pass


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = ThreadingHTTPServer((HOST, 0), handler)  # port 0: a free port
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://{HOST}:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def elsewhere(requests: list[str]) -> list[str]:
    """The requests that went to another host than the local server."""
    return [url for url in requests
            if urlsplit(url).scheme not in {"data", "blob", "about"}
            and urlsplit(url).hostname != HOST]


def widget_tabs(browser, server: str, pages: dict[str, str], widget: str):
    """For a module's ``tabs`` fixture (``yield from``): one tab per locale, its page loaded
    once and its ``widget`` ready, with the URLs of every request the tab made. Each tab has
    a browser context of its own: tabs of one site share localStorage, and Chromium passes
    one tab's writes to the others late, so a goal one locale's test stored and removed
    could still show in the next test's tab."""
    opened: dict[str, tuple[Page, list[str]]] = {}
    contexts = []

    def open_tab(locale: str) -> tuple[Page, list[str]]:
        if locale not in opened:
            context = browser.new_context(viewport={"width": 1200, "height": 900})
            contexts.append(context)
            tab, requests = context.new_page(), []
            tab.on("request", lambda request: requests.append(request.url))
            tab.goto(server + pages[locale], wait_until="domcontentloaded")
            tab.wait_for_selector(f'{widget}[data-ready="true"]')
            opened[locale] = (tab, requests)
        return opened[locale]

    yield open_tab
    for context in contexts:
        context.close()


def only_local(requests: list[str]) -> None:
    """The page made requests, and every one went to the local server."""
    assert requests
    assert not elsewhere(requests), f"requests to another host: {elsewhere(requests)}"


def screenshot(locator, name: str) -> Path:
    """A picture of ``locator`` for a person to look at, in build/screenshots/NAME.png, with
    Material's sticky header hidden so that it does not cover a tall widget."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    locator.screenshot(path=path, style=".md-header, .md-tabs { visibility: hidden; }")
    return path


class WidgetUnderTest:
    """One widget's page in each locale, its CSS selector and its controls in order.

    ``fixtures()`` gives a module its ``locale``, ``tabs`` and ``page`` fixtures: one tab per
    locale, loaded once; after each test every request must have stayed local, the widget
    goes back to ``default``, and ``reset`` (a script, if any) runs.
    """

    def __init__(self, selector: str, pages: dict[str, str], controls: tuple[str, ...],
                 default: tuple, reset: str | None = None) -> None:
        self.selector, self.pages, self.controls = selector, pages, controls
        self.default, self.reset = default, reset

    def out(self, page: Page, name: str):
        return page.locator(f'{self.selector} [data-out="{name}"]')

    def check_reading_order(self, page: Page, locale: str, *, plots: tuple[str, ...],
                            controls: tuple[str, ...], digits_in: str) -> None:
        """Persian pages read right to left, and the controls follow: the first one is the
        rightmost; plots run left to right on every page; the output ``digits_in`` shows
        the page's digits only."""
        direction = "el => getComputedStyle(el).direction"
        assert page.locator(self.selector).evaluate(direction) == (
            "rtl" if locale == "fa" else "ltr")
        for plot in plots:
            assert self.out(page, plot).evaluate(direction) == "ltr"
        xs = [page.locator(f"{self.selector} select[data-in={name}]").bounding_box()["x"]
              for name in controls]
        assert xs == sorted(xs, reverse=locale == "fa")
        text = self.out(page, digits_in).inner_text()
        persian = any("۰" <= c <= "۹" for c in text)
        latin = any(c.isascii() and c.isdigit() for c in text)
        assert (persian, latin) == ((True, False) if locale == "fa" else (False, True))

    def choose(self, page: Page, *setting) -> None:
        for name, value in zip(self.controls, setting, strict=True):
            page.select_option(f"{self.selector} select[data-in={name}]", str(value))

    def fixtures(self):
        @pytest.fixture(name="locale", params=list(self.pages))
        def locale(request):
            return request.param

        @pytest.fixture(name="tabs", scope="module")
        def tabs(browser, server):
            yield from widget_tabs(browser, server, self.pages, self.selector)

        @pytest.fixture(name="page")
        def page(tabs, locale):
            tab, requests = tabs(locale)
            tab.bring_to_front()  # a background tab paints late: screenshots would wait
            yield tab
            only_local(requests)
            self.choose(tab, *self.default)
            if self.reset:  # after the default: passing through a setting may change state
                tab.evaluate(self.reset)

        return locale, tabs, page


def answer_numeric_parts(page: Page, parts, locale: str) -> None:
    """For each numeric part of a page's exercises: an answer 1.5 times the right one is
    marked wrong, then the right one right, each typed as a reader of ``locale`` types it
    (their digits and decimal separator)."""
    from playwright.sync_api import expect

    from distlesson.pages.exercises_widget import in_answer_unit
    from distlesson.render.numbers import format_number

    for part in parts:
        block = page.locator(f'.dl-exercises [data-part="{part.id}"]')
        feedback = block.locator("[data-feedback]")
        for factor, verdict in ((1.5, "wrong"), (1.0, "right")):
            typed = format_number(in_answer_unit(part) * factor, locale, digits=2,
                                  grouping=False)
            block.locator("[data-input]").fill(typed)
            block.locator('button[type="submit"]').click()
            expect(feedback).to_have_attribute("data-state", verdict)
