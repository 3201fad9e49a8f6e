"""The build cache: an unchanged block is not run again, a block that can run changed code
always is (and no other)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import yaml
from markdown_exec._internal.formatters import python as markdown_exec_python

from distlesson.site.build_cache import (
    KEEP_DAYS,
    BuildCache,
    cache_from_env,
    source_fingerprint,
)
from distlesson.site.module_graph import ModuleGraph

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}
ENV.pop("DISTLESSON_BUILD_CACHE", None)

PAGE = """# Probe

```python exec="on"
from probe_lib import a
print(f"a is {a.VALUE}, block run {a.count_run('a')}")
```

```python exec="on"
from probe_lib import b
print(f"b is {b.VALUE}, block run {b.count_run('b')}")
```
"""
MODULE = """from probe_lib.counter import count_run

VALUE = {value}
"""
COUNTER = """from pathlib import Path


def count_run(name: str) -> int:
    runs = Path(f"runs-{name}.txt")  # in the project: the build's working folder
    count = int(runs.read_text()) + 1 if runs.exists() else 1
    runs.write_text(str(count))
    return count
"""


def _project(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (root / "probe_lib").mkdir()
    (root / "probe_lib" / "__init__.py").write_text("", encoding="utf-8")
    (root / "probe_lib" / "counter.py").write_text(COUNTER, encoding="utf-8")
    (root / "probe_lib" / "a.py").write_text(MODULE.format(value=7), encoding="utf-8")
    (root / "probe_lib" / "b.py").write_text(MODULE.format(value=70), encoding="utf-8")
    (root / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "probe", "strict": True,
        "plugins": [{"distlesson": {"cache_sources": ["probe_lib"]}}, "markdown-exec"],
        "markdown_extensions": ["pymdownx.superfences"]}), encoding="utf-8")
    return root


def _build(project: Path) -> tuple[str, str]:
    """(the built page's text, the build's log)."""
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(project), *sys.path])}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"],
                         cwd=project, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    return (project / "site" / "index.html").read_text(encoding="utf-8"), run.stderr


def test_a_block_runs_once_and_again_when_code_it_imports_changes(tmp_path):
    project = _project(tmp_path)
    page, log = _build(project)
    assert "a is 7, block run 1" in page and "b is 70, block run 1" in page
    # a second build reuses both blocks' output: neither runs again
    page, log = _build(project)
    assert "a is 7, block run 1" in page and "b is 70, block run 1" in page
    assert "2 computations reused, 0 run" in log
    # b's constant changes: b's block shows the new value; a's block, which cannot run b's
    # code, is served from the cache
    (project / "probe_lib" / "b.py").write_text(MODULE.format(value=71), encoding="utf-8")
    page, log = _build(project)
    assert "a is 7, block run 1" in page and "b is 71, block run 2" in page
    assert "1 computations reused, 1 run" in log
    # a module both import changes (a comment is a change): both run again
    counter = project / "probe_lib" / "counter.py"
    counter.write_text(COUNTER + "# edited\n", encoding="utf-8")
    page, _ = _build(project)
    assert "a is 7, block run 2" in page and "b is 71, block run 3" in page
    # and with the cache off, every build runs every block
    ENV["DISTLESSON_BUILD_CACHE"] = "off"
    try:
        page, _ = _build(project)
    finally:
        del ENV["DISTLESSON_BUILD_CACHE"]
    assert "a is 7, block run 3" in page and "b is 71, block run 4" in page


def test_a_folder_that_is_not_a_package_is_keyed_whole(tmp_path):
    folder = tmp_path / "scripts"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.py").write_text("A = 1\n")
    (folder / "sub" / "b.py").write_text("B = 2\n")
    first = source_fingerprint([folder])
    assert source_fingerprint([folder]) == first  # deterministic
    (folder / "sub" / "b.py").write_text("B = 3\n")
    second = source_fingerprint([folder])
    assert second != first
    (folder / "sub" / "c.py").write_text("")  # a new module counts too
    assert source_fingerprint([folder]) not in (first, second)
    cache = cache_from_env(tmp_path / "cache", [folder])
    assert cache is not None and cache.graphs == () and cache.salt == source_fingerprint(
        [folder])


def test_entries_are_keyed_and_a_broken_entry_is_a_miss(tmp_path):
    cache = BuildCache(tmp_path, "f" * 64)
    key = cache.key("exec", "print(1)")
    assert key != cache.key("exec", "print(2)") and key != cache.key("lab", "print(1)")
    assert key != BuildCache(tmp_path, "e" * 64).key("exec", "print(1)")  # other tools
    assert cache.get("exec", key) is None
    cache.put("exec", key, "1\n")
    assert cache.get("exec", key) == "1\n"
    (cache.directory / "exec" / f"{key}.pickle").write_bytes(b"not a pickle")
    assert cache.get("exec", key) is None
    assert cache.get_or_compute("exec", key, lambda: "again") == "again"
    assert cache.get("exec", key) == "again"


def test_a_key_follows_the_modules_its_code_can_run(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("A = 1\n")
    (package / "b.py").write_text("B = 2\n")

    def key(code: str) -> str:
        return BuildCache(tmp_path / "cache", "", [ModuleGraph(package)]).key(
            "exec", code, code=code)

    uses_a, uses_b = key("from pkg.a import A"), key("from pkg.b import B")
    (package / "b.py").write_text("B = 3\n")
    assert key("from pkg.a import A") == uses_a and key("from pkg.b import B") != uses_b
    (package / "__init__.py").write_text("# runs before any module of the package\n")
    assert key("from pkg.a import A") != uses_a


def test_entries_not_read_for_two_weeks_are_pruned_with_the_old_layout(tmp_path):
    cache = BuildCache(tmp_path, "")
    for name in ("read", "unread", "new"):
        cache.put("exec", name, name)
    weeks_ago = time.time() - (KEEP_DAYS + 1) * 86400
    for name in ("read", "unread"):
        os.utime(cache.directory / "exec" / f"{name}.pickle", (weeks_ago, weeks_ago))
    assert cache.get("exec", "read") == "read"  # reading an entry keeps it
    old_layout = tmp_path / ("0" * 24) / "exec"  # a folder per library fingerprint
    old_layout.mkdir(parents=True)
    assert cache.prune() == 1
    assert sorted(p.stem for p in (cache.directory / "exec").iterdir()) == ["new", "read"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entries"]


def test_markdown_exec_still_runs_blocks_through_the_function_we_wrap():
    # exec_blocks replaces markdown-exec's module-level _run_python; if an upgrade renames
    # it, this fails rather than the cache silently doing nothing
    assert callable(markdown_exec_python._run_python)
    assert "_run_python" in markdown_exec_python._format_python.__code__.co_names
