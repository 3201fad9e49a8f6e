"""The MkDocs plugin: figures in prose, and a fresh library after an author's edit.

- ``on_page_content`` elides Catalan «de» and «del» before numbers read with a vowel first
  (:mod:`distlesson.render.catalan`), and dresses the labs (below).
- ``on_page_markdown`` replaces ``{{ name }}`` placeholders with the library's figures,
  formatted for the page's language; an unknown name aborts the build naming page and line.
  It numbers the captioned plots (``{{ caption:NAME }}``) and links the references to them
  (``{{ fig:NAME }}``); ``on_page_content`` wraps each in ``<figure>`` with its
  ``<figcaption>`` (:mod:`distlesson.site.captions`).
  It also names every executed fence after its place in the source
  (:func:`label_exec_blocks`), so that a failing block is reported as
  ``<code block: id docs/planning.en.md:74>`` with its own line, and markdown-exec keeps one
  module per block across rebuilds instead of registering a new one each time.
- ``on_page_markdown`` also writes a chapter's number, from its place in the nav, into its
  H1, and puts the "report an error" link in ``page.meta`` when ``repo_url`` is set
  (:mod:`distlesson.site.chapters`, ``overrides/partials/actions.html``).
- ``on_serve`` watches the ``distlesson`` package; ``on_pre_build`` drops its modules when a
  source file changed, so ``mkdocs serve`` shows an edited formula on the next rebuild while
  the three language builds of one rebuild share one computation of every figure.
- ``on_config`` writes each lab's notebooks, one per language, from its single source
  ``labs/NAME.py`` into ``docs/labs/NAME.LOCALE.py`` (:mod:`distlesson.site.lab_sources`);
  ``on_serve`` watches ``labs/`` too.
- A content-addressed cache (:mod:`distlesson.site.build_cache`) keeps the output of every
  executed block, each module's figures and the rendered labs on disk, keyed on their source
  and on the sources of the library modules they can run: ``on_pre_build`` opens the cache
  of the library as it is now, so an unchanged block is never run twice and a library edit
  reruns what can run the edited module.
- ``on_files`` makes the labs (``docs/labs/NAME.LOCALE.py``) pages again after the i18n
  plugin turned them into static files, so that mkdocs-jupyter runs and renders them;
  ``on_page_content`` dresses a rendered lab for the site (no CDN script, one shared
  stylesheet, a download button) and ``on_post_build`` writes that stylesheet.
  ``on_pre_page`` runs a lab again only when it or the library changed
  (:mod:`distlesson.site.labs`). In a cold build ``on_files`` also starts the engine lab's
  torch run in the background, so the pages before it render while its ranks work.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from mkdocs.config import config_options
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from distlesson.render import catalan, html_text
from distlesson.site import (
    build_cache,
    chapters,
    chrome,
    exec_blocks,
    lab_headings,
    lab_prerun,
    lab_sources,
    labs,
)

__all__ = ["DistlessonPlugin", "label_exec_blocks", "page_locale"]

log = logging.getLogger("mkdocs.plugins.distlesson")
PACKAGE_DIR = Path(__file__).resolve().parents[1]
ENGINE_LAB_PAGE = "lab-engine."
"""The engine lab's pages (docs/lab-engine.LOCALE.md), whose run starts early in a cold build."""
ENGINE_LAB = "distlesson.pages.engine_lab"
ENGINE_RUN_NICENESS = 10
"""The CPU priority of the engine lab's ranks in a build (as ``nice``): below the pages',
above the labs worker's (measured on 2 cores: the page waited 3.9 s for the run with both at
10, 2.9 s with the worker at 19; the worker was never waited for)."""
_KEEP = {__name__, "distlesson", "distlesson.site", "distlesson.site.lab_prerun"}
"""Modules serve never reloads: this plugin, the package objects, and the labs' worker, whose
functions the worker's queue may still be pickling by name while the library reloads (a
fresh copy of the module would make them unpicklable, and the queue's thread would format
that error while the build parses the library: CPython 3.11's shared AST state then broke
the build's parse, gh-106905)."""


def page_locale(src_uri: str, default: str = "en") -> str:
    """``why.fa.md`` -> ``fa``; a file without a language suffix is in the default language."""
    parts = Path(src_uri).name.split(".")
    return parts[-2] if len(parts) >= 3 and len(parts[-2]) == 2 else default


_EXEC_FENCE = re.compile(
    r"^\s*(`{3,}|~{3,})\s*(?:python|py|pycon|console|sh|bash)\b(?P<options>.*)$")
_EXECUTED = re.compile(r"""\bexec=["']?(?:on|true|yes|1)\b""")


def label_exec_blocks(markdown: str, *, where: str, first_line: int = 1) -> str:
    """Give every executed fence without an ``id`` the id ``where:LINE`` (its line in the
    source file, ``first_line`` being the line of the markdown's first line)."""
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        found = _EXEC_FENCE.match(line)
        if found and _EXECUTED.search(found["options"]) and "id=" not in found["options"]:
            lines[i] = f'{line} id="{where}:{first_line + i}"'
    return "\n".join(lines)


def _first_line(page, markdown: str) -> int:
    """The source line where ``markdown`` starts (after any front matter)."""
    try:
        source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    except (OSError, TypeError):
        return 1
    head = source[: len(source) - len(markdown)] if source.endswith(markdown) else ""
    return head.count("\n") + 1


def _lab_sources(config) -> Path:
    """The labs' single sources: ``labs/`` beside mkdocs.yml."""
    return Path(config.config_file_path).parent / labs.LAB_DIR


def _source_stamp() -> tuple[tuple[str, int], ...]:
    return tuple(sorted(
        (str(path), path.stat().st_mtime_ns) for path in PACKAGE_DIR.rglob("*.py")))


def _languages(config) -> tuple[str, list[str]]:
    """The default language and every built one, from mkdocs-static-i18n's settings."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return "en", ["en"]
    built = [lang for lang in i18n.config.languages if lang.build]
    default = next((lang.locale for lang in built if lang.default), built[0].locale)
    return default, [lang.locale for lang in built]


def _current_language(config) -> str:
    """The language being built (mkdocs-static-i18n builds one after the other)."""
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or _languages(config)[0]


class _LazyFigures(Mapping):
    """The figure registry, computed (or read from the cache) when a page first names a
    figure: a site whose pages name none (a probe site, a test's) never computes it."""

    def __init__(self, load: Callable[[], Mapping]) -> None:
        self._load, self._loaded = load, None

    def _registry(self) -> Mapping:
        if self._loaded is None:
            self._loaded = self._load()
        return self._loaded

    def __getitem__(self, name: str):
        return self._registry()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry())

    def __len__(self) -> int:
        return len(self._registry())

    def __contains__(self, name: object) -> bool:
        return name in self._registry()


class DistlessonPlugin(BasePlugin):
    # Folders (beside mkdocs.yml) whose Python sources the cache keys on besides the
    # package's own: a site whose blocks import another library of its own names it here.
    config_scheme = (("cache_sources", config_options.ListOfItems(
        config_options.Type(str), default=[])),)

    def __init__(self) -> None:
        super().__init__()
        self._stamp: tuple[tuple[str, int], ...] | None = None
        self._notebook_css = ""
        self._serving = False
        self._cache: build_cache.BuildCache | None = None
        self._figures = None
        self._pages_404: dict[str, str] = {}
        self._chapters: dict[str, int] = {}
        self._prerun = None  # the labs' worker, from the first language's on_pre_build

    def on_startup(self, *, command, dirty) -> None:
        # Defining on_startup also keeps this instance across the rebuilds of mkdocs serve,
        # which the library reload (self._stamp) and the labs' reuse rely on.
        self._serving = command == "serve"

    def on_config(self, config):
        if not getattr(config, "repo_url", None):  # no repository known: no edit links
            config.edit_uri = None  # (rather than links mkdocs serve refuses in strict mode)
        # The labs run in the kernel spec jupyter/kernels/distlesson-quiet: plain ipykernel
        # with its log at ERROR, so a build does not print ipykernel's warning about TCP on
        # the loopback for every notebook (not the author's to act on).
        kernels = str(PACKAGE_DIR / "site" / "jupyter")
        paths = os.environ.get("JUPYTER_PATH", "")
        if kernels not in paths.split(os.pathsep):
            os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (kernels, paths) if p)
        i18n = config.plugins.get("i18n")
        locales = [language.locale for language in i18n.config.languages] if i18n else ["en"]
        try:
            lab_sources.write_labs(_lab_sources(config), Path(config.docs_dir) / labs.LAB_DIR,
                                   locales)
        except lab_sources.LabSourceError as error:
            raise PluginError(str(error)) from None
        # numbered from the nav as written, so reordering it renumbers the chapters
        self._chapters = chapters.chapter_numbers(config.nav)
        return config

    def on_serve(self, server, config, builder):
        server.watch(str(PACKAGE_DIR))
        if _lab_sources(config).is_dir():
            server.watch(str(_lab_sources(config)))
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
        if self._stamp != stamp or self._figures is None:
            self._open_cache(config)
        self._stamp = stamp
        if self._cache is not None and self._prerun is None:
            self._prerun = lab_prerun.start(self._cache, self._lab_notebooks(config),
                                            self._jupyter_config(config))

    @staticmethod
    def _jupyter_config(config) -> dict:
        jupyter = config.plugins.get("mkdocs-jupyter")
        return dict(jupyter.config) if jupyter is not None else {}

    def _lab_notebooks(self, config) -> list[tuple[Path, str]]:
        """(notebook, cache key) of every lab of the languages built, in the order the
        build meets them: language by language, the nav's order within one."""
        jupyter = self._jupyter_config(config)
        if not jupyter.get("execute"):
            return []
        options = repr(sorted(jupyter.items()))
        default, locales = _languages(config)
        order = [default, *(lo for lo in locales if lo != default)]
        docs = Path(config.docs_dir)
        found = []
        for locale in order:
            for name in labs.nav_lab_names(config.nav):
                notebook = docs / labs.LAB_DIR / f"{name}.{locale}.py"
                if notebook.is_file():
                    found.append((notebook, labs.lab_key(self._cache, notebook, options)))
        return found

    def _open_cache(self, config) -> None:
        """The cache of the library as it is now, and the figure registry read from it."""
        project = Path(config.config_file_path).parent
        sources = [PACKAGE_DIR, *(project / name for name in self.config["cache_sources"])]
        self._cache = build_cache.cache_from_env(project / ".cache" / "build", sources)
        exec_blocks.use_cache(self._cache)
        figures = importlib.import_module("distlesson.site.figures")
        figures.use_cache(self._cache)
        self._figures = _LazyFigures(figures.figure_registry)
        if self._cache is not None:
            self._cache.prune()

    @event_priority(-110)  # after mkdocs-static-i18n's on_files (-100)
    def on_files(self, files, config):
        if self._runs_engine_lab(files, config):
            importlib.import_module(ENGINE_LAB).start_lab_run(ENGINE_RUN_NICENESS)
        return labs.as_lab_pages(files, config)

    def _runs_engine_lab(self, files, config) -> bool:
        """Whether this build executes the engine lab's page: it is built, its blocks run,
        and the cache lacks the lab's figures for the library as it is (a cold build, or
        an edit to code the lab runs), so its blocks cannot be in the cache either."""
        if "markdown-exec" not in config.plugins or not any(
                f.src_uri.startswith(ENGINE_LAB_PAGE) for f in files):
            return False
        cache = self._cache
        figures = importlib.import_module("distlesson.site.figures")
        return cache is None or not cache.has("figures", figures.figures_key(cache, ENGINE_LAB))

    @event_priority(-50)  # after mkdocs-jupyter's on_pre_page, which set page.render
    def on_pre_page(self, page, config, files):
        if labs.is_lab(page.file.src_uri) and hasattr(page, "render"):
            labs.report_failures(page, sources=_lab_sources(config))
        if self._cache is not None and labs.is_lab(page.file.src_uri):
            jupyter = config.plugins.get("mkdocs-jupyter")
            options = repr(sorted(jupyter.config.items())) if jupyter is not None else ""
            labs.reuse_rendering(page, self._cache, options=options, prerun=self._prerun)
        return page

    def on_page_content(self, html, page, config, files):
        locale = page_locale(page.file.src_uri)
        html = chrome.localise_chrome(html, locale)
        if labs.is_lab(page.file.src_uri):
            html = lab_headings.unicode_heading_ids(html, page.toc)
            html, self._notebook_css = labs.dress_lab_page(
                html, src_uri=page.file.src_uri, page_url=page.url, locale=locale)
        elif "markdown-exec" in config.plugins:  # without it (the benchmark's floor) no plots
            captions = importlib.import_module("distlesson.site.captions")
            try:
                html = captions.wrap_figures(html, where=f"docs/{page.file.src_uri}")
            except captions.FigureError as error:
                raise PluginError(str(error)) from None
        if locale == "ca":  # «de 11,1» -> «d'11,1», wherever a template put the number
            html = catalan.elide_html(html)
        elif locale == "fa":  # "all-reduce" not broken at its hyphen in a right-to-left line
            html = html_text.keep_compounds_whole(html)
            # «H100 ۸۰»: a Persian number after a Latin word would join its left-to-right run
            html = html_text.mark_numbers_after_latin(html)
        return html

    def on_post_page(self, output, page, config):
        # The theme's own strings (the code-copy tooltip in the page's config JSON) are
        # outside the page content that on_page_content sees.
        return chrome.localise_chrome(output, page_locale(page.file.src_uri))

    def on_post_template(self, output_content, template_name, config):
        if template_name == "404.html":  # kept per language: the next build overwrites it
            self._pages_404[_current_language(config)] = output_content
        return output_content

    # After mkdocs-static-i18n's on_post_build (-100), which builds the other languages
    # into the same site_dir and then writes one search index for all of them.
    @event_priority(-110)
    def on_post_build(self, config) -> None:
        if self._cache is not None:
            log.info("build cache: %d computations reused, %d run",
                     self._cache.hits, self._cache.misses)
        site_dir = Path(config.site_dir)
        default, locales = _languages(config)
        chrome.write_404_pages(site_dir, self._pages_404, default)
        if self._notebook_css:  # the same for every lab: written once per language build
            target = site_dir / labs.NOTEBOOK_CSS
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self._notebook_css, encoding="utf-8")
        i18n = config.plugins.get("i18n")
        if len(locales) > 1 and not getattr(i18n, "building", True):  # all languages built
            counts = chrome.split_search_index(site_dir, locales, default)
            log.info("search index per language: %s", counts)
        if len(locales) == 1 or not getattr(i18n, "building", True):
            self._close_prerun()

    def on_build_error(self, error) -> None:
        self._close_prerun()

    def _close_prerun(self) -> None:
        if self._prerun is not None:
            self._prerun.close()
            self._prerun = None

    def on_page_markdown(self, markdown, page, config, files):
        if labs.is_lab(page.file.src_uri):
            return markdown  # a notebook's source: mkdocs-jupyter renders it, not Markdown
        captions = importlib.import_module("distlesson.site.captions")
        placeholders = importlib.import_module("distlesson.site.placeholders")
        locale = page_locale(page.file.src_uri)
        where = f"docs/{page.file.src_uri}"
        markdown = self._chapter_chrome(markdown, page, config, locale)
        markdown = label_exec_blocks(markdown, where=where,
                                     first_line=_first_line(page, markdown))
        try:
            markdown = captions.number_figures(markdown, locale, where=where)
            return placeholders.resolve_placeholders(
                markdown, locale, self._figures, where=where)
        except (placeholders.UnknownFigureError, captions.FigureError) as error:
            raise PluginError(str(error)) from None

    def _chapter_chrome(self, markdown, page, config, locale: str):
        """A chapter's number in its H1, and the report link where the repository is known
        (``overrides/partials/actions.html`` shows it beside Material's edit link)."""
        if config.repo_url:
            page.meta["report_url"] = chapters.report_url(config.repo_url, page.file.src_uri)
            page.meta["report_label"] = chapters.REPORT_LABEL.get(
                locale, chapters.REPORT_LABEL["en"])
        # pipeline.ca.md -> pipeline.md, the name the nav uses
        name = page.file.src_uri.removesuffix(f".{locale}.md").removesuffix(".md") + ".md"
        number = self._chapters.get(name)
        return markdown if number is None else chapters.number_heading(markdown, number, locale)
