"""The lab run for real: two Gloo ranks on this machine, every group of checks once.

Each measured value is asserted against a number derived here by hand, not only against
the library's value that the check carries: if torch or the library drifted together, the
hand derivation still fails. (The four-rank run is the page's: tests/test_pages_engine_lab.py.)
"""

import functools

import pytest

import distlesson.cli.engine as cli_engine
from distlesson.engine import EngineReport, run_checks
from tests import cli_run

pytest.importorskip("torch")


@functools.cache
def two_ranks() -> EngineReport:
    return run_checks(2)


@pytest.fixture(scope="module")
def checks():
    return two_ranks().by_key()


def test_every_check_behaves_as_the_library_predicts():
    report = two_ranks()
    failed = [(c.key, c.measured, c.library) for c in report.checks if not c.passed]
    assert not failed
    assert (report.backend, report.device, report.world_size) == ("gloo", "cpu", 2)
    assert len(report.checks) == 30
    # the only rows that expect a difference: the memory model's even split, both engines
    contrasts = {c.key for c in report.checks if not c.expect_equal}
    assert contrasts == {"zero1.even_split", "fsdp.uneven.even_split"}


def test_ddp_gradients_match_within_the_float32_tolerance(checks):
    for key in ("ddp.grad", "ddp.accum_grad", "zero1.moment", "zero1.update",
                "fsdp.even.grad", "fsdp.uneven.grad", "fsdp.even.update"):
        assert 0 <= checks[key].measured <= checks[key].tolerance == 1e-5


# The toy MLP 8 -> 16 -> 4: 8 x 16 + 16 + 16 x 4 + 4 = 212 parameters, 848 bytes in fp32.
def test_ddp_bytes_by_hand(checks):
    assert checks["ddp.payload"].measured == 848
    assert checks["ddp.accum_allreduces"].measured == 1
    assert checks["ddp.naive_allreduces"].measured == 4  # K = 4 micro-steps


def test_zero1_greedy_partition_by_hand(checks):
    # W1 (128) alone on rank 0; W2, b1, b2 (64 + 16 + 4 = 84) on rank 1; 2 fp32 moments each
    assert checks["zero1.per_rank"].measured == (128 * 8, 84 * 8)
    assert checks["zero1.total"].measured == 212 * 8
    assert checks["zero1.even_split"].library == (848.0, 848.0)
    assert checks["zero1.step_counters"].measured == (1 * 4, 3 * 4)  # a float32 per tensor


def test_fsdp_even_and_uneven_by_hand(checks):
    # even model 8 -> 8 -> 4: 64 + 8 + 32 + 4 = 108 parameters, 432 bytes, half per rank
    assert checks["fsdp.even.weights"].measured == (216, 216)
    assert checks["fsdp.even.grads"].measured == (216, 216)
    assert checks["fsdp.even.moments"].measured == (432, 432)
    # uneven 8 -> 5 -> 3, dim 0 cut 3 + 2 and 2 + 1 rows:
    # rank 0: W1 3 x 8, b1 3, W2 2 x 5, b2 2 = 39 values; rank 1: 16 + 2 + 5 + 1 = 24
    assert checks["fsdp.uneven.weights"].measured == (39 * 4, 24 * 4)
    assert checks["fsdp.uneven.moments"].measured == (39 * 8, 24 * 8)
    assert checks["fsdp.uneven.total"].measured == 63 * 4
    assert checks["fsdp.uneven.padded"].measured == (39 * 4, 39 * 4)  # the first piece
    assert checks["fsdp.uneven.even_split"].library == (126.0, 126.0)


def test_tensor_parallel_collectives(checks):
    assert checks["tp.forward_allreduces"].measured == "all_reduce x 1"
    assert checks["tp.backward_allreduces"].measured == "all_reduce x 1"
    # gate and up, one all-reduce each: predicted, not a contrast
    assert checks["tp.naive_backward"].measured == "all_reduce x 2"
    assert checks["tp.naive_backward"].library == "all_reduce x 2"
    assert checks["tp.output"].measured <= 1e-10 and checks["tp.grad_input"].measured <= 1e-10


def test_pipeline_orders_on_two_stages(checks):
    steady = " ".join(f"B{i} F{i + 2}" for i in range(6))
    assert checks["pipe.1f1b.order"].measured == (
        f"F0 F1 {steady} B6 B7", " ".join(f"F{i} B{i}" for i in range(8)))
    # GPipe: every forward, then the backwards B0 ... B7 (torch's loop counts up); the
    # library's own table has them B7 ... B0, the check predicts torch's order from it
    forwards, backwards = (" ".join(f"{kind}{i}" for i in range(8)) for kind in "FB")
    assert checks["pipe.gpipe.order"].measured == (f"{forwards} {backwards}",) * 2
    assert checks["pipe.gpipe.order"].library == (f"{forwards} {backwards}",) * 2
    # (m + p - 1)(forward + backward) = (8 + 1) x 3, whichever order the backwards take
    assert checks["pipe.gpipe.makespan"].measured == 27


def test_times_are_measured_and_bounded():
    report = two_ranks()
    assert 0 < report.wall_seconds < 600  # a bound for a shared 2-core machine
    assert set(report.check_seconds) == {"ddp", "zero1", "fsdp", "tp", "pipeline"}
    assert all(0 <= s < report.wall_seconds for s in report.check_seconds.values())


def test_cli_prints_one_json_object_and_a_table(monkeypatch, capsys):
    monkeypatch.setattr(cli_engine, "run_checks", lambda world_size, groups: two_ranks())
    result = cli_run.run_json(capsys, "engine")
    assert result["passed"] is True and result["world_size"] == 2
    payload = next(c for c in result["checks"] if c["key"] == "ddp.payload")
    assert (payload["unit"], payload["measured"], payload["library"]) == ("bytes", 848, 848)
    status, out, _ = cli_run.run(capsys, "engine")
    assert status == 0
    assert "30 of 30 checks as expected" in out
    assert "zero1.per_rank" in out and "1,024 B / 672 B" in out
    assert "stage 0  torch   F0 F1 B0 F2" in out


def test_a_failing_rank_reports_its_traceback():
    """A rank that raises ends the run with one RuntimeError that carries the rank's own
    traceback (here the suite's refusal of an unknown group, which run_checks would have
    refused before starting anything)."""
    from distlesson.engine.launch import spawn_checks

    with pytest.raises(RuntimeError, match=r"(?s)engine rank \d of 2 failed:.*"
                                           r"ValueError: unknown check groups \['nope'\]"):
        spawn_checks(2, ("nope",), timeout=120)


def test_the_caller_never_imports_torch():
    """Only the ranks (and the fork server they come from) import torch: a build starts the
    run from a thread, where torch's import would race the pages' use of ast (CPython
    gh-106905)."""
    import subprocess
    import sys

    code = ("import sys\nfrom distlesson.engine import run_checks\n"
            "if __name__ == '__main__':\n"
            "    assert run_checks(2, groups=('ddp',)).passed\n"
            "    assert 'torch' not in sys.modules, 'the caller imported torch'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
