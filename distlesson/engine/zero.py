"""ZeRO-1 with ``torch.distributed.optim.ZeroRedundancyOptimizer`` against the memory model.

The toy MLP (float32) is trained two AdamW steps, on two batches, with DDP for the gradients and
ZeroRedundancyOptimizer for the update; then each rank's optimizer state is read from the
tensors it holds. ZeroRedundancyOptimizer does not split a flat vector evenly: it gives
every parameter tensor whole to one rank, largest first, to the emptiest rank
(:func:`distlesson.parallel.sharding.greedy_partition` reproduces it). So, exactly:

- summed over ranks, the AdamW moments are the memory model's optimizer bytes;
- per rank, they are the greedy partition's elements x 8 bytes (two fp32 moments);
- per rank, they equal the memory model's even split total / n only if the partition
  happens to balance (a contrast row says which);
- after one step, each owned tensor's first moment / (1 - beta1) is the averaged gradient,
  the library's full-batch one (not a sum over the ranks);
- AdamW also keeps a ``step`` counter per tensor, a float32 scalar that the memory model
  does not count: its bytes are shown on their own row, predicted from the partition;
- the weights after both steps are the library's single-device AdamW run.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel

from distlesson.memory.optimizers import optimizer_state_bytes
from distlesson.memory.precision import get_preset
from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.parallel.data import split_batch
from distlesson.parallel.sharding import greedy_partition, partition_numels
from distlesson.parallel.toy_mlp import (
    AdamW,
    flatten,
    init_mlp,
    loss_and_grads,
    train_single_device,
)

from .config import EXAMPLES_PER_RANK, GRAD_TOLERANCE, SEED, TOY_SHAPE
from .group import DistContext
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


def _first_moments(optimizer: ZeroRedundancyOptimizer, module: torch.nn.Module,
                   beta1: float) -> dict[int, np.ndarray]:
    """This rank's first moments after one step, divided by (1 - beta1): the gradient it
    used, by parameter index (``module.parameters()`` order), in the library's layout."""
    index = {p: i for i, p in enumerate(module.parameters())}
    moments = {}
    for p, state in optimizer.optim.state.items():  # only the parameters this rank owns
        value = (state["exp_avg"] / (1 - beta1)).detach().to("cpu", torch.float64).numpy()
        moments[index[p]] = value.T if value.ndim == 2 else value  # (out, in) -> (in, out)
    return moments


def _moment_error(per_rank: list[dict[int, np.ndarray]], grads: list[np.ndarray]) -> float:
    """Largest |moment / (1 - beta1) - gradient| over every tensor; nan (a failure) unless
    each tensor is held by exactly one rank."""
    owned = [i for moments in per_rank for i in moments]
    if sorted(owned) != list(range(len(grads))):
        return float("nan")
    return max(float(np.max(np.abs(m - grads[i])))
               for moments in per_rank for i, m in moments.items())


def run(ctx: DistContext) -> GroupResult:
    n, opt = ctx.world_size, AdamW()
    params = init_mlp(*TOY_SHAPE, seed=SEED, dtype=np.float32)
    batches = [batch(TOY_SHAPE[0], TOY_SHAPE[2], EXAMPLES_PER_RANK * n, np.float32, step)
               for step in range(2)]  # two optimizer steps, on two batches
    mine = split_batch(EXAMPLES_PER_RANK * n, n)[ctx.rank]
    ddp = DistributedDataParallel(mlp_module(params, ctx.device),
                                  device_ids=[ctx.local_rank] if ctx.backend == "nccl" else None)
    optimizer = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.AdamW,
                                        **adamw_kwargs(opt))
    for step, (x_all, y_all) in enumerate(batches):
        x, y = (torch.from_numpy(a[mine]).to(ctx.device) for a in (x_all, y_all))
        optimizer.zero_grad(set_to_none=True)
        half_squared_error(ddp(x), y).backward()
        optimizer.step()  # updates the own parameters, then broadcasts them to every rank
        if step == 0:
            held, moments = _held(optimizer), _first_moments(optimizer, ddp.module, opt.beta1)
    per_rank = ctx.gather((held, moments))
    if per_rank is None:
        return GroupResult()

    # the library: the memory model, the greedy partition, AdamW steps on one device
    numels = [a.size for a in params.arrays()]  # in module.parameters() order
    states = model_states(params.num_params, optimizer="adamw", precision="fp32")
    stage1 = per_gpu_states(states, Layout(dp=n, zero=1))
    fp32 = get_preset("fp32").state_format
    owned = partition_numels(numels, n)
    predicted = tuple(optimizer_state_bytes("adamw", e, fp32) for e in owned)
    even = tuple(float(stage1.optimizer) for _ in range(n))
    exact = params.map(lambda a: a.astype(np.float64))
    exact_batches = [(x.astype(np.float64), y.astype(np.float64)) for x, y in batches]
    _, first_grads = loss_and_grads(exact, *exact_batches[0])
    trained, _ = train_single_device(exact, exact_batches, opt)
    moments = tuple(held["moments"] for held, _ in per_rank)
    update = float(np.max(np.abs(flatten(mlp_params(ddp.module)) - flatten(trained))))
    tolerance_note = (f"float32 against float64: allowed |difference| <= {GRAD_TOLERANCE:g} "
                      "(distlesson.engine.config.GRAD_TOLERANCE says why)")
    checks = (
        Check("zero1.total", "AdamW moments, all ranks together = the memory model's "
              "optimizer bytes", "bytes", sum(moments), states.optimizer),
        Check("zero1.per_rank", "AdamW moments per rank = the greedy whole-tensor partition",
              "bytes", moments, predicted,
              note="ZeroRedundancyOptimizer: largest tensor first, to the rank with the "
              "fewest elements (distlesson.parallel.sharding.greedy_partition)"),
        Check("zero1.even_split", "AdamW moments per rank against the memory model's even "
              "split total / n", "bytes", moments, even,
              expect_equal=predicted == even,
              note="whole tensors cannot balance exactly; the even split holds for a flat, "
              "padded vector (DeepSpeed ZeRO, FSDP1's FlatParameter), not for this "
              "partition"),
        Check("zero1.step_counters", "AdamW's step counters per rank (float32 scalars, "
              "not in the memory model) = owned tensors x 4 bytes", "bytes",
              tuple(held["step"] for held, _ in per_rank),
              tuple(len(t) * fp32.bytes for t in greedy_partition(numels, n))),
        Check("zero1.moment", "first moment / (1 - beta1) after one step, on the rank that "
              "owns each tensor = the library's full-batch gradient", "abs_error",
              _moment_error([m for _, m in per_rank], list(first_grads.arrays())), 0.0,
              GRAD_TOLERANCE, note=tolerance_note),
        Check("zero1.update", "weights after two ZeRO-1 AdamW steps on two batches = the "
              "library's single-device AdamW steps", "abs_error", update, 0.0,
              GRAD_TOLERANCE, note=tolerance_note),
    )
    return GroupResult(checks)
