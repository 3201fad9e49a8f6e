"""ZeRO-1 with ``torch.distributed.optim.ZeroRedundancyOptimizer`` against the memory model.

The toy MLP (float32) is trained one AdamW step with DDP for the gradients and
ZeroRedundancyOptimizer for the update; then each rank's optimizer state is read from the
tensors it holds. ZeroRedundancyOptimizer does not split a flat vector evenly: it gives
every parameter tensor whole to one rank, largest first, to the emptiest rank
(:func:`distlesson.sharding.greedy_partition` reproduces it). So, exactly:

- summed over ranks, the AdamW moments are the memory model's optimizer bytes;
- per rank, they are the greedy partition's elements x 8 bytes (two fp32 moments);
- per rank, they equal the memory model's even split total / n only if the partition
  happens to balance (a contrast row says which);
- the weights stay whole on every rank (stage 1 shards only the optimizer);
- AdamW also keeps a ``step`` counter per tensor, a float32 scalar that the memory model
  does not count: its bytes are shown on their own row, predicted from the partition.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel

from distlesson.data_parallel import split_batch
from distlesson.memory import Layout, model_states, per_gpu_states
from distlesson.optimizers import optimizer_state_bytes
from distlesson.precision import get_preset
from distlesson.sharding import greedy_partition, partition_numels
from distlesson.toy_mlp import AdamW, flatten, init_mlp, train_single_device

from .config import EXAMPLES_PER_RANK, GRAD_TOLERANCE, SEED, TOY_SHAPE
from .launch import DistContext
from .report import Check, GroupResult
from .toy_models import batch, half_squared_error, mlp_module, mlp_params

__all__ = ["adamw_kwargs", "run"]
_MOMENTS = ("exp_avg", "exp_avg_sq")


def adamw_kwargs(opt: AdamW) -> dict[str, object]:
    """torch.optim.AdamW's arguments for the library's hyperparameters."""
    return {"lr": opt.lr, "betas": (opt.beta1, opt.beta2), "eps": opt.eps,
            "weight_decay": opt.weight_decay}


def _held(optimizer: ZeroRedundancyOptimizer) -> dict[str, int]:
    """Bytes of this rank's optimizer state, read from its tensors, by kind."""
    held = {"moments": 0, "step": 0, "tensors": 0}
    for state in optimizer.optim.state.values():  # only the parameters this rank updates
        held["tensors"] += 1
        for name, value in state.items():
            kind = "moments" if name in _MOMENTS else "step"
            held[kind] += value.numel() * value.element_size()
    return held


def run(ctx: DistContext) -> GroupResult:
    n, opt = ctx.world_size, AdamW()
    params = init_mlp(*TOY_SHAPE, seed=SEED, dtype=np.float32)
    x_all, y_all = batch(TOY_SHAPE[0], TOY_SHAPE[2], EXAMPLES_PER_RANK * n, np.float32)
    mine = split_batch(x_all.shape[0], n)[ctx.rank]
    x, y = (torch.from_numpy(a[mine]).to(ctx.device) for a in (x_all, y_all))
    ddp = DistributedDataParallel(mlp_module(params, ctx.device),
                                  device_ids=[ctx.local_rank] if ctx.backend == "nccl" else None)
    optimizer = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.AdamW,
                                        **adamw_kwargs(opt))
    half_squared_error(ddp(x), y).backward()
    optimizer.step()  # updates the own parameters, then broadcasts them to every rank
    weights = sum(p.numel() * p.element_size() for p in ddp.parameters())
    per_rank = ctx.gather((_held(optimizer), weights))
    if per_rank is None:
        return GroupResult()

    # the library: the memory model, the greedy partition, one AdamW step on one device
    numels = [a.size for a in params.arrays()]  # in module.parameters() order
    states = model_states(params.num_params, optimizer="adamw", precision="fp32")
    stage1 = per_gpu_states(states, Layout(dp=n, zero=1))
    fp32 = get_preset("fp32").state_format
    owned = partition_numels(numels, n)
    predicted = tuple(optimizer_state_bytes("adamw", e, fp32) for e in owned)
    even = tuple(float(stage1.optimizer) for _ in range(n))
    exact = params.map(lambda a: a.astype(np.float64))
    trained, _ = train_single_device(
        exact, [(x_all.astype(np.float64), y_all.astype(np.float64))], opt)
    moments = tuple(held["moments"] for held, _ in per_rank)
    update = float(np.max(np.abs(flatten(mlp_params(ddp.module)) - flatten(trained))))
    checks = (
        Check("zero1.weights", "weights per rank: whole on every rank = the memory model's "
              "ZeRO-1 weights", "bytes", tuple(w for _, w in per_rank),
              tuple(stage1.weights for _ in range(n))),
        Check("zero1.total", "AdamW moments, all ranks together = the memory model's "
              "optimizer bytes", "bytes", sum(moments), states.optimizer),
        Check("zero1.per_rank", "AdamW moments per rank = the greedy whole-tensor partition",
              "bytes", moments, predicted,
              note="ZeroRedundancyOptimizer: largest tensor first, to the rank with the "
              "fewest elements (distlesson.sharding.greedy_partition)"),
        Check("zero1.even_split", "AdamW moments per rank against the memory model's even "
              "split total / n", "bytes", moments, even,
              expect_equal=predicted == even,
              note="whole tensors cannot balance exactly; the even split holds for a flat, "
              "padded vector (DeepSpeed, FSDP), not for this partition"),
        Check("zero1.step_counters", "AdamW's step counters per rank (float32 scalars, "
              "not in the memory model) = owned tensors x 4 bytes", "bytes",
              tuple(held["step"] for held, _ in per_rank),
              tuple(len(t) * fp32.bytes for t in greedy_partition(numels, n))),
        Check("zero1.update", "weights after one ZeRO-1 AdamW step = the library's "
              "single-device AdamW step", "abs_error", update, 0.0, GRAD_TOLERANCE,
              note=f"float32 against float64: allowed |difference| <= {GRAD_TOLERANCE:g}"),
    )
    return GroupResult(checks)
