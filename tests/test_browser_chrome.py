"""The site's chrome in a real browser: formulas typeset, the Persian font shipped, each
language's own search, 404 pages and interface, the labs' table of contents, the sources
tables folded, and wide tables that show they scroll on a phone (the crawl of every page,
its console and its requests, is tests/test_browser_crawl.py). Before these fixes Persian
search found nothing and every Persian lab heading had ``id=""``."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests import browser as shared
from tests.pages import LOCALES

site, server, browser = shared.site, shared.server, shared.browser

# Strings of the tools' English interface that must not reach a Catalan or Persian page.
ENGLISH_CHROME = ("Permanent link", "Copy to Clipboard", "Copied!", "Switch to dark mode",
                  "Switch to light mode", "Every number on these pages",
                  "Distributed training of large language models", "Type to start searching",
                  '"search.placeholder"', 'placeholder="Search"', "Back to top",
                  "Not found")
# A query per language, and the page it must find: the pipeline chapter's bubble.
SEARCHES = {"en": ("bubble", "pipeline/"), "ca": ("bombolla", "ca/pipeline/"),
            "fa": ("حباب", "fa/pipeline/")}
def _prefix(locale: str) -> str:
    return "" if locale == "en" else f"{locale}/"


def _pages(site) -> list[str]:
    return sorted(str(p.parent.relative_to(site)) + "/" for p in site.rglob("index.html"))


def _url(server: str, page: str) -> str:
    return f"{server}/{page}".replace("/./", "/")


@pytest.fixture(scope="module")
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_formulas_are_typeset_and_read_left_to_right(server, context, locale):
    tab = context.new_page()
    tab.goto(_url(server, f"{_prefix(locale)}pipeline/"), wait_until="load")
    fractions = tab.locator(".arithmatex:has(.katex .mfrac)")  # (p-1)/(m+p-1)...
    assert fractions.count() >= 3
    directions = tab.eval_on_selector_all(
        ".arithmatex .katex", "ks => ks.map(k => getComputedStyle(k).direction)")
    assert directions and set(directions) == {"ltr"}
    tab.close()


def test_persian_pages_use_the_shipped_vazirmatn(server, context):
    tab, fonts = context.new_page(), []
    tab.on("request", lambda r: r.resource_type == "font" and fonts.append(r.url))
    tab.goto(_url(server, "fa/pipeline/"), wait_until="load")
    tab.evaluate("document.fonts.ready")
    loaded = tab.evaluate("""[...document.fonts].filter(f => f.status === 'loaded')
                             .map(f => f.family.replace(/"/g, ''))""")
    assert "Vazirmatn" in loaded
    assert any(url.endswith("vendor/vazirmatn/Vazirmatn-Variable.woff2") for url in fonts)
    family = tab.locator("article p").first.evaluate("e => getComputedStyle(e).fontFamily")
    assert family.startswith("Vazirmatn")
    tab.close()


# Each code comment whose first letter is Persian and that holds a Latin word: where its first
# and last Persian words stand on screen. Read right to left, the first stands to the right.
PERSIAN_COMMENTS = """() => [...document.querySelectorAll(
    ':is(article pre, .jp-InputArea) :is(.c1, .c, .cm, .sd)')]
  .filter(c => /^[^A-Za-z\\u0600-\\u06ff]*[\\u0600-\\u06ff]/.test(c.textContent)
               && /[A-Za-z]/.test(c.textContent) && c.getBoundingClientRect().width > 0)
  .map(c => {
    const node = c.firstChild, text = node.textContent;
    const words = [...text.matchAll(/[\\u0600-\\u06ff\\u200c]+/g)];
    const left = m => { const r = document.createRange();
      r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      return r.getBoundingClientRect().left; };
    return [text.trim().slice(0, 50), left(words[0]), left(words[words.length - 1])];
  })"""


@pytest.mark.parametrize("page", ["fa/labs/memory/", "fa/labs/data-parallel/",
                                  "fa/labs/pipeline/", "fa/labs/tensor-parallel/"])
def test_persian_code_comments_read_from_their_start(server, context, page):
    """A Persian comment with Latin words in a left-to-right code line reads right to left
    (docs/assets/distlesson.css); before, its words came out in runs laid left to right."""
    tab = context.new_page()
    tab.goto(_url(server, page), wait_until="load")
    comments = tab.evaluate(PERSIAN_COMMENTS)
    tab.close()
    mixed = [c for c in comments if c[1] != c[2]]
    assert mixed, f"{page}: no Persian comment with a Latin word to check"
    backwards = [text for text, first, last in mixed if not first > last]
    assert not backwards, f"{page}: comments read left to right: {backwards}"


@pytest.mark.parametrize("locale", ["ca", "fa"])
def test_no_english_chrome_on_catalan_and_persian_pages(site, locale):
    pages = [p for p in site.glob(f"{locale}/**/index.html")] + [site / locale / "404.html"]
    assert len(pages) >= 16
    leftovers = {str(p.relative_to(site)): [s for s in ENGLISH_CHROME if s in p.read_text(
        encoding="utf-8")] for p in pages}
    assert not {page: found for page, found in leftovers.items() if found}


@pytest.mark.parametrize("locale", LOCALES)
def test_each_language_has_its_own_404_page(site, locale):
    html = (site / _prefix(locale) / "404.html").read_text(encoding="utf-8")
    assert f'<html lang="{locale}"' in html
    assert ('dir="rtl"' in html) == (locale == "fa")
    links = re.findall(r'class="md-nav__link" href="([^"]+)"|href="([^"]+)" class="md-nav__link"',
                       html)
    assert links and all(
        (a or b).startswith(f"/{_prefix(locale)}") for a, b in links)  # its own language's nav


@pytest.mark.parametrize("locale", LOCALES)
def test_search_finds_the_pages_of_its_own_language_only(server, context, locale):
    query, expected = SEARCHES[locale]
    tab = context.new_page()
    tab.goto(_url(server, f"{_prefix(locale)}pipeline/"), wait_until="load")
    hits = _search(tab, query)
    paths = [urlsplit(h).path for h in hits]
    assert f"/{expected}" in paths, paths
    others = [lo for lo in LOCALES if lo != locale]
    wrong = [p for p in paths if (locale == "en" and re.match(r"/(ca|fa)/", p))
             or (locale != "en" and not p.startswith(f"/{locale}/"))]
    assert not wrong, f"{locale} search returned pages of {others}: {wrong}"
    tab.close()


def test_persian_search_finds_words_joined_by_a_zero_width_non_joiner(server, context):
    tab = context.new_page()
    tab.goto(_url(server, "fa/parallelism/"), wait_until="load")
    hits = _search(tab, "موازی\u200cسازی")
    assert hits and all("/fa/" in h for h in hits)
    tab.close()


def _search(tab, query: str) -> list[str]:
    """The result links of Material's search box for ``query``, entered as an input method
    or a paste enters it: an input event and no key (assets/search-input.js passes it on).
    A first query typed on the keyboard waits for the worker to load the index, which
    otherwise reads the field when it is ready and would hide a query that never got sent."""
    field = tab.locator("input.md-search__input")
    field.click()  # in the header at 1280 px
    field.press_sequentially("GPU")
    tab.wait_for_selector(".md-search-result__item", state="attached", timeout=20_000)
    field.fill(query)
    try:  # the results of this query: their links carry it (?h=...)
        tab.wait_for_function(
            """q => [...document.querySelectorAll('.md-search-result__link')]
                     .some(a => new URL(a.href).searchParams.get('h') === q)""",
            arg=query, timeout=10_000)
    except PlaywrightTimeout:
        return []
    return tab.eval_on_selector_all(".md-search-result__link",
                                    "links => links.map(a => a.href)")


@pytest.mark.parametrize("lab", ["memory", "data-parallel", "tensor-parallel", "pipeline"])
def test_persian_lab_headings_have_ids_that_the_toc_reaches(server, context, lab):
    tab = context.new_page()
    tab.goto(_url(server, f"fa/labs/{lab}/"), wait_until="load")
    ids = tab.eval_on_selector_all("article :is(h1,h2,h3,h4)", "hs => hs.map(h => h.id)")
    assert ids and all(ids) and len(set(ids)) == len(ids), ids
    targets = tab.eval_on_selector_all(
        ".md-sidebar--secondary a.md-nav__link",
        "as => as.map(a => decodeURIComponent(a.hash.slice(1)))")
    assert targets and set(targets) <= set(ids), (targets, ids)
    assert any(re.search("[\u0600-\u06ff]", t) for t in targets)  # Persian letters kept
    tab.close()


@pytest.mark.parametrize("locale", ["en", "fa"])
def test_wide_tables_show_on_a_phone_that_they_scroll(browser, server, locale):
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=2)
    tab = context.new_page()
    tab.goto(_url(server, f"{_prefix(locale)}planning/"), wait_until="load")
    more = tab.eval_on_selector_all(".dl-scroll", "ds => ds.map(d => d.dataset.more)")
    assert "end" in more  # a table wider than the phone, at its start
    box = tab.locator(".dl-scroll").nth(more.index("end"))  # by position: data-more changes
    box.scroll_into_view_if_needed()
    fade = "e => getComputedStyle(e, '::after').opacity"
    # the edge where the table continues is faded (once the fade's transition has run)
    tab.wait_for_function(f"([e, v]) => ({fade})(e) === v", arg=[box.element_handle(), "1"])
    shared.screenshot(box, f"phone_{locale}_planning_table")
    box.locator(".md-typeset__scrollwrap").evaluate(
        "e => e.scrollTo({left: (getComputedStyle(e).direction === 'rtl' ? -1 : 1) * 1e5,"
        " behavior: 'instant'})")
    # at the end: the fade moves over
    tab.wait_for_function("e => e.dataset.more === 'start'", arg=box.element_handle())
    tab.wait_for_function(f"([e, v]) => ({fade})(e) === v", arg=[box.element_handle(), "0"])
    context.close()
