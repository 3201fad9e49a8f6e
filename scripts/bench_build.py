"""Time the site's build as CI and authors meet it, against the build that runs no code.

Usage: ``.venv/bin/python scripts/bench_build.py [--json benchmarks/build.json]``.

* **bare**: the same pages with markdown-exec dropped and the labs not run (the figures in
  prose are still resolved): the floor every other time is divided by.
* **cold**: the strict build with an empty build cache, as CI runs it on a fresh clone.
* **warm**: the strict build again, cache present, nothing changed.
* **page edit**: under ``mkdocs serve`` (cache warm), from a one-line edit of a page to
  the server's "Reloading browsers", with all three languages and with ``--lang en``.
* **library edit**: the same after an author changes a number in the library: Tectonic's
  sustained bandwidth in ``distlesson/catalog/reliability.py`` (2 TB/s made 3 TB/s), which
  the failures chapter shows in its checkpoint write times, in all three languages (the
  benchmark checks that the served pages changed). The cache reruns what can run that
  module: the failures, MFU, communication, planning and accuracy chapters, the engine lab,
  the exercises (:mod:`distlesson.site.module_graph`).
* **widest library edit**: a comment appended to ``distlesson/catalog/hardware.py``, which
  nearly every computation imports: what an edit to a module the whole site uses costs.

One run of each, wall-clock seconds on this machine (its CPU count is printed with them).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def _no_exec_config(directory: Path) -> Path:
    """mkdocs.yml with markdown-exec removed from the plugins and the notebooks not run."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = re.sub(r"^  - markdown-exec\n", "", text, flags=re.MULTILINE)
    text, runs = re.subn(r"^(      execute: )true\b", r"\1false", text, flags=re.MULTILINE)
    if runs != 1:
        raise SystemExit("mkdocs.yml: expected one 'execute: true' (mkdocs-jupyter)")
    text = text.replace("docs_dir: docs", "")
    # paths in mkdocs.yml are relative to it: the copy lives elsewhere
    text = text.replace("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}")
    config = directory / "mkdocs-no-exec.yml"
    config.write_text(f"docs_dir: {ROOT / 'docs'}\n" + text, encoding="utf-8")
    return config


def _build(config: Path, site: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f",
                    str(config), "-d", str(site)], check=True, cwd=ROOT, env=env)
    return time.perf_counter() - start


def _page(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as response:
        return response.read().decode("utf-8")


def _edit_under_serve(edited: Path, env: dict[str, str], port: int = 8765,
                      timeout: float = 1800.0, change: tuple[str, str] | None = None,
                      changed_pages: tuple[str, ...] = ()) -> float:
    """Seconds from an edit of ``edited`` to the end of the rebuild it triggers: a line
    appended, or ``change`` (old, new) replaced once. Each of ``changed_pages`` must read
    differently after the rebuild."""
    original = edited.read_text(encoding="utf-8")
    if change is None:
        comment = "\n" if edited.suffix == ".md" else "\n# edited by scripts/bench_build.py\n"
        edited_text = original + comment
    else:
        if original.count(change[0]) != 1:
            raise SystemExit(f"{edited}: expected {change[0]!r} once, to edit it")
        edited_text = original.replace(*change)
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--livereload", "-a", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + timeout
        for line in server.stderr:
            if "Serving on" in line:
                break
            if time.monotonic() > deadline:
                raise TimeoutError("mkdocs serve did not start")
        time.sleep(2.0)
        before = {path: _page(port, path) for path in changed_pages}
        start = time.perf_counter()
        edited.write_text(edited_text, encoding="utf-8")
        for line in server.stderr:
            if "Reloading browsers" in line:
                seconds = time.perf_counter() - start
                same = [path for path in changed_pages if _page(port, path) == before[path]]
                if same:
                    raise SystemExit(f"the edit of {edited.name} did not change {same}")
                return seconds
            if time.monotonic() > deadline:
                break
        raise TimeoutError("mkdocs serve did not rebuild after the edit")
    finally:
        edited.write_text(original, encoding="utf-8")
        server.terminate()
        server.wait(timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        cache = {**ENV, "DISTLESSON_BUILD_CACHE": str(tmp_path / "cache")}
        seconds = {
            "bare_s": _build(_no_exec_config(tmp_path), tmp_path / "bare",
                             {**ENV, "DISTLESSON_BUILD_CACHE": "off"}),
            "cold_s": _build(ROOT / "mkdocs.yml", tmp_path / "cold", cache),
            "warm_s": _build(ROOT / "mkdocs.yml", tmp_path / "warm", cache),
        }
        page = ROOT / "docs" / "index.en.md"
        seconds["page_edit_s"] = _edit_under_serve(page, cache)
        seconds["page_edit_one_language_s"] = _edit_under_serve(
            page, {**cache, "DISTLESSON_LANG": "en"})
        seconds["library_edit_s"] = _edit_under_serve(
            ROOT / "distlesson" / "catalog" / "reliability.py", cache,
            change=("sustained=2e12,", "sustained=3e12,"),
            changed_pages=("/failures/", "/ca/failures/", "/fa/failures/"))
        seconds["library_edit_widest_s"] = _edit_under_serve(
            ROOT / "distlesson" / "catalog" / "hardware.py", cache)
    bare = seconds["bare_s"]
    result = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
                   f"{platform.python_version()}",
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "ratio_to_bare": {k.removesuffix("_s"): round(v / bare, 2)
                          for k, v in seconds.items() if k != "bare_s"},
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
