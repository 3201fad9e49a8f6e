"""The planner: only buildable layouts, the same numbers as the step model, its answers."""

import time
from dataclasses import replace

import pytest

from distlesson.catalog.models import get_model
from distlesson.catalog.published_runs import get_published_run
from distlesson.efficiency.accuracy import predict
from distlesson.efficiency.planner import evaluate, plan
from distlesson.efficiency.step_time import Cluster, StepInputs, estimate_step
from distlesson.memory.stages import stage_layers
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload

LLAMA405 = get_model("llama3-405b")
RUN = get_published_run("llama3-405b-16k")  # Meta's cluster, batch and software
META = Cluster(gpu="h100-sxm", num_gpus=16384, inter_link="roce-400")
INPUTS = StepInputs(failures=None)
OPTIONS = dict(inputs=INPUTS, precision=RUN.precision)


@pytest.fixture(scope="module")
def big():
    start = time.perf_counter()
    result = plan(LLAMA405, META, seq_len=8192, tokens_per_step=RUN.global_batch * 8192,
                  **OPTIONS)
    return result, time.perf_counter() - start


def test_search_is_fast(big):
    result, seconds = big
    assert seconds < 15  # a bound for a busy 2-core machine; benchmarks/ has the figure
    assert len(result.configs) > 100


def test_every_config_can_be_built(big):
    result, _ = big
    for c in result.configs:
        assert 8 % c.tp == 0 and 128 % c.tp == 0 and 8 % c.tp == 0  # heads 128, kv 8
        assert 8192 % (2 * c.cp) == 0 or c.cp == 1
        assert c.pp * c.chunks <= LLAMA405.num_layers
        assert min(stage_layers(LLAMA405.num_layers, c.pp)) % c.chunks == 0
        if c.schedule == "interleaved":
            assert c.num_microbatches % c.pp == 0 and c.chunks >= 2


def test_ranked_by_time_per_token_and_all_fit(big):
    result, _ = big
    per_token = [c.step_time / c.tokens_per_step for c in result.configs]
    assert per_token == sorted(per_token)
    assert all(c.fits and c.per_gpu_bytes <= 80e9 for c in result.configs)
    assert all(c.dp * c.tp * c.pp * c.cp == 16384 for c in result.configs)
    assert all(abs(c.tokens_per_step - 16 * 2**20) <= 0.05 * 16 * 2**20
               for c in result.configs)


def test_the_best_is_not_rated_far_above_metas_own_layout(big):
    """Issue 13's target: within 10% of Meta's layout as the model predicts it."""
    result, _ = big
    meta = predict(RUN).estimate
    assert result.configs[0].mfu <= 1.10 * meta.mfu
    assert result.configs[0].hfu >= result.configs[0].mfu


def test_the_planner_uses_the_step_model(big):
    result, _ = big
    for config in result.configs[::997]:
        workload = Workload(seq_len=8192, micro_batch=1, recompute=config.recompute,
                            global_batch=config.dp * config.num_microbatches,
                            precision=RUN.precision)
        inputs = replace(INPUTS, schedule=config.schedule, chunks=config.chunks)
        direct = estimate_step(LLAMA405, config.layout, workload, META, inputs)
        assert config.step_time == direct.step_time
        assert config.per_gpu_bytes == direct.per_gpu_bytes


def test_rejections_are_counted_with_reasons(big):
    result, _ = big
    assert set(result.rejected) <= {"tp_node", "tp_shape", "pp_layers", "cp_seq", "batch",
                                    "memory"}
    assert result.rejected["tp_node"] > 0 and result.rejected["memory"] > 0
    assert "tp=16 must divide gpus_per_node=8" in result.examples["tp_node"]
    assert "must not exceed num_layers=126" in result.examples["pp_layers"]


def test_interleaving_is_searched(big):
    result, _ = big
    assert {c.schedule for c in result.configs} == {"1f1b", "interleaved"}


def test_a_batch_of_sixteen_million_tokens_can_still_interleave_metas_layout():
    # 16e6 tokens on dp 128 of 8,192-token sequences: 16e6 / (128 x 8192) = 15.26, nearest
    # 15, not a multiple of pp 16; the nearest multiple, 16, makes 16,777,216 tokens, 4.9%
    # over, within the 5% tolerance: both counts are tried, and only 16 can interleave
    result = evaluate(LLAMA405, META, Layout(dp=128, tp=8, pp=16, zero=1), seq_len=8192,
                      tokens_per_step=16e6, **OPTIONS)
    counts = {(c.num_microbatches, c.schedule) for c in result.configs}
    assert (15, "1f1b") in counts and (16, "interleaved") in counts
    assert not any(m == 15 and s == "interleaved" for m, s in counts)
    assert {c.tokens_per_step for c in result.configs} == {15 * 128 * 8192, 16 * 128 * 8192}


def test_small_model_prefers_data_parallelism():
    arch = get_model("llama3-8b")
    result = plan(arch, Cluster(gpu="h100-sxm", num_gpus=8), seq_len=8192,
                  tokens_per_step=128 * 8192)
    best = result.configs[0]
    assert (best.tp, best.pp, best.cp) == (1, 1, 1) and best.dp == 8


def test_evaluate_ranks_what_does_not_fit_last():
    arch = get_model("llama3-70b")
    cluster = Cluster(gpu="h100-sxm", num_gpus=64)
    result = evaluate(arch, cluster, Layout(dp=8, tp=4, pp=2, zero=1), seq_len=8192,
                      tokens_per_step=256 * 8192)
    fits = [c.fits for c in result.configs]
    assert fits == sorted(fits, reverse=True)  # all True before any False
    assert {c.recompute for c in result.configs} == {"none", "selective", "full"}
    assert not next(c for c in result.configs if c.recompute == "none").fits
    assert next(c for c in result.configs if c.recompute == "full").fits


@pytest.mark.parametrize(("gpus", "per_node", "layout", "message"), [
    (64, 8, Layout(dp=4, tp=16), "tp=16 must divide gpus_per_node=8"),
    (48, 6, Layout(dp=16, tp=3), "tp=3 must divide num_heads=64"),
    (64, 8, Layout(dp=4, cp=16), r"2 x cp=16 must divide seq_len=1000"),
    (128, 8, Layout(pp=128), "pp=128 must not exceed num_layers=80"),
    (32, 8, Layout(dp=32, tp=2), "= 64 != gpus 32"),
])
def test_evaluate_names_the_broken_rule(gpus, per_node, layout, message):
    cluster = Cluster(gpu="h100-sxm", num_gpus=gpus, gpus_per_node=per_node)
    with pytest.raises(ValueError, match=message):
        evaluate(get_model("llama3-70b"), cluster, layout, seq_len=1000,
                 tokens_per_step=256_000)


def test_batch_that_cannot_be_made():
    arch = get_model("llama3-8b")
    with pytest.raises(ValueError, match="dp=8 x micro_batch=1 sequences of 8192"):
        evaluate(arch, Cluster(gpu="h100-sxm", num_gpus=8), Layout(dp=8), seq_len=8192,
                 tokens_per_step=12 * 8192)
    with pytest.raises(ValueError, match=r"dp=64 replicas .* need at least 5\.243e\+05 "
                       r"tokens per step, more than 2\.621e\+05: too many GPUs"):
        evaluate(arch, Cluster(gpu="h100-sxm", num_gpus=64), Layout(dp=64), seq_len=8192,
                 tokens_per_step=32 * 8192)
    with pytest.raises(ValueError, match="at least one micro-batch"):
        plan(arch, Cluster(gpu="h100-sxm", num_gpus=8), seq_len=8192, tokens_per_step=100)
    with pytest.raises(ValueError, match="unknown options"):
        plan(arch, Cluster(gpu="h100-sxm", num_gpus=8), seq_len=8192,
             tokens_per_step=8 * 8192, headroom=0.1)
