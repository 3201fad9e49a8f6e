"""The build cache: an unchanged block is not run again, a changed library is never stale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from markdown_exec._internal.formatters import python as markdown_exec_python

from distlesson.site.build_cache import BuildCache, source_fingerprint

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}
ENV.pop("DISTLESSON_BUILD_CACHE", None)

PAGE = """# Probe

```python exec="on"
import probe_lib
print(f"the constant is {probe_lib.VALUE}, block run {probe_lib.count_run()}")
```
"""
LIBRARY = """from pathlib import Path

VALUE = {value}
_RUNS = Path(__file__).parent / "runs.txt"


def count_run() -> int:
    runs = int(_RUNS.read_text()) + 1 if _RUNS.exists() else 1
    _RUNS.write_text(str(runs))
    return runs
"""


def _project(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (root / "probe_lib").mkdir()
    (root / "probe_lib" / "__init__.py").write_text(LIBRARY.format(value=7), encoding="utf-8")
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


def test_a_block_runs_once_and_reruns_when_the_library_changes(tmp_path):
    project = _project(tmp_path)
    page, log = _build(project)
    assert "the constant is 7, block run 1" in page
    # a second build reuses the block's output: the block is not run again
    page, log = _build(project)
    assert "the constant is 7, block run 1" in page
    assert "computations reused" in log and (project / "probe_lib" / "runs.txt"
                                             ).read_text() == "1"
    # the library changes: the page shows the new value, never the stored one
    (project / "probe_lib" / "__init__.py").write_text(LIBRARY.format(value=8),
                                                       encoding="utf-8")
    page, _ = _build(project)
    assert "the constant is 8, block run 2" in page
    # and with the cache off, every build runs the block
    ENV["DISTLESSON_BUILD_CACHE"] = "off"
    try:
        page, _ = _build(project)
    finally:
        del ENV["DISTLESSON_BUILD_CACHE"]
    assert "the constant is 8, block run 3" in page


def test_the_fingerprint_follows_every_source_file(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("A = 1\n")
    (package / "sub" / "b.py").write_text("B = 2\n")
    first = source_fingerprint([package])
    assert source_fingerprint([package]) == first  # deterministic
    (package / "sub" / "b.py").write_text("B = 3\n")
    second = source_fingerprint([package])
    assert second != first
    (package / "sub" / "c.py").write_text("")  # a new module counts too
    assert source_fingerprint([package]) not in (first, second)


def test_entries_are_keyed_and_a_broken_entry_is_a_miss(tmp_path):
    cache = BuildCache(tmp_path, "f" * 64)
    key = cache.key("exec", "print(1)")
    assert key != cache.key("exec", "print(2)") and key != cache.key("lab", "print(1)")
    assert cache.get("exec", key) is None
    cache.put("exec", key, "1\n")
    assert cache.get("exec", key) == "1\n"
    (cache.directory / "exec" / f"{key}.pickle").write_bytes(b"not a pickle")
    assert cache.get("exec", key) is None
    assert cache.get_or_compute("exec", key, lambda: "again") == "again"
    assert cache.get("exec", key) == "again"


def test_old_fingerprints_are_pruned(tmp_path):
    for i in range(5):
        old = BuildCache(tmp_path, f"{i}" * 64)
        old.put("exec", old.key("exec", "x"), "x")
        os.utime(old.directory, (i, i))  # older first
    current = BuildCache(tmp_path, "c" * 64)
    current.prune()
    kept = sorted(p.name[0] for p in tmp_path.iterdir())
    assert kept == ["3", "4", "c"]


def test_markdown_exec_still_runs_blocks_through_the_function_we_wrap():
    # exec_blocks replaces markdown-exec's module-level _run_python; if an upgrade renames
    # it, this fails rather than the cache silently doing nothing
    assert callable(markdown_exec_python._run_python)
    assert "_run_python" in markdown_exec_python._format_python.__code__.co_names
