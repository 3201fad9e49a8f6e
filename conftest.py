"""Sybil collects the doctests written in the pages (docs/**/*.md)."""

from sybil import Sybil

from distlesson.site.doctests import MarkdownDoctestParser

pytest_collect_file = Sybil(
    parsers=[MarkdownDoctestParser()], patterns=["*.md"], path="docs"
).pytest()
