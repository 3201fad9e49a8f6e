"""Simulated collectives against their references (the sum, the concatenation, the transpose)
and against the closed forms of bytes sent per rank."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from distlesson.parallel.collectives import (
    Transfer,
    all_to_all,
    ring_all_gather,
    ring_all_reduce,
    ring_bytes,
    ring_reduce_scatter,
)

SIZES = st.integers(1, 200)
RANKS = st.integers(1, 9)
SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=60, deadline=None)


def _floats(seed: int, n: int, size: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(size) for _ in range(n)]  # n x (size,)


def _ints(seed: int, n: int, shape: tuple[int, ...]) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(-1000, 1000, shape, dtype=np.int64) for _ in range(n)]


@FAST
@given(size=SIZES, n=RANKS, seed=SEEDS)
def test_all_reduce_equals_the_sum(size, n, seed):
    inputs = _floats(seed, n, size)
    result = ring_all_reduce(inputs)
    reference = np.sum(inputs, axis=0)  # (size,)
    assert result.steps == 2 * (n - 1)
    for output in result.outputs:
        assert output.shape == (size,)
        np.testing.assert_allclose(output, reference, rtol=1e-12, atol=1e-12)


@FAST
@given(rows=st.integers(1, 12), cols=st.integers(1, 12), n=RANKS, seed=SEEDS)
def test_all_reduce_of_integers_is_exact_and_keeps_the_shape(rows, cols, n, seed):
    inputs = _ints(seed, n, (rows, cols))
    reference = np.sum(inputs, axis=0)  # (rows, cols)
    for output in ring_all_reduce(inputs).outputs:
        assert output.dtype == np.int64
        assert np.array_equal(output, reference)


@FAST
@given(size=SIZES, n=RANKS, seed=SEEDS)
def test_all_reduce_bytes_match_the_closed_form(size, n, seed):
    inputs = _floats(seed, n, size)
    result = ring_all_reduce(inputs)
    buffer = inputs[0].nbytes
    closed = ring_bytes("all_reduce", buffer, n)
    assert result.total_sent == n * closed == 2 * (n - 1) * buffer  # exact, even if uneven
    for r in range(n):  # a ring: what rank r sends, rank r + 1 receives
        assert result.received_bytes[(r + 1) % n] == result.sent_bytes[r]
    if size % n == 0:
        assert all(sent == closed for sent in result.sent_bytes)
        assert all(got == closed for got in result.received_bytes)


def _bytes_by_rank(transfers, n: int, side: str) -> tuple[int, ...]:
    totals = [0] * n
    for t in transfers:
        totals[getattr(t, side)] += t.nbytes
    return tuple(totals)


@FAST
@given(size=SIZES, n=RANKS, seed=SEEDS)
def test_logged_transfers_add_up_to_the_bytes_each_rank_sent(size, n, seed):
    inputs = _floats(seed, n, size)
    scattered = ring_reduce_scatter(inputs)
    for result in (ring_all_reduce(inputs), scattered, ring_all_gather(list(scattered.outputs))):
        assert _bytes_by_rank(result.transfers, n, "src") == result.sent_bytes
        assert _bytes_by_rank(result.transfers, n, "dst") == result.received_bytes
        assert len(result.transfers) == n * result.steps  # every rank sends once per round


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
def test_logged_transfers_follow_the_ring_schedule(n):
    transfers = ring_all_reduce(_floats(0, n, 2 * n)).transfers
    assert len(transfers) == 2 * n * (n - 1)
    for step in range(2 * (n - 1)):
        in_step = [t for t in transfers if t.step == step]
        assert sorted(t.src for t in in_step) == list(range(n))  # each rank sends once
        assert all(t.dst == (t.src + 1) % n for t in in_step)
        phase = "reduce-scatter" if step < n - 1 else "all-gather"
        assert {t.phase for t in in_step} == {phase}
    # the last reduce-scatter round delivers chunk c to rank c, which then owns its sum
    last = [t for t in transfers if t.step == n - 2]
    assert all(t.dst == t.chunk for t in last)
    # the first all-gather round: each rank sends the chunk it owns
    assert all(t.src == t.chunk for t in transfers if t.step == n - 1)


@pytest.mark.parametrize(("size", "n"), [(10, 4), (7, 3), (1, 5), (3, 9), (199, 8)])
def test_uneven_chunks_deviate_per_rank_but_not_in_total(size, n):
    inputs = _floats(0, n, size)
    result = ring_all_reduce(inputs)
    np.testing.assert_allclose(result.outputs[0], np.sum(inputs, axis=0), rtol=1e-12)
    assert result.total_sent == 2 * (n - 1) * inputs[0].nbytes
    # chunks differ by at most one element: each rank sends 2(n - 1) chunks
    closed = ring_bytes("all_reduce", inputs[0].nbytes, n)
    assert all(abs(sent - closed) <= 2 * (n - 1) * 8 for sent in result.sent_bytes)


@FAST
@given(size=SIZES, n=RANKS, seed=SEEDS)
def test_reduce_scatter_then_all_gather_is_all_reduce(size, n, seed):
    inputs = _floats(seed, n, size)
    scattered = ring_reduce_scatter(inputs)
    reference = np.sum(inputs, axis=0)  # (size,)
    for rank, chunk in enumerate(scattered.outputs):
        np.testing.assert_allclose(chunk, np.array_split(reference, n)[rank], rtol=1e-12,
                                   atol=1e-12)
    gathered = ring_all_gather(list(scattered.outputs))
    reduced = ring_all_reduce(inputs)
    for a, b in zip(gathered.outputs, reduced.outputs, strict=True):
        assert np.array_equal(a, b)  # the same chunks, summed in the same ring order
    assert np.array_equal(np.add(scattered.sent_bytes, gathered.sent_bytes), reduced.sent_bytes)
    assert scattered.steps + gathered.steps == reduced.steps
    buffer = inputs[0].nbytes
    assert scattered.total_sent == gathered.total_sent == n * ring_bytes(
        "reduce_scatter", buffer, n)
    if size % n == 0:
        assert set(scattered.sent_bytes) | set(gathered.sent_bytes) <= {
            ring_bytes("all_gather", buffer, n)}


@FAST
@given(n=RANKS, rows=st.lists(st.integers(0, 6), min_size=9, max_size=9), seed=SEEDS)
def test_all_gather_concatenates_uneven_shards_along_an_axis(n, rows, seed):
    rng = np.random.default_rng(seed)
    shards = [rng.standard_normal((3, rows[r])) for r in range(n)]  # n x (3, rows_r)
    result = ring_all_gather(shards, axis=1)
    reference = np.concatenate(shards, axis=1)  # (3, sum rows)
    assert all(np.array_equal(out, reference) for out in result.outputs)
    assert result.total_sent == (n - 1) * reference.nbytes


@FAST
@given(n=RANKS, piece=st.integers(0, 20), seed=SEEDS)
def test_all_to_all_transposes_the_send_matrix(n, piece, seed):
    rng = np.random.default_rng(seed)
    send = [[rng.standard_normal(piece) for _ in range(n)] for _ in range(n)]  # n x n x (piece,)
    result = all_to_all(send)
    for j in range(n):
        for i in range(n):
            assert np.array_equal(result.outputs[j][i], send[i][j])
    buffer = sum(p.nbytes for p in send[0])
    assert result.sent_bytes == (ring_bytes("all_to_all", buffer, n),) * n
    assert result.received_bytes == result.sent_bytes
    assert result.steps == n - 1


def test_all_to_all_with_uneven_pieces_counts_what_leaves_each_rank():
    send = [[np.zeros(i + 2 * j) for j in range(3)] for i in range(3)]
    result = all_to_all(send)
    for i in range(3):
        assert result.sent_bytes[i] == sum(8 * (i + 2 * j) for j in range(3) if j != i)
        assert result.received_bytes[i] == sum(8 * (j + 2 * i) for j in range(3) if j != i)


def test_one_rank_sends_nothing():
    x = np.arange(5.0)
    for result in (ring_all_reduce([x]), ring_reduce_scatter([x]), ring_all_gather([x]),
                   all_to_all([[x]])):
        assert result.sent_bytes == (0,) and result.received_bytes == (0,)
        assert result.steps == 0
    assert ring_bytes("all_reduce", 40, 1) == 0


def test_outputs_do_not_alias_the_inputs():
    inputs = [np.ones(4), np.ones(4)]
    result = ring_all_reduce(inputs)
    result.outputs[0][:] = 7
    assert np.array_equal(inputs[0], np.ones(4))
    assert np.array_equal(result.outputs[1], 2 * inputs[1])


def test_ring_bytes_closed_forms():
    assert ring_bytes("all_reduce", 800, 8) == Fraction(2 * 7 * 800, 8) == 1400
    assert ring_bytes("reduce_scatter", 800, 8) == ring_bytes("all_gather", 800, 8) == 700
    assert ring_bytes("all_to_all", 10, 3) == Fraction(20, 3)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ring_all_reduce([np.ones(3), np.ones(4)]), r"rank 1 has shape \(4,\)"),
        (lambda: ring_all_reduce([np.ones(3), np.ones(3, np.float32)]), "rank 1 has dtype"),
        (lambda: ring_reduce_scatter([]), "at least one rank"),
        (lambda: ring_all_reduce([[1.0, 2.0]]), "allowed: numpy.ndarray"),
        (lambda: ring_all_gather([np.ones((2, 3)), np.ones((2, 4))]), "only along axis 0"),
        (lambda: ring_all_gather([np.ones(3)], axis=1), "axis=1 is out of range"),
        (lambda: all_to_all([[np.ones(1)], [np.ones(1)]]), "rank 0 has 1 pieces"),
        (lambda: ring_bytes("broadcast", 8, 2), "allowed: "),
        (lambda: Transfer(0, "broadcast", 0, 1, 0, 8), "phase='broadcast'; allowed"),
        (lambda: ring_bytes("all_reduce", 8, 0), "n=0 must be a positive integer"),
        (lambda: ring_bytes("all_reduce", -1, 2), "buffer_bytes=-1"),
    ],
)
def test_errors_name_the_value_and_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message):
        call()
