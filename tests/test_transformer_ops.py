"""Each op of the numpy decoder: its hand-written backward against central differences.

Oracle: for an op y = f(x) and a fixed random r, the scalar s = sum(y r) has ds/dx equal to
the op's backward given dy = r; central differences (s(x + e) - s(x - e)) / 2e with
e = 1e-6 in float64 agree with it to about 1e-9 (truncation e^2 f''' and round-off 1e-16/e),
so RTOL = 1e-6 with a small ATOL for entries near zero.
"""

from collections.abc import Callable

import numpy as np
import pytest

from distlesson.parallel.swiglu import SwiGLUWeights, swiglu_mlp
from distlesson.transformer import ops

RTOL = 1e-6
ATOL = 1e-9
EPS = 1e-6


def numeric_grad(f: Callable[[], float], x: np.ndarray, eps: float = EPS) -> np.ndarray:
    """Central differences of the scalar f() with respect to every entry of x (in place)."""
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        old = x[idx]
        x[idx] = old + eps
        plus = f()
        x[idx] = old - eps
        minus = f()
        x[idx] = old
        grad[idx] = (plus - minus) / (2 * eps)
    return grad


def _rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def test_linear_backward():
    rng = _rng()
    x, w = rng.standard_normal((2, 3, 4)), rng.standard_normal((5, 4))  # (B, L, in), (out, in)
    r = rng.standard_normal((2, 3, 5))  # (B, L, out)
    dx, dw = ops.linear_backward(r, x, w)
    np.testing.assert_allclose(dx, numeric_grad(lambda: np.sum(ops.linear(x, w) * r), x),
                               rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(dw, numeric_grad(lambda: np.sum(ops.linear(x, w) * r), w),
                               rtol=RTOL, atol=ATOL)


def test_embedding_backward_scatters_repeated_tokens():
    rng = _rng()
    table = rng.standard_normal((7, 3))  # (V, C)
    tokens = np.array([[1, 4, 1], [6, 1, 0]])  # token 1 three times
    r = rng.standard_normal((2, 3, 3))  # (B, L, C)
    got = ops.embedding_backward(r, tokens, 7)
    want = numeric_grad(lambda: np.sum(ops.embedding(table, tokens) * r), table)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    np.testing.assert_array_equal(got[[2, 3, 5]], 0.0)  # rows of absent tokens


def test_rms_norm_backward_and_eps():
    rng = _rng()
    x, w = rng.standard_normal((2, 3, 6)), rng.standard_normal(6)
    r = rng.standard_normal((2, 3, 6))

    def s() -> float:
        return float(np.sum(ops.rms_norm(x, w)[0] * r))

    _, rstd = ops.rms_norm(x, w)
    dx, dw = ops.rms_norm_backward(r, x, rstd, w)
    np.testing.assert_allclose(dx, numeric_grad(s, x), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(dw, numeric_grad(s, w), rtol=RTOL, atol=ATOL)
    # by definition: rstd = 1 / sqrt(mean(x^2) + 1e-5)
    np.testing.assert_allclose(rstd[..., 0], 1 / np.sqrt(np.mean(x**2, axis=-1) + 1e-5),
                               rtol=1e-15)
    assert ops.RMS_EPS == 1e-5


def test_rope_backward_is_the_inverse_rotation():
    rng = _rng()
    cos, sin = ops.rope_angles(5, 4)  # (L, D/2)
    x = rng.standard_normal((2, 3, 5, 4))  # (B, H, L, D)
    r = rng.standard_normal((2, 3, 5, 4))
    got = ops.rope_backward(r, cos, sin)
    want = numeric_grad(lambda: np.sum(ops.rope(x, cos, sin) * r), x)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(ops.rope_backward(ops.rope(x, cos, sin), cos, sin), x,
                               rtol=1e-13, atol=1e-14)
    # a rotation keeps each pair's length; position 0 is not turned
    y = ops.rope(x, cos, sin)
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), np.linalg.norm(x, axis=-1),
                               rtol=1e-13)
    np.testing.assert_array_equal(y[:, :, 0], x[:, :, 0])


def test_rope_angles_base_10000():
    cos, sin = ops.rope_angles(3, 4)
    # theta = 10000^(-0/4), 10000^(-2/4) = 1, 0.01; at position 2 the angles are 2 and 0.02
    np.testing.assert_allclose(cos[2], np.cos([2.0, 0.02]), rtol=1e-15)
    np.testing.assert_allclose(sin[2], np.sin([2.0, 0.02]), rtol=1e-15)
    with pytest.raises(ValueError, match="head_dim=3 must be even"):
        ops.rope_angles(3, 3)


@pytest.mark.parametrize("num_kv", [1, 2])  # grouped-query (2 query heads per kv) and MHA
def test_attention_backward(num_kv):
    rng = _rng()
    q = rng.standard_normal((2, 2, 5, 4))  # (B, A, L, D)
    k, v = rng.standard_normal((2, num_kv, 5, 4)), rng.standard_normal((2, num_kv, 5, 4))
    r = rng.standard_normal((2, 2, 5, 4))

    def s() -> float:
        return float(np.sum(ops.attention_values(ops.attention_probs(q, k), v) * r))

    probs = ops.attention_probs(q, k)
    dq, dk, dv = ops.attention_backward(r, q, k, v, probs)
    for got, x in ((dq, q), (dk, k), (dv, v)):
        np.testing.assert_allclose(got, numeric_grad(s, x), rtol=RTOL, atol=ATOL)


def test_attention_probs_are_causal_and_normalised():
    rng = _rng()
    q, k = rng.standard_normal((1, 2, 6, 4)), rng.standard_normal((1, 2, 6, 4))
    probs = ops.attention_probs(q, k)  # (1, 2, 6, 6)
    np.testing.assert_allclose(probs.sum(axis=-1), 1.0, rtol=1e-14)
    np.testing.assert_array_equal(probs[..., np.triu_indices(6, k=1)[0],
                                        np.triu_indices(6, k=1)[1]], 0.0)
    np.testing.assert_array_equal(probs[..., 0, 0], 1.0)  # the first token sees itself only


def test_swiglu_backward():
    rng = _rng()
    gate, up = 3 * rng.standard_normal((2, 3, 5)), rng.standard_normal((2, 3, 5))
    r = rng.standard_normal((2, 3, 5))
    dgate, dup = ops.swiglu_backward(r, gate, up)
    np.testing.assert_allclose(dgate, numeric_grad(lambda: np.sum(ops.swiglu(gate, up) * r),
                                                   gate), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(dup, numeric_grad(lambda: np.sum(ops.swiglu(gate, up) * r),
                                                 up), rtol=RTOL, atol=ATOL)


def test_swiglu_mlp_matches_the_projects_reference():
    # Oracle: distlesson.parallel.swiglu stores (in, out) matrices; ours are (out, in), so
    # transpose.
    rng = _rng()
    x = rng.standard_normal((7, 4))  # (N, C)
    wg, wu, wd = (rng.standard_normal((6, 4)), rng.standard_normal((6, 4)),
                  rng.standard_normal((4, 6)))
    ours = ops.linear(ops.swiglu(ops.linear(x, wg), ops.linear(x, wu)), wd)
    theirs = swiglu_mlp(x, SwiGLUWeights(wg.T, wu.T, wd.T))
    np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-14)


def test_cross_entropy_value_and_backward():
    rng = _rng()
    logits = 3 * rng.standard_normal((2, 4, 7))  # (B, L, V)
    targets = np.array([[3, 0, 6, ops.IGNORE], [1, ops.IGNORE, 2, 2]])  # 6 scored
    loss, probs = ops.cross_entropy(logits, targets)
    # oracle: -log(exp(z_t) / sum exp(z)), written directly, averaged over the 6 scored
    scored = [(b, t) for b in range(2) for t in range(4) if targets[b, t] != ops.IGNORE]
    want = np.mean([np.log(np.sum(np.exp(logits[b, t]))) - logits[b, t, targets[b, t]]
                    for b, t in scored])
    assert loss == pytest.approx(want, rel=1e-13)
    got = ops.cross_entropy_backward(probs, targets)
    np.testing.assert_allclose(
        got, numeric_grad(lambda: ops.cross_entropy(logits, targets)[0], logits),
        rtol=RTOL, atol=ATOL)
    np.testing.assert_array_equal(got[0, 3], 0.0)  # an ignored position has no gradient
    with pytest.raises(ValueError, match="every target is IGNORE"):
        ops.cross_entropy(logits, np.full((2, 4), ops.IGNORE))


def test_ops_keep_float32():
    rng = _rng()
    f32 = np.float32
    x = rng.standard_normal((1, 2, 3, 4)).astype(f32)  # (B, H, L, D)
    cos, sin = ops.rope_angles(3, 4, dtype=f32)
    probs = ops.attention_probs(x, x)
    outputs = [ops.rope(x, cos, sin), probs, ops.attention_values(probs, x),
               *ops.attention_backward(x, x, x, x, probs), ops.rms_norm(x, x[0, 0, 0])[0],
               ops.swiglu(x, x), *ops.swiglu_backward(x, x, x)]
    logits = x.reshape(1, 6, 4)
    loss_probs = ops.cross_entropy(logits, np.zeros((1, 6), dtype=int))[1]
    outputs += [loss_probs, ops.cross_entropy_backward(loss_probs, np.zeros((1, 6), int))]
    assert all(out.dtype == f32 for out in outputs)
