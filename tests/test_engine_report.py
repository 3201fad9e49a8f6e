"""The lab's results and entry points without starting ranks: the pass logic of a check,
the JSON round trip, input validation, and what happens without torch."""

import importlib.util
import json
import subprocess
import sys

import pytest

import distlesson.engine.__main__ as engine_main
from distlesson.engine import (
    GROUPS,
    INSTALL_HINT,
    Check,
    EngineReport,
    TorchMissingError,
    require_torch,
    run_checks,
)
from tests import cli_run
from tests.pages import ROOT


def test_exact_check_agrees_only_on_equal_values():
    assert Check("a.b", "", "bytes", 848, 848).passed
    assert not Check("a.b", "", "bytes", 848, 849).passed
    assert Check("a.b", "", "bytes", (1, 2), (1, 2)).agrees
    assert not Check("a.b", "", "bytes", (1, 2), (1, 3)).agrees
    assert not Check("a.b", "", "bytes", (1, 2), (1, 2, 3)).agrees
    assert Check("a.b", "", "ops", ("F0 B0",), ("F0 B0",)).agrees
    assert not Check("a.b", "", "ops", ("F0 B0",), ("B0 F0",)).agrees


def test_tolerance_and_contrast_rows():
    assert Check("a.b", "", "abs_error", 4e-8, 0.0, 1e-5).passed
    assert not Check("a.b", "", "abs_error", 2e-5, 0.0, 1e-5).passed
    assert not Check("a.b", "", "abs_error", float("nan"), 0.0, 1e-5).agrees
    # a contrast row passes when the values differ, and fails when they agree
    contrast = Check("a.b", "", "bytes", (1024, 672), (848.0, 848.0), expect_equal=False)
    assert not contrast.agrees and contrast.passed
    assert not Check("a.b", "", "bytes", 1, 1, expect_equal=False).passed


def test_check_refuses_mixed_shapes_and_negative_tolerance():
    with pytest.raises(ValueError, match="both be tuples"):
        Check("a.b", "", "bytes", (1, 2), 3)
    with pytest.raises(ValueError, match="tolerance"):
        Check("a.b", "", "abs_error", 0.0, 0.0, -1.0)


def test_report_round_trips_through_json():
    checks = (Check("ddp.payload", "payload", "bytes", 848, 848),
              Check("x.y", "contrast", "bytes", (1, 2), (1.5, 1.5), expect_equal=False,
                    note="why"),
              Check("x.z", "failing", "count", 2, 1))
    report = EngineReport("2.13.0+cpu", "gloo", "cpu", 2, 2, 6.5, {"ddp": 0.1}, checks,
                          ("a note",))
    data = json.loads(json.dumps(report.as_dict()))
    assert data["passed"] is False  # x.z fails
    assert [c["passed"] for c in data["checks"]] == [True, True, False]
    again = EngineReport.from_dict(data)
    assert again == report
    assert again.by_key()["x.y"].measured == (1, 2)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"world_size": 1}, "world_size=1; allowed: 2 to 8"),
    ({"world_size": 9}, "world_size=9; allowed: 2 to 8"),
    ({"world_size": 2, "groups": ["ddp", "bogus"]}, "allowed: one or more of ddp"),
    ({"world_size": 2, "groups": []}, "allowed: one or more of"),
    ({"niceness": 20}, r"niceness=20; allowed: a whole number from 0 to 19"),
    ({"niceness": -1}, r"niceness=-1; allowed"),
    ({"niceness": 1.5}, r"niceness=1.5; allowed"),
])
def test_run_checks_validates_before_starting_anything(kwargs, message):
    with pytest.raises(ValueError, match=message):
        run_checks(**kwargs)


def test_missing_torch_is_one_clear_error(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real(name, *a))
    with pytest.raises(TorchMissingError, match=r"distlesson\[labs\]"):
        require_torch()


def test_cli_without_torch_prints_how_to_install_and_exits_2(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real(name, *a))
    status, out, err = cli_run.run(capsys, "engine")
    assert status == 2 and out == ""
    assert err == f"distlesson engine: error: {INSTALL_HINT}\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["--world-size", "1"], "--world-size='1'; allowed: 2 to 8"),
    (["--world-size", "two"], "--world-size='two'; allowed: 2 to 8"),
    (["--checks", "zero3"], "invalid choice: 'zero3'"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = cli_run.run(capsys, "engine", *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_cli_under_torchrun_points_to_the_module(monkeypatch, capsys):
    for name, value in (("RANK", "0"), ("WORLD_SIZE", "2"), ("LOCAL_RANK", "0"),
                        ("MASTER_ADDR", "127.0.0.1"), ("MASTER_PORT", "29500")):
        monkeypatch.setenv(name, value)
    status, _, err = cli_run.run(capsys, "engine")
    assert status == 2 and "python -m distlesson.engine" in err
    # the module refuses a --world-size that disagrees with torchrun's, before any group
    assert engine_main.main(["--world-size", "3"]) == 2
    assert "WORLD_SIZE=2" in capsys.readouterr().err


def test_groups_name_the_check_modules():
    from distlesson.engine.suite import MODULES

    assert tuple(MODULES) == GROUPS
    for module in MODULES.values():
        assert (ROOT / "distlesson" / "engine" / f"{module}.py").exists()


def test_library_cli_and_page_import_without_torch():
    # a fresh interpreter in which torch cannot be imported at all
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import distlesson, distlesson.engine, distlesson.cli, distlesson.pages.engine_lab\n"
        "figures = {f.name: f.value for f in distlesson.pages.engine_lab.figures()}\n"
        "assert figures['engine.toy_params'] == 212\n"
        "from distlesson.cli import main\n"
        "raise SystemExit(main(['engine']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"distlesson engine: error: {INSTALL_HINT}\n"


def test_cli_exits_1_when_a_check_fails(monkeypatch, capsys):
    import distlesson.cli.engine as cli_engine
    failing = EngineReport("2.13.0+cpu", "gloo", "cpu", 2, 2, 1.0, {"ddp": 0.1},
                           (Check("ddp.payload", "payload", "bytes", 848, 849),), ())
    monkeypatch.setattr(cli_engine, "run_checks", lambda world_size, groups: failing)
    status, out, _ = cli_run.run(capsys, "engine")
    assert status == 1
    assert "FAILED" in out and "0 of 1 checks as expected; failed: ddp.payload" in out
