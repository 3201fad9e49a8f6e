"""Two builds of one commit give the same site, byte for byte, outside the elements that
hold values measured at build time (``<span class="dl-measured" data-measured ...>``).

The site takes a minute to build. scripts/test builds it twice at once, site/ and a second
build with an empty cache of its own, before the tests; run alone, this module builds the
second one itself (and the ``site`` fixture builds site/ first). A site/ left from an older
commit differs too: rebuild it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from distlesson.pages import checkpointing, pipeline, planning
from distlesson.render.figure import Figure
from distlesson.render.measured import MEASURED_CLASS, measured, strip_measured
from tests.pages import ROOT
from tests.test_site_built import site  # noqa: F401 (the fixture)

OPEN = f'<span class="{MEASURED_CLASS}" data-measured data-search-exclude>'
SECOND_SITE = "DISTLESSON_SECOND_SITE"
"""Where scripts/test put the second build (with an empty cache of its own); without it, the
session builds it."""


def test_a_measured_value_is_marked():
    assert measured("1.2 s") == f"{OPEN}1.2 s</span>"
    for locale in ("en", "ca", "fa"):
        plain = Figure("x.seconds", 1.5, "s", digits=1).render(locale)
        assert "<" not in plain
        assert Figure("x.seconds", 1.5, "s", digits=1, measured=True).render(locale) == (
            f"{OPEN}{plain}</span>")


def test_markup_is_not_a_value():
    with pytest.raises(ValueError, match=r"text=.* must be a formatted value"):
        measured("<b>1</b>")


def test_stripping_empties_only_the_measured_elements():
    page = f"<p>took {OPEN}1,5 s</span> on {OPEN}2</span> cores, <span>3</span> runs</p>"
    assert strip_measured(page) == (f"<p>took {OPEN}</span> on {OPEN}</span> cores, "
                                    "<span>3</span> runs</p>")


@pytest.mark.parametrize(("module", "names"), [
    (pipeline, {"pipe.bench_seconds", "pipe.bench_cores"}),
    (planning, {"plan.seconds_405b", "plan.cores"}),
    (checkpointing, {"ckpt.measured_ratio", "ckpt.measured_overhead", "ckpt.cores"}),
])
def test_the_pages_timings_are_marked(module, names):
    marked = {f.name for f in module.figures() if f.measured}
    assert marked == names


def test_the_timing_table_marks_every_value():
    rows = checkpointing.timing_table("en").splitlines()[2:]
    assert len(rows) == 5
    assert all(line.count(OPEN) == 1 for line in rows), rows


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _differing(first: Path, second: Path) -> tuple[list[str], list[str]]:
    """(files that differ at all, files that differ outside the measured elements)."""
    a, b = _files(first), _files(second)
    assert a.keys() == b.keys(), sorted(a.keys() ^ b.keys())[:10]
    raw = [name for name in a if a[name] != b[name]]
    outside = [name for name in raw if strip_measured(a[name].decode("utf-8", "replace"))
               != strip_measured(b[name].decode("utf-8", "replace"))]
    return raw, outside


@pytest.fixture(scope="module")
def second_build(tmp_path_factory) -> Path:
    built = os.environ.get(SECOND_SITE)
    if built:  # scripts/test built it beside site/, the same way
        assert (Path(built) / "index.html").is_file(), f"{SECOND_SITE}={built}: no site"
        return Path(built)
    folder = tmp_path_factory.mktemp("second") / "site"
    empty_cache = tmp_path_factory.mktemp("empty-cache")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(folder)], cwd=ROOT, capture_output=True, text=True,
                          # with an empty build cache: every block, figure and lab computed
                          # afresh (the labs in the worker, as a cold build runs them), so
                          # the comparison also catches a cached output that a fresh
                          # computation would not give
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1",
                               "DISTLESSON_BUILD_CACHE": str(empty_cache)})
    assert done.returncode == 0, done.stderr[-3000:]
    return folder


def test_two_builds_differ_only_inside_measured_elements(site, second_build):  # noqa: F811
    _, outside = _differing(site, second_build)
    assert outside == [], f"{len(outside)} files differ outside measured elements: {outside[:10]}"
