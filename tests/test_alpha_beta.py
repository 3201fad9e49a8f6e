"""Collectives on real links: the alpha-beta model against the measurement it is fixed on."""

import math

import pytest

from distlesson.parallel.alpha_beta import (
    bus_factor,
    collective_time,
    group_time,
    link_model,
)

# Austin et al. 2025 (How to Scale Your Model, part 12): 8 x H100, NCCL all-reduce, SHARP
# off: about 370 GB/s bus bandwidth for large arrays, about 150 GB/s for bf16[8192, 3584].
LARGE, MID_BUSBW, MID_BYTES, RANKS = 370e9, 150e9, 8192 * 3584 * 2, 8


def test_bus_factors_are_nccl_tests():
    assert bus_factor("all-reduce", 8) == pytest.approx(2 * 7 / 8)
    assert bus_factor("all-gather", 8) == bus_factor("reduce-scatter", 8) == 7 / 8
    assert bus_factor("all-to-all", 4) == 3 / 4
    assert bus_factor("broadcast", 8) == bus_factor("send-recv", 2) == 1


def test_link_parameters_by_hand_from_the_measurement():
    bus = 2 * 7 / 8 * MID_BYTES
    alpha = (bus / MID_BUSBW - bus / LARGE) / (2 * 7)  # the mid point's excess over 14 steps
    model = link_model("nvlink4")
    assert model.bandwidth == LARGE
    assert model.latency == pytest.approx(alpha, rel=1e-12)
    assert 20e-6 < model.latency < 40e-6  # tens of microseconds per ring step


def test_the_model_reproduces_both_measured_points():
    mid = collective_time("all-reduce", MID_BYTES, RANKS, "nvlink4")
    assert mid.algorithm == "ring"
    assert mid.busbw == pytest.approx(MID_BUSBW, rel=1e-9)
    large = collective_time("all-reduce", 10e9, RANKS, "nvlink4")
    assert large.busbw == pytest.approx(LARGE, rel=0.01)  # "about 370 GB/s" at ~10 GB


def test_other_links_keep_the_measured_share_of_their_nominal_bandwidth():
    share = LARGE / 450e9  # NVLink 4 nominal: 450 GB/s each way
    assert link_model("ib-ndr").bandwidth == pytest.approx(share * 50e9)
    assert link_model("nvlink3").bandwidth == pytest.approx(share * 300e9)
    assert link_model("ib-ndr").latency == link_model("nvlink4").latency


def test_small_messages_are_latency_bound_large_ones_bandwidth_bound():
    small = collective_time("all-reduce", 8, 64, "ib-ndr")
    big = collective_time("all-reduce", 1e9, 64, "ib-ndr")
    assert small.latency > 1000 * small.transfer
    assert big.transfer > 10 * big.latency


def test_tree_wins_for_small_messages_and_both_are_bandwidth_bound_for_large():
    assert collective_time("all-reduce", 1e3, 512, "ib-ndr", "auto").algorithm == "tree"
    ring, tree = (collective_time("all-reduce", 1e10, 512, "ib-ndr", a) for a in ("ring", "tree"))
    assert tree.time == pytest.approx(ring.time, rel=0.1)  # 2 S against 2 (n-1)/n S
    assert collective_time("all-reduce", 1e8, 8, "ib-ndr", "auto").algorithm == "ring"
    tree = collective_time("all-reduce", 1e3, 512, "ib-ndr", "tree")
    assert tree.latency == pytest.approx(2 * math.ceil(math.log2(512)) *
                                         link_model("ib-ndr").latency)


def test_hierarchical_all_reduce_by_hand():
    size, ranks, per_node = 1e9, 32, 8
    nv, ib = link_model("nvlink4"), link_model("ib-ndr")
    intra = 7 * nv.latency + 7 / 8 * size / nv.bandwidth  # reduce-scatter = all-gather
    inter_ring = 2 * 3 * ib.latency + 2 * 3 / 4 * (size / 8) / ib.bandwidth
    inter_tree = 2 * 2 * ib.latency + 2 * (size / 8) / ib.bandwidth
    expected = 2 * intra + min(inter_ring, inter_tree)
    got = group_time("all-reduce", size, ranks, per_node, intra="nvlink4", inter="ib-ndr")
    assert got == pytest.approx(expected, rel=1e-12)


def test_one_node_and_one_rank_per_node():
    one_node = group_time("all-gather", 1e8, 8, 8, intra="nvlink4", inter="ib-ndr")
    assert one_node == collective_time("all-gather", 1e8, 8, "nvlink4").time
    spread = group_time("all-gather", 1e8, 8, 1, intra="nvlink4", inter="ib-ndr")
    assert spread == collective_time("all-gather", 1e8, 8, "ib-ndr").time
    assert spread > one_node


@pytest.mark.parametrize(("call", "message"), [
    (lambda: collective_time("gather", 1, 2, "nvlink4"), "op='gather' is not known"),
    (lambda: collective_time("all-reduce", 1, 0, "nvlink4"), "ranks=0 must be a whole number"),
    (lambda: collective_time("send-recv", 1, 3, "nvlink4"), "ranks=3 for send-recv"),
    (lambda: collective_time("all-reduce", -1, 2, "nvlink4"), "size=-1 must be a number"),
    (lambda: collective_time("all-reduce", 1, 2, "nvlink4", "star"), "algorithm='star'"),
    (lambda: group_time("all-reduce", 1, 8, 3, intra="nvlink4", inter="ib-ndr"),
     "ranks_per_node=3 must divide ranks=8"),
    (lambda: link_model("ethernet"), "interconnect='ethernet' is not known"),
])
def test_bad_input_names_the_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_group_time_is_the_phases_of_group_collective():
    from distlesson.parallel.alpha_beta import group_collective
    for ranks, per_node in ((8, 8), (16, 8), (64, 8), (8, 1)):
        c = group_collective("all-reduce", 1e8, ranks, per_node, intra="nvlink4",
                             inter="ib-ndr", algorithm="ring" if ranks == per_node else "auto")
        assert c.time == pytest.approx(group_time("all-reduce", 1e8, ranks, per_node,
                                                  intra="nvlink4", inter="ib-ndr"), rel=1e-15)
        assert c.latency > 0 and c.transfer > 0 and c.ranks == ranks
