"""Every table of every page fits the text column of a 1280 px window, in all three
languages: the answer columns of a wide table (step time, MFU) are on screen without
scrolling. Before the site's table style, 38 of 174 tables on 15 pages did not fit."""

import pytest

from tests import browser as shared

site, server, browser = shared.site, shared.server, shared.browser

WIDTH = 1280
# each table's full width against its article's: Material wraps a wide table in a scroller,
# so the table's scrollWidth, not its box, says whether a reader has to scroll
WIDE_TABLES = """() => [...document.querySelectorAll('.md-typeset table:not([class])')]
  .filter(t => t.scrollWidth > t.closest('article').clientWidth - 2)
  .map(t => t.querySelector('tr').innerText.replace(/\\s+/g, ' '))"""


def _pages(site) -> list[str]:
    return sorted(str(p.parent.relative_to(site)) for p in site.rglob("index.html"))


@pytest.fixture(scope="module")
def tab(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": 900})
    yield context.new_page()
    context.close()


def test_every_table_fits_the_text_column(site, server, tab):
    pages, tables, wide = _pages(site), 0, {}
    assert len(pages) >= 40  # every chapter, lab and reference page in three languages
    for page in pages:
        tab.goto(f"{server}/{page}/".replace("/./", "/"), wait_until="load")
        tables += tab.locator(".md-typeset table:not([class])").count()
        if found := tab.evaluate(WIDE_TABLES):
            wide[page] = found
    assert tables >= 100  # the check ran over the course's tables, not an empty site
    assert not wide, f"tables wider than the text column at {WIDTH} px: {wide}"
