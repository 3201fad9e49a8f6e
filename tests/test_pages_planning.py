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
    assert (best.zero, best.recompute) == (2, "none")
    # ZeRO-2 over 8: bf16 weights whole, the other 14 bytes per parameter / 8
    states = 2 * N8 + 14 * N8 / 8
    # a Llama layer keeps 12h + 4kv + 4a + 6f + 8 bytes a token (memory.layer_activations):
    # h 4096, kv 1024, a 32, f 14336; 32 layers, one micro-batch of 8192 tokens in flight
    activations = 8192 * 32 * (12 * 4096 + 4 * 1024 + 4 * 32 + 6 * 14336 + 8)
    logits = 8192 * (2 + 4) * 128256  # bf16 logits and the fp32 softmax
    # 5% fragmentation, 1 GB CUDA context, 1 GB NCCL buffers (memory.stages.Overheads)
    total = (states + activations + logits) / 0.95 + 2e9
    assert best.per_gpu_bytes == pytest.approx(total, rel=1e-12)


def test_metas_layout_is_the_accuracy_chapters_prediction():
    from distlesson.efficiency.accuracy import predict

    own = predict(page.LLAMA3_RUN)
    assert figure("plan.llama3_mfu") == own.estimate.mfu
    assert figure("plan.llama3_chunks") == own.chunks
    assert figure("plan.best_over_llama3") <= 1.10  # issue 13's target


def test_big_model_uses_model_parallelism():
    assert figure("plan.405b_best_tp") in (2, 4, 8)
    assert figure("plan.405b_best_pp") > 1
    assert figure("plan.405b_best_mfu") >= 0.9 * figure("plan.llama3_mfu")


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


def test_70b_prose_describes_the_winner():
    # the prose says: tensor parallelism inside a server, ZeRO-sharded data parallelism, no
    # pipeline and no context parallelism; a different winner must change the prose
    assert figure("plan.70b_best_tp") in (2, 4, 8)
    assert figure("plan.70b_best_zero") >= 1
    assert (figure("plan.70b_best_pp"), figure("plan.70b_best_cp")) == (1, 1)
    result, _ = page._plan("70b")
    assert result.configs[1].pp > 1  # "the layouts just behind it add a pipeline"


def test_tables_show_mfu_and_hfu_not_fit():
    header = page.plan_table("70b", "en").splitlines()[0]
    assert header.rstrip(" |").endswith("MFU | HFU") and "Fits" not in header
