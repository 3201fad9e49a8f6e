"""How real engines cut parameters: ZeroRedundancyOptimizer's greedy partition and FSDP2's
dim-0 chunks, against hand derivations and against torch.chunk itself."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from distlesson.parallel.sharding import (
    Dim0Shard,
    dim0_chunks,
    dim0_shard,
    greedy_partition,
    partition_numels,
)


def test_greedy_partition_of_the_toy_mlp_by_hand():
    # W1 128, b1 16, W2 64, b2 4. Largest first: 128 -> rank 0 (both empty, lowest rank);
    # 64 -> rank 1 (0 < 128); 16 -> rank 1 (64 < 128); 4 -> rank 1 (80 < 128).
    sizes = [128, 16, 64, 4]
    assert greedy_partition(sizes, 2) == ((0,), (2, 1, 3))
    assert partition_numels(sizes, 2) == (128, 84)
    # four ranks: one tensor each, in decreasing size
    assert greedy_partition(sizes, 4) == ((0,), (2,), (1,), (3,))
    assert partition_numels(sizes, 4) == (128, 64, 16, 4)
    # more ranks than tensors: the last ones own nothing
    assert partition_numels(sizes, 6) == (128, 64, 16, 4, 0, 0)


def test_greedy_partition_ties_go_to_the_lowest_rank_and_keep_order():
    # equal sizes keep their order (stable sort) and fill ranks 0, 1, 2, 0, ...
    assert greedy_partition([5, 5, 5, 5], 3) == ((0, 3), (1,), (2,))
    # 6 -> rank 0; 5 -> rank 1; 4 -> rank 1 (5 < 6); 3 -> rank 0 (6 < 9)
    assert greedy_partition([3, 4, 5, 6], 2) == ((3, 0), (2, 1))


def test_dim0_chunks_follow_torch_chunk_not_array_split():
    assert dim0_chunks(9, 4) == (3, 3, 3, 0)  # c = 3: 3, 3, 3, then nothing left
    assert dim0_chunks(5, 4) == (2, 2, 1, 0)  # c = 2
    assert dim0_chunks(8, 4) == (2, 2, 2, 2)
    assert dim0_chunks(3, 4) == (1, 1, 1, 0)
    assert dim0_chunks(1, 3) == (1, 0, 0)


def test_dim0_shard_by_hand():
    # W of nn.Linear(8, 5): shape (5, 8) over 2 ranks: rows 3 and 2, the first padded size
    assert dim0_shard((5, 8), 2) == Dim0Shard(local=(24, 16), padded=24)
    assert dim0_shard((9,), 4) == Dim0Shard(local=(3, 3, 3, 0), padded=3)
    assert dim0_shard((4, 16), 4).local == (16, 16, 16, 16)
    assert dim0_shard((5, 8), 2).numel == 40


@given(st.integers(1, 200), st.integers(1, 16))
def test_chunks_add_up_and_never_exceed_the_first(rows, n):
    chunks = dim0_chunks(rows, n)
    assert len(chunks) == n and sum(chunks) == rows
    assert max(chunks) == chunks[0] == math.ceil(rows / n)
    assert list(chunks) == sorted(chunks, reverse=True)


@given(st.lists(st.integers(0, 1000), max_size=12), st.integers(1, 6))
def test_partition_covers_every_tensor_once(sizes, n):
    owned = greedy_partition(sizes, n)
    assert sorted(i for rank in owned for i in rank) == list(range(len(sizes)))
    assert sum(partition_numels(sizes, n)) == sum(sizes)


def test_dim0_chunks_equal_torch_chunk_padded_with_empty_pieces():
    torch = pytest.importorskip("torch")
    for rows in range(1, 20):
        for n in range(1, 7):
            pieces = [len(p) for p in torch.chunk(torch.arange(rows), n)]
            pieces += [0] * (n - len(pieces))  # FSDP2's _chunk_with_empty
            assert dim0_chunks(rows, n) == tuple(pieces), (rows, n)


@pytest.mark.parametrize("call", [
    lambda: greedy_partition([1, 2], 0),
    lambda: greedy_partition([1, -2], 2),
    lambda: dim0_chunks(-1, 2),
    lambda: dim0_shard((), 2),
    lambda: dim0_shard((4, 0), 2),
])
def test_bad_input_is_refused(call):
    with pytest.raises(ValueError):
        call()
