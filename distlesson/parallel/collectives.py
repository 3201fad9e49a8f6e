"""Collective communication, simulated rank by rank and chunk by chunk on numpy arrays.

Each function takes one array per rank (the list index is the rank), runs the algorithm in
synchronous rounds, and returns every rank's output together with the bytes each rank sent
and received, counted from the ``nbytes`` of the pieces actually sent. The ring algorithms
also log every piece they send as a :class:`Transfer`, the data a diagram is drawn from.
The closed forms of :func:`ring_bytes` summarise these simulations; the tests check one
against the other.

Ring algorithms (Patarasuk & Yuan 2009, "Bandwidth optimal all-reduce algorithms for
clusters of workstations"; the ring algorithms of NCCL): the n ranks form a ring, rank r
sends only to rank (r + 1) mod n, and the buffer is cut into n chunks (``np.array_split``:
sizes differ by at most one element, so any size works).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

__all__ = [
    "RING_KINDS",
    "CollectiveResult",
    "Transfer",
    "all_to_all",
    "ring_all_gather",
    "ring_all_reduce",
    "ring_bytes",
    "ring_reduce_scatter",
]


@dataclass(frozen=True)
class Transfer:
    """One piece put on the wire by a ring algorithm: who sent which chunk to whom, when."""

    step: int
    """The round it was sent in, from 0; the rounds of all phases of a collective in order."""
    phase: Literal["reduce-scatter", "all-gather"]
    """The ring phase that sent it."""
    src: int
    """The sending rank."""
    dst: int
    """The receiving rank, ``(src + 1) mod n`` in a ring."""
    chunk: int
    """Which of the n chunks of the buffer (the shard index, for an all-gather)."""
    nbytes: int
    """Its size: the ``nbytes`` of the piece sent."""

    def __post_init__(self) -> None:
        if self.phase not in ("reduce-scatter", "all-gather"):
            raise ValueError(f"phase={self.phase!r}; allowed: 'reduce-scatter', 'all-gather'")


@dataclass(frozen=True)
class CollectiveResult:
    """What a simulated collective leaves on each rank, and what it cost."""

    outputs: tuple[Any, ...]
    """Per rank: the output array (a tuple of arrays for :func:`all_to_all`)."""
    sent_bytes: tuple[int, ...]
    """Per rank: bytes it sent, the sum of ``nbytes`` of every piece it put on the wire."""
    received_bytes: tuple[int, ...]
    """Per rank: bytes it received."""
    steps: int
    """Communication rounds; in each round every rank sends at most one piece."""
    transfers: tuple[Transfer, ...] = ()
    """Every piece sent, in order (ring algorithms; empty for :func:`all_to_all`)."""

    @property
    def n(self) -> int:
        """Number of ranks."""
        return len(self.outputs)

    @property
    def total_sent(self) -> int:
        """Bytes sent by all ranks together (equals the total received)."""
        return sum(self.sent_bytes)


def _check_ranks(inputs: Sequence[np.ndarray], what: str) -> list[np.ndarray]:
    """The per-rank arrays as a list; ValueError unless there is at least one rank."""
    arrays = list(inputs)
    if not arrays:
        raise ValueError(f"{what} needs at least one rank, got 0 arrays")
    for rank, array in enumerate(arrays):
        if not isinstance(array, np.ndarray):
            raise ValueError(f"{what}: rank {rank} holds {type(array).__name__}, "
                             "allowed: numpy.ndarray")
    return arrays


def _check_same(arrays: list[np.ndarray], what: str) -> None:
    """ValueError naming the first rank whose shape or dtype differs from rank 0's."""
    first = arrays[0]
    for rank, array in enumerate(arrays):
        if array.shape != first.shape:
            raise ValueError(f"{what}: rank {rank} has shape {array.shape} but rank 0 has "
                             f"{first.shape}; all ranks must pass equal shapes")
        if array.dtype != first.dtype:
            raise ValueError(f"{what}: rank {rank} has dtype {array.dtype} but rank 0 has "
                             f"{first.dtype}; all ranks must pass the same dtype")


def _ring_reduce_scatter_chunks(
    chunks: list[list[np.ndarray]], sent: list[int], received: list[int],
    log: list[Transfer], first_step: int = 0,
) -> None:
    """Reduce-scatter in place: afterwards ``chunks[r][r]`` holds the sum of chunk r.

    Round s = 0 .. n-2: rank r sends its chunk (r - 1 - s) mod n to rank r + 1, which adds
    it to its own copy. Chunk c starts at rank c + 1 and travels the ring, collecting one
    rank's contribution per round, and arrives complete at rank c after n - 1 rounds.
    Each send is appended to ``log``, its round numbered from ``first_step``.
    """
    n = len(chunks)
    for s in range(n - 1):
        # all sends of a round read the state before the round: copy, then deliver
        messages = [(r, (r - 1 - s) % n, chunks[r][(r - 1 - s) % n].copy()) for r in range(n)]
        for src, c, piece in messages:
            dst = (src + 1) % n
            chunks[dst][c] = chunks[dst][c] + piece  # (chunk_len,)
            sent[src] += piece.nbytes
            received[dst] += piece.nbytes
            log.append(Transfer(first_step + s, "reduce-scatter", src, dst, c, piece.nbytes))


def _ring_all_gather_chunks(
    chunks: list[list[np.ndarray | None]], sent: list[int], received: list[int],
    log: list[Transfer], first_step: int = 0,
) -> None:
    """All-gather in place: rank r starts with chunk r; afterwards every rank has all chunks.

    Round s = 0 .. n-2: rank r forwards chunk (r - s) mod n (its own in round 0, then the
    one it received in the previous round) to rank r + 1. Each send is appended to ``log``,
    its round numbered from ``first_step``.
    """
    n = len(chunks)
    for s in range(n - 1):
        messages = [(r, (r - s) % n, chunks[r][(r - s) % n]) for r in range(n)]
        for src, c, piece in messages:
            dst = (src + 1) % n
            chunks[dst][c] = piece.copy()
            sent[src] += piece.nbytes
            received[dst] += piece.nbytes
            log.append(Transfer(first_step + s, "all-gather", src, dst, c, piece.nbytes))


def ring_reduce_scatter(inputs: Sequence[np.ndarray]) -> CollectiveResult:
    """Rank r ends with chunk r of the elementwise sum of all inputs (flattened).

    Algorithm: the flattened buffer of E elements is split into n chunks by
    ``np.array_split`` (the first E mod n chunks have one element more); n - 1 ring rounds.
    Cost per rank: it sends every chunk but its own once, (n - 1)/n of the buffer when n
    divides E; all ranks together send exactly (n - 1) x the buffer.
    Inputs: one array per rank, equal shapes and dtype. Output r: 1-D, chunk r's length.
    """
    arrays = _check_ranks(inputs, "ring_reduce_scatter")
    _check_same(arrays, "ring_reduce_scatter")
    n = len(arrays)
    chunks = [np.array_split(a.ravel().copy(), n) for a in arrays]  # n x n x (chunk_len,)
    sent, received, log = [0] * n, [0] * n, []
    _ring_reduce_scatter_chunks(chunks, sent, received, log)
    return CollectiveResult(tuple(chunks[r][r] for r in range(n)), tuple(sent), tuple(received),
                            steps=n - 1, transfers=tuple(log))


def ring_all_gather(shards: Sequence[np.ndarray], *, axis: int = 0) -> CollectiveResult:
    """Every rank ends with the concatenation of all shards along ``axis``, in rank order.

    Shards may differ in length along ``axis`` (the uneven chunks of a reduce-scatter) but
    must agree in dtype and in every other dimension. n - 1 ring rounds; rank r sends every
    shard but shard r + 1 once, so all ranks together send (n - 1) x the gathered buffer.
    """
    arrays = _check_ranks(shards, "ring_all_gather")
    first = arrays[0]
    if not -first.ndim <= axis < first.ndim:
        raise ValueError(f"ring_all_gather: axis={axis} is out of range for shards of shape "
                         f"{first.shape}; allowed: {-first.ndim} .. {first.ndim - 1}")

    def others(shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape[: axis % first.ndim] + shape[axis % first.ndim + 1:]

    for rank, array in enumerate(arrays):
        if array.ndim != first.ndim or others(array.shape) != others(first.shape):
            raise ValueError(f"ring_all_gather: rank {rank} has shape {array.shape} but rank 0 "
                             f"has {first.shape}; they may differ only along axis {axis}")
        if array.dtype != first.dtype:
            raise ValueError(f"ring_all_gather: rank {rank} has dtype {array.dtype} but rank 0 "
                             f"has {first.dtype}; all ranks must pass the same dtype")
    n = len(arrays)
    chunks: list[list[np.ndarray | None]] = [
        [a.copy() if c == r else None for c, a in enumerate(arrays)] for r in range(n)
    ]
    sent, received, log = [0] * n, [0] * n, []
    _ring_all_gather_chunks(chunks, sent, received, log)
    outputs = tuple(np.concatenate(chunks[r], axis=axis) for r in range(n))  # (sum len, ...)
    return CollectiveResult(outputs, tuple(sent), tuple(received), steps=n - 1,
                            transfers=tuple(log))


def ring_all_reduce(inputs: Sequence[np.ndarray]) -> CollectiveResult:
    """Every rank ends with the elementwise sum of all inputs, in the inputs' shape.

    Algorithm: reduce-scatter (n - 1 rounds) then all-gather of the reduced chunks (n - 1
    rounds), 2(n - 1) rounds in all (Patarasuk & Yuan 2009). Cost per rank: 2(n - 1)/n of
    the buffer when n divides the element count; all ranks together send exactly
    2(n - 1) x the buffer. The sum is accumulated in ring order, so floats may differ from
    ``np.sum`` by round-off; integers are exact.
    """
    arrays = _check_ranks(inputs, "ring_all_reduce")
    _check_same(arrays, "ring_all_reduce")
    n = len(arrays)
    chunks = [np.array_split(a.ravel().copy(), n) for a in arrays]  # n x n x (chunk_len,)
    sent, received, log = [0] * n, [0] * n, []
    _ring_reduce_scatter_chunks(chunks, sent, received, log)
    # each rank keeps only the chunk it owns, complete; the others are partial sums
    owned: list[list[np.ndarray | None]] = [
        [chunks[r][c] if c == r else None for c in range(n)] for r in range(n)
    ]
    _ring_all_gather_chunks(owned, sent, received, log, first_step=n - 1)
    shape = arrays[0].shape
    outputs = tuple(np.concatenate(owned[r]).reshape(shape) for r in range(n))
    return CollectiveResult(outputs, tuple(sent), tuple(received), steps=2 * (n - 1),
                            transfers=tuple(log))


def all_to_all(send: Sequence[Sequence[np.ndarray]]) -> CollectiveResult:
    """Rank i sends ``send[i][j]`` to rank j; ``outputs[j][i]`` is what j got from i.

    ``send`` is an n x n matrix of arrays (any shapes: expert routing sends uneven pieces);
    the output is its transpose. A rank's own piece ``send[i][i]`` stays local: it appears
    in the output but is not counted as sent. Schedule: pairwise exchange, round k = 1 .. n-1
    sends ``send[i][(i + k) mod n]``, so every link carries one piece per round.
    Cost per rank: (n - 1)/n of its send buffer when the pieces are equal.
    """
    rows = [list(row) for row in send]
    n = len(rows)
    if n == 0:
        raise ValueError("all_to_all needs at least one rank, got an empty send matrix")
    for i, row in enumerate(rows):
        if len(row) != n:
            raise ValueError(f"all_to_all: rank {i} has {len(row)} pieces to send, but there "
                             f"are {n} ranks; each rank must send exactly one piece per rank")
        _check_ranks(row, f"all_to_all (pieces of rank {i})")
    received_pieces: list[list[np.ndarray | None]] = [[None] * n for _ in range(n)]
    sent, received = [0] * n, [0] * n
    for i in range(n):
        received_pieces[i][i] = rows[i][i].copy()  # own piece: no communication
    for k in range(1, n):
        for i in range(n):
            j = (i + k) % n
            piece = rows[i][j].copy()
            received_pieces[j][i] = piece
            sent[i] += piece.nbytes
            received[j] += piece.nbytes
    outputs = tuple(tuple(pieces) for pieces in received_pieces)
    return CollectiveResult(outputs, tuple(sent), tuple(received), steps=n - 1)


RING_KINDS: dict[str, Fraction] = {
    "all_reduce": Fraction(2),
    "reduce_scatter": Fraction(1),
    "all_gather": Fraction(1),
    "all_to_all": Fraction(1),
}
"""Per kind, the factor c in sent bytes per rank = c (n - 1)/n x buffer bytes."""


def ring_bytes(kind: str, buffer_bytes: int, n: int) -> Fraction:
    """Bytes each rank sends in a collective over n ranks: the closed form, exact.

    Equations (B = ``buffer_bytes``: the full buffer being reduced or gathered; for
    all-to-all, one rank's whole send buffer including its own piece):
    all-reduce 2(n - 1)/n x B; reduce-scatter and all-gather (n - 1)/n x B; all-to-all
    (n - 1)/n x B with equal pieces. n = 1 sends nothing.
    Source: Patarasuk & Yuan 2009 (the ring all-reduce is bandwidth optimal); NCCL's
    performance notes (bus bandwidth factors 2(n-1)/n and (n-1)/n).
    Assumptions: n divides the element count (otherwise chunks differ by one element and
    single ranks deviate, while the sum over ranks, n x this value, stays exact).
    Units: bytes, a Fraction.
    """
    if kind not in RING_KINDS:
        raise ValueError(f"kind={kind!r} is not a collective; allowed: {sorted(RING_KINDS)}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n={n!r} must be a positive integer (the number of ranks)")
    if not isinstance(buffer_bytes, int) or isinstance(buffer_bytes, bool) or buffer_bytes < 0:
        raise ValueError(f"buffer_bytes={buffer_bytes!r} must be a non-negative integer")
    return RING_KINDS[kind] * Fraction(n - 1, n) * buffer_bytes
