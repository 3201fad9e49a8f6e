"""A content-addressed cache of what the build computes, kept on disk between builds.

The build computes three kinds of things: the output of every executed code block
(markdown-exec), the registry of figures that placeholders in the prose read, and the rendered
lab notebooks (mkdocs-jupyter). Each is a pure function of its source and of the library, so
each is stored under a key made of

* the block's code (which names the page's locale), the lab's notebook bytes and
  mkdocs-jupyter's options, or nothing (the figure registry: one per library);
* the **source fingerprint**: the SHA-256 of every ``*.py`` file of the package, by path
  and content, and of the versions of the packages whose output the pages show (Python,
  numpy, matplotlib, Babel, markdown-exec, mkdocs-jupyter, nbconvert).

Any edit to the library changes the fingerprint and with it every key: a page can never show
a number computed by older code. Finer tracking (which block imports which module) is not
worth its risk: one library edit reruns everything, as a cold build would.

Entries live in ``.cache/build/<fingerprint>/`` beside ``mkdocs.yml`` (``.cache/`` is not
tracked); the folders of older fingerprints beyond the last few are deleted. Set
``DISTLESSON_BUILD_CACHE=off`` to build without it, or to a folder to keep it elsewhere.
A failing block or notebook is never stored. Values are pickled; an unreadable entry is a
miss, never an error.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["ENV", "BuildCache", "cache_from_env", "source_fingerprint"]

ENV = "DISTLESSON_BUILD_CACHE"
_DISTRIBUTIONS = ("numpy", "matplotlib", "babel", "markdown-exec", "mkdocs-jupyter",
                  "nbconvert", "mkdocs-material")
_KEPT_FINGERPRINTS = 3  # an author switching between branches keeps their caches
T = TypeVar("T")


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def source_fingerprint(package_dirs: Iterable[Path]) -> str:
    """SHA-256 of the Python sources under ``package_dirs`` and of the versions above."""
    digest = hashlib.sha256(f"python {sys.version}\n".encode())
    for name in _DISTRIBUTIONS:
        digest.update(f"{name} {_version(name)}\n".encode())
    for directory in package_dirs:
        for path in sorted(directory.rglob("*.py")):
            digest.update(str(path.relative_to(directory.parent)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class BuildCache:
    """Values stored by key under one source fingerprint."""

    def __init__(self, root: Path, fingerprint: str) -> None:
        self.root = root
        self.fingerprint = fingerprint
        self.directory = root / fingerprint[:24]
        self.hits = 0
        self.misses = 0

    def key(self, kind: str, *parts: str | bytes) -> str:
        """A key for ``kind`` (``exec``, ``figures``, ``lab``) and its inputs."""
        digest = hashlib.sha256(kind.encode() + b"\0")
        for part in parts:
            digest.update((part.encode() if isinstance(part, str) else part) + b"\0")
        return digest.hexdigest()

    def _path(self, kind: str, key: str) -> Path:
        return self.directory / kind / f"{key}.pickle"

    def get(self, kind: str, key: str) -> Any | None:
        try:
            value = pickle.loads(self._path(kind, key).read_bytes())
        except Exception:  # absent, truncated, or pickled by other code: recompute it
            self.misses += 1
            return None
        self.hits += 1
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

    def prune(self) -> None:
        """Delete the folders of all but the most recently used fingerprints."""
        if not self.root.is_dir():
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        os.utime(self.directory)
        folders = sorted((p for p in self.root.iterdir() if p.is_dir()),
                         key=lambda p: p.stat().st_mtime, reverse=True)
        for old in folders[_KEPT_FINGERPRINTS:]:
            shutil.rmtree(old, ignore_errors=True)


def cache_from_env(default_root: Path, package_dirs: Iterable[Path]) -> BuildCache | None:
    """The cache the environment asks for: None when ``DISTLESSON_BUILD_CACHE=off``."""
    setting = os.environ.get(ENV, "").strip()
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    root = Path(setting) if setting else default_root
    return BuildCache(root, source_fingerprint(package_dirs))
