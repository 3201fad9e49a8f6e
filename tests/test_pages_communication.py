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
# 370 GB/s bus bandwidth for large arrays, about 150 GB/s for bf16[8192, 3584]. Latencies:
# NCCL's tuner constants (src/graph/tuning.cc), microseconds: ring Simple 8.4 per call and 3.4
# per NVLink step, 14.0 per network step; ring LL 6.6 + 0.6 per NVLink step, capped at
# 87.7 GB/s on one node; ring LL128 14.0 + 1.9 per NVLink step at 0.92 of the bandwidth.
BETA, MID = 370e9, 8192 * 3584 * 2
US = 1e-6
SIMPLE_NODE = (8.4 + 14 * 3.4) * US  # a Simple ring on one server: 56 us
IB = 47e9  # InfiniBand NDR: 46-48 GB/s per NIC with NCCL (nccl-tests issue 290)
GIB = 2**30


def fig(name: str) -> float:
    return figure_registry()[name].value


def test_model_parameters_and_crossovers_by_hand():
    assert fig("comm.alpha") == pytest.approx(3.4 * US)
    assert fig("comm.simple_base") == pytest.approx(8.4 * US)
    assert fig("comm.simple_latency") == pytest.approx(SIMPLE_NODE)
    assert fig("comm.beta") == BETA and fig("comm.nvlink") == 450e9
    assert fig("comm.nvlink_both") == 900e9  # the datasheet's sum of both directions
    # Simple ring on 8: 56 us = 1.75 S / beta  ->  S = 56 us x 370 GB/s / 1.75 = 11.84 MB
    assert fig("comm.ring_crossover") == pytest.approx(SIMPLE_NODE * BETA / 1.75, rel=1e-12)
    # LL against LL128: 15.0 + 1.75 S / 87.7 GB/s = 40.6 + 1.75 S / (0.92 x 370 GB/s)
    ll, ll128 = (6.6 + 14 * 0.6) * US, (14.0 + 14 * 1.9) * US
    leave_ll = (ll128 - ll) / (1.75 * (1 / 87.7e9 - 1 / (0.92 * BETA)))
    assert fig("comm.ll_switch") == pytest.approx(leave_ll, rel=1e-6)  # 1.73 MB
    # LL128 against Simple: 40.6 + 1.75 S / (0.92 beta) = 56 + 1.75 S / beta
    leave_ll128 = (SIMPLE_NODE - ll128) / (1.75 * (1 / (0.92 * BETA) - 1 / BETA))
    assert fig("comm.ll128_switch") == pytest.approx(leave_ll128, rel=1e-6)  # 37.4 MB
    # across 8 servers the tree wins small arrays only; one switch, at the figure
    ranks, cross = 64, fig("comm.tree_crossover")
    sizes = [2**k for k in range(3, 35)]
    algorithms = [chapter.all_reduce(s, ranks, 8).algorithm for s in sizes]
    assert algorithms == sorted(algorithms, key=("tree", "ring").index)  # trees, then rings
    assert chapter.all_reduce(cross * 0.999, ranks, 8).algorithm == "tree"
    assert chapter.all_reduce(cross * 1.001, ranks, 8).algorithm == "ring"
    assert 1e5 < cross < 1e7
    assert fig("comm.tree_steps") == 6 and fig("comm.tree_ring_steps") == 14  # 8 nodes


def test_the_mid_size_point_is_missed_and_the_page_says_by_how_much():
    bus = 1.75 * MID
    model = bus / (SIMPLE_NODE + bus / BETA)  # Simple wins at 58.7 MB (over 37.4 MB)
    assert fig("comm.model_mid") == pytest.approx(model, rel=1e-12)
    assert fig("comm.mid_error") == pytest.approx(model / 150e9 - 1, rel=1e-12)


def test_one_gib_in_one_server():
    time = SIMPLE_NODE + 1.75 * GIB / BETA
    assert fig("comm.gib_time") == pytest.approx(time, rel=1e-12)
    assert fig("comm.gib_latency") == pytest.approx(SIMPLE_NODE, rel=1e-12)
    assert fig("comm.gib_algbw") == pytest.approx(GIB / time, rel=1e-12)
    assert fig("comm.gib_busbw") == pytest.approx(1.75 * GIB / time, rel=1e-12)
    assert 0.8 < fig("comm.gib_share") < 370 / 450  # the measured share, less 56 us
    # 8 bytes: LL, 6.6 + 14 x 0.6 = 15.0 us, the bytes at LL's 87.7 GB/s cap
    assert fig("comm.tiny_time") == pytest.approx((6.6 + 14 * 0.6) * US + 1.75 * 8 / 87.7e9,
                                                  rel=1e-12)


def test_across_servers_by_hand():
    node = SIMPLE_NODE + 1.75 * GIB / BETA
    # 8 servers, one GPU each: Simple ring, 14 network steps of 14 us (LL128 would send at
    # 0.7 of the bandwidth with one GPU per node; the tree at 0.92, twice the bytes)
    spread = (8.4 + 14 * 14.0) * US + 1.75 * GIB / IB
    assert fig("comm.spread_time") == pytest.approx(spread, rel=1e-12)
    assert fig("comm.spread_ratio") == pytest.approx(spread / node, rel=1e-12)
    # 64 GPUs in 8 servers: reduce-scatter in the server (Simple, 7 steps), all-reduce of S/8
    # across (Simple ring: 14 network steps; LL128 at 0.92 is slower on 134 MB), all-gather
    hier = (2 * (8.4 + 7 * 3.4) + 8.4 + 14 * 14.0) * US + 2 * 7 / 8 * GIB / BETA \
        + 1.75 * GIB / 8 / IB
    assert fig("comm.hier_time") == pytest.approx(hier, rel=1e-12)
    assert fig("comm.hier_busbw") == pytest.approx(2 * 63 / 64 * GIB / hier, rel=1e-12)
    assert fig("comm.across_pods") == pytest.approx(50e9 / 7)  # Llama 3's 1:7


def test_nccl_table_rows():
    table = chapter.nccl_table("en").splitlines()
    assert len(table) == 2 + len(chapter.TABLE_SIZES)
    row = next(r for r in table if r.startswith(f"| {GIB:,} "))
    busbw = 1.75 * GIB / (SIMPLE_NODE + 1.75 * GIB / BETA)
    assert f"| {busbw / 1e9:,.2f} |" in row and f"| {GIB // 4:,} |" in row
    assert row.endswith("| ring | Simple |")
    assert table[2].endswith("| ring | LL |")  # 8 bytes
    fa = chapter.nccl_table("fa")
    body = fa.split("|", 8)[-1]
    for protocol in ("LL128", "LL", "Simple"):  # NCCL's names stay Latin, like H100
        body = body.replace(protocol, "")
    assert format_number(GIB, "fa") in fa and not any(c.isdigit() and c.isascii()
                                                      for c in body)


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
    # 16 GPUs, one per server. A full 25 MiB bucket: Simple ring, 30 network steps of 14 us
    # plus 8.4 us, 1.875 x B over IB (1.62 ms; the tree's best, LL128, 1.73 ms). The last,
    # smaller bucket: tree with LL128, 14 + 2 x 4 x 8.5 us, 2 x rest at 0.92 x 120/128 of IB
    # and NCCL's size correction 0.9 (0.89 ms, against 0.98 ms for the LL128 ring)
    t_full = (8.4 + 30 * 14.0) * US + 1.875 * chapter.BUCKET / IB
    t_rest = (14.0 + 8 * 8.5) * US + 2 * rest / (0.92 * IB * 120 / 128 * 0.9)
    assert t_full > compute  # the reductions queue up
    assert spread.exposed == pytest.approx(compute + full * t_full + t_rest - backward,
                                           rel=1e-9)
    ring = SIMPLE_NODE + 1.75 * chapter.BUCKET / BETA  # in one server: NCCL's ring
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
