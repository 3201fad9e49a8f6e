"""Expert parallelism in a layout: DeepSeek-V3's published layout by hand, the all-to-all
bytes by hand, and every state byte held exactly once under full sharding."""

from fractions import Fraction

import pytest

from distlesson.catalog.moe import get_moe_model
from distlesson.memory.states import model_states
from distlesson.parallel.expert import ep_bytes_per_layer
from distlesson.parallel.expert_layout import (
    DEEPSEEK_V3_LAYOUT,
    DEEPSEEK_V3_RECIPE,
    DEEPSEEK_V3_WORKLOAD,
    ExpertLayout,
    ExpertWorkload,
    _rank_memory,
    all_to_all_bytes,
    expert_memory,
    stage_params,
)

V3, MX = get_moe_model("deepseek-v3"), get_moe_model("mixtral-8x7b")
# DeepSeek-V3 by hand (tests/test_moe.py derives MLA = 187,107,328 from config.json)
MLA, NORMS, EXPERT = 187_107_328, 2 * 7168, 3 * 7168 * 2048
MOE_DENSE = MLA + NORMS + 256 * 7168 + 256 + EXPERT  # attention, norms, router, shared


def test_the_published_layout():
    # report section 3.2: 2048 H800s, PP 16, EP 64 over 8 nodes, ZeRO-1 DP, no TP
    layout = DEEPSEEK_V3_LAYOUT
    assert layout.world_size == 2048 and layout.dp == 128 and layout.tp == 1
    assert layout.ep == 64 and layout.expert_dp == 2  # each expert on 2 GPUs of a stage
    assert DEEPSEEK_V3_RECIPE.weight_format.bytes + DEEPSEEK_V3_RECIPE.grad_format.bytes + \
        DEEPSEEK_V3_RECIPE.master_format.bytes + 2 * DEEPSEEK_V3_RECIPE.state_format.bytes == 14


def test_stages_by_hand():
    stages = stage_params(V3, 16)
    # ceil(61 / 16) = 4 layers per stage: 15 stages of 4, the last of 1
    assert [s.layers for s in stages] == [4] * 15 + [1]
    assert stages[1].dense == 4 * MOE_DENSE and stages[1].experts == 4 * 256 * EXPERT
    dense_layer = MLA + NORMS + 3 * 7168 * 18432
    assert stages[0].dense == 3 * dense_layer + MOE_DENSE + 129280 * 7168  # + embedding
    assert stages[15].dense == MOE_DENSE + 7168 + 129280 * 7168  # + final norm, head
    assert sum(s.dense + s.experts for s in stages) == V3.num_params


def test_deepseek_v3_memory_per_gpu_by_hand():
    m = expert_memory(V3, DEEPSEEK_V3_LAYOUT)
    # DualPipe: rank 1 holds stages 1 and 14, eight MoE layers, the most of any rank
    assert m.rank == 1 and m.experts_per_gpu == 256 // 64
    dense = 8 * MOE_DENSE
    experts = 8 * 4 * EXPERT  # 4 experts of each of the 8 layers
    assert m.params == dense + experts
    # ZeRO-1: weights (2) and grads (4) whole; master (4) and bf16 moments (4) sharded over
    # dp = 128 for dense parameters, over the 2 replicas of each expert for experts
    assert m.dense.total == dense * (2 + 4 + Fraction(8, 128))
    assert m.experts.total == experts * (2 + 4 + Fraction(8, 2))
    # floor of activations: pp + 1 = 17 micro-batches of 4096 x 7168 bf16 inputs, 8 layers
    assert m.activations == 17 * 8 * 4096 * 7168 * 2
    assert m.total < 80e9  # fits the H800's 80 GB with the floor of activations


def test_full_sharding_holds_every_byte_once():
    # ZeRO-3 with ep = dp, no tp, no DualPipe: each state byte is on exactly one GPU
    for arch, pp in ((V3, 4), (MX, 2)):
        layout = ExpertLayout(dp=8, pp=pp, ep=8, zero=3)
        total = model_states(arch.num_params, precision=DEEPSEEK_V3_RECIPE).total
        held = sum(_rank_memory(arch, layout, DEEPSEEK_V3_WORKLOAD, DEEPSEEK_V3_RECIPE, r).states
                   for r in range(pp)) * 8
        assert held == pytest.approx(float(total), rel=1e-12)


def test_all_to_all_bytes_by_hand():
    # DeepSeek-V3, ep 64, one sequence of 4096 tokens: T k h = 4096 x 8 x 7168 = 234,881,024
    # copies x values; 63/64 of them leave the GPU: 231,211,008. Dispatch in fp8 with one
    # fp32 scale per 128 values (1 + 4/128 = 1.03125 bytes): 238,436,352; combine in bf16
    # (2 bytes): 462,422,016; together 700,858,368 bytes per GPU per layer per micro-batch.
    assert all_to_all_bytes(V3, 64, DEEPSEEK_V3_WORKLOAD) == 700_858_368
    # Mixtral, ep 8, bf16 both ways: 4096 x 2 x 4096 x 7/8 x (2 + 2) = 117,440,512
    bf16 = ExpertWorkload()
    assert all_to_all_bytes(MX, 8, bf16) == 117_440_512
    # the same as the simulated layer's closed form (bf16 both ways)
    assert all_to_all_bytes(MX, 8, bf16) == ep_bytes_per_layer(4096, 2, 4096, 8)
    # fixed-size buffers: the capacity factor scales the bytes
    assert all_to_all_bytes(MX, 8, bf16, 1.25) == Fraction(5, 4) * 117_440_512
    assert all_to_all_bytes(MX, 1, bf16) == 0  # one GPU: nothing leaves


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ExpertLayout(dp=6, ep=4), "ep=4 must divide dp=6 x tp=1"),
    (lambda: ExpertLayout(pp=3, dualpipe=True), "pp=3 must be even with DualPipe"),
    (lambda: expert_memory(MX, ExpertLayout(dp=16, ep=16)),
     "ep=16 must divide routed_experts=8 of mixtral-8x7b"),
    (lambda: expert_memory(MX, ExpertLayout(pp=33)), "pp=33 must not exceed num_layers=32"),
    (lambda: all_to_all_bytes(MX, 3, ExpertWorkload()), "ep=3 must divide routed_experts=8"),
    (lambda: all_to_all_bytes(MX, 8, ExpertWorkload(), 0.0),
     "capacity_factor=0.0 must be a number > 0"),
    (lambda: ExpertLayout(zero=4), "zero=4 must be 0, 1, 2 or 3"),
])
def test_errors_name_the_value(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value)


def test_tensor_parallelism_splits_the_dense_part_only():
    # Mixtral, dp 4 x tp 2 = 8 GPUs per stage, ep 8: one expert per GPU, one copy of each.
    # Dense: 46,702,792,704 - 32 x 8 x 176,160,768 = 1,605,636,096, halved by tp = 2
    layout = ExpertLayout(dp=4, tp=2, ep=8)
    assert layout.expert_dp == 1 and layout.world_size == 8
    m = expert_memory(MX, layout, ExpertWorkload(), DEEPSEEK_V3_RECIPE)
    assert m.params == 1_605_636_096 // 2 + 32 * 176_160_768
    assert m.dense.weights == 1_605_636_096 // 2 * 2
    assert m.experts.weights == 32 * 176_160_768 * 2
    # sequence parallelism splits the layer inputs over tp: 1F1B on one stage, 1 micro-batch
    assert m.activations == 1 * 32 * 4096 * 4096 * 2 / 2
