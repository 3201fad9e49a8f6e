"""The labs' worker: what it stores is what the page would render, and a failing lab is left
to the page (distlesson.site.lab_prerun)."""

from __future__ import annotations

import concurrent.futures
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from distlesson.site import lab_prerun, labs
from distlesson.site.build_cache import BuildCache
from distlesson.site.plugin import PACKAGE_DIR, DistlessonPlugin

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


_KILLED_BUILD = """
import json, sys, time
from pathlib import Path
from distlesson.site import lab_prerun, labs
from distlesson.site.build_cache import BuildCache
cache = BuildCache(Path(sys.argv[1]) / "cache", "")
notebook = Path(sys.argv[1]) / "good.en.py"
prerun = lab_prerun.start(cache, [(notebook, "k")], json.loads(sys.argv[2]))
prerun.wait("k", timeout=600)
print(*prerun.executor._processes, flush=True)  # the worker, idle now, as a build's would be
time.sleep(600)
"""


def test_the_worker_of_a_killed_build_exits(tmp_path):
    # mkdocs serve stopped by a signal never shuts its executor down: the worker must not
    # outlive it, waiting for work forever
    (tmp_path / "good.en.py").write_text(GOOD, encoding="utf-8")
    build = subprocess.Popen([sys.executable, "-c", _KILLED_BUILD, str(tmp_path),
                              json.dumps(JUPYTER)], stdout=subprocess.PIPE, text=True)
    worker = int(build.stdout.readline())
    assert os.getpgid(worker)  # alive
    assert os.getpriority(os.PRIO_PROCESS, worker) >= lab_prerun.BACKGROUND_NICENESS
    build.send_signal(signal.SIGKILL)
    build.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError(f"the worker {worker} outlived its build by 10 s")


def test_the_worker_starts_after_serve_reloads_the_library(tmp_path, monkeypatch):
    # After an edit to the library, mkdocs serve's next build drops the library's modules
    # and imports them anew; the worker's functions are pickled by name, so they must come
    # from the fresh module (from the copy the plugin imported first, the spawn failed:
    # "it's not the same object as distlesson.site.lab_prerun._in_background")
    (tmp_path / "docs" / "labs").mkdir(parents=True)
    (tmp_path / "docs" / "labs" / "good.en.py").write_text(GOOD, encoding="utf-8")
    monkeypatch.setenv("DISTLESSON_BUILD_CACHE", str(tmp_path / "cache"))
    config = SimpleNamespace(
        config_file_path=str(tmp_path / "mkdocs.yml"), docs_dir=str(tmp_path / "docs"),
        nav=["labs/good.py"], plugins={"mkdocs-jupyter": SimpleNamespace(config=JUPYTER)})
    plugin = DistlessonPlugin()
    plugin.load_config({})
    plugin.on_startup(command="serve", dirty=False)
    plugin.on_pre_build(config)
    first = list(plugin._prerun.pending.values())
    worker_module = sys.modules["distlesson.site.lab_prerun"]
    plugin._close_prerun()
    plugin._cache.directory.joinpath("lab").mkdir(parents=True, exist_ok=True)
    for entry in plugin._cache.directory.glob("lab/*"):
        entry.unlink()  # the lab must run again
    plugin._stamp = (("edited", 0),)  # as if a module of the library had changed
    plugin.on_pre_build(config)  # reloads the library, then starts the worker
    try:
        # the closed worker's queue may still pickle its work by name after the reload:
        # the module is kept, so that never fails (it failed, and the queue's thread then
        # formatted the error while the build parsed the library: CPython gh-106905)
        assert sys.modules["distlesson.site.lab_prerun"] is worker_module
        concurrent.futures.wait(first, timeout=60)
        assert not [f for f in first if f.done() and not f.cancelled()
                    and isinstance(f.exception(), pickle.PicklingError)]
        assert plugin._prerun.executor is not None and plugin._prerun.pending
        for future in list(plugin._prerun.pending.values()):
            assert future.result(timeout=600) is True  # rendered and stored by the worker
    finally:
        plugin._close_prerun()
