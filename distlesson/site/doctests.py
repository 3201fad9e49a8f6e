"""Collect the doctests in the pages with Sybil, whatever the fence's attributes.

Sybil's stock Markdown parser only sees fences whose info string is exactly ``python``; a
page's doctests live in ``pycon`` fences (and may carry attributes such as a title), so
this parser matches the language by its first word and takes every fence whose body starts
with ``>>>``. ``tests/test_site_doctests.py`` checks that no doctest fence goes uncollected.
"""

from __future__ import annotations

import doctest
import re
from collections.abc import Iterable

from sybil import Document, Region
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

__all__ = ["DOCTEST_FLAGS", "MarkdownDoctestParser"]

DOCTEST_FLAGS = doctest.NORMALIZE_WHITESPACE
_INFO = re.compile(r"[ \t]*\{?\.?(?P<language>pycon|python|py)\b[^\n]*\n")


class MarkdownDoctestParser:
    """Yields one Sybil region per ``>>>`` example in ``pycon``/``python`` fences."""

    def __init__(self) -> None:
        self.lexer = RawFencedCodeBlockLexer(info_pattern=_INFO)
        self.doctest_parser = DocTestStringParser(DocTestEvaluator(DOCTEST_FLAGS))

    def __call__(self, document: Document) -> Iterable[Region]:
        for region in self.lexer(document):
            source = region.lexemes["source"]
            if not source.lstrip().startswith(">>>"):
                continue
            for example in self.doctest_parser(source, document.path):
                example.adjust(region, source)
                yield example
