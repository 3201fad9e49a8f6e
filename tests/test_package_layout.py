"""The package's shape: topics as subpackages, a short top level, no import cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import distlesson

PACKAGE = Path(distlesson.__file__).parent
TOPICS = ("catalog", "memory", "parallel", "pipeline", "efficiency", "claims")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(path: Path) -> set[str]:
    """The distlesson modules that ``path`` imports, at the top or inside a function.

    ``from package import module`` depends on the module, not on the package's names.
    """
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            submodules = {f"{base}.{alias.name}" for alias in node.names}
            found |= submodules if submodules <= MODULES.keys() else {base}
    return {m for m in found if m.startswith("distlesson")}


def _graph() -> dict[str, set[str]]:
    modules = MODULES
    # an edge to a package's __init__ is only the import machinery's, unless the module
    # imports a name the __init__ itself defines; the root's facade is left out of cycles
    return {name: {m for m in _imports(path) if m in modules and m != name
                   and m != "distlesson"}
            for name, path in modules.items() if name != "distlesson"}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_cycle_even_through_imports_inside_functions():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()) or [])


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_relative_imports_resolve_to_their_package():
    engine = PACKAGE / "engine" / "launch.py"
    assert "distlesson.engine.suite" in _imports(engine)


def test_the_top_level_holds_at_most_a_dozen_modules():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


def test_each_topic_is_a_subpackage_with_a_docstring():
    for topic in TOPICS:
        init = PACKAGE / topic / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), topic
