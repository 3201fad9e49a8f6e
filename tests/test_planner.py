"""The planner: its fast path against the library's reference, its rules, its answers."""

import time

import pytest

from distlesson.catalog.models import get_model
from distlesson.efficiency.planner import HEADROOM, evaluate, plan
from distlesson.efficiency.step_time import Cluster, StepInputs, estimate_step
from distlesson.memory.states import Layout
from distlesson.parallel.layout import Workload, analyse_layout
from distlesson.pipeline.bubble import peak_activations

LLAMA405 = get_model("llama3-405b")
H100_16K = Cluster(gpu="h100-sxm", num_gpus=16384, gpus_per_node=8)


@pytest.fixture(scope="module")
def big():
    start = time.perf_counter()
    result = plan(LLAMA405, H100_16K, seq_len=8192, tokens_per_step=16e6)
    return result, time.perf_counter() - start


def _reference(arch, cluster, config, seq_len, inputs=None):
    """The same config through analyse_layout and estimate_step, one call each."""
    workload = Workload(seq_len=seq_len, micro_batch=1, recompute=config.recompute,
                        global_batch=config.dp * config.num_microbatches)
    inputs = inputs or StepInputs()
    inputs = StepInputs(kernel_efficiency=inputs.kernel_efficiency, overlap=inputs.overlap,
                        data_stall=inputs.data_stall, failures=inputs.failures,
                        schedule=config.schedule, chunks=config.chunks)
    report = analyse_layout(arch, config.layout, workload)
    estimate = estimate_step(arch, config.layout, workload, cluster, inputs)
    return report, estimate


def test_search_is_fast(big):
    result, seconds = big
    assert seconds < 10  # a bound for a 2-core machine, not a pinned value
    assert len(result.configs) > 100


def test_best_405b_layout(big):
    result, _ = big
    best = result.configs[0]
    assert best.fits and best.tp > 1 and 8 % best.tp == 0  # tensor parallel inside a node
    assert best.pp > 1
    llama_like = next(c for c in result.configs if c.tp == 8)  # Llama 3's tp = 8
    assert llama_like.step_time / llama_like.tokens_per_step <= (
        1.01 * best.step_time / best.tokens_per_step)


def test_ranked_by_time_per_token_and_all_fit(big):
    result, _ = big
    per_token = [c.step_time / c.tokens_per_step for c in result.configs]
    assert per_token == sorted(per_token)
    assert all(c.fits and c.per_gpu_bytes <= 80e9 * (1 - HEADROOM) for c in result.configs)
    assert all(c.dp * c.tp * c.pp * c.cp == 16384 for c in result.configs)
    assert all(abs(c.tokens_per_step - 16e6) <= 0.05 * 16e6 for c in result.configs)


def test_rejections_are_counted_with_reasons(big):
    result, _ = big
    assert set(result.rejected) <= {"tp_node", "tp_shape", "pp_layers", "cp_seq", "batch",
                                    "memory"}
    assert result.rejected["tp_node"] > 0 and result.rejected["memory"] > 0
    assert "tp=16 must divide gpus_per_node=8" in result.examples["tp_node"]
    assert "must not exceed num_layers=126" in result.examples["pp_layers"]


def _expected_bytes(config, report):
    """1F1B: analyse_layout's. Interleaved: stage 0 holds more micro-batches' activations."""
    held = 1
    if config.schedule == "interleaved":
        first = peak_activations("interleaved", config.pp, config.num_microbatches,
                                 config.chunks)[0]
        held = first / min(config.pp, config.num_microbatches)
    return float(report.states.total + report.activations * held)


@pytest.mark.parametrize("index", [0, 1, 5, 20, 100, -1])
def test_fast_path_matches_the_reference(big, index):
    result, _ = big
    config = result.configs[index]
    report, estimate = _reference(LLAMA405, H100_16K, config, 8192)
    assert config.per_gpu_bytes == pytest.approx(_expected_bytes(config, report), rel=1e-12)
    assert config.num_microbatches == report.num_microbatches
    assert config.step_time == pytest.approx(estimate.breakdown.total, rel=1e-12)
    for term, value in vars(estimate.breakdown).items():
        assert getattr(config.breakdown, term) == pytest.approx(value, rel=1e-9, abs=1e-12)


def test_interleaving_is_searched(big):
    result, _ = big
    assert {c.schedule for c in result.configs} == {"1f1b", "interleaved"}
    # Narayanan et al. 2021: v chunks divide the bubble by v
    config = next(c for c in result.configs if c.schedule == "interleaved")
    compute = config.breakdown.useful + config.breakdown.below_peak + config.breakdown.recompute
    assert config.breakdown.bubble == pytest.approx(
        compute * (config.pp - 1) / (config.chunks * config.num_microbatches), rel=1e-12)


def test_small_model_prefers_data_parallelism():
    arch = get_model("llama3-8b")
    result = plan(arch, Cluster(gpu="h100-sxm", num_gpus=8), seq_len=8192,
                  tokens_per_step=128 * 8192)
    best = result.configs[0]
    assert (best.tp, best.pp, best.cp, best.dp) == (1, 1, 1, 8)


def test_fast_path_on_a_small_cluster():
    arch = get_model("llama3-8b")
    cluster = Cluster(gpu="h100-sxm", num_gpus=16, gpus_per_node=8)
    result = plan(arch, cluster, seq_len=4096, tokens_per_step=64 * 4096)
    for config in result.configs[::7]:
        report, estimate = _reference(arch, cluster, config, 4096)
        assert config.per_gpu_bytes == pytest.approx(_expected_bytes(config, report),
                                                     rel=1e-12)
        assert config.step_time == pytest.approx(estimate.breakdown.total, rel=1e-12)


def test_evaluate_ranks_what_does_not_fit_last():
    arch = get_model("llama3-70b")
    cluster = Cluster(gpu="h100-sxm", num_gpus=64)
    result = evaluate(arch, cluster, Layout(dp=8, tp=8, zero=1), seq_len=8192,
                      tokens_per_step=256 * 8192)
    fits = [c.fits for c in result.configs]
    assert fits == sorted(fits, reverse=True)  # all True before any False
    assert {c.recompute for c in result.configs} == {"none", "selective", "full"}
    assert not next(c for c in result.configs if c.recompute == "none").fits


@pytest.mark.parametrize(("gpus", "per_node", "layout", "message"), [
    (64, 8, Layout(dp=4, tp=16), "tp=16 must divide gpus_per_node=8"),
    (48, 6, Layout(dp=16, tp=3), "tp=3 must divide num_heads=64"),
    (64, 8, Layout(dp=4, cp=16), "cp=16 must divide seq_len=1000"),
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
    with pytest.raises(ValueError, match="at least one micro-batch"):
        plan(arch, Cluster(gpu="h100-sxm", num_gpus=8), seq_len=8192, tokens_per_step=100)
