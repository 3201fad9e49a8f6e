"""The labs as pages: the notebooks ``docs/labs/NAME.LOCALE.py`` that mkdocs-jupyter runs.

The notebooks are written from each lab's single source (:mod:`distlesson.site.lab_sources`).

Two jobs, for the plugin and for the tests:

- **Pages.** mkdocs-static-i18n rebuilds every file as a plain ``File`` after the other
  plugins' ``on_files`` (its handler runs at priority -100), so mkdocs-jupyter's wrapper is
  lost and a ``.py`` notebook becomes a static file, served as a download
  (ultrabug/mkdocs-static-i18n#198). :func:`as_lab_pages` runs after it and turns each lab
  back into a documentation page at its language's address (``ca/labs/memory/``), with the
  addresses of its other languages, which Material's language switcher and the sitemap read.
- **Checks.** A lab's markdown cells are prose (no typed number, as on every page); its code
  cells are the same in every language but for one ``LOCALE = "xx"`` line and the language
  of their comments.
"""

from __future__ import annotations

import contextlib
import itertools
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mkdocs.structure.files import File, Files

from distlesson.site.build_cache import BuildCache
from distlesson.site.prose_lint import TypedNumber, typed_numbers

__all__ = [
    "LABS_CSS",
    "LAB_DIR",
    "NOTEBOOK_CSS",
    "LabCells",
    "LabFile",
    "as_lab_pages",
    "dress_lab_page",
    "is_lab",
    "lab_cells",
    "lab_failure",
    "lab_key",
    "nav_lab_names",
    "report_failures",
    "reproducible_rendering",
    "reuse_rendering",
]

LAB_DIR = "labs"
"""The labs' folder: sources in ``labs/NAME.py`` beside mkdocs.yml, notebooks in
``docs/labs/NAME.LOCALE.py``."""
_LAB = re.compile(rf"^{LAB_DIR}/[a-z0-9-]+\.(?P<locale>[a-z]{{2}})\.py$")
_LAB_SUFFIX = re.compile(r"\.[a-z]{2}\.py$")
_LOCALE_LINE = re.compile(r"""^LOCALE\s*=\s*["'](?P<locale>[a-z]{2})["']\s*$""", re.MULTILINE)


def nav_lab_names(nav) -> list[str]:
    """The labs' names (``memory``...) in the order the nav lists them (``labs/NAME.py``)."""
    names: list[str] = []

    def walk(entry) -> None:
        if isinstance(entry, str):
            found = re.fullmatch(rf"{LAB_DIR}/([a-z0-9-]+)\.py", entry)
            if found:
                names.append(found.group(1))
        elif isinstance(entry, dict):
            for value in entry.values():
                walk(value)
        elif isinstance(entry, list):
            for item in entry:
                walk(item)

    walk(nav or [])
    return names


def is_lab(src_uri: str) -> bool:
    """``labs/memory.ca.py`` is a lab; any other file is not."""
    return _LAB.match(src_uri) is not None


class LabFile(File):
    """A lab notebook as a documentation page (mkdocs-jupyter replaces its rendering)."""

    def is_documentation_page(self) -> bool:
        return True


def _lab_file(src_path: str, docs_dir: str, site_dir: str, locale: str, default: str,
              use_directory_urls: bool) -> LabFile:
    """``labs/memory.ca.py`` -> a page at ``ca/labs/memory/index.html`` (no prefix for the
    default language), named ``memory`` like the i18n plugin names its pages."""
    src = PurePosixPath(Path(src_path).as_posix())
    stem = src.name.split(".")[0]
    folder = posixpath.join(*(p for p in ("" if locale == default else locale,
                                          str(src.parent)) if p))
    dest = (posixpath.join(folder, stem, "index.html") if use_directory_urls
            else posixpath.join(folder, f"{stem}.html"))
    lab = LabFile(src_path, docs_dir, site_dir, use_directory_urls, dest_uri=dest)
    lab.name = stem
    lab.locale = lab.localization = lab.locale_alternate_of = locale
    lab.norm_src_uri = f"{src.parent}/{stem}.py"
    return lab


def as_lab_pages(files: Files, config) -> Files:
    """Replace each lab that ``files`` holds as a static file by a :class:`LabFile` page.

    Runs after mkdocs-static-i18n's ``on_files``: ``files`` holds the current language's
    version of each lab. Its ``alternates`` point at the lab in every built language.
    """
    i18n = config.plugins.get("i18n")
    default = i18n.default_language if i18n else "en"
    current = i18n.current_language if i18n else default
    locales = i18n.build_languages if i18n else [default]
    docs = Path(config.docs_dir)

    def page(src_path: str, locale: str) -> LabFile:
        return _lab_file(src_path, config.docs_dir, config.site_dir, locale, default,
                         config.use_directory_urls)

    for file in list(files):
        if not is_lab(file.src_uri) or isinstance(file, LabFile):
            continue
        files.remove(file)
        lab = page(file.src_path, current)
        lab.inclusion = file.inclusion
        lab.alternates = {}
        for locale in locales:
            other = _LAB_SUFFIX.sub(f".{locale}.py", file.src_uri)
            if (docs / other).exists():
                lab.alternates[locale] = lab if locale == current else page(other, locale)
        files.append(lab)
        if i18n is not None:  # the sitemap lists the pages the i18n plugin recorded
            i18n.i18n_files_per_language.setdefault(current, []).append(lab)
    return files


_REMOTE_SCRIPTS = re.compile(
    r"<!-- Load mathjax -->.*?</script>\s*<!-- MathJax configuration -->"
    r"\s*<script type=\"text/x-mathjax-config\">.*?</script>"
    r"|<script type=\"module\">(?:(?!</script>).)*?import\(\"https?://.*?</script>",
    re.DOTALL,
)
_INLINE_CSS = re.compile(r'<style type="text/css">(.*?)</style>', re.DOTALL)
NOTEBOOK_CSS = "assets/labs/notebook.css"
"""Where the build writes the notebooks' stylesheet, once for all the labs."""
LABS_CSS = "assets/labs.css"
"""The site's own rules for the labs (docs/assets/labs.css)."""
_DOWNLOAD = {"en": "Download this notebook", "ca": "Baixa aquest quadern",
             "fa": "دریافت این نوت‌بوک"}
_DOWNLOAD_ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" '
                  'aria-hidden="true"><path d="M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7 7-7z"/></svg>')


def dress_lab_page(html: str, *, src_uri: str, page_url: str, locale: str) -> tuple[str, str]:
    """A rendered lab made fit for the site: (the page's HTML, the stylesheet it needs).

    nbconvert's MathJax and Mermaid loaders (both from a CDN) are dropped: the site works
    offline, and the labs use neither maths markup nor Mermaid. The half-megabyte of CSS
    that mkdocs-jupyter inlines in every notebook is cut out and returned, to be written
    once to :data:`NOTEBOOK_CSS`; the page links to it and to :data:`LABS_CSS`, and gets a
    download button for its source, which mkdocs-jupyter copies next to the page
    (``include_source``).
    """
    from mkdocs.utils import get_relative_url

    html = _REMOTE_SCRIPTS.sub("", html)
    css = "\n".join(match.group(1).strip() for match in _INLINE_CSS.finditer(html))
    html = _INLINE_CSS.sub("", html)
    label = _DOWNLOAD.get(locale, _DOWNLOAD["en"])
    source = PurePosixPath(src_uri).name
    head = "".join(
        f'<link rel="stylesheet" href="{get_relative_url(sheet, page_url)}">'
        for sheet in (NOTEBOOK_CSS, LABS_CSS))
    button = (f'<a href="{source}" download class="md-content__button md-icon dl-lab-download" '
              f'title="{label}" aria-label="{label}">{_DOWNLOAD_ICON}</a>')
    return head + button + html, css


def lab_key(cache: BuildCache, notebook: Path, options: str) -> str:
    """The cache key of a lab's rendering: its notebook's bytes, mkdocs-jupyter's options
    and the library modules the notebook imports."""
    source = Path(notebook).read_bytes()
    return cache.key("lab", source, options, code=source.decode("utf-8", errors="replace"))


def reuse_rendering(page, cache: BuildCache, *, options: str, prerun=None) -> None:
    """Run a lab only when it, the library or mkdocs-jupyter's options changed.

    mkdocs-jupyter's own cache is off, since its key ignores the library. Ours
    (:mod:`distlesson.site.build_cache`) keys the rendered page (its HTML and table of
    contents) on the notebook's bytes, ``options`` and the library's source fingerprint, so
    an edit to either runs the lab afresh, and an unchanged lab is never run twice, across
    builds and ``mkdocs serve`` rebuilds alike. Wraps the ``page.render`` that mkdocs-jupyter
    installed; a failing notebook raises before anything is stored. With ``prerun``
    (:class:`distlesson.site.lab_prerun.LabPrerun`), the lab may already be running in the
    worker process: the page waits for its copy before looking in the cache.
    """
    key = lab_key(cache, Path(page.file.abs_src_path), options)
    render = page.render

    def render_unless_unchanged(config, files) -> None:
        if prerun is not None:
            prerun.wait(key)
        kept = cache.get("lab", key)
        if kept is not None:
            page.content, page.toc = kept
            return
        render(config, files)
        cache.put("lab", key, (page.content, page.toc))

    page.render = render_unless_unchanged


@dataclass(frozen=True)
class LabCells:
    """A lab's cells as the checks see them."""

    locale: str | None
    """The value of the ``LOCALE = "xx"`` line (None if there is none)."""
    locale_lines: int
    """How many ``LOCALE = ...`` lines the code cells hold (exactly one is allowed)."""
    code: tuple[str, ...]
    """Each code cell's source, the LOCALE line normalised to ``LOCALE = "xx"`` and its
    full-line comments left out (they are written in the notebook's language)."""
    markdown: tuple[str, ...]
    """Each markdown cell's source."""

    def typed_numbers(self) -> list[tuple[int, TypedNumber]]:
        """(markdown cell index, number) for every number typed in a markdown cell."""
        return [(i, found) for i, text in enumerate(self.markdown)
                for found in typed_numbers(text)]


def lab_cells(path: Path) -> LabCells:
    """Read a jupytext lab and split it into normalised code cells and markdown cells."""
    import jupytext  # a docs dependency (mkdocs-jupyter's), imported where it is needed

    notebook = jupytext.read(path)
    code, markdown, found = [], [], []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            found += _LOCALE_LINE.findall(cell.source)
            lines = _LOCALE_LINE.sub('LOCALE = "xx"', cell.source).split("\n")
            code.append("\n".join(line for line in lines if not line.lstrip().startswith("#")))
        elif cell.cell_type == "markdown":
            markdown.append(cell.source)
    return LabCells(found[0] if found else None, len(found), tuple(code), tuple(markdown))


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")
_RULE = "------------------"


def lab_failure(error: Exception, *, src_uri: str, sources: Path) -> str:
    """A lab's failing cell as an author wants it: the lab's source file and line, the error
    and its message (an assertion's compared values), the line itself; no colour codes, no
    pages of nbclient's traceback. ``error`` is nbclient's CellExecutionError."""
    ename, evalue = getattr(error, "ename", type(error).__name__), getattr(error, "evalue", "")
    text = _ANSI.sub("", str(error))
    cell = text.split(_RULE + "\n", 1)[-1].split("\n" + _RULE, 1)[0].split("\n")
    found = _CELL_LINE.search(text)
    line_in_cell = int(found.group(1)) if found else 1
    failing = cell[line_in_cell - 1] if 0 < line_in_cell <= len(cell) else ""
    name = PurePosixPath(src_uri).name.split(".")[0]
    source = sources / f"{name}.py"
    where, number = f"docs/{src_uri}", line_in_cell
    if source.exists():
        lines = source.read_text(encoding="utf-8").split("\n")
        first = next((c for c in cell if c.strip() and not c.lstrip().startswith("#")), "")
        start = next((i for i, s in enumerate(lines) if s == first), 0)
        hit = next((i for i in range(start, len(lines)) if lines[i] == failing), None)
        if hit is not None:
            where, number = f"{sources.name}/{name}.py", hit + 1
    return (f"{where}:{number}: {ename}: {evalue}\n    {failing.strip()}\n"
            f"(the notebook docs/{src_uri}, line {line_in_cell} of its cell)")


@contextlib.contextmanager
def reproducible_rendering():
    """Make a lab render the same bytes in every build, while it is read and run:

    * number its cells in order: nbformat gives each new cell a random id, which the
      rendered page shows;
    * merge each cell's consecutive stdout (and stderr) pieces into one output: the kernel
      sends what a cell prints in as many messages as its flushes happen to cut, more of
      them on a loaded machine, and each message would be a box of its own on the page.
      nbconvert's ``CoalesceStreamsPreprocessor`` does it, run after the execution, where
      mkdocs-jupyter runs its own ``SubCell`` preprocessor."""
    from mkdocs_jupyter import nbconvert2
    from nbconvert.preprocessors import CoalesceStreamsPreprocessor
    from nbformat.v4 import nbbase

    counter = itertools.count(1)
    random, slicer = nbbase.random_cell_id, nbconvert2.SubCell

    class SliceThenCoalesce(slicer):
        def preprocess(self, nb, resources):
            nb, resources = super().preprocess(nb, resources)
            return CoalesceStreamsPreprocessor().preprocess(nb, resources)

    nbbase.random_cell_id = lambda: f"cell-{next(counter)}"
    nbconvert2.SubCell = SliceThenCoalesce
    try:
        yield
    finally:
        nbbase.random_cell_id, nbconvert2.SubCell = random, slicer


def report_failures(page, *, sources: Path) -> None:
    """Wrap the lab's ``page.render`` so that a failing cell stops the build with
    :func:`lab_failure`'s few lines instead of nbclient's traceback (and the cells get
    stable ids and whole outputs, :func:`reproducible_rendering`)."""
    from mkdocs.exceptions import PluginError

    render = page.render

    def render_or_report(config, files) -> None:
        try:
            with reproducible_rendering():
                render(config, files)
        except Exception as error:
            if not hasattr(error, "ename"):
                raise
            raise PluginError(lab_failure(error, src_uri=page.file.src_uri,
                                          sources=sources)) from None

    page.render = render_or_report
