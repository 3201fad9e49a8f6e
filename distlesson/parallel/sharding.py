"""How two real engines cut the model states among ranks, parameter by parameter.

The memory model (:mod:`distlesson.memory.states`) divides every sharded state by the number of
ranks n: exact for a flat, padded vector (:mod:`distlesson.parallel.zero`), but not what every
implementation does. Two PyTorch implementations, reproduced here so that the measured
bytes can be predicted exactly (the lab :mod:`distlesson.engine` checks both):

- ``torch.distributed.optim.ZeroRedundancyOptimizer`` (ZeRO-1) gives each parameter tensor
  whole to one rank: :func:`greedy_partition`. Per rank, the optimizer state is uneven;
  summed over the ranks it is exactly the memory model's total.
- FSDP2 (``torch.distributed.fsdp.fully_shard``, ZeRO-3) cuts every tensor along its dim 0
  with ``torch.chunk`` semantics and pads each rank's piece to the first chunk's size:
  :func:`dim0_shard`. Each rank holds rows ``ceil(d0 / n)`` or fewer (possibly none); the
  local pieces sum exactly to the tensor, the padded storage exceeds it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Dim0Shard", "dim0_chunks", "dim0_shard", "greedy_partition", "partition_numels"]


def _check_ranks(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n={n!r} must be a positive integer (the number of ranks)")


def greedy_partition(numels: Sequence[int], n: int) -> tuple[tuple[int, ...], ...]:
    """Which parameter tensors each of n ranks owns: indices into ``numels``, per rank.

    Algorithm (``ZeroRedundancyOptimizer._partition_parameters``, PyTorch 2.x, after
    FairScale's OSS): visit the tensors largest first (a stable sort, so equal sizes keep
    their order) and give each to the rank with the fewest elements so far (the lowest
    rank on a tie). Whole tensors only: a rank may get none, and per-rank totals differ
    unless the sizes happen to balance. Assumes one parameter group, as the lab uses.
    Units: indices; sum per rank with :func:`partition_numels`.
    """
    _check_ranks(n)
    for i, size in enumerate(numels):
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise ValueError(f"numels[{i}]={size!r} must be an integer >= 0")
    owned: list[list[int]] = [[] for _ in range(n)]
    totals = [0] * n
    for index in sorted(range(len(numels)), key=lambda i: numels[i], reverse=True):
        rank = totals.index(min(totals))  # the first rank holding the fewest elements
        owned[rank].append(index)
        totals[rank] += numels[index]
    return tuple(tuple(ranks) for ranks in owned)


def partition_numels(numels: Sequence[int], n: int) -> tuple[int, ...]:
    """Elements each rank owns under :func:`greedy_partition` (they sum to ``sum(numels)``)."""
    return tuple(sum(numels[i] for i in indices) for indices in greedy_partition(numels, n))


def dim0_chunks(rows: int, n: int) -> tuple[int, ...]:
    """Rows of dim 0 that each of n ranks gets: ``torch.chunk`` padded to n pieces.

    ``torch.chunk(t, n)`` cuts pieces of c = ceil(rows / n) rows, the last one shorter, and
    returns fewer than n pieces when c x (n - 1) >= rows; FSDP2 appends empty pieces
    (``_chunk_with_empty``). So rank r gets min(c, max(0, rows - r c)) rows: 9 rows over 4
    ranks give 3, 3, 3, 0 (not ``np.array_split``'s 3, 2, 2, 2).
    """
    _check_ranks(n)
    if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
        raise ValueError(f"rows={rows!r} must be an integer >= 0")
    c = math.ceil(rows / n)
    return tuple(min(c, max(0, rows - r * c)) for r in range(n))


@dataclass(frozen=True)
class Dim0Shard:
    """One tensor sharded on dim 0 over n ranks, as FSDP2 stores it (in elements)."""

    local: tuple[int, ...]
    """Per rank, elements of its own piece: the local tensor of the sharded DTensor. The
    optimizer's moments and the reduced gradient are shaped like it."""
    padded: int
    """Elements of the storage every rank allocates for its piece: the first chunk's size,
    so that all ranks all-gather equal pieces. ``n x padded - sum(local)`` are padding."""

    @property
    def numel(self) -> int:
        """Elements of the whole tensor: the sum of the local pieces."""
        return sum(self.local)


def dim0_shard(shape: Sequence[int], n: int) -> Dim0Shard:
    """FSDP2's shard of a tensor of ``shape`` over n ranks (``fully_shard``, Shard(0)).

    Equation (d0 = shape[0], k = product of the other dims): rank r holds
    :func:`dim0_chunks` (d0, n)[r] x k elements and allocates ceil(d0 / n) x k.
    Source: ``torch/distributed/fsdp/_fully_shard/_fsdp_param.py`` (PyTorch 2.13):
    ``padded_sharded_size = chunks[0].size()``, the local piece a narrow of that padded
    buffer. Exact whenever n divides d0: then every rank holds d0 k / n, no padding.
    """
    if not shape or any(not isinstance(d, int) or isinstance(d, bool) or d < 1 for d in shape):
        raise ValueError(f"shape={tuple(shape)!r} must be one or more positive integers")
    rest = math.prod(shape[1:])
    rows = dim0_chunks(shape[0], n)
    return Dim0Shard(local=tuple(r * rest for r in rows), padded=rows[0] * rest)
