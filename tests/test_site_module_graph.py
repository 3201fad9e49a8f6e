"""The import graph the build cache keys on: what a module can run, read from its source.

Each rule of :mod:`distlesson.site.module_graph` on a small package written here, then the
one property the cache's correctness rests on, checked on the library itself: whatever
Python imports when a module is imported is inside the module's static closure.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from distlesson.site.module_graph import ModuleGraph

LIBRARY = Path(__file__).resolve().parents[1] / "distlesson"

PACKAGE = {
    "__init__.py": """
        import importlib
        _LAZY_EXPORTS = {"thing": "pkg.deep.thing_mod"}

        def __getattr__(name):
            return getattr(importlib.import_module(_LAZY_EXPORTS[name]), name)
        """,
    "a.py": "from pkg.b import X\n",
    "b.py": "X = 1\n",
    "c.py": "from .b import X\nfrom . import a\n",
    "d.py": "def later():\n    import pkg.e\n",
    "e.py": 'TO_IMPORT = ["pkg.f"]\nNOT_A_MODULE = "pkg.a is a module"\n',
    "f.py": "",
    "dyn.py": """
        import importlib

        def load(name):
            return importlib.import_module(f"pkg.sub.{name}")
        """,
    "sibling.py": """
        import importlib

        def load(name):
            return importlib.import_module(f"{__package__}.{name}")
        """,
    "anything.py": """
        import importlib

        def load(name):
            return importlib.import_module(name)
        """,
    "reader.py": "from pathlib import Path\nHERE = Path(__file__)\n",
    "sub/__init__.py": "",
    "sub/x.py": "",
    "sub/y.py": "",
    "sub/__main__.py": "import pkg.a\n",  # run with python -m, never imported by name
    "deep/__init__.py": "",
    "deep/thing_mod.py": "thing = 1\n",
    "table.toml": "data = 1\n",
}


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    for name, source in PACKAGE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return root


def _closure(package: Path, module: str) -> set[str]:
    return set(ModuleGraph(package).closure([module]))


def test_imports_at_any_depth_absolute_or_relative_with_the_packages_above(package):
    assert _closure(package, "pkg.a") == {"pkg", "pkg.a", "pkg.b"}
    assert _closure(package, "pkg.c") == {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    assert _closure(package, "pkg.sub.x") == {"pkg", "pkg.sub", "pkg.sub.x"}
    # an import inside a function, and a module named in a string (not a sentence)
    assert _closure(package, "pkg.d") == {"pkg", "pkg.d", "pkg.e", "pkg.f"}


def test_a_computed_import_reaches_every_module_it_could_name(package):
    assert _closure(package, "pkg.dyn") == {"pkg", "pkg.dyn", "pkg.sub", "pkg.sub.x",
                                            "pkg.sub.y"}
    every = set(ModuleGraph(package).paths) - {"pkg.sub.__main__"}  # a program, not imported
    assert _closure(package, "pkg.sibling") == every  # the package's own modules: all
    assert _closure(package, "pkg.anything") == every
    assert _closure(package, "pkg.reader") == every  # it may open any source


def test_lazy_exports_reach_only_what_is_used(package):
    graph = ModuleGraph(package)
    assert graph.closure(["pkg"]) == {"pkg"}  # importing the package runs no export
    thing = {"pkg", "pkg.deep", "pkg.deep.thing_mod"}
    assert graph.reached_by_code("from pkg import thing\nprint(thing)") == thing
    assert graph.reached_by_code("import pkg\nprint(pkg.thing)") == thing
    assert graph.reached_by_code("from pkg.a import X") == {"pkg", "pkg.a", "pkg.b"}
    assert graph.reached_by_code("import numpy") == set()  # not this library
    assert graph.reached_by_code("%matplotlib inline") == set(graph.paths)  # not Python


def test_the_fingerprint_follows_the_modules_named_and_every_data_file(package):
    def fingerprint(*modules: str) -> str:
        return ModuleGraph(package).fingerprint(modules)

    a_and_b, sub = fingerprint("pkg.a", "pkg.b"), fingerprint("pkg.sub.x")
    assert fingerprint("pkg.b", "pkg.a") == a_and_b  # order does not matter
    (package / "b.py").write_text("X = 2\n", encoding="utf-8")
    assert fingerprint("pkg.a", "pkg.b") != a_and_b and fingerprint("pkg.sub.x") == sub
    (package / "table.toml").write_text("data = 2\n", encoding="utf-8")  # read by anyone
    assert fingerprint("pkg.sub.x") != sub


_PROBE = """
import importlib, json, sys
seen = {m for m in sys.modules if m == "distlesson" or m.startswith("distlesson.")}
loaded = {}
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
    now = {m for m in sys.modules if m == "distlesson" or m.startswith("distlesson.")}
    loaded[name] = sorted(now - seen)
    seen = now
print(json.dumps(loaded))
"""


def test_what_python_imports_is_inside_the_static_closure():
    # Imported one after the other in one process, each module newly loads only modules
    # its own import ran: each must be in that module's static closure, or the cache
    # could serve a block that ran an edited module without knowing it.
    graph = ModuleGraph(LIBRARY)
    names = sorted(m for m in graph.paths if not m.startswith("distlesson.engine.")
                   and m not in ("distlesson.engine", "distlesson.__main__"))
    names += ["distlesson.engine"]  # its modules import torch: only the package
    run = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(names)],
                         capture_output=True, text=True, check=True, cwd=LIBRARY.parent)
    loaded = json.loads(run.stdout)
    assert set(loaded) == set(names)
    outside = {name: sorted(set(new) - graph.closure([name]))
               for name, new in loaded.items() if set(new) - graph.closure([name])}
    assert outside == {}


def test_the_library_is_tracked_module_by_module():
    # what makes the cache worth it: a page's figures do not depend on the whole library
    graph = ModuleGraph(LIBRARY)
    pipeline = graph.closure(["distlesson.pages.pipeline"])
    assert "distlesson.pipeline.simulator" in pipeline
    assert "distlesson.efficiency.cost" not in pipeline
    assert "distlesson.claims.register" not in pipeline
    assert graph.closure(["distlesson.catalog.hardware"]) < graph.closure(
        ["distlesson.pages.hardware"])


def test_a_parse_tripped_by_cpythons_shared_ast_state_is_retried(monkeypatch):
    """CPython 3.11's "AST constructor recursion depth mismatch" (gh-106905) says nothing
    about the source: the graph parses it again; any other SystemError still propagates."""
    import ast

    from distlesson.site import module_graph

    real, calls = ast.parse, []

    def flaky(source, *args, **kwargs):
        calls.append(source)
        if len(calls) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=162, after=28)")
        return real(source, *args, **kwargs)

    monkeypatch.setattr(module_graph.ast, "parse", flaky)
    found = module_graph.imported_names("import json\n", package="pkg.mod", is_package=False,
                                        top="pkg")
    assert len(calls) == 2 and found.imports

    def broken(source, *args, **kwargs):
        raise SystemError("something else")

    monkeypatch.setattr(module_graph.ast, "parse", broken)
    with pytest.raises(SystemError, match="something else"):
        module_graph.imported_names("import json\n", package="pkg.mod", is_package=False,
                                    top="pkg")
