"""scripts/_site.sh: a failed build keeps the last good site/, a good one replaces it."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A stand-in for Python: "mkdocs build" writes a page into --site-dir, or fails.
FAKE = """#!/usr/bin/env bash
while [ "$#" -gt 0 ]; do
  if [ "$1" = "--site-dir" ]; then echo "$BUILD" > "$2/index.html"; fi
  shift
done
[ "$BUILD" != "broken" ]
"""


def _build(folder: Path, outcome: str) -> subprocess.CompletedProcess:
    script = f'ROOT="{folder}"; PY="{folder}/fake-python"; source "{ROOT}/scripts/_site.sh"; ' \
             "build_site"
    return subprocess.run(["bash", "-c", script], cwd=folder, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "BUILD": outcome})


def test_a_failed_build_keeps_the_last_good_site(tmp_path):
    fake = tmp_path / "fake-python"
    fake.write_text(FAKE)
    fake.chmod(0o755)
    assert _build(tmp_path, "first").returncode == 0
    assert (tmp_path / "site" / "index.html").read_text().strip() == "first"
    failed = _build(tmp_path, "broken")
    assert failed.returncode != 0 and "last good build" in failed.stderr
    assert (tmp_path / "site" / "index.html").read_text().strip() == "first"
    assert not list(tmp_path.glob(".site-build.*"))  # the failed attempt is cleaned up
    assert _build(tmp_path, "second").returncode == 0
    assert (tmp_path / "site" / "index.html").read_text().strip() == "second"
