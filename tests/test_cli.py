"""The command line, in-process through main() and once as ``python -m distlesson``."""

import json
import subprocess
import sys

import pytest

from distlesson.cli import format_figure, resolve_placeholders
from tests.cli_run import run, run_json


def test_help_lists_subcommands(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "memory" in out and "claims" in out


def test_memory_llama3_70b(capsys):
    result = run_json(capsys, "memory", "--model", "llama3-70b")
    n = 70_553_706_496
    assert result["params"] == n
    assert result["total_bytes"] == n * 16
    assert result["bytes_per_param"] == 16
    assert result["breakdown"] == {"weights": 2 * n, "grads": 2 * n, "master": 4 * n,
                                   "optimizer": 8 * n}
    assert result["per_gpu_bytes"] == n * 16
    assert result["min_gpus"] == 15  # 1128.86 GB / 80 GB = 14.1
    assert result["model"] == "llama3-70b" and result["gpu"] == "h100-sxm"


def test_memory_zero1_over_64(capsys):
    result = run_json(capsys, "memory", "--params", "7.5e9", "--dp", "64", "--zero", "1")
    assert result["per_gpu_bytes"] == 7.5e9 * (2 + 2) + 7.5e9 * 12 / 64
    assert result["min_gpus"] == 2  # 120e9 / 80e9 = 1.5
    assert result["total_bytes"] == 120e9
    assert result["per_gpu_breakdown"]["master"] == 7.5e9 * 4 / 64
    assert (result["dp"], result["zero"], result["tp"], result["pp"]) == (64, 1, 1, 1)


def test_memory_70b_suffix_and_presets(capsys):
    result = run_json(capsys, "memory", "--params", "70B", "--precision", "mixed-no-master",
                      "--optimizer", "adamw", "--dp", "8", "--zero", "3")
    assert result["total_bytes"] == 70e9 * 12
    assert result["per_gpu_bytes"] == 70e9 * 12 / 8
    assert result["fits"] is False  # 105 GB > 80 GB
    assert result["min_gpus"] == 11


def test_memory_adafactor_with_model_and_tp_pp(capsys):
    result = run_json(capsys, "memory", "--model", "llama3-8b", "--optimizer", "adafactor",
                      "--tp", "8", "--pp", "4", "--gpu", "a100-80gb")
    assert result["per_gpu_bytes"] == pytest.approx(result["total_bytes"] / 32, rel=1e-15)
    assert result["gpu_memory_bytes"] == 80e9


def test_memory_table_is_readable(capsys):
    status, out, _ = run(capsys, "memory", "--params", "70B")
    assert status == 0
    assert "1,120.0 GB" in out and "optimizer" in out


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["memory", "--model", "llama3-70x"], "--model"),
        (["memory", "--params", "7B", "--zero", "5"], "--zero"),
        (["memory", "--params", "7B", "--dp", "0"], "--dp"),
        (["memory", "--params", "70X"], "--params"),
        (["memory", "--params", "-7B"], "--params"),
        (["memory", "--params", "0"], "--params"),
        (["memory", "--model", "llama3-70b", "--tp", "3"], "tp=3"),
        (["memory", "--params", "7B", "--optimizer", "adafactor"], "--model"),
        (["memory", "--params", "7B", "--model", "llama3-8b"], "--model"),
        (["memory"], "--params"),
        (["memory", "--params", "7B", "--gpu", "tpu"], "--gpu"),
        ([], "SUBCOMMAND"),
        (["nonsense"], "SUBCOMMAND"),
    ],
)
def test_bad_input_is_one_line_and_status_two(capsys, argv, names):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert names in err
    assert "Traceback" not in err


def test_claims_json(capsys):
    result = run_json(capsys, "claims")
    rows = {row["id"]: row for row in result["claims"]}
    for row in rows.values():
        assert {"id", "source", "stated", "computed", "agrees", "why"} <= set(row)
        assert "{{" not in row["why"] and "{{" not in row["statement"]
    assert rows["ca_gpus_to_hold"]["computed"] == 14
    assert rows["ca_gpus_to_hold"]["agrees"] is True
    assert rows["fa_adam_moments"]["computed"] == 56e9
    assert rows["fa_adam_moments"]["agrees"] is False
    assert "56 GB" in rows["fa_adam_moments"]["why"]


def test_plain_formatter():
    assert format_figure(1.12e12, "bytes") == "1.12 TB"
    assert format_figure(84e9, "bytes") == "84 GB"
    assert format_figure(14, "count") == "14"
    assert format_figure(0.25, "fraction") == "25%"
    assert format_figure(10.03125, "bytes_per_param") == "10.03 bytes"
    assert format_figure(450e9, "bytes_per_second") == "450 GB/s"  # NVLink 4, one way
    figures = {"claim.x.stated": (7e9, "count")}
    assert resolve_placeholders("a {{ claim.x.stated }} b", figures) == "a 7,000,000,000 b"
    with pytest.raises(ValueError, match=r"claim\.y\.stated"):
        resolve_placeholders("{{ claim.y.stated }}", figures)


def test_python_dash_m():
    completed = subprocess.run(
        [sys.executable, "-m", "distlesson", "memory", "--params", "70B", "--json"],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["total_bytes"] == 70e9 * 16
    failed = subprocess.run(
        [sys.executable, "-m", "distlesson", "memory", "--zero", "5", "--params", "7B"],
        capture_output=True, text=True, check=False,
    )
    assert failed.returncode == 2
    assert failed.stderr.count("\n") == 1 and "--zero" in failed.stderr
