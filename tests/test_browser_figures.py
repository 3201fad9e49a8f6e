"""Plots as a reader sees them: every text in every plot at least 12 px at 1280 px and still
legible on a phone, every plot a numbered figure with a caption, every reference to a figure
landing on it. Measured in Chromium on every page of the built site, in all three languages.

Before: the smallest plot text was 9.7 px at 1280 px (the MFU chart's totals and the
diagrams' 7.5 pt labels) and about 5 px on a 390 px phone; no plot had a caption."""

import pytest

from tests import browser as shared

site, server, browser = shared.site, shared.server, shared.browser

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


def _pages(site) -> list[str]:
    return sorted(str(p.parent.relative_to(site)) for p in site.rglob("index.html"))


def _tab(browser, width: int):
    context = browser.new_context(viewport={"width": width, "height": 900})
    return context, context.new_page()


@pytest.fixture(scope="module")
def measured(site, server, browser):
    """Per page: the text sizes of its plots at both widths, and its figures."""
    out = {}
    desktop, phone = _tab(browser, DESKTOP), _tab(browser, PHONE)
    for page in _pages(site):
        url = f"{server}/{page}/".replace("/./", "/")
        desktop[1].goto(url, wait_until="load")
        phone[1].goto(url, wait_until="load")
        out[page] = (desktop[1].evaluate(TEXT_SIZES), phone[1].evaluate(TEXT_SIZES),
                     desktop[1].evaluate(FIGURES))
    desktop[0].close()
    phone[0].close()
    return out


def test_plot_text_is_at_least_12_px_at_1280(measured):
    texts = [(size, text, page) for page, (sizes, _, _) in measured.items()
             for size, text in sizes]
    assert len(texts) > 1000  # every plot's text was measured, not an empty selection
    small = sorted(t for t in texts if t[0] < SMALLEST_DESKTOP)
    assert not small, f"{len(small)} plot texts under {SMALLEST_DESKTOP} px: {small[:10]}"


def test_plot_text_stays_legible_on_a_phone(measured):
    texts = [(size, text, page) for page, (_, sizes, _) in measured.items()
             for size, text in sizes]
    assert texts
    small = sorted(t for t in texts if t[0] < SMALLEST_PHONE)
    assert not small, f"{len(small)} plot texts under {SMALLEST_PHONE} px: {small[:10]}"


def test_every_plot_is_a_captioned_figure(measured):
    plots = sum(figures["plots"] for _, _, figures in measured.values())
    assert plots >= 45  # fifteen plots in each language, at least
    bare = {page: f["bare"] for page, (_, _, f) in measured.items() if f["bare"]}
    assert not bare, f"plots without a numbered caption: {bare}"


def test_figures_are_numbered_per_page_in_each_language(measured):
    words = {"": "Figure", "ca/": "Figura", "fa/": "شکل"}
    digits = {"": "0123456789", "ca/": "0123456789", "fa/": "۰۱۲۳۴۵۶۷۸۹"}
    for page, (_, _, figures) in measured.items():
        prefix = next((p for p in ("ca/", "fa/") if page.startswith(p)), "")
        for n, label in enumerate(figures["labels"], start=1):
            shown = "".join(digits[prefix][int(d)] for d in str(n))
            assert label == f"{words[prefix]}\u00a0{shown}.", (page, label)


def test_every_reference_lands_on_its_figure(measured):
    refs = sum(f["refs"] for _, _, f in measured.values())
    assert refs >= 45
    dangling = {page: f["dangling"] for page, (_, _, f) in measured.items() if f["dangling"]}
    assert not dangling, dangling
