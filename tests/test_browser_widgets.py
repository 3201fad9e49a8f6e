"""Every widget in real headless Chromium, in the light and the dark scheme that Material
follows from the browser's preference: every word and number drawn in an SVG contrasts with
what lies behind it, and on Persian pages every SVG label with Persian letters sits in a
right-to-left isolate, so that "GB", "tp" and the digits read in the right order inside the
left-to-right plots. Dark screenshots go to build/screenshots/ for a person to look at."""

import re

import pytest

from tests import browser as shared

site, server, browser = shared.site, shared.server, shared.browser

WIDGETS = {"pipeline": "pipeline/", "dimensions": "parallelism/",
           "optimizer": "why-it-does-not-fit/", "mfu": "mfu/", "roofline": "hardware/",
           "checkpointing": "saving-memory/"}
PREFIX = {"en": "/", "ca": "/ca/", "fa": "/fa/"}
# settings that draw more than the default does: a pipeline of several stages
SETTINGS = {"dimensions": {"pp": "4", "microbatches": "8"}}
NO_HEADER = ".md-header, .md-tabs { display: none !important; }"  # it would cover the plots
PERSIAN_LETTERS = re.compile("[\u0621-\u064a\u067e\u0686\u0698\u06a9\u06af\u06cc]")
AA = 4.5  # WCAG's contrast for text of normal size

# For each SVG <text> of the widget: its text, its colour, and the colour behind its centre
# (the shape under it, its halo when it has one, else the page), with alpha composited.
CONTRASTS = """root => {
  function rgba(text) {
    const m = /rgba?\\(([^)]+)\\)/.exec(text || "");
    if (!m) return null;
    const v = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  }
  function over(top, bottom) {
    const a = top[3];
    return [0, 1, 2].map(i => a * top[i] + (1 - a) * bottom[i]).concat([1]);
  }
  function page(node) {
    for (let el = node; el && el.nodeType === 1; el = el.parentElement) {
      const c = rgba(getComputedStyle(el).backgroundColor);
      if (c && c[3] > 0) return c[3] < 1 ? over(c, [255, 255, 255, 1]) : c;
    }
    return [255, 255, 255, 1];
  }
  function luminance(c) {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const found = [];
  root.querySelectorAll("svg text").forEach(text => {
    text.scrollIntoView({block: "center", inline: "center"});  // points off screen hit nothing
    const box = text.getBoundingClientRect();
    if (!text.textContent.trim() || box.width === 0) return;
    const style = getComputedStyle(text);
    let behind = page(text.closest("svg"));
    const halo = rgba(style.stroke);
    if (style.paintOrder.startsWith("stroke") && halo && parseFloat(style.strokeWidth) >= 2) {
      behind = over(halo, behind);
    } else {
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      for (const el of document.elementsFromPoint(x, y)) {
        if (el === text || el.tagName === "text") continue;
        if (el.tagName === "svg" || !(el instanceof SVGElement)) break;
        const fill = rgba(getComputedStyle(el).fill);
        if (fill && fill[3] > 0) { behind = over(fill, behind); break; }
      }
    }
    const colour = over(rgba(style.fill) || [0, 0, 0, 1], behind);
    const [l1, l2] = [luminance(colour), luminance(behind)].sort((a, b) => b - a);
    found.push({text: text.textContent, colour: colour.slice(0, 3).map(Math.round),
                behind: behind.slice(0, 3).map(Math.round),
                ratio: (l1 + 0.05) / (l2 + 0.05)});
  });
  return found;
}"""


PALETTE = "document.body.getAttribute('data-md-color-scheme')"


@pytest.fixture(scope="module")
def schemes(browser):
    """One browser context per colour scheme the browser prefers."""
    contexts = {scheme: browser.new_context(viewport={"width": 1200, "height": 2400},
                                            color_scheme=scheme)
                for scheme in ("light", "dark")}
    yield contexts
    for context in contexts.values():
        context.close()


def open_widget(context, server: str, widget: str, locale: str):
    tab, requests = context.new_page(), []
    tab.on("request", lambda request: requests.append(request.url))
    tab.goto(server + PREFIX[locale] + WIDGETS[widget], wait_until="domcontentloaded")
    root = tab.locator(f'.dl-widget[data-widget="{widget}"]')
    tab.wait_for_selector(f'.dl-widget[data-widget="{widget}"][data-ready="true"]')
    for name, value in SETTINGS.get(widget, {}).items():
        root.locator(f"select[data-in={name}]").select_option(value)
    tab.add_style_tag(content=NO_HEADER)
    return tab, root, requests


def switch_to_dark(tab) -> None:
    """What a reader's click on the header's moon does (the header is hidden by then; its
    label is clicked in the page). Material keeps the choice in localStorage: the test
    clears it, so that the next page opens in the browser's scheme again."""
    tab.evaluate("document.querySelector('label[for=\"__palette_1\"]').click()")
    tab.wait_for_function(f"{PALETTE} === 'slate'")


def poor_contrasts(root) -> list[dict]:
    texts = root.evaluate(CONTRASTS)
    assert texts, "the widget drew no text"
    return [t for t in texts if t["ratio"] < AA]


@pytest.mark.parametrize("locale", list(PREFIX))
@pytest.mark.parametrize("widget", list(WIDGETS))
def test_svg_text_contrasts_with_what_is_behind_it(schemes, server, widget, locale):
    """In the light scheme, then in the dark one the reader switches to on the same page
    (one load for both: the widgets' colours are CSS variables that follow the palette)."""
    tab, root, requests = open_widget(schemes["light"], server, widget, locale)
    try:
        assert tab.evaluate(PALETTE) == "default"
        poor = poor_contrasts(root)
        assert not poor, f"light: {len(poor)} texts below {AA}: {poor[:5]}"
        switch_to_dark(tab)
        shared.screenshot(root, f"{widget}-widget-{locale}-dark")
        poor = poor_contrasts(root)
        assert not poor, f"dark: {len(poor)} texts below {AA}: {poor[:5]}"
        shared.only_local(requests)
    finally:
        tab.evaluate("localStorage.clear()")
        tab.close()


@pytest.mark.parametrize("locale", list(PREFIX))
def test_material_follows_the_browsers_dark_preference(schemes, server, locale):
    """A browser that prefers dark opens the page in Material's slate, and the widget
    draws there what it draws after the reader's switch (the premise of the test above)."""
    widget = "dimensions"  # the widget with the most texts, in boxes and over bars
    preferred, preferred_root, _ = open_widget(schemes["dark"], server, widget, locale)
    switched, switched_root, _ = open_widget(schemes["light"], server, widget, locale)
    try:
        assert preferred.evaluate(PALETTE) == "slate"
        switch_to_dark(switched)
        assert preferred_root.evaluate(CONTRASTS) == switched_root.evaluate(CONTRASTS)
    finally:
        switched.evaluate("localStorage.clear()")
        preferred.close()
        switched.close()


@pytest.mark.parametrize("widget", list(WIDGETS))
def test_persian_svg_labels_are_isolated_right_to_left(schemes, server, widget):
    tab, root, requests = open_widget(schemes["light"], server, widget, "fa")
    try:
        texts = root.locator("svg text").evaluate_all("ts => ts.map(t => t.textContent)")
        persian = [t for t in texts if PERSIAN_LETTERS.search(t)]
        bare = [t for t in persian if not (t.startswith("\u2067") and t.endswith("\u2069"))]
        assert not bare, f"Persian labels outside a right-to-left isolate: {bare[:5]}"
        # and no isolate where a label has no right-to-left letters to isolate
        assert all(PERSIAN_LETTERS.search(t) for t in texts if t.startswith("\u2067"))
        assert persian, "every widget draws Persian words in its plot: a caption at least"
        shared.only_local(requests)
    finally:
        tab.close()
