"""The chapter "Communication and the network": its figures and tables against the
alpha-beta model worked by hand from the measurement it is fixed on."""

import math

import pytest

from distlesson.catalog.models import get_model
from distlesson.pages import communication as chapter
from distlesson.pages import communication_figures, mfu
from distlesson.render.numbers import format_number
from distlesson.site.figures import figure_registry

# Austin et al. 2025 (How to Scale Your Model, part 12): NCCL all-reduce on 8 x H100, about
# 370 GB/s bus bandwidth for large arrays, about 150 GB/s for bf16[8192, 3584]
BETA, MID = 370e9, 8192 * 3584 * 2
ALPHA = (1.75 * MID / 150e9 - 1.75 * MID / BETA) / 14
IB = BETA / 450e9 * 50e9  # InfiniBand NDR keeps NVLink's achieved share (an assumption)
GIB = 2**30


def fig(name: str) -> float:
    return figure_registry()[name].value


def test_model_parameters_and_crossovers_by_hand():
    assert fig("comm.alpha") == pytest.approx(ALPHA, rel=1e-12)
    assert fig("comm.beta") == BETA and fig("comm.nvlink") == 450e9
    assert fig("comm.nvlink_both") == 900e9  # the datasheet's sum of both directions
    # ring on 8: 14 alpha = 1.75 S / beta  ->  S = 8 alpha beta (86 MB)
    assert fig("comm.ring_crossover") == pytest.approx(8 * ALPHA * BETA, rel=1e-12)
    # tree against ring on 8: 6 alpha + 2 S / beta = 14 alpha + 1.75 S / beta -> 32 alpha beta
    assert fig("comm.tree_crossover") == pytest.approx(32 * ALPHA * BETA, rel=1e-12)
    assert 80e6 < fig("comm.ring_crossover") < 90e6


def test_one_gib_in_one_server():
    time = 14 * ALPHA + 1.75 * GIB / BETA
    assert fig("comm.gib_time") == pytest.approx(time, rel=1e-12)
    assert fig("comm.gib_algbw") == pytest.approx(GIB / time, rel=1e-12)
    assert fig("comm.gib_busbw") == pytest.approx(1.75 * GIB / time, rel=1e-12)
    assert 0.6 < fig("comm.gib_share") < 1.0  # the bound: 76 % of NVLink
    assert fig("comm.tiny_time") == pytest.approx(14 * ALPHA + 1.75 * 8 / BETA, rel=1e-12)


def test_across_servers_by_hand():
    node = 14 * ALPHA + 1.75 * GIB / BETA
    spread = 14 * ALPHA + 1.75 * GIB / IB  # 8 servers, one GPU each: the ring beats the tree
    assert fig("comm.spread_time") == pytest.approx(spread, rel=1e-12)
    assert fig("comm.spread_ratio") == pytest.approx(spread / node, rel=1e-12)
    # 64 GPUs in 8 servers: reduce-scatter in the server, all-reduce of S/8 across (ring),
    # all-gather in the server
    hier = 28 * ALPHA + 2 * 7 / 8 * GIB / BETA + 1.75 * GIB / 8 / IB
    assert fig("comm.hier_time") == pytest.approx(hier, rel=1e-12)
    assert fig("comm.hier_busbw") == pytest.approx(2 * 63 / 64 * GIB / hier, rel=1e-12)
    assert fig("comm.across_pods") == pytest.approx(50e9 / 7)  # Llama 3's 1:7


def test_nccl_table_rows():
    table = chapter.nccl_table("en").splitlines()
    assert len(table) == 2 + len(chapter.TABLE_SIZES)
    row = next(r for r in table if r.startswith(f"| {GIB:,} "))
    busbw = 1.75 * GIB / (14 * ALPHA + 1.75 * GIB / BETA)
    assert f"| {busbw / 1e9:,.2f} |" in row and f"| {GIB // 4:,} |" in row
    assert row.endswith("| ring |")
    fa = chapter.nccl_table("fa")
    assert format_number(GIB, "fa") in fa and not any(c.isdigit() and c.isascii()
                                                      for c in fa.split("|", 7)[-1])


def test_dimension_table_follows_the_step_model():
    rows = chapter.dimension_table("en").splitlines()[2:]
    assert [r.split("|")[1].strip() for r in rows] == [
        "data (dp)", "tensor (tp)", "pipeline (pp)", "context (cp)"]
    assert "NVLink, inside a node" in rows[1]  # tp 8 fills the server
    assert "RoCE, one GPU per node" in rows[0] and "RoCE, one GPU per node" in rows[2]
    assert rows[3].count("—") == 4  # cp = 1: no group
    step = mfu.llama405_step()
    exposed, bare = step.model.comm, chapter._unhidden_step().model.comm
    for dim in ("dp", "tp", "pp"):  # overlap hides, it never adds
        assert 0 < getattr(exposed, dim) <= getattr(bare, dim)
    assert fig("comm.exposed_total") == pytest.approx(exposed.total)
    assert fig("comm.step") == step.step_time
    assert fig("comm.unhidden_step") > fig("comm.step")


def test_overlap_timelines_by_hand():
    node, spread = chapter.overlap_timelines()
    grads = 2 * get_model("gpt2-small").num_params  # bf16
    full, rest = divmod(grads, chapter.BUCKET)
    assert fig("comm.buckets") == full + (rest > 0) == 10
    backward = chapter._backward()
    compute = backward * chapter.BUCKET / grads
    # 16 GPUs, one per server: the tree (8 steps, 2 S) beats the ring (30 steps)
    t_full = 8 * ALPHA + 2 * chapter.BUCKET / IB
    t_rest = 8 * ALPHA + 2 * rest / IB
    assert t_full > compute  # the reductions queue up
    assert spread.exposed == pytest.approx(compute + full * t_full + t_rest - backward,
                                           rel=1e-9)
    ring = 14 * ALPHA + 1.75 * chapter.BUCKET / BETA  # in one server: NCCL's ring
    assert ring < compute and node.exposed < 2 * ring
    assert fig("comm.spread_exposed") == spread.exposed


def test_prefetch_layer_by_hand():
    h, kv, ffn = 8192, 8 * 128, 28672  # Llama 3 70B: hidden, kv heads x head dim, MLP
    layer = 2 * h * h + 2 * h * kv + 3 * h * ffn + 2 * h  # q, o; k, v; MLP; two norms
    assert fig("comm.layer_bytes") == 2 * layer


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_and_plots_render_in_every_language(locale):
    assert chapter.topology_table(locale).count("\n") == 5
    for svg in (chapter.latency_plot(locale), chapter.topology_figure(locale),
                chapter.overlap_timeline(locale)):
        assert svg.startswith("<svg") and 'class="dl-plot"' in svg
    assert chapter.topology_figure(locale).count("-rail") == 2 * chapter.NODE
    assert math.isclose(communication_figures.crossovers()[0], fig("comm.ring_crossover"))
