"""The numpy decoder end to end: weights as the catalog lists them, gradients against central
differences for every kind of weight, the tape's arrays, and a short training run."""

from dataclasses import replace

import numpy as np
import pytest

from distlesson.catalog.models import Architecture, get_model, parameter_tensors
from distlesson.transformer import ops
from distlesson.transformer.block import BlockTape, block_backward, block_forward
from distlesson.transformer.model import backward, forward
from distlesson.transformer.params import init_params
from distlesson.transformer.text import VOCAB, decode, encode, load_corpus
from distlesson.transformer.train import TrainConfig, train
from tests.test_transformer_ops import numeric_grad

RTOL = 1e-6
"""Central differences with e = 1e-6 on a float64 loss of order 1 (see test_transformer_ops)."""
ATOL = 1e-9


def tiny_arch(*, kv_heads: int = 1, tied: bool = True, layers: int = 2, ffn: int = 12,
              ) -> Architecture:
    """A decoder small enough to difference every weight: C = 8, two heads of 4, F = 12."""
    fields = dict(key="fd-tiny", display_name="fd", num_layers=layers, hidden_size=8,
                  num_heads=2, num_kv_heads=kv_heads, ffn_hidden_size=ffn, vocab_size=11,
                  norm="rmsnorm", mlp="swiglu", bias=False, tied_embeddings=tied,
                  max_positions=None, source="test")
    draft = Architecture(published_params=1, **fields)
    return Architecture(published_params=draft.num_params, **fields)


def test_weights_are_named_and_shaped_as_the_catalog():
    arch = get_model("course-tiny")
    params = init_params(arch)
    want = [(t.name, t.shape) for t in parameter_tensors(arch)]
    assert [(name, a.shape) for name, a in params.named()] == want
    assert params.num_params == arch.num_params == 28_320
    assert params.head is params.embed  # tied: one matrix, counted once


def test_weights_reject_a_wrong_shape_and_unsupported_models():
    params = init_params()
    with pytest.raises(ValueError, match=r"allowed: \('layers.0.self_attn.q_proj.weight'"):
        params.from_arrays([a if i != 2 else a[:, :5] for i, a in enumerate(params.arrays())])
    with pytest.raises(ValueError, match="norm='layernorm' is not supported"):
        init_params(get_model("gpt2-small"))


@pytest.mark.parametrize(("kv_heads", "tied"), [(1, True), (2, False)])
def test_every_weight_gradient_against_central_differences(kv_heads, tied):
    # B = 2, L = 5; std 0.5 so that softmax, norms and SwiGLU are far from linear.
    arch = tiny_arch(kv_heads=kv_heads, tied=tied)
    params = init_params(arch, seed=1, std=0.5)
    tokens = np.random.default_rng(0).integers(0, arch.vocab_size, (2, 5))
    grads = backward(params, forward(params, tokens)[1])
    kinds = set()
    for (name, weight), (_, grad) in zip(params.named(), grads.named(), strict=True):
        numeric = numeric_grad(lambda: forward(params, tokens)[0], weight)
        np.testing.assert_allclose(grad, numeric, rtol=RTOL, atol=ATOL, err_msg=name)
        kinds.add(name.split(".")[-2])
    assert kinds >= {"embed_tokens", "input_layernorm", "q_proj", "k_proj", "v_proj", "o_proj",
                     "post_attention_layernorm", "gate_proj", "up_proj", "down_proj"}


def test_block_input_gradient_against_central_differences():
    arch = tiny_arch()
    params = init_params(arch, seed=2, std=0.5)
    x = np.random.default_rng(3).standard_normal((2, 5, 8))  # (B, L, C)
    r = np.random.default_rng(4).standard_normal((2, 5, 8))
    dx, _ = block_backward(params.blocks[0], block_forward(params.blocks[0], x, 2)[1], r)
    numeric = numeric_grad(lambda: np.sum(block_forward(params.blocks[0], x, 2)[0] * r), x)
    np.testing.assert_allclose(dx, numeric, rtol=RTOL, atol=ATOL)


def test_tape_holds_the_documented_arrays():
    arch = get_model("course-tiny")  # C = 32, A = K = 4, D = 8, F = 88, V = 96
    _, tape = forward(init_params(arch), np.zeros((2, 5), dtype=int))
    b, length = 2, 5
    want = {"x": (b, length, 32), "rstd1": (b, length, 1), "n1": (b, length, 32),
            "qr": (b, 4, length, 8), "kr": (b, 4, length, 8), "v": (b, 4, length, 8),
            "probs": (b, 4, length, length), "attn": (b, length, 32), "h": (b, length, 32),
            "rstd2": (b, length, 1), "n2": (b, length, 32), "gate": (b, length, 88),
            "up": (b, length, 88), "act": (b, length, 88)}
    for block in tape.blocks:
        assert {name: a.shape for name, a in block.arrays()} == want
    assert {name: a.shape for name, a in tape.head.arrays()} == {
        "x": (b, length, 32), "rstd": (b, length, 1), "n": (b, length, 32),
        "probs": (b, length, 96), "targets": (b, length)}
    assert tape.blocks[1].x is not tape.blocks[0].x
    with pytest.raises(ValueError, match=r"tape\.probs is None"):
        block_backward(init_params(arch).blocks[0],
                       replace(tape.blocks[0], probs=None), np.zeros((b, length, 32)))
    assert isinstance(tape.blocks[0], BlockTape)


def test_loss_at_initialisation_is_the_uniform_guess_and_targets_shift():
    # std 0.02: logits are O(0.01), so the loss is ln 96 = 4.564 nats within 0.02.
    params = init_params()
    tokens = np.random.default_rng(5).integers(0, 96, (3, 9))
    loss, tape = forward(params, tokens)
    assert loss == pytest.approx(np.log(96), abs=0.02)
    np.testing.assert_array_equal(tape.head.targets[:, :-1], tokens[:, 1:])
    np.testing.assert_array_equal(tape.head.targets[:, -1], ops.IGNORE)
    assert forward(params, tokens, tape.head.targets)[0] == loss


@pytest.mark.parametrize(("tokens", "message"), [
    (np.array([[0, 96]]), r"range \[0, 96\] outside the allowed \[0, 95\]"),
    (np.zeros((2, 3)), "dtype float64"),
    (np.zeros(3, dtype=int), r"shape \(3,\)"),
])
def test_forward_rejects_bad_tokens(tokens, message):
    with pytest.raises(ValueError, match=message):
        forward(init_params(), tokens)


def test_vocabulary_and_corpus():
    assert len(VOCAB) == 96 == get_model("course-tiny").vocab_size
    text = load_corpus()
    assert 2_000 < len(text) < 10_000
    assert decode(encode(text)) == text
    with pytest.raises(ValueError, match="character 'é' is not in the vocabulary"):
        encode("café")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_training_lowers_the_loss(dtype):
    # 60 AdamW steps of 8 x 32 characters, seed 0: the evaluation loss starts at ln 96 ~ 4.56
    # nats and must end at least 1 nat lower (the run reaches about 2.94, close to the
    # 2.94-nat entropy of the text's character frequencies: it has learnt which letters
    # are common, not yet much about their order).
    result = train(config=TrainConfig(steps=60, dtype=dtype))
    assert result.eval_before == pytest.approx(np.log(96), abs=0.05)
    assert result.eval_after < result.eval_before - 1.0
    assert result.state.params.dtype == dtype
    assert result.state.moments[0].step == 60
