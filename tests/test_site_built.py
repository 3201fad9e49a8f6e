"""The built site: three languages, Persian right to left with Persian digits, and no
request to another host (the site works offline)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from distlesson.site.prose_lint import ALLOWED_NAMES
from tests.pages import LOCALES, ROOT, nav_labs, nav_pages

# scripts/test builds into site/; DISTLESSON_SITE_DIR points the tests at another build.
SITE = Path(os.environ.get("DISTLESSON_SITE_DIR", ROOT / "site"))
# What a browser fetches by itself: scripts, stylesheets, images, fonts, frames, imports.
_FETCHED = re.compile(
    r"""<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc\s*=\s*["']?(https?:)?//"""
    r"""|<link\b(?=[^>]*\brel\s*=\s*["']?(?:stylesheet|preload|modulepreload|prefetch|icon"""
    r"""|preconnect|dns-prefetch|manifest))[^>]*\bhref\s*=\s*["']?(https?:)?//"""
    r"""|@import\s+url\(\s*["']?https?://|url\(\s*["']?https?://"""
    r"""|\bimport\s*\(\s*["']https?://""",  # a module script's dynamic import (nbconvert's)
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def site() -> Path:
    """scripts/test builds site/ before the tests; build it here when run alone."""
    if not (SITE / "index.html").exists():
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                        str(SITE)], cwd=ROOT, check=True,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return SITE


def _html(site: Path, page: str, locale: str) -> str:
    prefix = "" if locale == "en" else f"{locale}/"
    folder = "" if page == "index" else f"{page}/"
    return (site / f"{prefix}{folder}index.html").read_text(encoding="utf-8")


def _persian_article(site: Path, page: str, hidden: str, also: str = "") -> str:
    """The Persian page's article without the elements named in ``hidden`` (a regex
    alternation of tag names), then without what ``also`` matches, then without its
    formulas, which KaTeX sets left to right."""
    html = _html(site, page, "fa")
    article = html[html.index("<article"):html.index("</article>")]
    article = re.sub(rf"<({hidden})\b.*?</\1>", " ", article, flags=re.S)
    if also:
        article = re.sub(also, " ", article, flags=re.S)
    return re.sub(r'<span class="arithmatex">.*?</span>', " ", article, flags=re.S)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("page", nav_pages() + nav_labs())  # labs: labs/NAME
def test_page_is_built_in_its_language(site, page, locale):
    html = _html(site, page, locale)
    assert f'<html lang="{locale}"' in html
    assert ('<body dir="rtl"' in html) == (locale == "fa")


@pytest.mark.parametrize("page", nav_pages() + nav_labs())  # labs: labs/NAME
def test_persian_pages_show_no_latin_digits_in_prose(site, page):
    # formulas (KaTeX) read left to right in Latin digits, as code does
    text = _persian_article(site, page, "code|pre|svg|script|style|a")
    # a lab's code cell again, hidden, for its copy button (mkdocs-jupyter)
    text = re.sub(r'<div class="clipboard-copy-txt"[^>]*>.*?</div>', " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>|&[a-z#0-9]+;", " ", text)
    # the names the prose lint allows (fp32, H100, 1F1B...), plus the venues of citations
    venues = (r"arXiv:\d+\.\d+|SC\d+|(?:ICLR|NeurIPS|ICML|MLSys|VLDB|USENIX ATC|SOSP) \d+"
              r"|(?:JMLR|Communications of the ACM|Computing) \d+(?:\(\d+\))?")
    names = re.compile("|".join((*ALLOWED_NAMES, venues)))
    latin = re.findall(r"[0-9]+", names.sub(" ", text))
    assert not latin, f"fa/{page}: Latin digits in prose: {latin[:10]}"


def test_no_page_fetches_from_another_host(site):
    offenders = []
    for path in site.rglob("*.html"):
        for match in _FETCHED.finditer(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(site)}: {match.group(0)[:80]}")
    assert not offenders, "\n".join(offenders[:20])


def test_detector_catches_a_remote_script_and_font():
    assert _FETCHED.search('<script src="https://cdn.example.org/mermaid.js"></script>')
    assert _FETCHED.search('<link rel="stylesheet" href="https://fonts.googleapis.com/css">')
    assert _FETCHED.search("@font-face { src: url('https://x.org/a.woff2') }")
    assert _FETCHED.search('const m = (await import("https://cdnjs.example/mermaid.mjs"))')
    assert not _FETCHED.search('<a href="https://arxiv.org/abs/1910.02054">paper</a>')
    assert not _FETCHED.search('<link rel="canonical" href="https://example.org/fa/">')


@pytest.mark.parametrize("page", nav_pages() + nav_labs())
def test_catalan_pages_elide_before_numbers(site, page):
    """No «de 11,1» or «dins de 1,0» left on a built Catalan page (the review's slips)."""
    from distlesson.render.catalan import elide_html

    html = _html(site, page, "ca")
    assert elide_html(html) == html


@pytest.mark.parametrize("locale", ["", "ca", "fa"])
def test_search_snippets_show_no_latex(site, locale):
    index = json.loads((site / locale / "search" / "search_index.json").read_text("utf-8"))
    with_maths = [doc["location"] for doc in index["docs"]
                  if re.search(r"\\\(|\\\[|\\frac|\\text\{|\\mathit", doc["text"])]
    assert not with_maths, with_maths


@pytest.mark.parametrize("page", nav_pages() + nav_labs())
def test_persian_pages_keep_latin_compounds_on_one_line(site, page):
    """Each all-reduce, ZeRO-3... of the prose is a run of its own in a no-break span."""
    from distlesson.render.html_text import COMPOUND, NOBREAK_CLASS, map_text

    html = _html(site, page, "fa")
    article = html[html.index("<article"):html.index("</article>")]
    loose: list[str] = []

    def check(run: str) -> str:
        loose.extend(m.group(0) for m in COMPOUND.finditer(run) if m.group(0) != run)
        return run

    map_text(article, check)
    assert not loose, f"fa/{page}: compounds that may break: {loose[:10]}"
    if "all-reduce" in article:
        assert f'<span class="{NOBREAK_CLASS}">all-reduce</span>' in article


_HREF = re.compile(r'<a\b[^>]*\bhref="(?![a-z][a-z0-9+.-]*:|//)([^"#?]*)(?:#([^"]*))?"')
_ID = re.compile(r'\bid="([^"]+)"')


def _dangling(site: Path, here: str, html: str) -> tuple[int, list[str]]:
    """(links checked, links of the page at ``here`` that lead to no file or no id)."""
    from html import unescape
    from urllib.parse import unquote, urljoin

    ids: dict[str, set[str] | None] = {}  # per target: its ids, None if it does not exist
    missing = []
    links = _HREF.findall(html)
    for path, anchor in links:
        target = unquote(urljoin("/" + here, unescape(path)).lstrip("/"))
        last = target.rsplit("/", 1)[-1]
        is_page = "." not in last or last.endswith(".html")  # not an asset or a download
        if target not in ids:
            file = site / target / "index.html" if "." not in last else site / target
            ids[target] = None if not file.exists() else (
                set(_ID.findall(file.read_text(encoding="utf-8"))) if is_page else set())
        if ids[target] is None:
            missing.append(path or "(this page)")
        elif anchor and is_page and unquote(unescape(anchor)) not in ids[target]:
            missing.append(f"{path or '(this page)'}#{anchor}")
    return len(links), missing


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("page", nav_pages() + nav_labs())  # labs: labs/NAME
def test_every_link_and_anchor_of_a_page_exists(site, page, locale):
    """A link to another page of the site (a lab too) lands on a built page, and a figure
    reference ({{ fig:NAME }}), a cross-reference or a heading's link on an id of the page
    it names. MkDocs checks neither here: the labs are pages only after its check, and
    figures get their ids after it (mkdocs.yml, validation)."""
    prefix = "" if locale == "en" else f"{locale}/"
    here = f"{prefix}{'' if page == 'index' else page + '/'}"
    checked, missing = _dangling(site, here, _html(site, page, locale))
    assert checked > 10  # the page's navigation at least
    assert not missing, f"{here or '/'}: links to nothing: {sorted(set(missing))}"


def test_a_link_to_a_missing_page_or_id_is_found(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="x">X</h2>', encoding="utf-8")
    (tmp_path / "style.css").write_text("", encoding="utf-8")
    html = ('<a href="../a/#x">ok</a><a href="../a/#y">no id</a><a href="../b/">no page</a>'
            '<a href="#fig-1">not here</a><a href="../style.css">asset</a>'
            '<a href="https://example.org/#z">elsewhere</a><a href="mailto:x@y">mail</a>')
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "index.html").write_text(html, encoding="utf-8")
    assert _dangling(tmp_path, "p/", html) == (5, ["../a/#y", "../b/", "(this page)#fig-1"])


# A Latin letter, then only neutrals and digits (no strong letter, no right-to-left mark),
# then a Persian digit: the browser would set that number inside the Latin run (UAX #9, W7).
# A Persian comma between two Latin words joins their run and shows inside it.
_NUMBER_AFTER_LATIN = re.compile(r"[A-Za-z][0-9\s\u00a0.,:;()/+×%،٫٬\-]*[۰-۹]"
                                 r"|[A-Za-z0-9][\s\u00a0]*،[\s\u00a0]*[A-Za-z]")
_BLOCK = re.compile(r"</?(?:p|li|td|th|h[1-6]|div|br|tr|figcaption|summary|dt|dd|label)\b[^>]*>")


@pytest.mark.parametrize("page", nav_pages() + nav_labs())  # labs: labs/NAME
def test_persian_numbers_after_latin_words_stay_in_the_persian_line(site, page):
    # an element marked left to right is laid out as its author meant («GPT 22B، ۸ × A100»)
    article = _persian_article(site, page, "code|pre|svg|script|style|kbd|select",
                               also=r'<(bdi|span)\b[^>]*\bdir="ltr"[^>]*>.*?</\1>')
    bad = []
    for block in _BLOCK.split(article):
        text = re.sub(r"<[^>]+>", "", block)
        bad += [m.group(0) for m in _NUMBER_AFTER_LATIN.finditer(text)]
    assert not bad, f"fa/{page}: shown inside a Latin run: {bad[:8]}"
