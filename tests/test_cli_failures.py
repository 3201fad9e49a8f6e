"""``distlesson failures``: Llama 3's observed MTBF and the intervals, by hand."""

import pytest

from tests.cli_run import run, run_json


def test_llama3_done_when(capsys):
    # MTBF = 54 x 86,400 / 419 = 4,665,600 / 419 = 11,135.08 s;
    # Young = sqrt(2 x 20 x 11,135.08) = sqrt(445,403.3) = 667.39 s;
    # Daly: x = 20 / 22,270.17 = 8.9806e-4; 667.39 x (1 + sqrt(x)/3 + x/9) - 20
    #     = 667.39 x 1.010089 - 20 = 654.12 s.
    out = run_json(capsys, "failures", "--gpus", "16384", "--interruptions", "419",
                   "--days", "54", "--checkpoint-s", "20")
    assert out["mtbf_s"] == pytest.approx(11_135.08, rel=1e-6)
    assert out["young_interval_s"] == pytest.approx(667.4, rel=0.01)
    assert out["young_interval_s"] == pytest.approx(667.39, abs=0.01)
    assert out["daly_interval_s"] == pytest.approx(654.12, abs=0.01)
    assert out["per_gpu_mtbf_s"] == pytest.approx(11_135.08 * 16384, rel=1e-6)
    # first order at Young's interval, no restart: 1 / (1 + sqrt(2 x 20 / 11,135.08))
    #   = 1 / 1.059935 = 0.943453
    assert out["goodput_first_order"] == pytest.approx(0.943453, abs=1e-6)
    assert 0.9 < out["goodput"] < out["goodput_first_order"]


def test_mtbf_given(capsys):
    # M = 1000, delta = 10: Young sqrt(20,000) = 141.42; restart 100 s lowers the goodput
    out = run_json(capsys, "failures", "--gpus", "8", "--mtbf-s", "1000", "--checkpoint-s",
                   "10", "--restart-s", "100")
    assert out["young_interval_s"] == pytest.approx(141.42, abs=0.01)
    assert out["per_gpu_mtbf_s"] == 8000
    assert out["goodput"] < run_json(capsys, "failures", "--gpus", "8", "--mtbf-s", "1000",
                                     "--checkpoint-s", "10")["goodput"]


@pytest.mark.parametrize("argv", [
    ["--gpus", "8", "--checkpoint-s", "10"],  # neither form
    ["--gpus", "8", "--mtbf-s", "100", "--interruptions", "3", "--days", "1",
     "--checkpoint-s", "10"],  # both
    ["--gpus", "8", "--interruptions", "3", "--checkpoint-s", "10"],  # no --days
    ["--gpus", "8", "--mtbf-s", "100", "--days", "1", "--checkpoint-s", "10"],
    ["--gpus", "8", "--mtbf-s", "100"],  # no --checkpoint-s
    ["--gpus", "8", "--interruptions", "3", "--days", "1e6", "--checkpoint-s", "10"],
])
def test_bad_forms_get_one_line(capsys, argv):
    status, out, err = run(capsys, "failures", *argv)
    assert status == 2 and not out
    assert err.count("\n") == 1 and "Traceback" not in err
