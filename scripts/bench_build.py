"""Time the site's build: strict with code execution, strict without, and a rebuild under serve.

Usage: ``.venv/bin/python scripts/bench_build.py [--repeat N] [--json PATH]``.
Execution "off" builds the same pages with a configuration that drops markdown-exec, so
the fences render as code, and tells mkdocs-jupyter not to run the lab notebooks; the
figures in prose are still resolved. The rebuild time is
measured from touching a page under ``mkdocs serve`` to the server's "Reloading browsers"
line. Results are wall-clock seconds on this machine (its CPU count is printed with them).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
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
    config = directory / "mkdocs-no-exec.yml"
    config.write_text(f"docs_dir: {ROOT / 'docs'}\n" + text, encoding="utf-8")
    return config


def _build(config: Path, site: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f",
                    str(config), "-d", str(site)], check=True, cwd=ROOT, env=ENV)
    return time.perf_counter() - start


def _rebuild_under_serve(port: int = 8765, timeout: float = 900.0) -> float:
    """Seconds from an edit of a page to the end of the rebuild it triggers."""
    page = ROOT / "docs" / "index.en.md"
    original = page.read_text(encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--livereload",
         "-a", f"127.0.0.1:{port}"],
        cwd=ROOT, env=ENV, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + timeout
        for line in server.stderr:
            if "Serving on" in line:
                break
            if time.monotonic() > deadline:
                raise TimeoutError("mkdocs serve did not start")
        time.sleep(1.0)
        start = time.perf_counter()
        page.write_text(original + "\n", encoding="utf-8")
        for line in server.stderr:
            if "Reloading browsers" in line:
                return time.perf_counter() - start
            if time.monotonic() > deadline:
                break
        raise TimeoutError("mkdocs serve did not rebuild after the edit")
    finally:
        page.write_text(original, encoding="utf-8")
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="builds of each kind")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--no-serve", action="store_true", help="skip the serve rebuild")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        no_exec = _no_exec_config(tmp_path)
        full = [_build(ROOT / "mkdocs.yml", tmp_path / "full") for _ in range(args.repeat)]
        bare = [_build(no_exec, tmp_path / "bare") for _ in range(args.repeat)]
    result = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
                   f"{platform.python_version()}",
        "build_with_execution_s": statistics.median(full),
        "build_without_execution_s": statistics.median(bare),
        "ratio": statistics.median(full) / statistics.median(bare),
    }
    if not args.no_serve:
        result["rebuild_after_edit_s"] = _rebuild_under_serve()
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
