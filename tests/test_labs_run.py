"""The labs run: each executes without error in a fresh kernel, and the build never serves
outputs computed from an older library.

mkdocs-jupyter can cache a notebook's rendering, keyed on the notebook's bytes and its own
options, not on what the notebook imports: with the cache on, an edit to ``distlesson``
would leave a lab's outputs stale. The freshness test builds a one-notebook site with the
project's own mkdocs-jupyter options, changes a module the notebook imports (not the
notebook), builds again and expects the new value; the control run, the same with the
cache turned on, shows the stale value, so the test can tell the two apart.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.pages import ROOT, lab_names, lab_path

nbclient = pytest.importorskip("nbclient")
jupytext = pytest.importorskip("jupytext")


@pytest.mark.parametrize("name", lab_names())
def test_lab_executes_without_error(name):
    """English only: the other languages run the same code cells (tests/test_labs.py), and
    the strict build runs all of them with allow_errors off."""
    notebook = jupytext.read(lab_path(name, "en"))
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120,
                            allow_errors=False, resources={"metadata": {"path": str(ROOT)}}
                            ).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code"
               for o in cell.get("outputs", [])]
    assert outputs, f"{name}: no output"
    errors = [o for o in outputs if o.output_type == "error"
              or (o.output_type == "stream" and o.name == "stderr")]
    assert not errors, f"{name}: {errors[:1]}"


def _project_jupyter_options() -> dict:
    """The mkdocs-jupyter options of mkdocs.yml, as the site's build uses them."""

    class _Loader(yaml.SafeLoader):
        pass

    _Loader.add_multi_constructor("!", lambda loader, tag, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocs-jupyter" in plugin:
            return dict(plugin["mkdocs-jupyter"])
    raise AssertionError("mkdocs.yml does not configure mkdocs-jupyter")


_NOTEBOOK = """# %% [markdown]
# # Probe

# %%
import probe_library
print("library says", probe_library.VALUE)
"""


def _build_twice(project: Path, options: dict) -> tuple[str, str]:
    """Build a site whose lab prints a value of ``probe_library``; change the value (and
    not the notebook); build again. The two pages' HTML."""
    (project / "docs" / "labs").mkdir(parents=True)
    (project / "docs" / "index.md").write_text("# Probe\n")
    (project / "docs" / "labs" / "probe.en.py").write_text(_NOTEBOOK)
    (project / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "probe", "theme": {"name": "mkdocs"},
        "plugins": [{"mkdocs-jupyter": options}],
    }))
    # the site's kernel spec (distlesson-quiet), which the distlesson plugin adds at build
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1",
           "JUPYTER_PATH": str(ROOT / "distlesson" / "site" / "jupyter")}
    pages = []
    for value in ("first value", "second, edited value"):
        (project / "probe_library.py").write_text(f"VALUE = {value!r}\n")
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", "site"],
                       cwd=project, env=env, check=True, capture_output=True)
        pages.append((project / "site" / "labs" / "probe.en" / "index.html").read_text(
            encoding="utf-8"))
    return pages[0], pages[1]


def test_an_edit_to_the_library_reaches_the_next_build(tmp_path):
    first, second = _build_twice(tmp_path, _project_jupyter_options())
    assert "library says first value" in first
    assert "library says second, edited value" in second


def test_control_with_the_cache_on_the_output_goes_stale(tmp_path):
    first, second = _build_twice(tmp_path, {**_project_jupyter_options(), "cache": True})
    assert "library says first value" in first
    assert "library says first value" in second  # what the test above would catch

