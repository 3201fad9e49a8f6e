"""Which library modules a piece of code can run: the package's import graph, read statically.

The build cache (:mod:`distlesson.site.build_cache`) keys an executed block on the sources of
the modules it can reach, so that an edit to one module reruns the blocks that import it and
no others. Reaching is read from the source, never from a run, and errs on the side of
reaching more. A module reaches

* every module it imports, at any depth of its code (an import inside a function counts),
  with the packages above it (``import a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py``),
  and ``from a import b`` reaches ``a.b`` when that is a module;
* every module whose dotted name it writes as a string (``import_module("distlesson.x")``,
  ``python -m distlesson.engine``, a list of modules to import later);
* for an import whose name is computed (``import_module(f"distlesson.engine.{name}")``), every
  module under the constant prefix, or under its own package for ``f"{__package__}..."``, or
  the whole library when no prefix is known (a package's ``__main__`` excepted: it is run
  with ``python -m``, not imported);
* the whole library when it reads ``__file__`` (it may open any source as a file);
* through a package's lazy exports (``_LAZY_EXPORTS = {"name": "module"}`` in its
  ``__init__``, served by a module ``__getattr__``), ``from package import name`` reaches the
  module that defines ``name``; ``import package`` followed by attribute access reaches them all.

Files of the package that are not Python (a corpus, translation tables) can be read by any
module: :meth:`ModuleGraph.fingerprint` always includes them.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

__all__ = ["ModuleGraph", "imported_names"]

_DYNAMIC_IMPORTS = frozenset({"import_module", "__import__", "find_spec", "files"})
LAZY_EXPORTS = "_LAZY_EXPORTS"
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _lazy_exports(tree: ast.Module) -> dict[str, str]:
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == LAZY_EXPORTS:
            value = ast.literal_eval(node.value)
            if not isinstance(value, dict):
                raise ValueError(f"{LAZY_EXPORTS} must be a dict literal")
            return {str(k): str(v) for k, v in value.items()}
    return {}


@dataclass(frozen=True)
class _Found:
    """What one source names: modules it imports or writes, and what it reaches wholesale."""

    imports: frozenset[tuple[str, str | None]]  # (module, name imported from it or None)
    prefixes: frozenset[str]  # every module under each of these ("" is the whole library)
    lazy: tuple[tuple[str, str], ...] = ()  # its lazy exports: (name, defining module)


def _parse(source: str) -> ast.Module:
    """``ast.parse``, again when CPython 3.11 reports "AST constructor recursion depth
    mismatch": its AST conversion keeps its depth in state shared by the interpreter's
    threads, and another thread's parse at the same moment trips the check (gh-106905).
    Python 3.11 parses source lines whenever it formats a traceback (its carets), so any
    thread that formats an error can be that thread: it was once the labs' worker queue,
    formatting a pickling error (the plugin now keeps that module across reloads). The
    source is fine: a second parse succeeds."""
    for attempt in range(3):
        try:
            return ast.parse(source)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error) or attempt == 2:
                raise
    raise AssertionError("unreachable")


def imported_names(source: str, *, package: str, is_package: bool, top: str) -> _Found:
    """The imports, module names written as strings and computed imports of ``source`` (a
    module of ``package``, itself a package when ``is_package``; ``top`` names the library).
    Raises SyntaxError when ``source`` is not Python."""
    tree = _parse(source)
    imports: set[tuple[str, str | None]] = set()
    prefixes: set[str] = set()
    own = package if is_package else package.rpartition(".")[0]
    exports = _lazy_exports(tree)
    lazy = set(exports.values())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports.update((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = own.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            imports.update((module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _DOTTED.fullmatch(node.value) and node.value.split(".")[0] == top \
                    and node.value not in lazy:
                imports.add((node.value, None))
        elif isinstance(node, ast.Name) and node.id == "__file__":
            prefixes.add("")
        elif isinstance(node, ast.Call) and node.args and not isinstance(
                node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _DYNAMIC_IMPORTS and not lazy:  # a lazy table names what it imports
                prefixes.add(_computed_prefix(node.args[0], own))
    return _Found(frozenset(imports), frozenset(prefixes), tuple(exports.items()))


def _computed_prefix(argument: ast.expr, own: str) -> str:
    """The package under which a computed module name must lie ("": anywhere)."""
    if isinstance(argument, ast.JoinedStr) and argument.values:
        first = argument.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value.rpartition(".")[0]
        if (isinstance(first, ast.FormattedValue) and isinstance(first.value, ast.Name)
                and first.value.id == "__package__"):
            return own
    return ""


class ModuleGraph:
    """The modules of one package (a folder with ``__init__.py``) and what each reaches."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.top = self.root.name
        self.paths: dict[str, Path] = {
            _module_name(path, self.root): path for path in sorted(self.root.rglob("*.py"))}
        self._sources = {name: path.read_bytes() for name, path in self.paths.items()}
        # every module read first, for the lazy exports of packages that others import
        found = {name: imported_names(self._sources[name].decode("utf-8"), package=name,
                                      is_package=self._is_package(name), top=self.top)
                 for name in self.paths}
        self._lazy = {name: dict(f.lazy) for name, f in found.items()}
        self._edges = {name: self._resolve(f) for name, f in found.items()}

    @cached_property
    def data_files(self) -> tuple[Path, ...]:
        """Every file of the package that is not Python (compiled files excepted)."""
        return tuple(sorted(
            path for path in self.root.rglob("*") if path.is_file()
            and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts))

    @cached_property
    def _data_digest(self) -> bytes:
        digest = hashlib.sha256()
        for path in self.data_files:
            digest.update(str(path.relative_to(self.root)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
        return digest.digest()

    def owns(self, module: str) -> bool:
        """Whether ``module`` is named as a module of this package."""
        return module == self.top or module.startswith(self.top + ".")

    def _is_package(self, name: str) -> bool:
        return self.paths[name].name == "__init__.py"

    def _with_parents(self, module: str) -> set[str]:
        """``module`` and the packages above it that are part of the library."""
        parts = module.split(".")
        return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & self.paths.keys()

    def _resolve(self, found: _Found) -> frozenset[str]:
        """The library modules that ``found`` names, directly."""
        reached: set[str] = set()
        for module, name in found.imports:
            if not self.owns(module):
                continue
            reached |= self._with_parents(module)
            exports = self._lazy.get(module, {})
            if name is not None and f"{module}.{name}" in self.paths:
                targets = [f"{module}.{name}"]
            elif name is None or name == "*":
                # ``import package`` then ``package.name``: every lazy export may be used
                targets = list(exports.values())
            else:
                targets = [exports[name]] if name in exports else []
            for target in targets:
                reached |= self._with_parents(target)
        for prefix in found.prefixes:
            base = prefix or self.top
            # a package's __main__ is a program (python -m), not a module code imports
            reached |= {m for m in self.paths if (m == base or m.startswith(base + "."))
                        and not m.endswith(".__main__")}
        return frozenset(reached)

    def closure(self, modules: Iterable[str]) -> frozenset[str]:
        """Every library module that running ``modules`` can run (themselves included)."""
        seen: set[str] = set()
        stack = [m for module in modules for m in self._with_parents(module)]
        while stack:
            module = stack.pop()
            if module in seen:
                continue
            seen.add(module)
            stack.extend(self._edges[module] - seen)
        return frozenset(seen)

    def reached_by_code(self, code: str) -> frozenset[str]:
        """The library modules a snippet (a page's block, a notebook) can run; the whole
        library when it is not Python this reader can parse."""
        try:
            found = imported_names(code, package="__main__", is_package=False, top=self.top)
        except (SyntaxError, ValueError):
            return frozenset(self.paths)
        return self.closure(self._resolve(found))

    def fingerprint(self, modules: Iterable[str]) -> str:
        """SHA-256 of the named modules' sources (by name) and of every data file of the
        package."""
        digest = hashlib.sha256()
        for name in sorted(modules):
            digest.update(name.encode() + b"\0" + self._sources[name] + b"\0")
        digest.update(self._data_digest)
        return digest.hexdigest()
