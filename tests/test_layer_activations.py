"""The Llama layer's saved tensors, counted by hand; stages of a pipeline."""

from fractions import Fraction

import pytest

from distlesson.catalog.models import get_model, parameter_tensors
from distlesson.memory.layer_activations import layer_activation_bytes, logits_bytes
from distlesson.memory.stages import (
    Overheads,
    busiest_bytes,
    stage_layers,
    stage_memory,
    stage_params,
)
from distlesson.memory.states import Layout

L8B = get_model("llama3-8b")
H, KV, F, A = 4096, 8 * 128, 14336, 32


def test_llama3_8b_per_token_by_hand():
    # norm inputs and outputs 4 x 2h, q k v 2(h + 2kv), attention output 2h, log-sum-exp
    # 4a (fp32), gate up activation 3 x 2f, two fp32 norm statistics
    per_token = 4 * 2 * H + 2 * (H + 2 * KV) + 2 * H + 4 * A + 3 * 2 * F + 2 * 4
    got = layer_activation_bytes(L8B, seq_len=4096, micro_batch=2, tp=1, sp=False)
    assert got == 4096 * 2 * per_token


def test_tensor_and_sequence_parallel_split():
    tp_only = layer_activation_bytes(L8B, seq_len=1024, micro_batch=1, tp=4, sp=False)
    with_sp = layer_activation_bytes(L8B, seq_len=1024, micro_batch=1, tp=4, sp=True)
    full = layer_activation_bytes(L8B, seq_len=1024, micro_batch=1, tp=1, sp=False)
    assert with_sp == full / 4  # everything sharded
    sp_part = 1024 * (4 * 2 * H + 2 * 4)  # norm inputs and outputs, statistics: not split
    assert tp_only == (full - sp_part) / 4 + sp_part


def test_full_recomputation_keeps_the_layer_input():
    kept = layer_activation_bytes(L8B, seq_len=2048, micro_batch=1, tp=8, recompute="full")
    assert kept == Fraction(2048 * 2 * H, 8)
    selective = layer_activation_bytes(L8B, seq_len=2048, micro_batch=1, recompute="selective")
    assert selective == layer_activation_bytes(L8B, seq_len=2048, micro_batch=1)


def test_logits_by_hand():
    assert logits_bytes(L8B, seq_len=8192, micro_batch=1, tp=8) == 8192 * 6 * (128256 // 8)


def test_llama3_405b_stages_follow_meta():
    # 126 layers on 16 stages, one layer fewer on the first and last (Llama 3, 3.3.2)
    assert stage_layers(126, 16) == (7, *([8] * 14), 7)
    assert stage_layers(10, 4) == (2, 3, 3, 2)
    assert stage_layers(7, 1) == (7,)
    with pytest.raises(ValueError, match=r"pp=9 must be in 1\.\.num_layers=8"):
        stage_layers(8, 9)


@pytest.mark.parametrize("key", ["llama3-8b", "gpt2-small"])
@pytest.mark.parametrize("pp", [1, 2, 4])
def test_stage_params_add_up(key, pp):
    arch = get_model(key)
    extra = arch.vocab_size * arch.hidden_size if arch.tied_embeddings and pp > 1 else 0
    assert sum(stage_params(arch, pp)) == arch.num_params + extra
    layer = sum(t.numel for t in parameter_tensors(arch) if t.name.startswith("layers.0."))
    assert stage_params(arch, pp)[pp // 2] >= layer * (arch.num_layers // pp)


def test_stage_total_by_hand_and_busiest():
    o = Overheads(cuda_context=1e9, communicator_buffers=0.5e9, fragmentation=0.1)
    layout = Layout(dp=2, tp=2, pp=4)
    stages = stage_memory(L8B, layout, seq_len=4096, micro_batch=1, num_microbatches=8,
                          overheads=o)
    s = stages[0]
    assert s.total == pytest.approx(s.allocated / 0.9 + 1.5e9)
    assert stages[-1].logits > 0 and stages[0].logits == 0
    assert stages[0].activations > stages[-1].activations  # 1F1B: 4 in flight against 1
    busiest = busiest_bytes(L8B, layout, seq_len=4096, micro_batch=1, num_microbatches=8,
                            overheads=o)
    assert busiest == pytest.approx(max(x.total for x in stages))


def test_bad_overheads():
    with pytest.raises(ValueError, match="fragmentation=1 must be in"):
        Overheads(fragmentation=1)
