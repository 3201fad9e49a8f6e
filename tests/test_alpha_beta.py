"""Collectives on real links: NCCL's own cost model, with the bandwidth measured on H100s.

Every expected value is worked out by hand from the constants of NCCL's tuner
(NVIDIA/nccl, src/graph/tuning.cc, 2.19-2.21: baseLat, hwLat, llMaxBws, the protocol factors)
and from the measured bandwidth, not read back from the code.
"""


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
US = 1e-6
# tuning.cc, in microseconds: ring base latency and NVLink / network hop latency per protocol
RING_BASE = {"LL": 6.6, "LL128": 14.0, "Simple": 8.4}
NVLINK_HOP = {"LL": 0.6, "LL128": 1.9, "Simple": 3.4}
NET_RING_HOP = {"LL": 2.7, "LL128": 4.0, "Simple": 14.0}
NET_TREE_HOP = {"LL": 5.0, "LL128": 8.5, "Simple": 28.0}


def test_bus_factors_are_nccl_tests():
    assert bus_factor("all-reduce", 8) == pytest.approx(2 * 7 / 8)
    assert bus_factor("all-gather", 8) == bus_factor("reduce-scatter", 8) == 7 / 8
    assert bus_factor("all-to-all", 4) == 3 / 4
    assert bus_factor("broadcast", 8) == bus_factor("send-recv", 2) == 1


def test_link_parameters_are_the_measurement_and_nccls_constants():
    model = link_model("nvlink4")
    assert model.bandwidth == LARGE  # the large-array bus bandwidth, measured
    assert model.fabric == "nvlink"
    assert model.latency == pytest.approx(3.4 * US)  # hwLat NVLink, ring, Simple
    assert model.base_latency == pytest.approx(8.4 * US)  # baseLat ring, Simple
    assert link_model("ib-ndr").latency == pytest.approx(14.0 * US)  # hwLat network
    assert link_model("pcie5").fabric == "pci"


def test_a_tiny_all_reduce_takes_nccls_low_latency_protocol():
    # 8 bytes on one server: LL ring, 6.6 + 14 x 0.6 = 15.0 us, bytes negligible
    c = collective_time("all-reduce", 8, RANKS, "nvlink4")
    assert (c.algorithm, c.protocol) == ("ring", "LL")
    assert c.latency == pytest.approx((6.6 + 14 * 0.6) * US)
    assert c.time < 16 * US


def test_a_gibibyte_takes_simple_at_the_measured_bandwidth():
    size = 2**30
    c = collective_time("all-reduce", size, RANKS, "nvlink4")
    assert (c.algorithm, c.protocol) == ("ring", "Simple")
    latency = (8.4 + 14 * 3.4) * US  # 56 us
    assert c.time == pytest.approx(latency + 2 * 7 / 8 * size / LARGE, rel=1e-12)
    large = collective_time("all-reduce", 10e9, RANKS, "nvlink4")
    assert large.busbw == pytest.approx(LARGE, rel=0.01)  # "about 370 GB/s" at ~10 GB


@pytest.mark.parametrize("protocol", ["LL", "LL128", "Simple"])
def test_each_protocol_by_hand_on_one_server(protocol):
    size = 2**20
    bandwidth = {"LL": 87.7e9,  # LL: min(370 / 4, llMaxBw 87.7 on one node)
                 "LL128": 0.92 * LARGE, "Simple": LARGE}[protocol]
    c = collective_time("all-reduce", size, RANKS, "nvlink4", "ring", protocol)
    assert c.protocol == protocol
    assert c.latency == pytest.approx((RING_BASE[protocol] + 14 * NVLINK_HOP[protocol]) * US)
    assert c.transfer == pytest.approx(2 * 7 / 8 * size / bandwidth, rel=1e-12)


def test_all_gather_keeps_a_third_with_ll_inside_a_node():
    # A100 NVLink: NCCL's own 235 GB/s; a third, 78.3, is under LL's 87.7 cap
    a100 = 235e9
    gather = collective_time("all-gather", 2**16, RANKS, "nvlink3", protocol="LL")
    assert gather.transfer == pytest.approx(7 / 8 * 2**16 / (a100 / 3), rel=1e-12)
    reduce = collective_time("all-reduce", 2**16, RANKS, "nvlink3", protocol="LL")
    assert reduce.transfer == pytest.approx(2 * 7 / 8 * 2**16 / (a100 / 4), rel=1e-12)


def test_the_mid_size_measurement_is_slower_than_nccls_model():
    # the model: Simple, 56 us + 2 x 7/8 x 58.7 MB / 370 GB/s = 333.7 us, about 308 GB/s
    mid = collective_time("all-reduce", MID_BYTES, RANKS, "nvlink4")
    bus = 2 * 7 / 8 * MID_BYTES
    assert mid.busbw == pytest.approx(bus / ((8.4 + 14 * 3.4) * US + bus / LARGE), rel=1e-12)
    assert 300e9 < mid.busbw < 2.1 * MID_BUSBW  # twice the measured 150 GB/s: stated on pages


def test_measured_links_and_the_share_the_others_keep():
    # NVIDIA's figures: 235 GB/s on an A100 node (tuning.cc 2.8), 46-48 GB/s per NDR NIC
    assert link_model("nvlink3").bandwidth == 235e9
    assert link_model("ib-ndr").bandwidth == 47e9
    # the rest keep the share of their scope's measured link: NVLink 4 (370 of 450 GB/s)
    # inside a node, InfiniBand NDR (47 of 50 GB/s) between nodes
    assert link_model("nvlink4-h800").bandwidth == pytest.approx(LARGE / 450e9 * 200e9)
    assert link_model("ib-hdr").bandwidth == pytest.approx(47 / 50 * 25e9)
    assert link_model("roce-400").bandwidth == pytest.approx(47e9)


def test_small_messages_are_latency_bound_large_ones_bandwidth_bound():
    small = collective_time("all-reduce", 8, 64, "ib-ndr")
    big = collective_time("all-reduce", 1e9, 64, "ib-ndr")
    assert small.latency > 1000 * small.transfer
    assert big.transfer > 10 * big.latency


def test_tree_wins_for_small_messages_and_both_are_bandwidth_bound_for_large():
    assert collective_time("all-reduce", 1e3, 512, "ib-ndr", "auto").algorithm == "tree"
    ring, tree = (collective_time("all-reduce", 1e10, 512, "ib-ndr", a) for a in ("ring", "tree"))
    assert tree.time == pytest.approx(ring.time, rel=0.15)  # 2 S at 0.92 against ~2 S
    tree = collective_time("all-reduce", 1e3, 512, "ib-ndr", "tree", "LL")
    # tree LL: baseLat 6.8 us + 2 x log2(512) x 5.0 us
    assert tree.latency == pytest.approx((6.8 + 2 * 9 * 5.0) * US)


def test_hierarchical_all_reduce_by_hand():
    size, ranks, per_node = 1e9, 32, 8  # 4 nodes: reduce-scatter, across, all-gather
    nv, ib = LARGE, 47e9
    intra = (8.4 + 7 * 3.4) * US + 7 / 8 * size / nv  # Simple wins on 1 GB inside a node
    part = size / 8  # each of the 8 rails carries an eighth across 4 nodes
    inter = {  # ring over 4 nodes, 6 steps; LL capped at 20.4 GB/s beyond two nodes
        "LL": (6.6 + 6 * 2.7) * US + 2 * 3 / 4 * part / min(ib / 4, 20.4e9),
        "LL128": (14.0 + 6 * 4.0) * US + 2 * 3 / 4 * part / (0.92 * ib),
        "Simple": (8.4 + 6 * 14.0) * US + 2 * 3 / 4 * part / ib,
    }
    # tree over 4 nodes: 2 x log2(4) hops, 2 x part at 0.92 of the bandwidth (LL: / 3.8,
    # capped; LL128: x 120/128), times NCCL's correction at index floor(log2(125e6 / 64)) = 20
    # (LL 1.0, LL128 0.9, Simple 0.8)
    tree = {
        "LL": (6.8 + 4 * 5.0) * US + 2 * part / min(0.92 * ib / 3.8, 20.4e9),
        "LL128": (14.0 + 4 * 8.5) * US + 2 * part / (0.92 * ib * 120 / 128 * 0.9),
        "Simple": 4 * 28.0 * US + 2 * part / (0.92 * ib * 0.8),
    }
    expected = 2 * intra + min(*inter.values(), *tree.values())
    got = group_time("all-reduce", size, ranks, per_node, intra="nvlink4", inter="ib-ndr")
    assert got == pytest.approx(expected, rel=1e-9)


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
    (lambda: collective_time("all-reduce", 1, 2, "nvlink4", protocol="LL64"),
     "protocol='LL64' is not known"),
    (lambda: collective_time("all-reduce", 1, 2, "pcie5", protocol="LL128"),
     "protocol='LL128' does not run on a pci link"),
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
