"""The site's chrome in the page's language, and what one build per language leaves behind.

Material translates most of its interface from ``theme.language`` (set per language by the
i18n plugin), and mkdocs.yml's per-language ``copyright``, ``site_description`` and palette
names do the rest (except Material's Catalan code-copy tooltip, «Còpia», a noun, replaced
here by the imperative «Copia»). Three strings come from elsewhere and stay English unless
replaced here:
Python-Markdown's "Permanent link" (``toc.permalink_title``, one setting for all languages)
and mkdocs-jupyter's "Copy to Clipboard" / "Copied!" on the labs' code cells.

mkdocs-static-i18n builds every language into the same ``site_dir``: each build writes
``404.html``, ``sitemap.xml`` and, at the end, one ``search/search_index.json`` holding the
pages of all three languages. :func:`write_404_pages` gives each language its own
404 page (``/ca/404.html``, the root one in English), and :func:`split_search_index` one
index and sitemap per language, which ``overrides/main.html`` points each page at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from distlesson.site.search_maths import plain_maths

__all__ = ["CHROME", "localise_chrome", "split_search_index", "write_404_pages"]

# English as the tools write it -> the page's language.
CHROME: dict[str, dict[str, str]] = {
    "ca": {
        'title="Permanent link"': 'title="Enllaç permanent"',
        'aria-label="Copy to Clipboard"': 'aria-label="Copia al porta-retalls"',
        '<span class="notice" hidden="">Copied!</span>':
            '<span class="notice" hidden="">Copiat!</span>',
        # Material's Catalan tooltip on the code-copy button is the noun «Còpia»; a button
        # takes the imperative. The page's config JSON escapes the «ò» (Jinja's tojson).
        '"clipboard.copy": "C\\u00f2pia al porta-retalls"':
            '"clipboard.copy": "Copia al porta-retalls"',
        '"clipboard.copy": "Còpia al porta-retalls"': '"clipboard.copy": "Copia al porta-retalls"',
    },
    "fa": {
        'title="Permanent link"': 'title="پیوند ثابت"',
        'aria-label="Copy to Clipboard"': 'aria-label="رونوشت در حافظهٔ موقت"',
        '<span class="notice" hidden="">Copied!</span>':
            '<span class="notice" hidden="">رونوشت شد</span>',
        'aria-label="جستجو"': 'aria-label="جست‌وجو"',
        'placeholder="جستجو"': 'placeholder="جست‌وجو"',
        "راه\u200cاندازی جستجو": "راه\u200cاندازی جست‌وجو",
    },
}

# Material's own Persian strings where the site writes otherwise: «جستجو» for «جست‌وجو», a
# Latin «1» in the result counts, and «کپی» where the labs' copy button says «رونوشت». The
# page's config JSON holds them escaped (Jinja's tojson), so both spellings are replaced.
_FA_THEME = {
    "search.result.one": ("1 سند یافت شد", "۱ سند یافت شد"),
    "search.result.more.one": ("1 مورد دیگر در این صفحه", "۱ مورد دیگر در این صفحه"),
    "search.result.placeholder": ("برای شروع جستجو تایپ کنید", "برای شروع جست‌وجو تایپ کنید"),
    "clipboard.copy": ("کپی کردن", "رونوشت در حافظهٔ موقت"),
    "clipboard.copied": ("کپی شد", "رونوشت شد"),
}
for _key, (_theirs, _ours) in _FA_THEME.items():
    for _ascii in (True, False):
        CHROME["fa"][f'"{_key}": {json.dumps(_theirs, ensure_ascii=_ascii)}'] = (
            f'"{_key}": {json.dumps(_ours, ensure_ascii=_ascii)}')


def localise_chrome(html: str, locale: str) -> str:
    """A page's HTML with the tools' English interface strings in ``locale``."""
    for english, translated in CHROME.get(locale, {}).items():
        html = html.replace(english, translated)
    return html


def write_404_pages(site_dir: Path, pages_404: dict[str, str], default: str) -> None:
    """Each language's 404 page (its HTML as Material rendered it in that language's build)
    at ``/LOCALE/404.html``, the default language's at the root, where a server serves it
    for every missing path. Every build overwrites the root one: call after each."""
    for locale, html in pages_404.items():
        folder = site_dir if locale == default else site_dir / locale
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "404.html").write_text(html, encoding="utf-8")


_URL = re.compile(r"\s*<url>.*?</url>", re.DOTALL)
_LOC = re.compile(r"<loc>([^<]*)</loc>")


def split_search_index(site_dir: Path, locales: list[str], default: str) -> dict[str, int]:
    """Split the shared search index (and sitemap) into one per language: the default
    language's at the root, the others' under ``/LOCALE/``, with locations relative to that
    root. lunr has no stemmer or stop words for Catalan or Persian, so their indexes use none
    (the English stop words would drop Catalan "on", "as"...). Formulas become plain text
    (:func:`distlesson.site.search_maths.plain_maths`). Returns the entries per language."""
    path = site_dir / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    others = [locale for locale in locales if locale != default]

    def language(location: str) -> str:
        return next((lo for lo in others if location.startswith(f"{lo}/")), default)

    counts = {}
    for locale in locales:
        prefix = f"{locale}/" if locale != default else ""
        docs = [dict(doc, location=doc["location"].removeprefix(prefix),
                     title=plain_maths(doc["title"]), text=plain_maths(doc["text"]))
                for doc in index["docs"] if language(doc["location"]) == locale]
        config = dict(index["config"])
        if locale != default:
            config["lang"], config["pipeline"] = ["en"], []
        target = site_dir / (locale if locale != default else "") / "search"
        target.mkdir(parents=True, exist_ok=True)
        (target / "search_index.json").write_text(
            json.dumps({"config": config, "docs": docs}, ensure_ascii=False),
            encoding="utf-8")
        counts[locale] = len(docs)
    sitemap = site_dir / "sitemap.xml"
    if sitemap.exists():
        xml = sitemap.read_text(encoding="utf-8")
        head, tail = xml[: xml.index("<url>")], xml[xml.rindex("</url>") + len("</url>"):]
        for locale in others:
            urls = [u for u in _URL.findall(xml)
                    if f"/{locale}/" in (_LOC.search(u) or [None, ""])[1]]
            (site_dir / locale / "sitemap.xml").write_text(
                head.rstrip() + "".join(urls) + "\n" + tail.lstrip(), encoding="utf-8")
    return counts
