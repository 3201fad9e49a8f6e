"""The labs run beside the pages: a second process executes the notebooks the build cache
lacks while the main one renders the chapters.

A cold build spends much of its time in the labs' kernels, one notebook after the other,
while a second core idles. At the start of a build, :func:`start` hands every lab whose
rendering is not in the cache (:mod:`distlesson.site.build_cache`, under the key
:func:`distlesson.site.labs.reuse_rendering` reads) to one worker process, in the order the
build meets them. The worker renders each exactly as mkdocs-jupyter's page would
(``convert.nb2html`` with the plugin's options, the table of contents from the notebook's
headings, cell ids numbered in order) and stores it. When the build reaches a lab it waits
for the worker's copy; if the worker failed (a cell raised), the page renders the lab itself
and reports the failing cell as always. Nothing is ever served that the page would not
have computed itself.

The worker (and the kernels it starts) runs at the lowest CPU priority
(:data:`BACKGROUND_NICENESS`), the engine lab's ranks that a cold build starts early at a
lower one than the pages': on two cores, the pages the main process renders are the build's
critical path, and the background work fills the time the main process leaves.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from distlesson.site.build_cache import BuildCache

__all__ = ["BACKGROUND_NICENESS", "LabPrerun", "render_options", "start"]

BACKGROUND_NICENESS = 19
"""How much lower the worker's CPU priority is (as ``nice``): the lowest, below the engine
lab's ranks too (:data:`distlesson.site.plugin.ENGINE_RUN_NICENESS`), since the build
reaches the labs last."""

_RENDER_OPTIONS = ("kernel_name", "theme", "allow_errors", "show_input", "no_input",
                   "no_prompt", "remove_tag_config", "highlight_extra_classes",
                   "include_requirejs", "custom_mathjax_url")


def render_options(jupyter_config: dict[str, Any], notebook: Path) -> dict[str, Any]:
    """The arguments mkdocs-jupyter's page passes to ``convert.nb2html`` for ``notebook``."""
    execute = bool(jupyter_config["execute"])
    for pattern in jupyter_config.get("execute_ignore") or ():
        if Path(notebook).match(pattern):
            execute = False
    return {"execute": execute, **{name: jupyter_config[name] for name in _RENDER_OPTIONS}}


def _render(notebook: str, options: dict[str, Any], toc_depth: int, root: str,
            key: str) -> bool:
    """In the worker: render ``notebook`` and store (HTML, table of contents) under ``key``."""
    from mkdocs.structure.toc import get_toc
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    from distlesson.site.labs import reproducible_rendering

    try:
        with reproducible_rendering():
            body = convert.nb2html(notebook, **options)
        tokens, _title = _get_nb_toc_tokens(notebook, toc_depth)
    except Exception:  # the page renders it again and reports the failing cell
        return False
    BuildCache(Path(root), salt="").put("lab", key, (body, get_toc(tokens)))  # key: the build's
    return True


def _in_background(parent: int) -> None:
    """In the worker: a lower CPU priority, and an exit when the build is gone. A build
    stopped by a signal (Ctrl-C on ``mkdocs serve``) never shuts its executor down, and its
    worker would wait for work forever."""
    os.nice(BACKGROUND_NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@dataclass
class LabPrerun:
    """The worker and the labs it was given, by cache key."""

    executor: concurrent.futures.Executor | None
    pending: dict[str, concurrent.futures.Future] = field(default_factory=dict)

    def wait(self, key: str, timeout: float = 900.0) -> None:
        """Until the worker has finished (or failed) the lab stored under ``key``, if it
        was given it."""
        future = self.pending.pop(key, None)
        if future is not None:
            concurrent.futures.wait([future], timeout=timeout)

    def close(self) -> None:
        """Stop the worker; labs not started are dropped (the pages render them)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
        self.pending.clear()


def start(cache: BuildCache, notebooks: list[tuple[Path, str]],
          jupyter_config: dict[str, Any]) -> LabPrerun:
    """Run, in one worker process and in this order, the ``(notebook, cache key)`` pairs
    whose rendering ``cache`` lacks."""
    missing = [(path, key) for path, key in notebooks if not cache.has("lab", key)]
    if not missing:
        return LabPrerun(None)
    # The worker's functions are pickled by name: take them from this module as imported
    # now (the plugin keeps it across serve's reloads, but a caller may hold another copy,
    # whose functions would not pickle).
    current = importlib.import_module(__name__)
    executor = concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"),
        initializer=current._in_background, initargs=(os.getpid(),))
    prerun = LabPrerun(executor)
    for path, key in missing:
        prerun.pending[key] = executor.submit(
            current._render, str(path), render_options(jupyter_config, path),
            int(jupyter_config["toc_depth"]), str(cache.root), key)
    return prerun
