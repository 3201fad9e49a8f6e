"""The cost half of the planning chapter: published runs and the exercise, by hand."""

import pytest

from distlesson.pages import costs
from distlesson.site.figures import figure_registry


def value(name):
    return figure_registry()[name].value


def test_published_runs_by_hand():
    assert value("cost.deepseek_usd") == pytest.approx(2.788e6 * 2.0)  # its own $2
    assert value("cost.llama_usd") == pytest.approx(30.84e6 * 3.5)  # the lesson's H100 price
    # 3.8e25 FLOPs over 30.84M hours of 989e12 FLOP/s
    assert value("cost.llama_mfu") == pytest.approx(3.8e25 / (30.84e6 * 3600 * 989e12))
    # the paper's FLOPs at its highest and lowest MFU
    assert value("cost.llama_low_usd") == pytest.approx(3.8e25 / (0.43 * 989e12 * 3600) * 3.5)
    assert value("cost.llama_high_usd") == pytest.approx(3.8e25 / (0.38 * 989e12 * 3600) * 3.5)
    assert value("cost.gpu_ratio") == 16384 / 2048
    assert value("cost.flops_ratio") == pytest.approx(989 / 312)
    assert value("cost.price_ratio") == 3.5 / 2.0


def test_exercise_by_hand():
    # Llama 3 8B, 20 tokens per parameter: 6 N T FLOPs at 40 % of an H100, at $3.50 an hour
    n = 8_030_261_248
    hours = 6 * n * 20 * n / (0.4 * 989e12) / 3600
    _, tokens, flops, per_gpu = costs._exercise_rows()[0]
    assert tokens == 20 * n and flops == 6 * n * 20 * n
    assert per_gpu["h100-sxm"] == pytest.approx((hours, hours * 3.5))


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_render(locale):
    assert len(costs.runs_table(locale).splitlines()) == 2 + 2
    assert len(costs.exercise_table(locale).splitlines()) == 2 + len(costs.EXERCISE)
