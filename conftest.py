"""Sybil collects the doctests written in the pages (docs/**/*.md); the longest test files
run first, so that under pytest-xdist (scripts/test) no worker starts one of them last while
the other idles."""

from sybil import Sybil

from distlesson.site.doctests import MarkdownDoctestParser

pytest_collect_file = Sybil(
    parsers=[MarkdownDoctestParser()], patterns=["*.md"], path="docs"
).pytest()

# Measured on a 2-core machine (pytest --durations, 2026-12-07): each of these files takes
# from half a minute to a minute and a half, in many page loads (the browser tests) or in one
# fixture or test (probe builds, serve, the engine's ranks). Longest first. (The
# reproducibility test's second build is made by scripts/test, before the tests.)
LONGEST_FIRST = (
    "tests/test_browser_exercises.py",
    "tests/test_browser_widgets.py",
    "tests/test_browser_crawl.py",
    "tests/test_site_author_errors.py",
    "tests/test_browser_chrome.py",
    "tests/test_labs_run.py",
    "tests/test_pages_engine_lab.py",
    "tests/test_engine_checks.py",
    "tests/test_site_build_cache.py",
)


def pytest_collection_modifyitems(session, config, items):
    """Move the longest files to the front, each file's tests kept together and in order."""
    def rank(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items[:] = [item for _, item in sorted(enumerate(items),
                                           key=lambda pair: (rank(pair[1]), pair[0]))]
