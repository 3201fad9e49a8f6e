"""A content-addressed cache of what the build computes, kept on disk between builds.

The build computes three kinds of things: the output of every executed code block
(markdown-exec), the figures that placeholders in the prose read (one entry per module that
contributes figures), and the rendered lab notebooks (mkdocs-jupyter). Each is a pure
function of its source and of the library code it can run, so each is stored under a key
made of

* its own source: the block's code (which names the page's locale), the lab's notebook bytes
  and mkdocs-jupyter's options, or the name of the module contributing figures;
* the **fingerprint of what it can run**: the SHA-256 of the source of every library module
  it can reach through its imports, read statically from the code
  (:mod:`distlesson.site.module_graph`, which errs towards reaching more: a computed import
  reaches a whole package, code that reads ``__file__`` reaches the whole library), of the
  package's data files, and of the versions of the packages whose output the pages show
  (Python, numpy, matplotlib, Babel, markdown-exec, mkdocs-jupyter, nbconvert).

An edit to a module changes the key of everything that can run it, and only of that: the
pipeline chapter's blocks run again after an edit to the pipeline simulator, the cost
chapter's are served from the cache. A page can never show a number computed by older code.

Entries live in ``.cache/build/entries/`` beside ``mkdocs.yml`` (``.cache/`` is not tracked);
an entry is deleted when no build has read it for :data:`KEEP_DAYS` days (an author switching
between branches keeps both). Set ``DISTLESSON_BUILD_CACHE=off`` to build without it, or to a
folder to keep it elsewhere. A failing block or notebook is never stored. Values are pickled;
an unreadable entry is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import pickle
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from distlesson.site.module_graph import ModuleGraph

__all__ = ["ENV", "KEEP_DAYS", "BuildCache", "cache_from_env", "source_fingerprint",
           "tool_versions"]

ENV = "DISTLESSON_BUILD_CACHE"
KEEP_DAYS = 14
_DISTRIBUTIONS = ("numpy", "matplotlib", "babel", "markdown-exec", "mkdocs-jupyter",
                  "nbconvert", "mkdocs-material")
_ENTRIES = "entries"
T = TypeVar("T")


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def tool_versions() -> str:
    """Python's version and those of the packages whose output the pages show."""
    return f"python {sys.version}\n" + "".join(
        f"{name} {_version(name)}\n" for name in _DISTRIBUTIONS)


def source_fingerprint(package_dirs: Iterable[Path]) -> str:
    """SHA-256 of every Python source under ``package_dirs`` (a folder of code the pages
    import that is not the library, keyed whole), and of :func:`tool_versions`."""
    digest = hashlib.sha256(tool_versions().encode())
    for directory in package_dirs:
        for path in sorted(directory.rglob("*.py")):
            digest.update(str(path.relative_to(directory.parent)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class BuildCache:
    """Values stored by key. ``salt`` enters every key (the tools' versions); ``graphs``, the
    import graphs of the libraries the pages use, let a key follow the modules its code can
    run."""

    def __init__(self, root: Path, salt: str, graphs: Iterable[ModuleGraph] = ()) -> None:
        self.root = Path(root)
        self.salt = salt
        self.graphs = tuple(graphs)
        self.directory = self.root / _ENTRIES
        self.hits = 0
        self.misses = 0
        self._fingerprints: dict[tuple[int, frozenset[str]], str] = {}

    def key(self, kind: str, *parts: str | bytes, code: str | None = None,
            modules: Iterable[str] = ()) -> str:
        """A key for ``kind`` (``exec``, ``figures``, ``lab``) and its inputs: ``parts``, and
        the sources of the library modules that ``code`` (a block, a notebook) and
        ``modules`` can run."""
        digest = hashlib.sha256(kind.encode() + b"\0" + self.salt.encode() + b"\0")
        for part in parts:
            digest.update((part.encode() if isinstance(part, str) else part) + b"\0")
        modules = tuple(modules)
        for number, graph in enumerate(self.graphs):
            reached = graph.closure(m for m in modules if graph.owns(m))
            if code is not None:
                reached |= graph.reached_by_code(code)
            if (number, reached) not in self._fingerprints:
                self._fingerprints[number, reached] = graph.fingerprint(reached)
            digest.update(self._fingerprints[number, reached].encode())
        return digest.hexdigest()

    def _path(self, kind: str, key: str) -> Path:
        return self.directory / kind / f"{key}.pickle"

    def get(self, kind: str, key: str) -> Any | None:
        path = self._path(kind, key)
        try:
            value = pickle.loads(path.read_bytes())
        except Exception:  # absent, truncated, or pickled by other code: recompute it
            self.misses += 1
            return None
        self.hits += 1
        with contextlib.suppress(OSError):
            os.utime(path)  # read now: kept another KEEP_DAYS
        return value

    def has(self, kind: str, key: str) -> bool:
        """Whether an entry is stored (not whether it reads back: :meth:`get` says)."""
        return self._path(kind, key).is_file()

    def put(self, kind: str, key: str, value: Any) -> None:
        path = self._path(kind, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        # write then rename: a build killed halfway never leaves half an entry
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(handle, "wb") as file:
            pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)

    def get_or_compute(self, kind: str, key: str, compute: Callable[[], T]) -> T:
        """The stored value, or ``compute()``'s, stored (an exception stores nothing)."""
        value = self.get(kind, key)
        if value is None:
            value = compute()
            self.put(kind, key, value)
        return value

    def prune(self, now: float | None = None) -> int:
        """Delete the entries no build has read for :data:`KEEP_DAYS` days, and the folders
        of the cache's earlier layout (one folder per library fingerprint). Returns how
        many entries went."""
        if not self.root.is_dir():
            return 0
        for folder in self.root.iterdir():
            if folder.is_dir() and folder.name != _ENTRIES:
                shutil.rmtree(folder, ignore_errors=True)
        oldest = (time.time() if now is None else now) - KEEP_DAYS * 86400
        removed = 0
        for entry in self.directory.glob("*/*.pickle"):
            with contextlib.suppress(OSError):
                if entry.stat().st_mtime < oldest:
                    entry.unlink()
                    removed += 1
        return removed


def cache_from_env(default_root: Path, package_dirs: Iterable[Path]) -> BuildCache | None:
    """The cache the environment asks for: None when ``DISTLESSON_BUILD_CACHE=off``. Keys
    follow the import graph of each package in ``package_dirs``; a folder that is not a
    package (no ``__init__.py``) is keyed whole."""
    setting = os.environ.get(ENV, "").strip()
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    root = Path(setting) if setting else default_root
    folders = [Path(d) for d in package_dirs]
    packages = [d for d in folders if (d / "__init__.py").is_file()]
    plain = [d for d in folders if d not in packages]
    return BuildCache(root, source_fingerprint(plain), [ModuleGraph(d) for d in packages])
