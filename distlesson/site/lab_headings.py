"""Heading ids in any script for the labs, so that their table of contents works.

mkdocs-jupyter slugifies a heading to ASCII: a Persian heading gets ``id=""`` and the table
of contents (built by Python-Markdown's own ASCII slugify) links to ``#_1``, ``#_2``, which
match nothing. Here both are rebuilt from one Unicode slug per heading, as the chapters get
(``pymdownx.slugs``-style: letters of every script kept, spaces to hyphens, made unique).
"""

from __future__ import annotations

import html as html_lib
import re

from markdown.extensions.toc import slugify_unicode

__all__ = ["unicode_heading_ids"]

_HEADING = re.compile(r'<h([1-6]) id="([^"]*)">(.*?)<a class="anchor-link" href="#[^"]*">',
                      re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _text(html: str) -> str:
    return html_lib.unescape(_TAG.sub("", html)).strip()


def _slug(text: str, taken: set[str]) -> str:
    base = slugify_unicode(text, "-") or "section"
    slug, n = base, 1
    while slug in taken:
        slug, n = f"{base}_{n}", n + 1
    taken.add(slug)
    return slug


def unicode_heading_ids(html: str, toc) -> str:
    """``html`` with every notebook heading's id (and its anchor link) made from its text,
    and ``toc``'s links (mkdocs' ``TableOfContents``, changed in place) pointing at them."""
    taken: set[str] = set()
    ids: list[str] = []

    def rename(match: re.Match) -> str:
        slug = _slug(_text(match[3]), taken)
        ids.append(slug)
        return f'<h{match[1]} id="{slug}">{match[3]}<a class="anchor-link" href="#{slug}">'

    html = _HEADING.sub(rename, html)
    links = []

    def walk(items) -> None:
        for item in items:
            links.append(item)
            walk(item.children)

    walk(toc)
    # the toc may leave out the notebook's title (ignore_h1_titles): match by title, in order
    by_title: dict[str, list[str]] = {}
    for match, slug in zip(_HEADING.finditer(html), ids, strict=True):
        by_title.setdefault(_text(match[3]), []).append(slug)
    for link in links:
        if same := by_title.get(_text(link.title)):
            link.id = same.pop(0)
    return html
