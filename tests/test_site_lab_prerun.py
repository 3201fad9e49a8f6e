"""The labs' worker: what it stores is what the page would render, and a failing lab is left
to the page (distlesson.site.lab_prerun)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from distlesson.site import lab_prerun, labs
from distlesson.site.build_cache import BuildCache
from distlesson.site.plugin import PACKAGE_DIR

JUPYTER = {"execute": True, "execute_ignore": [], "kernel_name": "distlesson-quiet",
           "theme": "", "allow_errors": False, "show_input": True, "no_input": False,
           "no_prompt": True, "remove_tag_config": {}, "highlight_extra_classes": "",
           "include_requirejs": False, "custom_mathjax_url": "", "toc_depth": 6,
           "cache": False}
GOOD = '# %% [markdown]\n# ## A heading\n\n# %%\nprint(6 * 7)\n'
FAILING = '# %% [markdown]\n# ## A heading\n\n# %%\nassert 6 * 7 == 41, "no"\n'


@pytest.fixture(autouse=True)
def quiet_kernel(monkeypatch):
    monkeypatch.setenv("JUPYTER_PATH", str(PACKAGE_DIR / "site" / "jupyter"))


def test_the_options_are_mkdocs_jupyters():
    options = lab_prerun.render_options(JUPYTER, Path("docs/labs/memory.en.py"))
    assert options == {"execute": True, "kernel_name": "distlesson-quiet", "theme": "",
                       "allow_errors": False, "show_input": True, "no_input": False,
                       "no_prompt": True, "remove_tag_config": {},
                       "highlight_extra_classes": "", "include_requirejs": False,
                       "custom_mathjax_url": ""}
    ignored = dict(JUPYTER, execute_ignore=["labs/memory.*.py"])
    assert lab_prerun.render_options(ignored, Path("docs/labs/memory.en.py"))["execute"] is False


def test_the_worker_stores_what_the_page_would_render(tmp_path):
    from mkdocs.structure.toc import get_toc
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    good, failing = tmp_path / "good.en.py", tmp_path / "failing.en.py"
    good.write_text(GOOD, encoding="utf-8")
    failing.write_text(FAILING, encoding="utf-8")
    cache = BuildCache(tmp_path / "cache", "f" * 64)
    keys = {path: labs.lab_key(cache, path, "options") for path in (good, failing)}
    prerun = lab_prerun.start(cache, list(keys.items()), JUPYTER)
    try:
        for key in keys.values():
            prerun.wait(key, timeout=600)
    finally:
        prerun.close()
    assert not cache.has("lab", keys[failing])  # the page runs it and reports the cell
    body, toc = cache.get("lab", keys[good])
    with labs.reproducible_rendering():  # as the page renders it (labs.report_failures)
        expected = convert.nb2html(str(good), **lab_prerun.render_options(JUPYTER, good))
    assert body == expected and "42" in body
    assert [item.title for item in toc] == [item.title for item in get_toc(
        _get_nb_toc_tokens(str(good), 6)[0])] == ["A heading"]


def test_nothing_runs_when_the_cache_has_every_lab(tmp_path):
    notebook = tmp_path / "good.en.py"
    notebook.write_text(GOOD, encoding="utf-8")
    cache = BuildCache(tmp_path / "cache", "f" * 64)
    key = labs.lab_key(cache, notebook, "options")
    cache.put("lab", key, ("<p>kept</p>", []))
    prerun = lab_prerun.start(cache, [(notebook, key)], JUPYTER)
    assert prerun.executor is None and not prerun.pending
    prerun.wait(key)  # a key it was not given: returns at once
    assert cache.get("lab", key) == ("<p>kept</p>", [])
    assert os.environ["JUPYTER_PATH"].endswith("jupyter")
