"""What an author sees when a block fails, and a serve that does not grow: probe sites."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
import yaml

from distlesson.site.plugin import label_exec_blocks

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _probe(root: Path, pages: dict[str, str]) -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    (root / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "probe", "strict": True, "plugins": ["distlesson", "markdown-exec"],
        "markdown_extensions": ["pymdownx.superfences"]}), encoding="utf-8")
    return root


BROKEN = """---
title: probe
---
# Probe

Some prose.

```python exec="on"
totals = {"a": 1}
print(totals["b"])
```
"""


def test_a_failing_block_names_its_file_line_and_error_in_one_screen(tmp_path):
    project = _probe(tmp_path, {"index.md": BROKEN})
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"],
                         cwd=project, env=ENV, capture_output=True, text=True)
    log = run.stdout + run.stderr
    assert run.returncode != 0
    assert "code block 'docs/index.md:8'" in log  # the fence's line, front matter counted
    assert '<code block: id docs/index.md:8>", line 2' in log  # the block's own line
    assert "KeyError: 'b'" in log
    report = log[log.index("docs/index.md:8"):]
    assert report.count("\n") < 40  # within one screen


def test_ids_only_on_executed_fences_without_one():
    md = ('```python exec="on"\nx\n```\n```python\ny\n```\n'
          '```python exec="on" id="kept"\nz\n```\n')
    labelled = label_exec_blocks(md, where="docs/p.md", first_line=10).split("\n")
    assert labelled[0] == '```python exec="on" id="docs/p.md:10"'
    assert labelled[3] == "```python"
    assert labelled[6] == '```python exec="on" id="kept"'


def _pages(blocks: int) -> dict[str, str]:
    body = "".join(f'\n```python exec="on"\nfrom distlesson.render.numbers import '
                   f'format_number\nprint(format_number({i}, "en"))\n```\n'
                   for i in range(blocks))
    return {"index.md": "# Probe\n" + body, "other.md": "# Other\n" + body}


def test_rebuilds_reach_a_plateau(tmp_path):
    """Ten rebuilds in one process, as mkdocs serve does: after the second, no module is
    added per block and the Python heap grows by less than 20 MB in all."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    project = _probe(tmp_path, _pages(25))
    config_file = str(project / "mkdocs.yml")

    def rebuild() -> None:
        config = load_config(config_file, site_dir=str(project / "site"))
        config.plugins.on_startup(command="serve", dirty=False)
        build(config)

    cwd = os.getcwd()
    os.chdir(project)
    try:
        rebuild()
        rebuild()
        gc.collect()
        modules = len(sys.modules)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(8):
            rebuild()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
    finally:
        os.chdir(cwd)
    assert len(sys.modules) == modules
    assert grown < 20e6, f"the heap grew by {grown / 1e6:.1f} MB over eight rebuilds"


@pytest.mark.parametrize("argv", [["memory", "--params", "-7e9"],
                                  ["memory", "--params", "-7B"],
                                  ["plan", "--model", "llama3-8b", "--gpus", "-8", "--seq",
                                   "8192", "--tokens-per-step", "1M"]])
def test_negative_numbers_get_the_clear_refusal(capsys, argv):
    from distlesson.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected one argument" not in err
    assert "positive" in err or "non-negative" in err  # what is allowed
    assert argv[argv.index(next(a for a in argv if a.startswith("-") and a[1:2].isdigit()))
                ] in err  # the value refused


class _CellError(Exception):
    """nbclient's CellExecutionError as the build meets it: its text, ename and evalue."""

    def __init__(self, text: str, ename: str, evalue: str):
        super().__init__(text)
        self.ename, self.evalue = ename, evalue


_NBCLIENT_TEXT = (
    "An error occurred while executing the following cell:\n------------------\n"
    "def f(a):\n    return a + 1\n\nassert f(x) == y + 5, f\"{f(x)!r} != {y + 5!r}\"\n"
    "------------------\n\n\n\x1b[31m----\x1b[39m\n\x1b[31mAssertionError\x1b[39m   Traceback\n"
    "\x1b[36mCell\x1b[39m\x1b[36m \x1b[39m\x1b[32mIn[2]\x1b[39m\x1b[32m, line 4\x1b[39m\n"
    "\x1b[32m----> \x1b[39m\x1b[32m4\x1b[39m assert f(x) == y + 5\n\n"
    "\x1b[31mAssertionError\x1b[39m: 2 != 7\n")
_LAB = ('# %% [markdown] lang="en"\n# # Probe\n\n# %%\nx, y = 1, 2\n\n# %%\n#[en] one more\n'
        '#[ca] un més\n#[fa] یکی بیشتر\ndef f(a):\n    return a + 1\n\n'
        'assert f(x) == y + 5, f"{f(x)!r} != {y + 5!r}"\n')


def test_a_failing_lab_names_the_source_line_and_the_values(tmp_path):
    from distlesson.site.labs import lab_failure

    (tmp_path / "labs").mkdir()
    (tmp_path / "labs" / "probe.py").write_text(_LAB, encoding="utf-8")
    error = _CellError(_NBCLIENT_TEXT, "AssertionError", "2 != 7")
    message = lab_failure(error, src_uri="labs/probe.fa.py", sources=tmp_path / "labs")
    assert message.splitlines() == [
        "labs/probe.py:14: AssertionError: 2 != 7",  # line 14 of the source, comments counted
        '    assert f(x) == y + 5, f"{f(x)!r} != {y + 5!r}"',
        "(the notebook docs/labs/probe.fa.py, line 4 of its cell)"]
    assert "\x1b" not in message


_FAILING_LAB = '''# %% [markdown] lang="en"
# # Probe

# %%
LOCALE = "en"

# %%
x, y = 1, 2
#[en] a comparison that fails
assert x + 1 == y + 5, f"{x + 1} != {y + 5}"
'''


def test_a_failing_lab_stops_a_real_build_in_three_lines(tmp_path):
    pytest.importorskip("nbclient")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Probe\n", encoding="utf-8")
    (tmp_path / "labs").mkdir()
    (tmp_path / "labs" / "probe.py").write_text(_FAILING_LAB, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "probe", "plugins": ["distlesson", {"mkdocs-jupyter": {
            "include": ["labs/*.py"], "execute": True, "allow_errors": False,
            "cache": False}}]}), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", "site"],
                         cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300)
    log = run.stdout + run.stderr
    assert run.returncode != 0
    assert "labs/probe.py:10: AssertionError: 2 != 7" in log
    assert "\x1b[" not in log and "Traceback" not in log


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(predicate, what: str, log: Path, timeout: float = 180.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
    raise AssertionError(f"waited {timeout:.0f} s for {what}; the log ends:\n{tail}")


GOOD = "# Probe\n\nThe page reads {word}.\n\n```python exec=\"on\"\nprint('block ran')\n```\n"


def test_serve_reports_an_error_stays_up_and_recovers(tmp_path):
    """Under mkdocs serve: a raising block, then an unknown placeholder, each reported with
    its file, line and reason; the server keeps serving, and the fixed page shows without a
    restart."""
    import time
    import urllib.request

    project = _probe(tmp_path, {"index.md": GOOD.format(word="fine")})
    port, log = _free_port(), tmp_path / "serve.log"
    page = project / "docs" / "index.md"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=project,
            env={**ENV, "PYTHONUNBUFFERED": "1"}, stdout=out, stderr=subprocess.STDOUT)
    try:
        def text() -> str:
            return log.read_text(encoding="utf-8", errors="replace")

        def served() -> str:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    return r.read().decode()
            except OSError:
                return ""

        _wait_for(lambda: "fine" in served(), "the first page", log)
        time.sleep(2)  # serve's polling watcher takes its first snapshot as it starts
        page.write_text(BROKEN, encoding="utf-8")
        _wait_for(lambda: "KeyError: 'b'" in text(), "the block's error", log)
        assert "code block 'docs/index.md:8'" in text()
        assert server.poll() is None, "serve stopped on a failing block"
        page.write_text("# Probe\n\nA figure: {{ no.such_figure }}.\n", encoding="utf-8")
        _wait_for(lambda: "unknown figure" in text(), "the placeholder's error", log)
        assert "docs/index.md:3: unknown figure {{ no.such_figure }}" in text()
        assert server.poll() is None, "serve stopped on an unknown placeholder"
        page.write_text(GOOD.format(word="mended"), encoding="utf-8")
        _wait_for(lambda: "mended" in served(), "the mended page", log)
        assert "block ran" in served()
    finally:
        server.terminate()
        server.wait(timeout=30)
