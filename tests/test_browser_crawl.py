"""Every built page as a reader's browser shows it, in one crawl: each page is loaded once at
1280 px (until the network is idle), read, then read again with the tab narrowed to 390 px,
and what the tests below check comes from those readings. Three tabs crawl at once.

- No console error, script error, failed request or request to another host; every formula
  typeset by KaTeX. Before these fixes a crawl logged 75 console errors (a sitemap.xml
  fetched beside every language link).
- Every table fits the text column at 1280 px. Before the site's table style, 38 of 174
  tables on 15 pages did not fit.
- Plot text at least 12 px at 1280 px and legible on a phone; every plot a numbered figure
  with a caption; every reference to a figure landing on it. Before: the smallest plot text
  was 9.7 px at 1280 px and about 5 px on a 390 px phone; no plot had a caption.
- The tables of sources are folded under a summary in the page's language.
"""

import asyncio
import contextlib
from urllib.parse import urlsplit

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout
from playwright.async_api import async_playwright

from tests import browser as shared

site, server = shared.site, shared.server
TABS = 3  # pages crawled at once: a load partly waits (on the server, on fetches after it)

DESKTOP, PHONE = 1280, 390
SMALLEST_DESKTOP = 12.0  # px, the floor
SMALLEST_PHONE = 9.5  # px: a plot keeps 28rem on a phone and scrolls instead of shrinking

# The size each visible <text> of a plot has on screen: its font size in its own user units
# times the scale from those units to screen pixels (the SVG's viewBox scaling, and any
# transform inside it), so a plot drawn at 10 pt and shown at 1.3x measures 13 px.
TEXT_SIZES = """() => [...document.querySelectorAll('article svg.dl-plot text')]
  .filter(t => t.getBoundingClientRect().width > 0 && t.textContent.trim())
  .map(t => {
    const m = t.getScreenCTM();
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    return [Math.round(size * 10) / 10, t.textContent.trim().slice(0, 40)];
  })"""
FIGURES = """() => {
  const plots = [...document.querySelectorAll('article svg.dl-plot')];
  const bare = plots.filter(svg => {
    const figure = svg.closest('figure.dl-figure');
    const caption = figure && figure.querySelector(':scope > figcaption');
    return !(caption && caption.textContent.trim().length > 20);
  }).map(svg => svg.getAttribute('aria-label'));
  const refs = [...document.querySelectorAll('article a[href^="#fig-"]')];
  const dangling = refs.filter(a => !document.getElementById(a.getAttribute('href').slice(1)))
    .map(a => a.getAttribute('href'));
  const labels = [...document.querySelectorAll('figure.dl-figure .dl-figure-label')]
    .map(s => s.textContent);
  return {plots: plots.length, bare, refs: refs.length, dangling, labels};
}"""


# each table's full width against its article's: Material wraps a wide table in a scroller,
# so the table's scrollWidth, not its box, says whether a reader has to scroll
TABLES = """() => {
  const tables = [...document.querySelectorAll('.md-typeset table:not([class])')];
  return {count: tables.length, wide: tables
    .filter(t => t.scrollWidth > t.closest('article').clientWidth - 2)
    .map(t => t.querySelector('tr').innerText.replace(/\\s+/g, ' '))};
}"""
# the tables folded under a <details> that is closed: hidden (a closed details keeps its
# content's layout boxes but does not render them, which checkVisibility sees), each with its
# summary's text
FOLDED = """() => [...document.querySelectorAll('article details:not([open])')]
  .filter(d => d.querySelector('table'))
  .map(d => ({hidden: !d.querySelector('table').checkVisibility(),
              summary: d.querySelector('summary').innerText}))"""
CHAPTERS_WITH_SOURCES = ("why-it-does-not-fit", "parallelism", "pipeline", "saving-memory",
                         "hardware", "mfu", "planning")
TYPESET = "() => !document.querySelector('.arithmatex:not(:has(.katex))')"
FORMULAS = """() => ({typeset: document.querySelectorAll('.arithmatex .katex').length,
  left: document.querySelectorAll('.arithmatex:not(:has(.katex))').length})"""


def _pages(site) -> list[str]:
    return sorted(str(p.parent.relative_to(site)) + "/" for p in site.rglob("index.html"))


def _listen(tab, problems: list[str], current: dict[str, str]) -> None:
    """Record on ``problems`` what a reader's console or network panel would show, each
    with the page the tab is on (``current["page"]``)."""
    def note(problem: str) -> None:
        problems.append(f"{current['page']}: {problem}")

    tab.on("console", lambda m: m.type == "error" and note(f"console: {m.text}"))
    tab.on("pageerror", lambda e: note(f"script: {e}"))
    # a fetch cut short by the next navigation (the search worker's) is no failure
    tab.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED"
           and note(f"failed: {r.url} ({r.failure})"))
    tab.on("response", lambda r: r.status >= 400 and note(f"{r.status}: {r.url}"))
    tab.on("request", lambda r: urlsplit(r.url).hostname not in {shared.HOST, None}
           and urlsplit(r.url).scheme not in {"data", "blob", "about"}
           and note(f"off-host: {r.url}"))


async def _crawl(server: str, pages: list[str]) -> dict:
    """Load ``pages`` in :data:`TABS` tabs at once, each page at 1280 px, then read again
    with the tab narrowed to a phone's 390 px (the stylesheet's media queries apply as on
    a phone; a second load would only repeat the page's scripts)."""
    out, problems, queue = {}, [], list(pages)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=shared.CHROMIUM, headless=True, args=shared.CHROMIUM_ARGS)

        async def crawler() -> None:
            context = await browser.new_context(viewport={"width": DESKTOP, "height": 900})
            desktop = await context.new_page()
            current = {"page": ""}
            _listen(desktop, problems, current)
            while queue:
                page = current["page"] = queue.pop(0)
                url = f"{server}/{page}".replace("/./", "/")
                # networkidle: the fetches that start after load (sitemaps, the search
                # worker) end, and their errors are counted
                await desktop.goto(url, wait_until="networkidle")
                with contextlib.suppress(PlaywrightTimeout):  # KaTeX typesets after load
                    await desktop.wait_for_function(TYPESET, timeout=15_000)
                entry = {"formulas": await desktop.evaluate(FORMULAS)}
                if not page.endswith("404.html"):
                    entry.update(desktop=await desktop.evaluate(TEXT_SIZES),
                                 figures=await desktop.evaluate(FIGURES),
                                 tables=await desktop.evaluate(TABLES),
                                 folded=await desktop.evaluate(FOLDED))
                    await desktop.set_viewport_size({"width": PHONE, "height": 900})
                    entry["phone"] = await desktop.evaluate(TEXT_SIZES)
                    await desktop.set_viewport_size({"width": DESKTOP, "height": 900})
                out[page.removesuffix("/")] = entry
            await context.close()

        await asyncio.gather(*(crawler() for _ in range(TABS)))
        await browser.close()
    return {"pages": dict(sorted(out.items())), "problems": problems}


@pytest.fixture(scope="module")
def measured(site, server):
    """Per page: its plots' text sizes at both widths, its figures, tables, formulas and the
    problems its loads met (the 404 pages too, for the last)."""
    return asyncio.run(_crawl(server, [*_pages(site), "404.html", "ca/404.html",
                                       "fa/404.html"]))


def _chapters(measured) -> dict:
    return {page: e for page, e in measured["pages"].items() if "figures" in e}


def test_every_page_loads_without_console_errors_or_failed_requests(measured):
    pages = measured["pages"]
    assert len(pages) >= 51  # 48 pages and three 404 pages
    problems = list(measured["problems"])
    problems += [f"{page}: {e['formulas']['left']} formulas left as LaTeX source"
                 for page, e in pages.items() if e["formulas"]["left"]]
    assert not problems, "\n".join(problems[:20]) + f"\n({len(problems)} in all)"
    # the formulas of seven chapters in three languages
    assert sum(e["formulas"]["typeset"] for e in pages.values()) >= 90


def test_every_table_fits_the_text_column(measured):
    pages = _chapters(measured)
    assert sum(e["tables"]["count"] for e in pages.values()) >= 100  # not an empty site
    wide = {page: e["tables"]["wide"] for page, e in pages.items() if e["tables"]["wide"]}
    assert not wide, f"tables wider than the text column at {DESKTOP} px: {wide}"


def test_plot_text_is_at_least_12_px_at_1280(measured):
    texts = [(size, text, page) for page, e in _chapters(measured).items()
             for size, text in e["desktop"]]
    assert len(texts) > 1000  # every plot's text was measured, not an empty selection
    small = sorted(t for t in texts if t[0] < SMALLEST_DESKTOP)
    assert not small, f"{len(small)} plot texts under {SMALLEST_DESKTOP} px: {small[:10]}"


def test_plot_text_stays_legible_on_a_phone(measured):
    texts = [(size, text, page) for page, e in _chapters(measured).items()
             for size, text in e["phone"]]
    assert texts
    # measured at the phone's width: plots there are drawn smaller than at 1280 px
    desktop = [size for e in _chapters(measured).values() for size, _ in e["desktop"]]
    assert min(size for size, _, _ in texts) < min(desktop)
    small = sorted(t for t in texts if t[0] < SMALLEST_PHONE)
    assert not small, f"{len(small)} plot texts under {SMALLEST_PHONE} px: {small[:10]}"


def test_every_plot_is_a_captioned_figure(measured):
    figures = {page: e["figures"] for page, e in _chapters(measured).items()}
    assert sum(f["plots"] for f in figures.values()) >= 45  # fifteen per language, at least
    bare = {page: f["bare"] for page, f in figures.items() if f["bare"]}
    assert not bare, f"plots without a numbered caption: {bare}"


def test_figures_are_numbered_per_page_in_each_language(measured):
    words = {"": "Figure", "ca/": "Figura", "fa/": "شکل"}
    digits = {"": "0123456789", "ca/": "0123456789", "fa/": "۰۱۲۳۴۵۶۷۸۹"}
    for page, e in _chapters(measured).items():
        prefix = next((p for p in ("ca/", "fa/") if page.startswith(p)), "")
        for n, label in enumerate(e["figures"]["labels"], start=1):
            shown = "".join(digits[prefix][int(d)] for d in str(n))
            assert label == f"{words[prefix]}\u00a0{shown}.", (page, label)


def test_every_reference_lands_on_its_figure(measured):
    figures = {page: e["figures"] for page, e in _chapters(measured).items()}
    assert sum(f["refs"] for f in figures.values()) >= 45
    dangling = {page: f["dangling"] for page, f in figures.items() if f["dangling"]}
    assert not dangling, dangling


@pytest.mark.parametrize("prefix", ["", "ca/", "fa/"])
def test_sources_tables_are_folded_under_a_summary_in_the_page_language(measured, prefix):
    pages = measured["pages"]
    for chapter in CHAPTERS_WITH_SOURCES:
        folded = pages[f"{prefix}{chapter}"]["folded"]
        assert len(folded) == 1, chapter
        assert folded[0]["hidden"], chapter
        assert folded[0]["summary"].startswith("The table") == (prefix == ""), folded
