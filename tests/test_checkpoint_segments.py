"""Checkpointing every K-th layer: the peak's two terms, its ends, and the best K."""

import math
from fractions import Fraction

import pytest

from distlesson.catalog.models import get_model
from distlesson.memory.activations import activation_bytes_per_layer
from distlesson.memory.checkpoint_segments import best_every, segment_peak

SEQ = 4096


@pytest.mark.parametrize("model", ["llama3-8b", "llama3-70b", "gpt2-small"])
@pytest.mark.parametrize("kept", ["none", "selective"])
def test_peak_is_checkpoints_plus_one_segment(model, kept):
    arch = get_model(model)
    shape = dict(seq_len=SEQ, micro_batch=1, hidden_size=arch.hidden_size,
                 num_heads=arch.num_heads)
    c = Fraction(activation_bytes_per_layer(**shape, recompute="full"))  # 2 s b h
    a = Fraction(activation_bytes_per_layer(**shape, recompute=kept))
    assert c == 2 * SEQ * arch.hidden_size
    layers = arch.num_layers
    for k in (1, 2, 3, layers):
        peak = segment_peak(arch, every=k, seq_len=SEQ, kept=kept)
        assert peak.checkpoints == math.ceil(layers / k) * c
        assert peak.segment == k * a
    # K = 1: every input kept, one layer recomputed; K = L: the model's input and every layer
    assert segment_peak(arch, every=1, seq_len=SEQ, kept=kept).total == layers * c + a
    assert segment_peak(arch, every=layers, seq_len=SEQ, kept=kept).total == c + layers * a


@pytest.mark.parametrize("model", ["llama3-8b", "llama3-70b", "gpt2-small"])
@pytest.mark.parametrize("kept", ["none", "selective"])
def test_best_every_is_the_smallest_and_near_the_square_root(model, kept):
    arch = get_model(model)
    best = best_every(arch, seq_len=SEQ, kept=kept)
    peaks = [segment_peak(arch, every=k, seq_len=SEQ, kept=kept).total
             for k in range(1, arch.num_layers + 1)]
    assert best.total == min(peaks) and best.every == peaks.index(min(peaks)) + 1
    one = segment_peak(arch, every=1, seq_len=SEQ, kept=kept)
    root = math.sqrt(one.checkpoints / one.segment)  # sqrt(L c / a), Chen et al. 2016
    assert abs(best.every - root) <= max(1.0, root / 2)


def test_refuses_a_segment_longer_than_the_model():
    arch = get_model("llama3-8b")
    with pytest.raises(ValueError, match="every=0"):
        segment_peak(arch, every=0, seq_len=SEQ)
    with pytest.raises(ValueError, match="num_layers=32"):
        segment_peak(arch, every=33, seq_len=SEQ)
    with pytest.raises(ValueError, match="kept='full'"):
        segment_peak(arch, every=2, seq_len=SEQ, kept="full")
