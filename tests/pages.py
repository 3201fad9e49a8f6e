"""The site's pages as the tests see them: every NAME.LOCALE.md under docs/, and the labs
(one source each, labs/NAME.py, and the notebooks docs/labs/NAME.LOCALE.py generated from it
that mkdocs-jupyter renders)."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LOCALES = ("en", "ca", "fa")
LAB_DIR = "labs"


def page_names() -> list[str]:
    """Base names of the pages (``why-it-does-not-fit`` for ``why-it-does-not-fit.en.md``)."""
    return sorted({p.name.split(".")[0] for p in DOCS.rglob("*.md")})


def page_path(name: str, locale: str) -> Path:
    return DOCS / f"{name}.{locale}.md"


def all_page_files() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def nav_pages() -> list[str]:
    """The pages named in mkdocs.yml's nav, without the .md suffix."""
    return _nav_entries(".md")


def nav_labs() -> list[str]:
    """The labs named in mkdocs.yml's nav, without the .py suffix (``labs/memory``)."""
    return _nav_entries(".py")


def lab_names() -> list[str]:
    """The labs, as ``labs/NAME`` (source ``labs/NAME.py``, notebooks
    ``docs/labs/NAME.LOCALE.py``); the notebooks are written as the build writes them."""
    write_lab_notebooks()
    return sorted(f"{LAB_DIR}/{p.stem}" for p in (ROOT / LAB_DIR).glob("*.py"))


@functools.cache
def write_lab_notebooks() -> None:
    from distlesson.site.lab_sources import write_labs

    write_labs(ROOT / LAB_DIR, DOCS / LAB_DIR, LOCALES)


def lab_path(name: str, locale: str) -> Path:
    return DOCS / f"{name}.{locale}.py"


def _nav_entries(suffix: str) -> list[str]:

    class _Loader(yaml.SafeLoader):
        pass

    _Loader.add_multi_constructor("!", lambda loader, tag, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    found: list[str] = []

    def walk(items: object) -> None:
        if isinstance(items, list):
            for item in items:
                walk(item)
        elif isinstance(items, dict):
            for value in items.values():
                walk(value)
        elif isinstance(items, str) and items.endswith(suffix):
            found.append(items.removesuffix(suffix))

    walk(config["nav"])
    return found
