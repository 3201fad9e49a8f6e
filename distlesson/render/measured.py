"""Values measured while the site is built (wall times, this machine's cores): marked in the
page so that two builds of one commit differ only inside these elements.

A timing changes from build to build, so a page that mixed it into plain text could never be
compared byte for byte; wrapped in ``<span class="dl-measured" data-measured ...>``, it can be
stripped before comparing (see :func:`strip_measured`), and a reader's stylesheet could show
it as what it is. The site's search leaves it out (a timing is not worth searching for).
"""

from __future__ import annotations

import re

__all__ = ["MEASURED_CLASS", "measured", "strip_measured"]

MEASURED_CLASS = "dl-measured"
# data-search-exclude: Material's search index (plain text, no marks) leaves the value out,
# or the index would differ between builds where nothing marks the difference.
_OPEN = f'<span class="{MEASURED_CLASS}" data-measured data-search-exclude>'
# Markdown passes the inline span through as written; no span is nested in another.
_ELEMENT = re.compile(re.escape(_OPEN) + r".*?</span>", re.DOTALL)


def measured(text: str) -> str:
    """``text`` (a value formatted for the page) marked as measured at build time."""
    if "<" in text:
        raise ValueError(f"text={text!r} must be a formatted value without markup")
    return f"{_OPEN}{text}</span>"


def strip_measured(html: str) -> str:
    """``html`` with the content of every measured element emptied (the marks are kept)."""
    return _ELEMENT.sub(f"{_OPEN}</span>", html)
