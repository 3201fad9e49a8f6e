"""ZeRO-Offload and ZeRO-Infinity: placement of the states, fewest GPUs, PCIe per step.

Every expectation is derived by hand in the comments. N = 70e9 (the Persian lesson's "70B"),
the mixed preset with AdamW: 2N bf16 weights, 2N bf16 grads, 4N fp32 master, 8N moments.
The exercise's node: 8 x H100 (80e9 bytes each), 512e9 bytes of RAM, 2e12 of NVMe, PCIe 5
at 64e9 bytes/s each way.
"""

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import get_model
from distlesson.memory.offload import (
    DEEPSPEED_CPU_BUFFER_FACTOR,
    EXERCISE_NODE,
    TIERS,
    Node,
    fewest_gpus,
    offload_exercise,
    offload_plan,
    split_states,
)
from distlesson.memory.states import Layout, MemoryBreakdown, min_gpus, model_states

N = 70 * 10**9
N70 = 70_553_706_496  # Llama 3 70B, counted tensor by tensor
GB = 10**9


def test_exercise_node_is_the_lessons():
    node = EXERCISE_NODE
    assert (node.gpus_per_node, node.cpu_memory_bytes, node.nvme_bytes) == (8, 512e9, 2e12)
    assert node.gpu.memory_bytes == 80e9 and node.pcie.bandwidth == 64e9


def test_cpu_tier_keeps_only_the_bf16_weights_on_the_gpu():
    # Ren et al. 2021, section 4.1: fp16 parameters on the GPU; fp16 gradients, fp32 master
    # and the two moments in CPU memory
    split = split_states(N, tier="cpu")
    assert split.gpu == MemoryBreakdown(2 * N, 0, 0, 0)  # bf16 weights
    assert split.cpu == MemoryBreakdown(0, 2 * N, 4 * N, 8 * N)  # bf16 grads, master, moments
    assert split.cpu.total == 14 * N == 980 * GB  # more than one node's 512 GB
    assert split.nvme.total == 0
    assert split.total == 16 * N


def test_nvme_tier_sends_master_and_moments_to_nvme():
    split = split_states(N, tier="nvme")
    assert split.gpu.total == 4 * N and split.cpu.total == 0
    assert split.nvme == MemoryBreakdown(0, 0, 4 * N, 8 * N)


def test_no_offload_keeps_everything_on_the_gpu():
    split = split_states(N, tier="none")
    assert split.gpu == model_states(N) and split.cpu.total == split.nvme.total == 0


def test_fp32_main_grads_go_to_the_cpu():
    # mixed-fp32-grads: 2N weights, 4N fp32 grads, 4N master, 8N moments (18N)
    split = split_states(N, tier="cpu", precision="mixed-fp32-grads")
    assert split.gpu == MemoryBreakdown(2 * N, 0, 0, 0)
    assert split.cpu == MemoryBreakdown(0, 4 * N, 4 * N, 8 * N)  # 16N = 1120 GB
    assert split.total == 18 * N  # nothing duplicated
    # the NVMe tier keeps the 16-bit grads on the GPU, counted on top of the fp32 ones
    nvme = split_states(N, tier="nvme", precision="mixed-fp32-grads")
    assert nvme.gpu == MemoryBreakdown(2 * N, 2 * N, 0, 0)
    assert nvme.cpu == MemoryBreakdown(0, 4 * N, 0, 0) and nvme.nvme.total == 12 * N
    assert nvme.total == 20 * N


@settings(max_examples=40, deadline=None)
@given(params=st.integers(1, 10**13),
       precision=st.sampled_from(["mixed", "fp32", "mixed-no-master"]),
       tier=st.sampled_from(TIERS))
def test_split_conserves_the_states(params, precision, tier):
    # presets whose grads are no wider than the weights: nothing duplicated, nothing lost
    split = split_states(params, tier=tier, precision=precision)
    assert split.total == model_states(params, precision=precision).total


def test_zero_offload_plan_on_two_nodes():
    plan = offload_plan(N, tier="cpu", layout=Layout(dp=8, tp=2, zero=2))
    # GPU: weights 2N / tp = 70 GB (replicated over dp by ZeRO-2), no gradients
    assert plan.per_gpu.gpu.total == 2 * N // 2 == 70 * GB
    # CPU: 14N / 16 GPUs = 61.25 GB each; 8 GPUs per node: 490 GB <= 512 GB
    assert plan.per_gpu.cpu.total == 14 * N // 16 == 61_250_000_000
    assert plan.gpus_on_node == 8 and plan.node_cpu_bytes == 490 * GB
    assert plan.fits
    # PCIe: (2 + 2) bytes x N / 16 = 17.5 GB per GPU per step; / 64 GB/s = 35/128 s
    assert plan.pcie_bytes == 4 * N // 16 == 17_500_000_000
    assert plan.pcie_seconds == Fraction(35, 128)
    assert plan.nvme_traffic_bytes == 0


def test_one_node_of_ram_cannot_hold_a_70b_optimizer():
    # 8 GPUs, tp = 4, dp = 2: GPU 2N/4 = 35 GB fits, but the node's CPU holds all 8 shares
    # of 14N / 8: 980 GB > 512 GB
    plan = offload_plan(N, tier="cpu", layout=Layout(dp=2, tp=4, zero=2))
    assert plan.per_gpu.gpu.total == 35 * GB
    assert plan.node_cpu_bytes == 980 * GB
    assert not plan.fits


def test_zero2_replicates_weights_larger_than_a_gpu():
    # without tp every GPU holds all 2N = 140 GB of bf16 weights, whatever dp
    plan = offload_plan(N, tier="cpu", layout=Layout(dp=64, zero=2))
    assert plan.per_gpu.gpu.weights == 140 * GB and not plan.fits
    one_gpu_nodes = Node(gpu=get_gpu("h100-sxm"), gpus_per_node=1, cpu_memory_bytes=512e9,
                         nvme_bytes=2e12, pcie=get_interconnect("pcie5"))
    assert fewest_gpus(N, tier="cpu", node=one_gpu_nodes, max_nodes=8) is None


def test_the_persian_exercise_on_whole_nodes():
    comparison = offload_exercise()
    # none: ZeRO-3, 16N = 1120 GB / 80 GB = 14 GPUs -> 2 nodes = 16
    assert comparison.gpus("none") == 16
    # cpu: 8 GPUs fail (980 GB of CPU states > 512 GB); 16 with tp = 2, dp = 8 (see above)
    assert comparison.gpus("cpu") == 16
    assert (comparison.cpu.layout.tp, comparison.cpu.layout.dp) == (2, 8)
    assert comparison.cpu.pcie_bytes == 17_500_000_000
    assert comparison.cpu.pcie_seconds == Fraction(35, 128)  # 0.273 s
    # nvme: 8 GPUs, ZeRO-3: GPU 4N / 8 = 35 GB; NVMe 12N = 840 GB <= 2 TB
    assert comparison.gpus("nvme") == 8
    nvme = comparison.nvme
    assert nvme.per_gpu.gpu.total == 35 * GB and nvme.node_nvme_bytes == 840 * GB
    assert nvme.pcie_bytes == 4 * N // 8 and nvme.pcie_seconds == Fraction(35, 64)
    # read and write 12N / 8 = 105 GB per GPU per step
    assert nvme.nvme_traffic_bytes == 210 * GB


def test_the_persian_exercise_with_its_own_convention():
    # no master copy: the CPU gets the bf16 grads and the moments, 2N + 8N = 700 GB: still
    # > 512 GB on one node; on 16 GPUs each node holds 8 x 10N / 16 = 350 GB
    comparison = offload_exercise(precision="mixed-no-master")
    assert [comparison.gpus(t) for t in TIERS] == [16, 16, 8]
    assert comparison.cpu.whole.cpu.total == 10 * N
    assert comparison.cpu.node_cpu_bytes == 8 * (10 * N) // 16 == 350 * GB


def test_the_persian_exercise_on_partial_nodes():
    comparison = offload_exercise(whole_nodes=False)
    # none: 1120 GB / 80 GB = 14 exactly
    assert comparison.gpus("none") == 14
    # cpu: up to 8 GPUs one node holds all 14N = 980 GB > 512 GB; beyond, the 8 GPUs of the
    # first node hold 8 x 14N / n <= 512 GB -> n >= 15.3; n = 16 with tp = 2, dp = 8 (tp = 1
    # would put all 140 GB of weights on each GPU): GPU 70 GB; CPU 8 x 61.25 = 490 GB.
    # More GPUs than without offload (14): the node's RAM, not the GPUs, is the bound
    assert comparison.gpus("cpu") == 16
    assert (comparison.cpu.layout.tp, comparison.cpu.layout.dp) == (2, 8)
    assert comparison.cpu.per_gpu.gpu.total == 70 * GB
    assert comparison.cpu.node_cpu_bytes == 490 * GB
    # nvme: 4N / n <= 80 GB -> n = 4 (70 GB); 3 would need 93.3 GB
    assert comparison.gpus("nvme") == 4


def test_deepspeed_buffer_margin_needs_a_third_node():
    # DeepSpeed's estimator plans 1.5 x the offloaded states. 16 GPUs (tp 2, dp 8): 490 GB of
    # states per node x 1.5 = 735 GB > 512 GB. 24 GPUs (tp 2, dp 12): 8 x 14N / 24 = 326.7 GB
    # x 1.5 = 490 GB <= 512 GB
    assert DEEPSPEED_CPU_BUFFER_FACTOR == 1.5
    node = dataclasses.replace(EXERCISE_NODE, cpu_buffer_factor=1.5)
    tight = offload_plan(N, tier="cpu", layout=Layout(dp=8, tp=2, zero=2), node=node)
    assert tight.node_cpu_bytes == 490 * GB and tight.node_cpu_needed == 735 * GB
    assert not tight.fits
    plan = fewest_gpus(N, tier="cpu", node=node)
    assert (plan.layout.world_size, plan.layout.tp, plan.layout.dp) == (24, 2, 12)
    assert plan.node_cpu_needed == 490 * GB
    # the default node counts the states alone
    assert EXERCISE_NODE.cpu_buffer_factor == 1


def test_offload_under_zero3_shards_the_weights_not_the_cpu_bill():
    # ZeRO-3 + offload_optimizer: the GPU keeps 2N / 16 = 8.75 GB of weights, no tp needed,
    # but the CPU still holds 14N over the GPUs: 16 GPUs, 490 GB per node, as under ZeRO-2
    plan = fewest_gpus(N, tier="cpu", zero=3)
    assert (plan.layout.world_size, plan.layout.tp) == (16, 1)
    assert plan.per_gpu.gpu.total == 2 * N // 16 and plan.node_cpu_bytes == 490 * GB
    buffered = dataclasses.replace(EXERCISE_NODE, cpu_buffer_factor=1.5)
    assert fewest_gpus(N, tier="cpu", zero=3, node=buffered).layout.world_size == 24


def test_fp32_main_grads_make_offload_need_more_gpus():
    # 16N = 1120 GB to the CPU: 16 GPUs put 8 x 16N / 16 = 560 GB on a node (> 512 GB);
    # 24 GPUs (tp = 2, dp = 12): GPU 140/2 = 70 GB, node 8 x 1120/24 = 373.3 GB
    plan = fewest_gpus(N, tier="cpu", precision="mixed-fp32-grads")
    assert plan.layout.world_size == 24 and plan.layout.tp == 2
    assert fewest_gpus(N, tier="none", precision="mixed-fp32-grads").layout.world_size == 16


def test_llama3_70b_counted_exactly():
    plan = fewest_gpus(get_model("llama3-70b"), tier="cpu")
    assert (plan.layout.world_size, plan.layout.tp) == (16, 2)
    assert plan.pcie_bytes == N70 // 4  # 4 bytes x N / 16 = 17,638,426,624
    assert plan.pcie_seconds == Fraction(N70, 4 * 64 * 10**9)


def test_pcie_traffic_by_stage_and_precision():
    assert offload_plan(N, tier="none", layout=Layout(dp=16, zero=3)).pcie_bytes == 0
    # no ZeRO: every GPU steps the whole model, 4N each
    assert offload_plan(N, tier="cpu", layout=Layout(dp=4)).pcie_bytes == 4 * N
    # fp32 weights: 4 bytes down + 4 up per parameter of the shard
    fp32 = offload_plan(N, tier="cpu", layout=Layout(dp=4, zero=1), precision="fp32")
    assert fp32.pcie_bytes == 8 * N // 4


@settings(max_examples=25, deadline=None)
@given(params=st.integers(10**6, 10**12),
       precision=st.sampled_from(["mixed", "fp32", "mixed-no-master", "mixed-fp32-grads"]))
def test_without_offload_the_search_is_min_gpus(params, precision):
    # ZeRO-3 divides every state by n: the fewest GPUs is ceil(total / memory)
    states = model_states(params, precision=precision)
    plan = fewest_gpus(params, tier="none", precision=precision, whole_nodes=False)
    assert plan.layout.world_size == min_gpus(states.total, 80e9)
    whole = fewest_gpus(params, tier="none", precision=precision)
    assert whole.layout.world_size == 8 * math.ceil(plan.layout.world_size / 8)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: split_states(N, tier="disk"), "tier='disk' is not known; allowed: none, cpu, nvme"),
    (lambda: split_states(0, tier="cpu"), "params=0 must be a positive whole number"),
    (lambda: split_states(N, tier="cpu", precision="fp64"), "precision='fp64' is not known"),
    (lambda: offload_plan(N, tier="cpu", layout=(8, 2)),
     "must be a distlesson.memory.states.Layout"),
    (lambda: offload_plan(get_model("llama3-70b"), tier="cpu", layout=Layout(tp=3)),
     "tp=3 must divide num_heads=64"),
    (lambda: fewest_gpus(N, tier="cpu", max_nodes=0), "max_nodes=0 must be a positive integer"),
    (lambda: fewest_gpus(N, tier="cpu", zero=4), "zero=4 must be 0, 1, 2 or 3"),
    (lambda: offload_exercise().gpus("ram"), "tier='ram' is not known"),
    (lambda: Node(gpu=get_gpu("h100-sxm"), gpus_per_node=0, cpu_memory_bytes=512e9,
                  nvme_bytes=2e12, pcie=get_interconnect("pcie5")),
     "gpus_per_node=0 must be a positive integer"),
    (lambda: Node(gpu=get_gpu("h100-sxm"), gpus_per_node=8, cpu_memory_bytes=-1.0,
                  nvme_bytes=2e12, pcie=get_interconnect("pcie5")),
     "cpu_memory_bytes=-1.0 must be a finite number of bytes >= 0"),
    (lambda: Node(gpu=get_gpu("h100-sxm"), gpus_per_node=8, cpu_memory_bytes=512e9,
                  nvme_bytes=float("nan"), pcie=get_interconnect("pcie5")),
     "nvme_bytes=nan must be a finite number of bytes >= 0"),
    (lambda: dataclasses.replace(EXERCISE_NODE, cpu_buffer_factor=0.5),
     "cpu_buffer_factor=0.5 must be a finite number >= 1"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value)
