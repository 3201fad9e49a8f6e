"""The site's pages as the tests see them: every NAME.LOCALE.md under docs/."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LOCALES = ("en", "ca", "fa")


def page_names() -> list[str]:
    """Base names of the pages (``why-it-does-not-fit`` for ``why-it-does-not-fit.en.md``)."""
    return sorted({p.name.split(".")[0] for p in DOCS.rglob("*.md")})


def page_path(name: str, locale: str) -> Path:
    return DOCS / f"{name}.{locale}.md"


def all_page_files() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def nav_pages() -> list[str]:
    """The pages named in mkdocs.yml's nav, without the .md suffix."""

    class _Loader(yaml.SafeLoader):
        pass

    _Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    found: list[str] = []

    def walk(items: object) -> None:
        if isinstance(items, list):
            for item in items:
                walk(item)
        elif isinstance(items, dict):
            for value in items.values():
                walk(value)
        elif isinstance(items, str) and items.endswith(".md"):
            found.append(items.removesuffix(".md"))

    walk(config["nav"])
    return found
