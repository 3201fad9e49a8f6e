"""Chapter numbers from the nav, and the per-page "report an error" link.

A chapter is a top-level nav entry that is a Markdown page and not one of the reference
pages (:data:`NOT_CHAPTERS`); its number is its place among the chapters, so reordering the
nav renumbers every page. :func:`number_heading` writes it into the page's H1 in the page's
language ("Chapter 3 · Pipeline schedules", «فصل ۳ · ...»), at build time, never typed.

The report link goes to the repository's new-issue form with the page's source in the title;
it exists only when the repository is known (``DISTLESSON_REPO_URL``, as for "edit this page").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import quote

from distlesson.render.numbers import format_number

__all__ = ["CHAPTER_LABEL", "NOT_CHAPTERS", "REPORT_LABEL", "chapter_numbers",
           "number_heading", "report_url"]

# Home, the lab page and the reference pages: in the nav among the chapters, not chapters.
NOT_CHAPTERS = frozenset({"index.md", "lab-engine.md", "exercises.md", "claims.md",
                          "glossary.md", "further-reading.md"})

CHAPTER_LABEL = {"en": "Chapter", "ca": "Capítol", "fa": "فصل"}
REPORT_LABEL = {"en": "Report an error on this page", "ca": "Informeu d'un error en aquesta pàgina",
                "fa": "گزارش خطا در این صفحه"}

_H1 = re.compile(r"^# (?P<title>.+)$", re.MULTILINE)


def _top_level_pages(nav: Iterable) -> list[str]:
    """The Markdown files of the nav's top level, in order (sections are skipped)."""
    pages = []
    for entry in nav or []:
        target = next(iter(entry.values())) if isinstance(entry, dict) else entry
        if isinstance(target, str) and target.endswith(".md"):
            pages.append(target)
    return pages


def chapter_numbers(nav: Iterable) -> dict[str, int]:
    """``{"pipeline.md": 3, ...}``: each chapter's number from its place in ``nav`` (the
    ``nav`` of mkdocs.yml as written: a list of ``{title: file}`` or bare files)."""
    chapters = [page for page in _top_level_pages(nav) if page not in NOT_CHAPTERS]
    return {page: number for number, page in enumerate(chapters, start=1)}


def number_heading(markdown: str, number: int, locale: str) -> str:
    """``markdown`` with its first H1 prefixed by the chapter's number in ``locale``."""
    label = CHAPTER_LABEL.get(locale, CHAPTER_LABEL["en"])
    numeral = format_number(number, locale)
    found = _H1.search(markdown)
    if found is None:
        raise ValueError(f"chapter {number} has no '# ' heading to number")
    heading = f"# {label} {numeral} · {found['title']}"
    return markdown[: found.start()] + heading + markdown[found.end():]


def report_url(repo_url: str, src_uri: str) -> str:
    """The new-issue form of ``repo_url`` with ``docs/SRC_URI`` in its title."""
    title = quote(f"Error on docs/{src_uri}")
    return f"{repo_url.rstrip('/')}/issues/new?title={title}"
