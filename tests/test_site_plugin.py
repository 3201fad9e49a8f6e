"""The plugin: page language from the file name, and a fresh library after an edit."""

import importlib
import sys

import pytest

from distlesson.site import plugin as plugin_module
from distlesson.site.figures import figure_registry
from distlesson.site.plugin import DistlessonPlugin, page_locale


@pytest.mark.parametrize(
    ("src", "locale"),
    [("why-it-does-not-fit.fa.md", "fa"), ("labs/intro.ca.md", "ca"), ("index.en.md", "en"),
     ("index.md", "en")],
)
def test_page_locale(src, locale):
    assert page_locale(src) == locale


def test_an_edit_to_the_library_reloads_it_and_nothing_else_does(monkeypatch):
    importlib.import_module("distlesson.pages.fit")
    plugin = DistlessonPlugin()
    stamps = iter([("a",), ("a",), ("b",)])
    monkeypatch.setattr(plugin_module, "_source_stamp", lambda: next(stamps))
    opened = []  # the build cache is opened again for each new library (its own tests)


    def open_cache(config) -> None:
        opened.append(config)
        plugin._figures = {}

    monkeypatch.setattr(plugin, "_open_cache", open_cache)
    plugin.on_pre_build(config=None)  # first build: nothing to drop
    plugin.on_pre_build(config=None)  # the next language, same sources: modules kept
    assert "distlesson.pages.fit" in sys.modules
    plugin.on_pre_build(config=None)  # an author saved a file: modules dropped
    assert len(opened) == 2  # at the first build and after the edit, not for each language
    assert "distlesson.pages.fit" not in sys.modules
    assert "distlesson.site.plugin" in sys.modules  # the plugin itself stays loaded
    importlib.import_module("distlesson.pages.fit")
    # the package's names are the fresh modules' objects: no old class meets a new one
    import distlesson
    models = importlib.import_module("distlesson.catalog.models")
    assert distlesson.get_model is models.get_model
    assert isinstance(distlesson.get_model("llama3-8b"), models.Architecture)


def test_figures_are_computed_once_per_process():
    assert figure_registry() is figure_registry()


def test_a_cold_build_starts_the_engine_run_early_and_a_warm_one_does_not(tmp_path):
    from types import SimpleNamespace

    from distlesson.site.build_cache import BuildCache
    from distlesson.site.plugin import DistlessonPlugin

    plugin = DistlessonPlugin()
    plugin._cache = BuildCache(tmp_path, "f" * 64)
    executing = SimpleNamespace(plugins={"markdown-exec": object()})
    engine = [SimpleNamespace(src_uri="lab-engine.ca.md")]
    assert plugin._runs_engine_lab(engine, executing)  # empty cache: its blocks will run
    assert not plugin._runs_engine_lab([SimpleNamespace(src_uri="mfu.ca.md")], executing)
    assert not plugin._runs_engine_lab(engine, SimpleNamespace(plugins={}))  # nothing runs
    from distlesson.site.figures import figures_key

    plugin._cache.put("figures", figures_key(plugin._cache, "distlesson.pages.engine_lab"), ())
    assert not plugin._runs_engine_lab(engine, executing)  # the lab's code built before
    plugin._cache = None  # DISTLESSON_BUILD_CACHE=off: every block runs
    assert plugin._runs_engine_lab(engine, executing)
