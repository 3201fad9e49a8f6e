"""What communication a step leaves exposed, dimension by dimension, under a stated policy.

Bytes come from each dimension's collectives, times from :mod:`distlesson.parallel.alpha_beta`
on the link the group sits on (ranks placed [tp, cp, pp, dp], innermost first, as Llama 3
does, section 3.3.2); what is hidden comes from :class:`OverlapPolicy`:

* **dp**, ``bucketed`` (PyTorch DDP, Li et al. 2020; Megatron-LM's overlapped gradient
  reduce and parameter gather): the once-per-step gradient reduction runs during the last
  micro-batch's backward, the parameter gather during the first forward; what does not fit
  in that window is exposed, and so is the last bucket. Per-micro-batch traffic (ZeRO-2's
  reduce-scatter, ZeRO-3's gathers) hides behind that micro-batch's compute (prefetch).
  ``none``: all exposed.
* **tp**, with sequence parallelism: per layer and micro-batch, two all-gathers and two
  reduce-scatters of the layer's activations forward, as many backward (and forward again
  under full recomputation). ``backward`` (Megatron-LM's asynchronous tensor-parallel
  communication): the backward's hide behind the weight-gradient products; ``full``
  (Transformer Engine's user buffers): the forward's behind the forward products too;
  ``none``: all exposed.
* **pp**: a micro-batch's activations, split by tp (Megatron's scatter-gather), to the next
  stage, and their gradients back, at the pace of the slowest hop (between nodes, once the
  stages span several). ``async`` (Llama 3's asynchronous point-to-point): only
  the sends on the pipeline's fill and drain, 2 (p v - 1), lie on the critical path;
  ``blocking``: every send does.
* **cp**: ``all-gather`` (Llama 3, section 3.3.2): keys and values gathered before attention
  and their gradients reduce-scattered after, exposed; ``ring`` (Liu et al. 2023): cp - 1
  transfers of a block, each hidden behind the attention on the block before.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

from distlesson.catalog.models import Architecture
from distlesson.efficiency.kernels import LayerTimes
from distlesson.memory.states import Layout
from distlesson.parallel.alpha_beta import Op, group_time

__all__ = ["PLACEMENT", "DimensionTimes", "LinkContext", "OverlapPolicy", "dp_exposed",
           "group_placement", "pp_exposed", "tp_cp_exposed_per_microbatch"]

PLACEMENT = ("tp", "cp", "pp", "dp")
"""Innermost first: Llama 3, section 3.3.2."""


@dataclass(frozen=True)
class OverlapPolicy:
    """How each dimension's communication overlaps compute (see the module docstring)."""

    dp: Literal["bucketed", "none"] = "bucketed"
    tp: Literal["backward", "full", "none"] = "backward"
    pp: Literal["async", "blocking"] = "async"
    cp: Literal["all-gather", "ring"] = "all-gather"
    bucket_bytes: float = 25 * 2**20
    """Gradient bucket size: PyTorch DDP's default bucket_cap_mb = 25 (MiB)."""

    def __post_init__(self) -> None:
        allowed = {"dp": ("bucketed", "none"), "tp": ("backward", "full", "none"),
                   "pp": ("async", "blocking"), "cp": ("all-gather", "ring")}
        for name, options in allowed.items():
            if getattr(self, name) not in options:
                raise ValueError(f"overlap {name}={getattr(self, name)!r}; allowed: "
                                 f"{', '.join(options)}")
        if not self.bucket_bytes > 0:
            raise ValueError(f"bucket_bytes={self.bucket_bytes!r} must be positive")


@dataclass(frozen=True)
class DimensionTimes:
    """Seconds per step, per parallel dimension."""

    dp: float
    tp: float
    pp: float
    cp: float

    @property
    def total(self) -> float:
        return self.dp + self.tp + self.pp + self.cp


@dataclass(frozen=True)
class LinkContext:
    """The links of a cluster, as the groups see them."""

    gpus_per_node: int
    intra: str
    """Interconnect key inside a node."""
    inter: str
    """Interconnect key between nodes."""

    def time(self, op: Op, size: float, ranks: int, inner: int) -> float:
        """Seconds for ``op`` in a group of ``ranks`` whose ranks are ``inner`` apart."""
        return _group_seconds(self, op, size, ranks, inner)


@functools.cache
def _group_seconds(links: LinkContext, op: Op, size: float, ranks: int, inner: int) -> float:
    if ranks == 1:
        return 0.0
    per_node = group_placement(ranks, inner, links.gpus_per_node)
    return group_time(op, size, ranks, per_node, intra=links.intra, inter=links.inter)


def group_placement(ranks: int, inner: int, gpus_per_node: int) -> int:
    """How many ranks of a group share a node, its ranks ``inner`` apart."""
    if inner >= gpus_per_node or gpus_per_node % inner:
        return 1
    return math.gcd(ranks, gpus_per_node // inner)


def _inner(layout: Layout, dim: str) -> int:
    stride = 1
    for d in PLACEMENT[:PLACEMENT.index(dim)]:
        stride *= getattr(layout, d)
    return stride


@functools.cache
def tp_cp_exposed_per_microbatch(arch: Architecture, layout: Layout, times: LayerTimes, *,
                                 seq_len: int, micro_batch: int, recompute: str,
                                 links: LinkContext, policy: OverlapPolicy
                                 ) -> tuple[float, float]:
    """(tp, cp) exposed seconds of one layer for one micro-batch (forward and backward);
    ``layout``'s dp, pp and ZeRO stage play no part (pass them as 1 and 0 to share work)."""
    tokens = seq_len // layout.cp * micro_batch
    forwards = 2 if recompute == "full" else 1
    tp = 0.0
    if layout.tp > 1:
        size = tokens * arch.hidden_size * 2  # the gathered activation, bf16
        one = (links.time("all-gather", size, layout.tp, 1)
               + links.time("reduce-scatter", size, layout.tp, 1))
        fwd, bwd = 2 * one, 2 * one  # two gather/scatter pairs each way (attention, MLP)
        if policy.tp == "full":
            fwd = max(0.0, fwd - times.matmul_forward)
        if policy.tp in ("full", "backward"):
            bwd = max(0.0, bwd - times.weight_grads)
        tp = forwards * fwd + bwd
    cp = 0.0
    if layout.cp > 1:
        kv = arch.num_kv_heads * arch.head_dim // layout.tp
        size = seq_len * micro_batch * 2 * kv * 2  # all of K and V, bf16
        inner = _inner(layout, "cp")
        if policy.cp == "all-gather":
            cp = (forwards * links.time("all-gather", size, layout.cp, inner)
                  + links.time("reduce-scatter", size, layout.cp, inner))
        else:
            block = links.time("send-recv", size / layout.cp, 2, inner)
            hidden = times.attention_forward / layout.cp
            cp = (layout.cp - 1) * (forwards * max(0.0, block - hidden)
                                    + max(0.0, 2 * block - 2.5 * hidden))
    return tp, cp


def pp_exposed(arch: Architecture, layout: Layout, *, seq_len: int, micro_batch: int,
               num_microbatches: int, chunks: int, links: LinkContext,
               policy: OverlapPolicy) -> float:
    """Seconds of point-to-point traffic on the pipeline's critical path, per step."""
    if layout.pp == 1:
        return 0.0
    size = seq_len // layout.cp * micro_batch * arch.hidden_size * 2 / layout.tp
    inner = _inner(layout, "pp")
    # the slowest hop sets the pace: once the stages span nodes, a hop crosses between them
    # (a pair ``gpus_per_node`` apart is placed on two nodes)
    crosses = layout.pp * inner > links.gpus_per_node
    one = links.time("send-recv", size, 2, links.gpus_per_node if crosses else inner)
    crossings = (2 * (layout.pp * chunks - 1) if policy.pp == "async"
                 else 2 * (num_microbatches * chunks + layout.pp - 1))
    return crossings * one


def dp_exposed(layout: Layout, *, grad_bytes: float, weight_bytes: float,
               num_microbatches: int, first_forward: float, last_backward: float,
               microbatch_compute: float, links: LinkContext,
               policy: OverlapPolicy) -> float:
    """Seconds of data-parallel traffic exposed per step (ZeRO stage of ``layout``).

    ``grad_bytes`` and ``weight_bytes``: what one GPU holds before ZeRO shards them."""
    d, inner = layout.dp, _inner(layout, "dp")
    if d == 1:
        return 0.0

    def t(op: Op, size: float) -> float:
        return links.time(op, size, d, inner)

    zero, m = layout.zero, num_microbatches
    once_grads = t("all-reduce", grad_bytes) if zero == 0 else (
        t("reduce-scatter", grad_bytes) if zero == 1 else 0.0)
    once_weights = t("all-gather", weight_bytes) if zero in (1, 2) else 0.0
    per_mb = ((t("reduce-scatter", grad_bytes) if zero >= 2 else 0.0)
              + (2 * t("all-gather", weight_bytes) if zero == 3 else 0.0))
    if policy.dp == "none":
        return once_grads + once_weights + m * per_mb
    last_bucket = (once_grads + per_mb) * min(1.0, policy.bucket_bytes / grad_bytes)
    return (max(0.0, once_grads - last_backward) + max(0.0, once_weights - first_forward)
            + m * max(0.0, per_mb - microbatch_compute) + last_bucket)
