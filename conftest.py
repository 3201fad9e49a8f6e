"""Sybil collects the doctests written in the pages (docs/**/*.md); the longest test files
run first, so that under pytest-xdist (scripts/test) no worker starts one of them last while
the other idles."""

from sybil import Sybil

from distlesson.site.doctests import MarkdownDoctestParser

pytest_collect_file = Sybil(
    parsers=[MarkdownDoctestParser()], patterns=["*.md"], path="docs"
).pytest()

# Measured on a 2-core machine (pytest --durations): each of these files takes from half a
# minute to several minutes, most of it in one fixture or one test (a second cold build, the
# crawl of every page in a browser, probe builds, serve). Longest first.
LONGEST_FIRST = (
    "tests/test_reproducible_build.py",
    "tests/test_browser_crawl.py",
    "tests/test_site_author_errors.py",
    "tests/test_site_build_cache.py",
    "tests/test_pages_engine_lab.py",
)


def pytest_collection_modifyitems(session, config, items):
    """Move the longest files to the front, each file's tests kept together and in order."""
    def rank(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items[:] = [item for _, item in sorted(enumerate(items),
                                           key=lambda pair: (rank(pair[1]), pair[0]))]
