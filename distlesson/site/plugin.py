"""The MkDocs plugin: figures in prose, and a fresh library after an author's edit.

- ``on_page_markdown`` replaces ``{{ name }}`` placeholders with the library's figures,
  formatted for the page's language; an unknown name aborts the build naming page and line.
- ``on_serve`` watches the ``distlesson`` package; ``on_pre_build`` drops its modules when a
  source file changed, so ``mkdocs serve`` shows an edited formula on the next rebuild while
  the three language builds of one rebuild share one computation of every figure.
"""

from __future__ import annotations

import importlib
import logging
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

__all__ = ["DistlessonPlugin", "page_locale"]

log = logging.getLogger("mkdocs.plugins.distlesson")
PACKAGE_DIR = Path(__file__).resolve().parents[1]
_KEEP = {__name__, "distlesson", "distlesson.site"}


def page_locale(src_uri: str, default: str = "en") -> str:
    """``why.fa.md`` -> ``fa``; a file without a language suffix is in the default language."""
    parts = Path(src_uri).name.split(".")
    return parts[-2] if len(parts) >= 3 and len(parts[-2]) == 2 else default


def _source_stamp() -> tuple[tuple[str, int], ...]:
    return tuple(sorted(
        (str(path), path.stat().st_mtime_ns) for path in PACKAGE_DIR.rglob("*.py")))


class DistlessonPlugin(BasePlugin):
    def __init__(self) -> None:
        self._stamp: tuple[tuple[str, int], ...] | None = None

    def on_serve(self, server, config, builder):
        server.watch(str(PACKAGE_DIR))
        return server

    def on_pre_build(self, config) -> None:
        stamp = _source_stamp()
        if self._stamp is not None and stamp != self._stamp:
            stale = [name for name in sys.modules
                     if name.startswith("distlesson.") and name not in _KEEP]
            for name in stale:
                del sys.modules[name]
            # the package's own names (distlesson.get_model ...) must come from the fresh
            # modules too, or a page mixes old classes with new ones
            importlib.reload(sys.modules["distlesson"])
            log.info("distlesson changed: reloaded %d modules", len(stale))
        self._stamp = stamp

    def on_page_markdown(self, markdown, page, config, files):
        figures = importlib.import_module("distlesson.site.figures")
        placeholders = importlib.import_module("distlesson.site.placeholders")
        locale = page_locale(page.file.src_uri)
        try:
            return placeholders.resolve_placeholders(
                markdown, locale, figures.figure_registry(),
                where=f"docs/{page.file.src_uri}")
        except placeholders.UnknownFigureError as error:
            raise PluginError(str(error)) from None
