"""Activation checkpointing: bitwise-identical gradients, what each mode keeps, the peak of
saved arrays counted by hand, and loose bounds on the measured recomputation time."""

import numpy as np
import pytest

from distlesson.catalog.models import get_model
from distlesson.transformer import checkpointing, model
from distlesson.transformer.block import BlockTape
from distlesson.transformer.params import init_params
from distlesson.transformer.timing import measure_timing
from tests.test_transformer_model import tiny_arch


def _identical(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.arrays(), b.arrays(), strict=True))


@pytest.mark.parametrize("arch", [get_model("course-tiny"), tiny_arch(kv_heads=1, layers=3)],
                         ids=["course-tiny", "gqa-3-layers"])
@pytest.mark.parametrize("mode", checkpointing.MODES)
def test_gradients_are_identical_to_the_plain_backward(arch, mode):
    params = init_params(arch, seed=3, std=0.3)
    tokens = np.random.default_rng(6).integers(0, arch.vocab_size, (2, 16))
    loss, tape = model.forward(params, tokens)
    plain = model.backward(params, tape)
    ck_loss, ck_tape = checkpointing.forward(params, tokens, mode=mode)
    grads, _ = checkpointing.backward(params, ck_tape)
    assert ck_loss == loss
    assert _identical(grads, plain)


def test_what_each_mode_keeps():
    params = init_params()
    tokens = np.zeros((1, 6), dtype=int)
    _, full = checkpointing.forward(params, tokens, mode="full")
    _, selective = checkpointing.forward(params, tokens, mode="selective")
    _, plain = model.forward(params, tokens)
    for i, block in enumerate(full.blocks):  # only the block inputs, the very same values
        assert isinstance(block, np.ndarray)
        assert np.array_equal(block, plain.blocks[i].x)
    for block in selective.blocks:  # everything but the quadratic attention weights
        assert isinstance(block, BlockTape) and block.probs is None
        assert [n for n, _ in block.arrays()] == [
            "x", "rstd1", "n1", "qr", "kr", "v", "attn", "h", "rstd2", "n2", "gate", "up", "act"]
    with pytest.raises(ValueError, match="mode='some' is not known; allowed: none, selective"):
        checkpointing.forward(params, tokens, mode="some")


# Peak by hand, course-tiny (C = 32, K D = 32, F = 88, A = 4, V = 96, 2 layers), B = 1, L = 4.
# One block saves per token: x, n1, qr, kr, v, attn, h, n2 (8 x 32 = 256), rstd1 and rstd2
# (2), gate, up, act (3 x 88 = 264): 522 scalars, so 4 x 522 = 2088 for the 4 tokens; and
# its probs, 4 heads x 4 x 4 = 64. The head saves per token x and n (64), rstd (1), probs
# (96), targets (1): 162, so 648; the tokens: 4.
BLOCK_LINEAR, PROBS, HEAD, TOKENS = 2088, 64, 648, 4
BY_HAND = {
    # (end of the forward, added while one block's backward runs)
    "none": (2 * (BLOCK_LINEAR + PROBS) + HEAD + TOKENS, 0),  # 4956, 0
    "selective": (2 * BLOCK_LINEAR + HEAD + TOKENS, PROBS),  # 4828, 64
    "full": (2 * 4 * 32 + HEAD + TOKENS, BLOCK_LINEAR - 4 * 32 + PROBS),  # 908, 2024
}


@pytest.mark.parametrize("mode", checkpointing.MODES)
def test_peak_of_saved_scalars_by_hand(mode):
    params = init_params()
    _, tape = checkpointing.forward(params, np.zeros((1, 4), dtype=int), mode=mode)
    _, peak = checkpointing.backward(params, tape)
    end, added = BY_HAND[mode]
    assert (peak.end_of_forward.scalars, peak.recomputed.scalars) == (end, added)
    assert peak.peak.scalars == end + added
    # float64 activations and int64 tokens and targets: 8 bytes each
    assert peak.peak.nbytes == 8 * (end + added)


def test_peak_bytes_in_float32_count_the_int64_ids_at_8_bytes():
    params = init_params(dtype=np.float32)
    _, tape = checkpointing.forward(params, np.zeros((1, 4), dtype=int), mode="none")
    _, peak = checkpointing.backward(params, tape)
    ints = TOKENS + 4  # tokens and targets, 4 each
    assert peak.peak.nbytes == 4 * (BY_HAND["none"][0] - ints) + 8 * ints


def test_measured_times_are_within_loose_bounds():
    # Measurements, not formulas: only bounds that any sane machine satisfies are checked.
    timing = measure_timing(batch_size=2, seq_len=32, repeats=5)
    assert 0.3 < timing.backward_over_forward < 10
    assert 0 < timing.full_overhead < 10  # full recomputation reruns every block's forward
    assert -0.5 < timing.selective_overhead < 10
    assert min(timing.forward_s, timing.backward_s, timing.full_backward_s) > 0
    with pytest.raises(ValueError, match="repeats=0 must be a positive integer"):
        measure_timing(repeats=0)
