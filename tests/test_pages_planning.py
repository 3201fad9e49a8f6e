"""The planning section: the planner's three worked cases."""

import pytest

from distlesson.pages import planning as page

N8 = 8_030_261_248


def figure(name):
    return {f.name: f for f in page.figures()}[name].value


def test_measured_search_time_is_within_bounds():
    assert 0 < figure("plan.seconds_405b") < 10  # a bound for a 2-core machine


def test_small_model_uses_data_parallelism_only():
    assert [figure(f"plan.8b_best_{d}") for d in ("dp", "tp", "pp", "cp")] == [8, 1, 1, 1]


def test_8b_best_memory_by_hand():
    result, _ = page._plan("8b")
    best = result.configs[0]
    assert (best.zero, best.recompute) == (2, "selective")
    # ZeRO-2 over 8: bf16 weights whole, the other 14 bytes per parameter / 8;
    # selective recomputation without tp: 34 s b h bytes per layer, 32 layers, 1 in flight
    states = 2 * N8 + 14 * N8 / 8
    activations = 34 * 8192 * 4096 * 32
    assert best.per_gpu_bytes == pytest.approx(states + activations, rel=1e-12)


def test_big_model_uses_model_parallelism():
    assert figure("plan.405b_best_tp") in (2, 4, 8)
    assert figure("plan.405b_best_pp") > 1
    assert figure("plan.405b_best_mfu") > figure("plan.llama3_mfu")


@pytest.mark.parametrize("case", list(page.CASES))
@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables(case, locale):
    rows = page.plan_table(case, locale).splitlines()
    assert len(rows) == 2 + page.TOP
    result, _ = page._plan(case)
    reasons = page.rejections_table(case, locale).splitlines()
    assert len(reasons) == 2 + len(result.rejected)
    assert sum(result.rejected.values()) == figure(f"plan.{case}_rejected")


def test_every_ranked_config_fits_and_sums():
    for case in page.CASES:
        result, _ = page._plan(case)
        assert all(c.fits for c in result.configs)
        assert all(c.dp * c.tp * c.pp * c.cp == page.CASES[case].gpus for c in result.configs)
