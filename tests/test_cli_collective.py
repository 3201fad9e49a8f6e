"""`distlesson collective`: the alpha-beta model by hand, nccl-tests' bandwidths, and the
bytes checked against the rank-by-rank simulations."""

import math

import numpy as np
import pytest

from distlesson.cli import main
from distlesson.parallel.collectives import (
    all_to_all,
    ring_all_gather,
    ring_all_reduce,
    ring_reduce_scatter,
)
from tests.cli_run import run, run_json

# The measurement beta is fixed on (Austin et al. 2025, How to Scale Your Model, part 12):
# NCCL all-reduce on 8 x H100, about 370 GB/s bus bandwidth for large arrays; NVLink 4 is
# 450 GB/s each way (900 GB/s both). Latencies are NCCL's tuner constants
# (src/graph/tuning.cc), in microseconds: ring Simple 8.4 per call + 3.4 per NVLink step,
# ring LL 6.6 + 0.6 per NVLink step; tree LL 6.8 + 5.0 per network step.
NVLINK, BETA = 450e9, 370e9
US = 1e-6
SIMPLE_BASE, SIMPLE_HOP = 8.4 * US, 3.4 * US
GIB = 2**30


def test_one_gib_all_reduce_in_one_h100_node_reaches_most_of_nvlink(capsys):
    out = run_json(capsys, "collective", "--op", "all-reduce", "--bytes", "1GiB",
                   "--ranks", "8", "--gpu", "h100-sxm")
    # ring, Simple: one call, 2 (n - 1) = 14 steps, 1.75 of the array over 370 GB/s
    latency = SIMPLE_BASE + 14 * SIMPLE_HOP
    time = latency + 1.75 * GIB / BETA
    assert (out["algorithm"], out["protocol"]) == ("ring", "Simple")
    assert out["latency_s"] == pytest.approx(latency, rel=1e-12)
    assert out["bandwidth_s"] == pytest.approx(1.75 * GIB / BETA, rel=1e-12)
    assert out["time_s"] == pytest.approx(time, rel=1e-12)
    assert out["algbw"] == pytest.approx(GIB / time, rel=1e-12)
    assert out["busbw"] == pytest.approx(1.75 * GIB / time, rel=1e-12)
    share = out["busbw"] / NVLINK
    assert 0.8 < share < 370 / 450  # 81 %: the measured 370 GB/s less 56 us of latency
    assert out["busbw_share_of_nominal"] == pytest.approx(share)
    assert out["dominant"] == "bandwidth"
    assert "How to Scale Your Model" in out["source"] and "tuning.cc" in out["source"]


def test_eight_bytes_are_latency_bound(capsys):
    out = run_json(capsys, "collective", "--op", "all-reduce", "--bytes", "8", "--ranks", "8")
    # inside one node auto keeps NCCL's ring, with LL: 6.6 + 14 x 0.6 = 15.0 us
    assert (out["algorithm"], out["protocol"]) == ("ring", "LL")
    assert out["latency_s"] == pytest.approx((6.6 + 14 * 0.6) * US, rel=1e-12)
    assert out["bandwidth_s"] == pytest.approx(1.75 * 8 / 87.7e9, rel=1e-12)  # LL's cap
    assert out["dominant"] == "latency" and out["busbw"] < 1e-3 * NVLINK
    simple = run_json(capsys, "collective", "--op", "all-reduce", "--bytes", "8", "--ranks",
                      "8", "--protocol", "Simple")
    assert simple["latency_s"] == pytest.approx(SIMPLE_BASE + 14 * SIMPLE_HOP, rel=1e-12)
    tree = run_json(capsys, "collective", "--op", "all-reduce", "--bytes", "8", "--ranks",
                    "8", "--algorithm", "tree", "--protocol", "Simple")
    # inside one node NCCL's tree is a chain: 2 (n - 1) hops of a 256 kB chunk (28 us)
    assert tree["algorithm"] == "tree"
    assert tree["latency_s"] == pytest.approx(14 * 28 * US, rel=1e-12)


def test_across_nodes_auto_takes_the_tree_for_small_arrays(capsys):
    out = run_json(capsys, "collective", "--op", "all-reduce", "--bytes", "8", "--ranks",
                   "64", "--gpus-per-node", "1")
    # 64 nodes: the tree's 2 x 6 = 12 network hops (LL: 6.8 + 12 x 5.0 = 66.8 us) against
    # the ring's 126 (LL: 6.6 + 126 x 2.7 = 346.8 us)
    assert (out["algorithm"], out["protocol"]) == ("tree", "LL")
    assert out["latency_s"] == pytest.approx((6.8 + 12 * 5.0) * US, rel=1e-12)


@pytest.mark.parametrize(("op", "factor"), [
    ("all-reduce", 2 * 7 / 8), ("all-gather", 7 / 8), ("reduce-scatter", 7 / 8),
    ("all-to-all", 7 / 8), ("broadcast", 1.0)])
def test_bus_bandwidth_is_algbw_times_nccl_tests_factor(capsys, op, factor):
    out = run_json(capsys, "collective", "--op", op, "--bytes", "256MiB", "--ranks", "8",
                   "--algorithm", "ring")
    assert out["bus_factor"] == pytest.approx(factor)
    assert out["busbw"] == pytest.approx(out["algbw"] * factor, rel=1e-12)
    assert out["algbw"] == pytest.approx(256 * 2**20 / out["time_s"], rel=1e-12)
    assert out["time_s"] == pytest.approx(out["latency_s"] + out["bandwidth_s"], rel=1e-12)


def _simulated_sent(op: str, n: int, elements: int) -> int:
    """Bytes rank 0 sends in the numpy simulation of ``op`` on a float32 array of
    ``elements`` (for all-gather, the gathered array; for all-to-all, one send buffer)."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(elements).astype(np.float32) for _ in range(n)]
    if op == "all-reduce":
        return ring_all_reduce(arrays).sent_bytes[0]
    if op == "reduce-scatter":
        return ring_reduce_scatter(arrays).sent_bytes[0]
    if op == "all-gather":
        return ring_all_gather([a[: elements // n] for a in arrays]).sent_bytes[0]
    return all_to_all([np.array_split(a, n) for a in arrays]).sent_bytes[0]


@pytest.mark.parametrize("op", ["all-reduce", "all-gather", "reduce-scatter", "all-to-all"])
@pytest.mark.parametrize("n", [2, 4, 8])
def test_alpha_beta_bytes_are_the_simulated_rings_bytes(capsys, op, n):
    elements = 8 * 3 * 5 * 7  # divisible by every n: equal chunks
    size = elements * 4  # float32 bytes, the array nccl-tests sizes
    out = run_json(capsys, "collective", "--op", op, "--bytes", str(size), "--ranks", str(n),
                   "--algorithm", "ring", "--protocol", "Simple")
    # transfer seconds x achieved bandwidth = the bytes one rank puts on the wire
    assert out["bandwidth_s"] * BETA == pytest.approx(_simulated_sent(op, n, elements),
                                                      rel=1e-12)


def test_two_nodes_run_hierarchically(capsys):
    out = run_json(capsys, "collective", "--op", "all-reduce", "--bytes", "1GiB",
                   "--ranks", "16", "--protocol", "Simple", "--algorithm", "ring")
    ib = 47e9  # InfiniBand NDR: 46-48 GB/s per NIC with NCCL (nccl-tests issue 290)
    # reduce-scatter in the node (7 steps, 7/8 S), all-reduce of S/8 across 2 nodes (the
    # ring: 2 steps, S/8 over IB), all-gather in the node (7 steps, 7/8 S): three calls
    transfer = 2 * 7 / 8 * GIB / BETA + GIB / 8 / ib
    assert out["nodes"] == 2 and out["hierarchical"] and out["gpus_per_node"] == 8
    assert (out["algorithm"], out["protocol"]) == ("ring", "Simple")
    assert out["bandwidth_s"] == pytest.approx(transfer, rel=1e-12)
    latency = 3 * SIMPLE_BASE + 14 * SIMPLE_HOP + 2 * 14.0 * US  # network hop: 14 us
    assert out["latency_s"] == pytest.approx(latency, rel=1e-12)
    assert out["busbw"] == pytest.approx(2 * 15 / 16 * GIB / out["time_s"], rel=1e-12)
    assert out["busbw_share_of_nominal"] is None  # two links: no single nominal
    one_port = run_json(capsys, "collective", "--op", "all-reduce", "--bytes", "1GiB",
                        "--ranks", "16", "--gpus-per-node", "1")
    assert one_port["time_s"] > 5 * out["time_s"]  # every byte over InfiniBand
    assert one_port["busbw"] / 50e9 == pytest.approx(one_port["busbw_share_of_nominal"])


def test_text_output(capsys):
    status, out, _ = run(capsys, "collective", "--op", "all-reduce", "--bytes", "1GiB",
                         "--ranks", "8")
    assert status == 0
    assert "bandwidth-bound" in out and "NVLink 4" in out and "busbw" in out
    assert "Simple protocol" in out and "tuning.cc" in out
    assert math.isclose(float(out.split("busbw")[1].split()[0].replace(",", "")),
                        1.75 * GIB / (SIMPLE_BASE + 14 * SIMPLE_HOP + 1.75 * GIB / BETA) / 1e9,
                        rel_tol=1e-3)


@pytest.mark.parametrize(("argv", "message"), [
    (["--op", "gather", "--bytes", "1", "--ranks", "8"], "argument --op: invalid choice"),
    (["--op", "all-reduce", "--bytes", "1", "--ranks", "8", "--protocol", "LL256"],
     "argument --protocol: invalid choice"),
    (["--op", "all-reduce", "--bytes", "1x", "--ranks", "8"], "--bytes='1x' is not a size"),
    (["--op", "all-reduce", "--bytes", "1e30", "--ranks", "8"], "beyond any collective"),
    (["--op", "all-reduce", "--bytes", "1", "--ranks", "0"], "--ranks='0' must be a positive"),
    (["--op", "all-reduce", "--bytes", "1", "--ranks", "1"], "at least 2 ranks"),
    (["--op", "all-reduce", "--bytes", "1", "--ranks", "12"],
     "--ranks=12 must be a multiple of --gpus-per-node=8"),
    (["--op", "all-reduce", "--bytes", "1", "--ranks", "8", "--algorithm", "star"],
     "argument --algorithm: invalid choice"),
    (["--op", "all-reduce", "--bytes", "1", "--ranks", "8", "--gpu", "tpu"],
     "argument --gpu: invalid choice"),
    (["--bytes", "1", "--ranks", "8"], "--op"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["collective", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err and captured.out == ""
