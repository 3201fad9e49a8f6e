"""Chapters: numbered from the nav in three languages, an "in short" box on each, and the
"edit this page" / "report an error" links when the repository is known."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from distlesson.site import chapters
from tests.pages import LOCALES, ROOT, page_path

# The box at the top of every chapter: its title per language, as the pages write it.
BOX_TITLE = {"en": "What you will learn", "ca": "Què hi aprendreu", "fa": "آنچه یاد می‌گیرید"}
_DIGIT = re.compile(r"[0-9۰-۹٠-٩]")


class _Loader(yaml.SafeLoader):
    """mkdocs.yml with its !ENV tags read as plain values (only the nav matters here)."""


_Loader.add_constructor("!ENV", lambda loader, node: None)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/name:",
                              lambda loader, suffix, node: None)


def _nav() -> list:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)["nav"]


CHAPTERS = chapters.chapter_numbers(_nav())


def test_chapters_are_numbered_in_nav_order():
    assert list(CHAPTERS) == [
        "why-it-does-not-fit.md", "parallelism.md", "pipeline.md", "saving-memory.md",
        "hardware.md", "communication.md", "experts.md", "mfu.md", "planning.md", "failures.md",
        "accuracy.md"]
    assert list(CHAPTERS.values()) == list(range(1, len(CHAPTERS) + 1))


def test_reordering_the_nav_renumbers():
    nav = _nav()
    pipeline = next(i for i, entry in enumerate(nav) if "pipeline.md" in entry.values())
    nav.insert(1, nav.pop(pipeline))
    renumbered = chapters.chapter_numbers(nav)
    assert renumbered["pipeline.md"] == 1
    assert renumbered["why-it-does-not-fit.md"] == 2


@pytest.mark.parametrize(("locale", "expected"), [
    ("en", "# Chapter 3 · Pipeline schedules"),
    ("ca", "# Capítol 3 · Pipeline schedules"),
    ("fa", "# فصل ۳ · Pipeline schedules"),
])
def test_number_heading_in_each_language(locale, expected):
    numbered = chapters.number_heading("# Pipeline schedules\n\nProse.\n", 3, locale)
    assert numbered.split("\n")[0] == expected
    assert numbered.endswith("\n\nProse.\n")


def _box(name: str, locale: str) -> list[str]:
    """The bullets of the box that opens the chapter (right under its H1)."""
    lines = page_path(name, locale).read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("# ") and lines[1] == ""
    assert lines[2] == f'!!! abstract "{BOX_TITLE[locale]}"', f"{name}.{locale}.md: no box"
    bullets: list[str] = []
    for line in lines[4:]:
        if line.startswith("    - "):
            bullets.append(line[6:])
        elif line.startswith("      ") and bullets:
            bullets[-1] += " " + line.strip()
        else:
            break
    return bullets


@pytest.mark.parametrize("chapter", [name.removesuffix(".md") for name in CHAPTERS])
def test_every_chapter_opens_with_its_box_in_three_languages(chapter):
    counts = {locale: len(_box(chapter, locale)) for locale in LOCALES}
    assert 3 <= counts["en"] <= 4, counts
    assert len(set(counts.values())) == 1, f"{chapter}: bullets per language {counts}"
    for locale in LOCALES:
        for bullet in _box(chapter, locale):
            assert not _DIGIT.search(bullet), f"{chapter}.{locale}.md box: {bullet}"


def test_report_url_names_the_page_source():
    url = chapters.report_url("https://github.com/o/r/", "pipeline.ca.md")
    assert url == "https://github.com/o/r/issues/new?title=Error%20on%20docs/pipeline.ca.md"


# A probe site with the real theme overrides, the i18n plugin's suffix structure and the
# distlesson plugin, and mkdocs.yml's own repo_url and edit_uri lines.
_PROBE = """\
site_name: probe
repo_url: !ENV [DISTLESSON_REPO_URL, null]
edit_uri: !ENV [DISTLESSON_EDIT_URI, "edit/main/docs/"]
theme:
  name: material
  custom_dir: {overrides}
  features: [content.action.edit]
plugins:
  - search
  - i18n:
      docs_structure: suffix
      fallback_to_default: false
      languages:
        - {{locale: en, default: true, name: English, build: true}}
        - {{locale: ca, name: Català, build: true}}
        - {{locale: fa, name: فارسی, build: true}}
  - distlesson
nav:
  - Home: index.md
  - Pipeline schedules: pipeline.md
"""


def _build_probe(root: Path, repo_url: str | None) -> Path:
    (root / "docs").mkdir()
    for locale in LOCALES:
        (root / "docs" / f"index.{locale}.md").write_text("# Home\n", encoding="utf-8")
        (root / "docs" / f"pipeline.{locale}.md").write_text(
            "# Pipeline\n\nProse.\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        _PROBE.format(overrides=ROOT / "overrides"), encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    env.pop("DISTLESSON_REPO_URL", None)
    if repo_url:
        env["DISTLESSON_REPO_URL"] = repo_url
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", "site"], cwd=root,
                   env=env, check=True, capture_output=True, timeout=300)
    return root / "site"


def _article(site: Path, path: str) -> str:
    html = (site / path).read_text(encoding="utf-8")
    return html[html.index("<article"):html.index("</article>")]


@pytest.fixture(scope="module")
def probe_with_repo(tmp_path_factory) -> Path:
    return _build_probe(tmp_path_factory.mktemp("with-repo"), "https://github.com/o/r")


def test_ca_page_edits_its_own_source_and_reports_its_path(probe_with_repo):
    article = _article(probe_with_repo, "ca/pipeline/index.html")
    assert 'href="https://github.com/o/r/edit/main/docs/pipeline.ca.md"' in article
    report = re.search(r'<a href="([^"]+)" title="([^"]+)"[^>]*data-distlesson="report"',
                       article)
    assert report is not None
    assert report[1] == "https://github.com/o/r/issues/new?title=Error%20on%20docs/pipeline.ca.md"
    assert report[2] == chapters.REPORT_LABEL["ca"]
    fa = _article(probe_with_repo, "fa/pipeline/index.html")
    assert "edit/main/docs/pipeline.fa.md" in fa
    assert "title=Error%20on%20docs/pipeline.fa.md" in fa


def test_probe_chapters_are_numbered_from_its_own_nav(probe_with_repo):
    assert "Chapter 1 · Pipeline" in _article(probe_with_repo, "pipeline/index.html")
    assert "فصل ۱ · Pipeline" in _article(probe_with_repo, "fa/pipeline/index.html")
    assert "Chapter" not in _article(probe_with_repo, "index.html")  # Home is no chapter


def test_without_the_repository_no_link(tmp_path):
    article = _article(_build_probe(tmp_path, None), "ca/pipeline/index.html")
    assert "/edit/" not in article
    assert "issues/new" not in article
    assert 'data-distlesson="report"' not in article
