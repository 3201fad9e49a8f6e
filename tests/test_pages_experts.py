"""The chapter "Mixture of experts": its figures and tables against hand derivations, and
the balance simulation's figures against the simulation itself."""

import numpy as np
import pytest

from distlesson.pages import experts as chapter
from distlesson.parallel.expert_balance import dropped_fraction, rank_imbalance
from distlesson.site.figures import figure_registry

# Austin et al. 2025: NCCL on 8 x H100, 370 GB/s bus bandwidth for large arrays, on NVLink 4's
# 450 GB/s; other links keep the achieved share. An all-to-all is point to point: NCCL sends
# a peer's share above 16 KiB with the Simple protocol, whose latencies (src/graph/tuning.cc)
# are 8.4 us per call and 3.4 us per NVLink step or 14 us per network step.
BETA = 370e9
US = 1e-6
IB = 47e9  # InfiniBand NDR, 400 Gb/s per GPU: 46-48 GB/s per NIC with NCCL (nccl-tests #290)
H800_NVLINK = BETA / 450e9 * 200e9  # the H800's NVLink, 400 GB/s both ways


def fig(name: str) -> float:
    return figure_registry()[name].value


def test_deepseek_v3_all_to_all_time_by_hand():
    # 4096 x 8 x 7168 values per GPU; dispatch fp8 + scales (1.03125 B), combine bf16 (2 B);
    # across 8 nodes every byte crosses InfiniBand: 63 steps, 63/64 of the buffer
    values = 4096 * 8 * 7168
    dispatch = (8.4 + 63 * 14.0) * US + 63 / 64 * values * 1.03125 / IB
    combine = (8.4 + 63 * 14.0) * US + 63 / 64 * values * 2 / IB
    assert fig("moe.a2a_v3_dispatch") == pytest.approx(dispatch, rel=1e-12)
    assert fig("moe.a2a_v3_combine") == pytest.approx(combine, rel=1e-12)
    assert fig("moe.a2a_v3") == 700_858_368
    # 58 MoE layers, forward and backward
    assert fig("moe.a2a_v3_layers_time") == pytest.approx(2 * 58 * (dispatch + combine))
    # inside one H800 node: 7 steps, 7/8 of the buffer over its NVLink
    node = 2 * (8.4 + 7 * 3.4) * US + 7 / 8 * values * (1.03125 + 2) / H800_NVLINK
    assert fig("moe.a2a_node_time") == pytest.approx(node, rel=1e-12)


def test_layout_figures():
    assert (fig("moe.v3_gpus"), fig("moe.v3_ep_nodes"), fig("moe.v3_per_gpu_experts")) == (
        2048, 64 / 8, 256 / 64)
    assert fig("moe.v3_bpp") == 2 + 4 + 4 + 2 * 2
    assert fig("moe.v3_all_states") == 671_026_419_200 * 14
    assert fig("moe.v3_gpu_total") < fig("moe.h800_memory") == 80e9
    assert fig("moe.v3_headroom") == pytest.approx(80e9 - fig("moe.v3_gpu_total"))


def test_balance_figures_are_the_simulation_s():
    alone, balanced = chapter._loads()
    assert alone.shape == balanced.shape == (chapter.TAIL, 256)
    assert (alone.sum(axis=1) == 1024 * 8).all() and (balanced.sum(axis=1) == 1024 * 8).all()
    before = np.mean([dropped_fraction(load, 1.25, 8) for load in alone])
    assert fig("moe.drop_1_25_before") == pytest.approx(before)
    assert fig("moe.sim_rank_after") == pytest.approx(
        np.mean([rank_imbalance(load, 64) for load in balanced]))
    # what the prose says: balancing cuts the busiest GPU's excess and the drops
    assert fig("moe.sim_rank_after") < 1.5 < 3 < fig("moe.sim_rank_before")
    assert fig("moe.drop_1_25_after") < 0.1 * fig("moe.drop_1_25_before")
    assert fig("moe.drop_2_00_before") > 0.2  # capacity alone does not rescue a skewed router
    assert fig("moe.sim_loss_after") < fig("moe.sim_loss_before")


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_have_a_row_per_case(locale):
    params = chapter.params_table(locale).splitlines()
    assert len(params) == 2 + 9 and params[0].count("|") == 1 + 1 + 2  # a column per model
    assert len(chapter.memory_table(locale).splitlines()) == 2 + 6
    assert len(chapter.all_to_all_table(locale).splitlines()) == 2 + len(chapter.A2A_CASES)
    assert len(chapter.drops_table(locale).splitlines()) == 2 + len(chapter.CAPACITY_FACTORS)
    for plot in (chapter.load_plot, chapter.imbalance_plot, chapter.drops_plot):
        assert plot(locale).startswith("<svg")
