"""DistributedDataParallel against the library's data parallelism.

Each rank runs the toy MLP (float32, the library's weights) on its shard of one fixed
batch. DDP averages the gradients in buckets; a communication hook counts the bytes of
every bucket it hands to the all-reduce. Compared with the library:

- the averaged gradient and the full-batch gradient of one process
  (:func:`distlesson.parallel.toy_mlp.loss_and_grads`, float64);
- the bytes per step and the gradient payload of the memory model (parameters x 4 bytes);
- gradient accumulation: K micro-steps under ``no_sync`` all-reduce once, against K times
  when syncing every micro-step (so K times fewer bytes: every all-reduce carries the same
  buckets), and give the same gradient
  (:func:`distlesson.parallel.data.data_parallel_grads` with ``num_microbatches=K``).
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel

from distlesson.memory.states import model_states
from distlesson.parallel.data import data_parallel_grads, split_batch
from distlesson.parallel.toy_mlp import MLPParams, flatten, init_mlp, loss_and_grads

from .config import ACCUMULATION, EXAMPLES_PER_RANK, GRAD_TOLERANCE, SEED, TOY_SHAPE
from .group import DistContext
from .report import Check, GroupResult
from .toy_models import batch, half_squared_error, mlp_grads, mlp_module

__all__ = ["BucketLog", "counting_allreduce_hook", "run"]


@dataclass
class BucketLog:
    """What the hook saw: (elements, bytes per element) of each bucket, in order.
    Mutable on purpose: DDP hands this object to the hook at every bucket."""

    buckets: list[tuple[int, int]] = field(default_factory=list)

    def take(self) -> tuple[tuple[int, int], ...]:
        """The buckets seen since the last call, and forget them."""
        seen, self.buckets = tuple(self.buckets), []
        return seen


def counting_allreduce_hook(log: BucketLog,
                            bucket: dist.GradBucket) -> torch.futures.Future[torch.Tensor]:
    """Record the bucket's size, then do what DDP does without a hook: divide the flat
    gradients of the bucket by the world size, then all-reduce them (``allreduce_hook``
    divides first, so that the sum does not overflow in low precision)."""
    flat = bucket.buffer()  # this bucket's gradients, one flat tensor
    log.buckets.append((flat.numel(), flat.element_size()))
    return default_hooks.allreduce_hook(None, bucket)  # type: ignore[arg-type]


# DDP checks the hook's annotations against the classes themselves; postponed annotations
# (``from __future__ import annotations``) are strings, so give it the objects.
counting_allreduce_hook.__annotations__.update(
    bucket=dist.GradBucket, log=BucketLog, **{"return": torch.futures.Future[torch.Tensor]})


def _max_difference(a: MLPParams, b: MLPParams) -> float:
    return float(np.max(np.abs(flatten(a) - flatten(b))))


def _step(ddp: DistributedDataParallel, x: torch.Tensor, y: torch.Tensor, micro: int,
          no_sync: bool) -> None:
    """One optimizer step's gradients: ``micro`` micro-steps, each loss divided by it, so
    that the accumulated gradient is the mean over the rank's examples."""
    ddp.module.zero_grad(set_to_none=True)
    rows = split_batch(x.shape[0], micro)
    for k, part in enumerate(rows):
        quiet = no_sync and k < micro - 1  # the last micro-step synchronises
        with ddp.no_sync() if quiet else nullcontext():
            (half_squared_error(ddp(x[part]), y[part]) / micro).backward()


def run(ctx: DistContext) -> GroupResult:
    n, k = ctx.world_size, ACCUMULATION
    params = init_mlp(*TOY_SHAPE, seed=SEED, dtype=np.float32)
    x_all, y_all = batch(TOY_SHAPE[0], TOY_SHAPE[2], EXAMPLES_PER_RANK * n, np.float32)
    mine = split_batch(x_all.shape[0], n)[ctx.rank]  # the library's split: contiguous shards
    x, y = (torch.from_numpy(a[mine]).to(ctx.device) for a in (x_all, y_all))
    ddp = DistributedDataParallel(mlp_module(params, ctx.device),
                                  device_ids=[ctx.local_rank] if ctx.backend == "nccl" else None)
    log = BucketLog()
    ddp.register_comm_hook(log, counting_allreduce_hook)

    _step(ddp, x, y, 1, no_sync=False)
    plain, grads = log.take(), mlp_grads(ddp.module)
    _step(ddp, x, y, k, no_sync=True)
    accumulated, accumulated_grads = log.take(), mlp_grads(ddp.module)
    _step(ddp, x, y, k, no_sync=False)
    naive = log.take()
    if ctx.rank != 0:  # DDP leaves every replica the same gradient: rank 0 reports
        return GroupResult()

    # the library, from the same weights and batch
    exact = params.map(lambda a: a.astype(np.float64))
    x64, y64 = x_all.astype(np.float64), y_all.astype(np.float64)
    _, reference = loss_and_grads(exact, x64, y64)
    library_acc = data_parallel_grads(exact, x64, y64, dp=n, num_microbatches=k)
    library_naive = data_parallel_grads(params, x_all, y_all, dp=n, num_microbatches=k,
                                        sync_every_microbatch=True)
    library_once = data_parallel_grads(params, x_all, y_all, dp=n, num_microbatches=k)
    payload = model_states(params.num_params, optimizer="adamw", precision="fp32").grads
    per_backward = len(plain)  # buckets, each all-reduced once per synchronised backward

    tolerance_note = ("float32 in torch, float64 in the library, same float32 weights: "
                      f"allowed |difference| <= {GRAD_TOLERANCE:g}")
    checks = (
        Check("ddp.grad", "DDP's averaged gradient = the library's full-batch gradient",
              "abs_error", _max_difference(grads, reference), 0.0, GRAD_TOLERANCE,
              note=tolerance_note),
        Check("ddp.payload", "bytes handed to all-reduce per step (comm hook) = gradient "
              "bytes of the memory model (fp32)", "bytes", sum(e * s for e, s in plain),
              payload, note=f"{per_backward} bucket(s): the model is below DDP's first "
              "bucket cap"),
        Check("ddp.accum_grad", f"gradient after {k} micro-steps with no_sync = the "
              "library's accumulated gradient", "abs_error",
              _max_difference(accumulated_grads, library_acc.grads), 0.0, GRAD_TOLERANCE,
              note=tolerance_note),
        Check("ddp.accum_allreduces", f"all-reduces per step, {k} micro-steps with no_sync",
              "count", len(accumulated) // per_backward, library_once.all_reduces),
        Check("ddp.naive_allreduces", f"all-reduces per step, {k} micro-steps without "
              "no_sync", "count", len(naive) // per_backward, library_naive.all_reduces),
    )
    return GroupResult(checks)
