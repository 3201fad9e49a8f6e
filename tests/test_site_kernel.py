"""The labs' kernel: plain ipykernel, without the log line a build cannot act on."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from distlesson.site.plugin import PACKAGE_DIR

RUN_ONE_CELL = """
import nbformat
from nbclient import NotebookClient
notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
NotebookClient(notebook, kernel_name={kernel!r}, timeout=120).execute()
print("output:", notebook.cells[0].outputs[0]["text"].strip())
"""


def _run(kernel: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "JUPYTER_PATH": str(PACKAGE_DIR / "site" / "jupyter")}
    return subprocess.run([sys.executable, "-c", RUN_ONE_CELL.format(kernel=kernel)],
                          env=env, capture_output=True, text=True, timeout=300, check=True)


@pytest.mark.parametrize(("kernel", "warns"), [("python3", True),
                                               ("distlesson-quiet", False)])
def test_the_quiet_kernel_runs_cells_without_the_tcp_warning(kernel, warns):
    run = _run(kernel)
    assert "output: 42" in run.stdout
    # the stock kernel prints the warning (so this test can fail); ours does not
    assert ("running over TCP without encryption" in run.stderr) is warns


def test_the_site_runs_its_labs_in_the_quiet_kernel():
    import yaml

    class _Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml's !ENV and python tags are not needed for this one key
    _Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((PACKAGE_DIR.parent / "mkdocs.yml").read_text(), Loader=_Loader)
    jupyter = next(p["mkdocs-jupyter"] for p in config["plugins"]
                   if isinstance(p, dict) and "mkdocs-jupyter" in p)
    assert jupyter["kernel_name"] == "distlesson-quiet"
    assert (PACKAGE_DIR / "site" / "jupyter" / "kernels" / "distlesson-quiet" /
            "kernel.json").is_file()
