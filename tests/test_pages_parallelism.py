"""The parallelism chapter's figures and tables, each expected value derived by hand."""

import math

import pytest

from distlesson.pages import parallelism, parallelism_sims
from distlesson.site.figures import figure_registry
from tests.hand_counts import llama_layer_bytes_per_token

N70 = 70_553_706_496  # Llama 3 70B, published count
N405 = 405_853_388_800
ACT = 8192 * 8192 * 2  # one bf16 activation, s = 8192, h = 8192
MATMUL_70B_LAYER = 2 * 8192 * 8192 + 2 * 1024 * 8192 + 3 * 8192 * 28672


def value(name):
    return figure_registry()[name].value


@pytest.mark.parametrize(("name", "expected"), [
    ("par.states_total", 16 * N70),
    ("par.zero1_at_n", 16 / (2 + 2 + 12 / 16)),
    ("par.zero2_at_n", 16 / (2 + 14 / 16)),
    ("par.zero1_limit", 16 / 4),
    ("par.zero2_limit", 16 / 2),
    ("par.zero3_per_gpu", N70),  # 16 N bytes over 16 GPUs
    ("par.dp_comm", 2 * 15 / 16 * 2 * N70),
    ("par.zero3_comm", 8 * 3 * 15 / 16 * 2 * N70),  # 8 micro-batches per replica
    ("par.zero3_over_dp", 1.5),  # one micro-batch per step: 3 Psi against 2 Psi
    ("par.zero3_over_dp_accumulating", 8 * 3 / 2),
    ("par.zero2_over_dp_accumulating", (8 + 1) / 2),
    ("par.full_grads", 2 * N70),  # the whole bf16 gradient, unsharded
    # tp 8 x dp 2: 64 micro-batches, 6 all-reduces per layer with full recompute, 80 layers
    ("par.tp_comm", 6 * 2 * 7 / 8 * ACT * 80 * 64),
    # pp 16: one activation forward and one gradient back per micro-batch, 128 of them
    ("par.pp_comm", 2 * ACT * 128),
    ("par.tp_layer_bytes", 4 * 2 * 7 / 8 * ACT),
    ("par.tp_layer_compute",
     (6 * MATMUL_70B_LAYER + 12 * 8192 * 8192) * 8192 / 8 / (0.4 * 989e12)),
    ("par.llama405_gpus", 8 * 16 * 128),
    ("par.llama405_layers_per_stage", math.ceil(126 / 16)),
    ("par.llama405_microbatches", 2048 // 128),
    ("par.llama405_states_total", 16 * N405),
    ("par.v3_total", 671_026_419_200),
])
def test_figures_by_hand(name, expected):
    assert value(name) == pytest.approx(expected, rel=1e-12)


def test_llama405_per_gpu_by_hand():
    # 126 layers on 16 stages: 8 on each middle stage, 7 on the first and the last (which
    # hold the embedding and the head). Stage 1 is the busiest: 8 layers, and 1F1B keeps
    # pp - 1 = 15 micro-batches in flight there.
    v, h, kv, f, heads = 128_256, 16_384, 8 * 128, 53_248, 128
    layer = (N405 - 2 * v * h - h) / 126
    params = 8 * layer
    # bf16 weights and grads over tp 8; master and moments (12 bytes) also over dp 128
    states = 4 * params / 8 + 12 * params / 8 / 128
    # full recompute with sp: each layer's input, 2 s b h / 8, for 15 micro-batches; and one
    # layer rebuilt in the backward with all its tensors
    rebuilt = llama_layer_bytes_per_token(h, kv, f, heads) * 8192 / 8
    activations = 2 * 8192 * h / 8 * 8 * 15 + rebuilt
    # 5% fragmentation, 1 GB CUDA context, 1 GB communicator buffers
    expected = (states + activations) / 0.95 + 2e9
    assert value("par.llama405_per_gpu") == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_strategy_table_rows(locale):
    lines = parallelism.strategy_table(locale).splitlines()
    rows = 2 + len(parallelism._strategies())
    table, note = lines[:rows], lines[rows:]
    assert all(row.startswith("|") for row in table) and not note[0]
    # data parallelism replicates: the first two rows show the same memory
    cells = [row.split("|")[2:5] for row in table[2:4]]
    assert cells[0] == cells[1]
    # ZeRO-2 and ZeRO-3's traffic (rows 4 and 5 of the body) is the per-micro-batch default,
    # marked and explained under the table
    marked = [i for i, row in enumerate(table[2:]) if "†" in row]
    assert marked == [3, 4]
    assert note[1].startswith("† ") and "DeepSpeed" in note[1] and "FSDP" in note[1]


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_plots_are_labelled_in_the_locale(locale):
    memory = parallelism.memory_plot(locale)
    comm = parallelism.comm_plot(locale)
    from distlesson.pages.parallelism_labels import LABELS
    assert LABELS["activations"][locale] in memory
    assert LABELS["dim_tp"][locale] in comm
    assert memory.startswith("<svg") or "<svg" in memory[:200]


def test_simulation_tables_show_equal_simulated_and_closed_form():
    for kind, sent, formula, _ in parallelism_sims._collective_runs():
        assert sent == formula, kind
    p, n = 8 * 16 + 16 + 16 * 4 + 4, 4  # the toy MLP's 212 float32 parameters, 4 ranks
    for stage, measured, model, sent, formula, diff in parallelism_sims._zero_runs():
        weights = 4 * p / (n if stage == 3 else 1)
        grads = 4 * p / (n if stage >= 2 else 1)
        moments = 8 * p / (n if stage >= 1 else 1)
        assert measured == (weights, grads, moments) and model == sum(measured)
        assert sent == formula and diff < 1e-12
    for _, diff, fwd, bwd in parallelism_sims._tp_runs():
        assert diff < 1e-12 and fwd == bwd == 1
    for cp, diff, sent, formula, contiguous, zigzag in parallelism_sims._cp_runs():
        assert diff < 1e-12 and sent == formula
        assert contiguous == pytest.approx(2 * cp / (cp + 1)) and zigzag == 1
    for _, diff, sent, routed, _ in parallelism_sims._ep_runs():
        assert diff < 1e-12 and sent == routed


def test_gradient_accumulation_divides_the_all_reduces():
    for k, (naive, naive_bytes), (lean, lean_bytes), diff in parallelism_sims._accumulation_runs():
        assert (naive, lean) == (k, 1) and naive_bytes == k * lean_bytes and diff < 1e-12


def test_the_prose_on_what_fits_stays_true():
    """"No single dimension fits this model in 16 GPUs; combinations do": every row of the
    strategy table is over the GPU's memory, ZeRO-3 included ("still more than"), and TP 8 x
    PP 2 fits, its last stage (with the logits) the busier one."""
    from distlesson.catalog.hardware import get_gpu
    from distlesson.catalog.models import get_model
    from distlesson.memory.states import Layout
    from distlesson.parallel.layout import analyse_layout
    memory = get_gpu(parallelism.GPU).memory_bytes
    assert all(r.per_gpu_bytes > memory for _, _, r in parallelism._reports())
    both = analyse_layout(get_model(parallelism.MODEL), Layout(tp=8, pp=2), parallelism.STEP)
    assert both.per_gpu_bytes <= memory and both.stage.stage == 1 and both.logits > 0
