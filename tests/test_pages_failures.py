"""The chapter "Months on a cluster": its figures by hand, its tables, and the MFU chapter's
failure term built from the same inputs."""

import math

import pytest

from distlesson.pages import failures, mfu
from distlesson.site.figures import figure_registry


def value(name):
    return figure_registry()[name].value


def test_scenario_by_hand():
    # Llama 3: 54 x 86,400 / 419 = 11,135.08 s between unexpected interruptions
    mtbf = 54 * 86_400 / 419
    assert value("fail.mtbf_s") == pytest.approx(mtbf, rel=1e-12)
    assert value("fail.mtbf_hours") == pytest.approx(3.0931, abs=1e-4)
    # per GPU: 11,135.08 x 16,384 s = 5.78 years of 365.25 days
    assert value("fail.per_gpu_years") == pytest.approx(mtbf * 16_384 / 31_557_600)
    # the checkpoint: 14 B x 405,853,388,800 = 5.682 TB at 2 TB/s: 2.841 s
    delta = 14 * 405_853_388_800 / 2e12
    assert value("fail.write_s") == pytest.approx(delta, rel=1e-12)
    young = math.sqrt(2 * delta * mtbf)  # sqrt(2 x 2.841 x 11,135.08) = 251.5 s
    assert value("fail.young_s") == pytest.approx(251.53, abs=0.01)
    x = delta / (2 * mtbf)
    assert value("fail.daly_s") == pytest.approx(young * (1 + math.sqrt(x) / 3 + x / 9) - delta)
    # restart 300 s: first order 1 / (1 + 2.841 / 251.5 + (300 + 125.8) / 11,135.1)
    #   = 1 / (1 + 0.011295 + 0.038237) = 1 / 1.049532 = 0.952806
    assert value("fail.goodput_first_order") == pytest.approx(0.952806, abs=1e-6)
    # GPU rows of Table 5: 148 + 72 + 19 + 17 + 6 + 6 = 268 of 419; printed 58.7 %
    assert value("fail.gpu_share") == pytest.approx(268 / 419)
    assert value("fail.gpu_share_stated") == pytest.approx(0.587)


def test_the_mfu_chapter_uses_the_same_failure_inputs():
    model = mfu.INPUTS.failures
    assert model.write_time == pytest.approx(value("fail.write_s"), rel=1e-12)
    assert model.mtbf(16_384) == pytest.approx(value("fail.mtbf_s"), rel=1e-12)
    assert value("mfu.checkpoint_minutes") == pytest.approx(value("fail.young_s") / 60)


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_and_plots_render(locale):
    assert len(failures.causes_table(locale).splitlines()) == 2 + 18 + 1  # rows and total
    assert len(failures.checkpoint_table(locale).splitlines()) == 2 + 3
    for plot in (failures.mtbf_plot(locale), failures.goodput_plot(locale)):
        assert plot.startswith("<svg")
