"""The labs' sources and the machinery that makes them pages: every lab in every language,
the same code in each but for its LOCALE line, no typed number in a markdown cell, run
fresh at every build, and turned back into pages after the i18n plugin."""

from __future__ import annotations

import functools
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files

from distlesson.site.build_cache import BuildCache
from distlesson.site.labs import (
    LabFile,
    as_lab_pages,
    dress_lab_page,
    is_lab,
    lab_cells,
    reuse_rendering,
)
from distlesson.site.plugin import DistlessonPlugin
from tests.pages import DOCS, LOCALES, ROOT, lab_names, lab_path, nav_labs

LABS = lab_names()


@functools.cache
def _config():
    """mkdocs.yml as the build loads it: plugins resolved, defaults filled in."""
    return load_config(str(ROOT / "mkdocs.yml"))


def test_there_are_labs_and_the_nav_lists_each_once():
    assert LABS, "no lab under docs/labs/"
    assert sorted(nav_labs()) == LABS
    assert len(nav_labs()) == len(set(nav_labs()))


@pytest.mark.parametrize("name", LABS)
def test_lab_exists_in_every_language(name):
    missing = [locale for locale in LOCALES if not lab_path(name, locale).exists()]
    assert not missing, f"docs/{name}: no version in {missing}"


@pytest.mark.parametrize("name", LABS)
@pytest.mark.parametrize("locale", LOCALES)
def test_lab_sets_its_own_locale_once(name, locale):
    cells = lab_cells(lab_path(name, locale))
    assert cells.locale_lines == 1, f"{name}.{locale}.py: {cells.locale_lines} LOCALE lines"
    assert cells.locale == locale


@pytest.mark.parametrize("name", LABS)
@pytest.mark.parametrize("locale", ["ca", "fa"])
def test_translation_runs_the_same_code(name, locale):
    english = lab_cells(lab_path(name, "en")).code
    other = lab_cells(lab_path(name, locale)).code
    assert len(other) == len(english), f"{name}.{locale}.py: {len(other)} code cells"
    for i, (mine, theirs) in enumerate(zip(english, other, strict=True)):
        assert mine == theirs, f"{name}.{locale}.py: code cell {i} differs from English"


@pytest.mark.parametrize("name", LABS)
@pytest.mark.parametrize("locale", LOCALES)
def test_no_typed_number_in_markdown_cells(name, locale):
    cells = lab_cells(lab_path(name, locale))
    assert cells.markdown, f"{name}.{locale}.py has no prose"
    found = cells.typed_numbers()
    assert not found, f"{name}.{locale}.py:\n" + "\n".join(
        f"markdown cell {i}, {number}" for i, number in found)


_LAB = """# %% [markdown]
# # A lab
#
# {prose}

# %%
LOCALE = "{locale}"

# %%
print({code})
"""


def test_checks_catch_a_typed_number_and_a_drifted_cell(tmp_path):
    planted = tmp_path / "x.en.py"
    planted.write_text(_LAB.format(prose="It needs 16 GPUs.", locale="en", code="1"))
    assert [n.text for _, n in lab_cells(planted).typed_numbers()] == ["16"]
    drifted = tmp_path / "x.ca.py"
    drifted.write_text(_LAB.format(prose="Cal GPU.", locale="ca", code="2"))
    assert lab_cells(planted).code[0] == lab_cells(drifted).code[0]  # LOCALE normalised
    assert lab_cells(planted).code[1] != lab_cells(drifted).code[1]


def test_the_build_runs_every_lab_fresh_and_fails_on_an_error():
    config = _config()
    jupyter = config.plugins["mkdocs-jupyter"].config
    assert jupyter["execute"] is True and jupyter["execute_ignore"] == []
    assert jupyter["allow_errors"] is False  # a failing assert in a cell fails the build
    assert jupyter["cache"] is False  # its cache is keyed on the notebook's bytes only
    assert jupyter["include_source"] is True
    for name in LABS:
        for locale in LOCALES:
            src = f"{name}.{locale}.py"
            assert is_lab(src)
            assert not config.exclude_docs.match_file(src), f"exclude_docs drops {src}"
            assert any(Path(str(DOCS / src)).match(p) for p in jupyter["include"]), src


def test_labs_become_pages_after_the_i18n_plugin():
    events = _config().plugins.events["files"]
    owners = [type(getattr(handler, "__self__", None)).__module__ for handler in events]
    i18n = next(i for i, o in enumerate(owners) if o.startswith("mkdocs_static_i18n"))
    ours = next(i for i, o in enumerate(owners) if o == "distlesson.site.plugin")
    assert ours > i18n, f"on_files order: {owners}"


def _fake_config(current: str) -> SimpleNamespace:
    i18n = SimpleNamespace(default_language="en", current_language=current,
                           build_languages=list(LOCALES), i18n_files_per_language={})
    return SimpleNamespace(plugins={"i18n": i18n}, docs_dir=str(DOCS), site_dir="/tmp/site",
                           use_directory_urls=True)


@pytest.mark.parametrize(("current", "url"), [("en", "labs/memory/"),
                                               ("ca", "ca/labs/memory/"),
                                               ("fa", "fa/labs/memory/")])
def test_a_lab_gets_its_language_address_and_alternates(current, url):
    config = _fake_config(current)
    static = File(f"labs/memory.{current}.py", str(DOCS), "/tmp/site", True)
    chapter = File(f"pipeline.{current}.md", str(DOCS), "/tmp/site", True)
    files = as_lab_pages(Files([static, chapter]), config)
    lab = files.get_file_from_path(f"labs/memory.{current}.py")
    assert isinstance(lab, LabFile) and lab.is_documentation_page()
    assert lab.url == url and lab.dest_uri == f"{url}index.html"
    assert {k: f.url for k, f in lab.alternates.items()} == {
        "en": "labs/memory/", "ca": "ca/labs/memory/", "fa": "fa/labs/memory/"}
    assert files.get_file_from_path(f"pipeline.{current}.md") is chapter  # untouched
    assert config.plugins["i18n"].i18n_files_per_language[current] == [lab]  # sitemap


def test_a_rendered_lab_is_dressed_for_the_site():
    html = ('<!-- Load mathjax -->\n'
            '<script src="https://cdnjs.cloudflare.com/mathjax.js"> </script>\n'
            '<!-- MathJax configuration -->\n<script type="text/x-mathjax-config">a</script>'
            '<script type="module">const m = (await import("https://cdn/m.mjs")).default;'
            '</script><style type="text/css">.jp { color: red }</style>'
            '<div class="jupyter-wrapper">cells</div>')
    page, css = dress_lab_page(html, src_uri="labs/memory.fa.py", page_url="fa/labs/memory/",
                               locale="fa")
    assert "mathjax" not in page.lower() and "m.mjs" not in page
    assert css == ".jp { color: red }" and "<style" not in page
    assert '<link rel="stylesheet" href="../../../assets/labs/notebook.css">' in page
    assert '<link rel="stylesheet" href="../../../assets/labs.css">' in page
    assert '<a href="memory.fa.py" download' in page
    assert page.endswith('<div class="jupyter-wrapper">cells</div>')


def test_a_lab_runs_again_only_when_it_the_library_or_the_options_changed(tmp_path):
    lab = tmp_path / "memory.en.py"
    lab.write_text("print(1)\n")
    page = SimpleNamespace(file=SimpleNamespace(abs_src_path=str(lab)), content=None, toc=None)
    runs = []

    def execute(config, files):  # stands for mkdocs-jupyter's render: runs the notebook
        runs.append(1)
        page.content, page.toc = f"run {len(runs)}", []

    def rebuild(fingerprint, options="execute: true"):
        page.render = execute
        cache = BuildCache(tmp_path / "cache", fingerprint * 64)  # stands for the library
        reuse_rendering(page, cache, options=options)
        page.content = None
        page.render(None, None)
        return page.content

    assert rebuild("a") == "run 1"
    assert rebuild("a") == "run 1" and len(runs) == 1  # a chapter was edited, or a new build
    lab.write_text("print(2)\n")
    assert rebuild("a") == "run 2"  # the lab was edited
    assert rebuild("b") == "run 3"  # the library was edited
    assert rebuild("b", options="execute: false") == "run 4"  # mkdocs-jupyter's options


@pytest.mark.parametrize(("cache", "runs_expected"), [("on", 1), ("off", 2)])
def test_the_plugin_reuses_lab_renderings_through_the_build_cache(tmp_path, cache,
                                                                   runs_expected):
    plugin = DistlessonPlugin()
    plugin.on_startup(command="build", dirty=False)
    plugin._cache = BuildCache(tmp_path, "f" * 64) if cache == "on" else None
    runs = []

    def execute(config, files):
        runs.append(1)
        page.content, page.toc = "out", []

    page = SimpleNamespace(file=SimpleNamespace(src_uri="labs/memory.en.py",
                                                abs_src_path=str(lab_path("labs/memory", "en"))),
                           render=execute)
    config = SimpleNamespace(plugins={}, config_file_path=str(ROOT / "mkdocs.yml"))
    plugin.on_pre_page(page, config=config, files=None)
    page.render(config, None)
    page.render(config, None)  # a rebuild with nothing changed
    assert len(runs) == runs_expected
