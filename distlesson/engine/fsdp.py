"""ZeRO-3 with FSDP2 (``torch.distributed.fsdp.fully_shard``) against the memory model.

Each Linear of the toy MLP and then the whole model are wrapped with ``fully_shard``: every
parameter becomes a DTensor sharded on dim 0 over the n ranks. After the first AdamW step each
rank's bytes are read from its local shards: weights, gradients (reduce-scattered) and
the AdamW moments (shaped like the local shard). The reduce-scattered gradient itself,
gathered whole, is compared with the library's full-batch gradient, and the weights after
a second step on another batch with the library's AdamW run.

Two models. In the even one every dim 0 is a multiple of n, so each rank holds exactly
1/n of every state: the memory model's ZeRO-3 division, with no padding. In the uneven
one, dim 0 is cut with ``torch.chunk`` semantics (pieces of ceil(d0 / n) rows, the last
shorter, empty ones appended): the local pieces follow
:func:`distlesson.parallel.sharding.dim0_shard`, sum exactly to the memory model's total, and
differ from total / n per rank; every rank also allocates the padded size.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

from distlesson.memory.optimizers import optimizer_state_bytes
from distlesson.memory.precision import get_preset
from distlesson.memory.states import Layout, MemoryBreakdown, model_states, per_gpu_states
from distlesson.parallel.data import split_batch
from distlesson.parallel.sharding import dim0_shard
from distlesson.parallel.toy_mlp import (
    AdamW,
    MLPParams,
    flatten,
    init_mlp,
    loss_and_grads,
    train_single_device,
)

from .config import EXAMPLES_PER_RANK, GRAD_TOLERANCE, SEED, even_shape, uneven_shape
from .group import DistContext
from .report import Check, GroupResult
from .toy_models import (
    batch,
    half_squared_error,
    mlp_grads,
    mlp_module,
    mlp_params,
    torch_shapes,
)
from .zero import adamw_kwargs

__all__ = ["run"]


def _local_bytes(tensor: torch.Tensor) -> int:
    local = tensor.to_local() if hasattr(tensor, "to_local") else tensor
    return local.numel() * local.element_size()


def _measure(params: MLPParams, ctx: DistContext, opt: AdamW
             ) -> tuple[dict[str, int], MLPParams, MLPParams]:
    """Two FSDP2 AdamW steps on two batches: this rank's bytes per state, the whole
    reduce-scattered gradient of the first step, and the whole weights after both."""
    mesh = init_device_mesh(ctx.device_type, (ctx.world_size,))
    model = mlp_module(params, ctx.device)
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer, mesh=mesh)  # one all-gather per layer, freed after use
    fully_shard(model, mesh=mesh)
    optimizer = torch.optim.AdamW(model.parameters(), **adamw_kwargs(opt))
    mine = split_batch(EXAMPLES_PER_RANK * ctx.world_size, ctx.world_size)[ctx.rank]
    for step, (x_all, y_all) in enumerate(_batches(params, ctx.world_size, np.float32)):
        x, y = (torch.from_numpy(a[mine]).to(ctx.device) for a in (x_all, y_all))
        optimizer.zero_grad(set_to_none=True)
        half_squared_error(model(x), y).backward()  # FSDP2 reduce-scatters the mean gradient
        if step == 0:
            grads = mlp_grads(model)  # each rank's shard, gathered whole (full_tensor)
        optimizer.step()
        if step == 0:
            held = {"weights": 0, "grads": 0, "moments": 0, "padded": 0}
            for p in model.parameters():
                held["weights"] += _local_bytes(p)
                held["grads"] += _local_bytes(p.grad)
                held["moments"] += sum(_local_bytes(optimizer.state[p][m])
                                       for m in ("exp_avg", "exp_avg_sq"))
                # the storage behind the local piece: padded to the first chunk's rows
                held["padded"] += p.to_local().untyped_storage().nbytes()
    return held, grads, mlp_params(model)  # mlp_params gathers each DTensor whole


def _batches(params: MLPParams, n: int, dtype: type) -> list[tuple[np.ndarray, np.ndarray]]:
    """The two steps' batches for this model's shape."""
    shape = (params.w1.shape[0], params.w2.shape[1])
    return [batch(*shape, EXAMPLES_PER_RANK * n, dtype, step) for step in range(2)]


def _library(params: MLPParams, n: int) -> tuple[MemoryBreakdown, MemoryBreakdown]:
    """(memory model, whole model; memory model, one rank under ZeRO-3), fp32 AdamW."""
    states = model_states(params.num_params, optimizer="adamw", precision="fp32")
    return states, per_gpu_states(states, Layout(dp=n, zero=3))


def _reference(params: MLPParams, n: int, opt: AdamW) -> tuple[MLPParams, MLPParams]:
    """The library in float64: the first batch's full-batch gradient, and the weights after
    one AdamW step per batch."""
    exact = params.map(lambda a: a.astype(np.float64))
    batches = _batches(params, n, np.float64)
    return loss_and_grads(exact, *batches[0])[1], train_single_device(exact, batches, opt)[0]


def _difference(a: MLPParams, b: MLPParams) -> float:
    return float(np.max(np.abs(flatten(a) - flatten(b))))


def run(ctx: DistContext) -> GroupResult:
    n, opt = ctx.world_size, AdamW()
    even = init_mlp(*even_shape(n), seed=SEED, dtype=np.float32)
    uneven = init_mlp(*uneven_shape(n), seed=SEED, dtype=np.float32)
    even_held, even_grads, even_weights = _measure(even, ctx, opt)
    uneven_held, uneven_grads, _ = _measure(uneven, ctx, opt)
    gathered = ctx.gather((even_held, uneven_held))
    if gathered is None:
        return GroupResult()

    def ranks(which: int, kind: str) -> tuple[int, ...]:
        return tuple(held[which][kind] for held in gathered)

    _, per_rank = _library(even, n)
    fp32 = get_preset("fp32")
    rows = [Check(f"fsdp.even.{kind}", f"{label} per rank, dim 0 divisible by n = the "
                  "memory model's ZeRO-3 share total / n", "bytes", ranks(0, kind),
                  tuple(getattr(per_rank, state) for _ in range(n)))
            for kind, state, label in (("weights", "weights", "weights"),
                                       ("grads", "grads", "gradients"),
                                       ("moments", "optimizer", "AdamW moments"))]
    even_reference, even_trained = _reference(even, n, opt)
    uneven_reference, _ = _reference(uneven, n, opt)
    note = (f"float32 against float64: allowed |difference| <= {GRAD_TOLERANCE:g} "
            "(distlesson.engine.config.GRAD_TOLERANCE says why)")
    rows += [
        Check("fsdp.even.grad", "reduce-scattered gradient, shards gathered whole = the "
              "library's full-batch gradient", "abs_error",
              _difference(even_grads, even_reference), 0.0, GRAD_TOLERANCE, note=note),
        Check("fsdp.uneven.grad", "reduce-scattered gradient, uneven shards gathered whole "
              "= the library's full-batch gradient", "abs_error",
              _difference(uneven_grads, uneven_reference), 0.0, GRAD_TOLERANCE, note=note),
        Check("fsdp.even.update", "weights after two FSDP2 AdamW steps on two batches = "
              "the library's single-device AdamW steps", "abs_error",
              _difference(even_weights, even_trained), 0.0, GRAD_TOLERANCE, note=note),
    ]
    shards = [dim0_shard(s, n) for s in torch_shapes(uneven)]
    elements = tuple(sum(s.local[r] for s in shards) for r in range(n))
    local = tuple(e * fp32.weight_format.bytes for e in elements)
    padded = tuple(sum(s.padded for s in shards) * fp32.weight_format.bytes for _ in range(n))
    uneven_states, uneven_share = _library(uneven, n)
    share = tuple(float(uneven_share.weights) for _ in range(n))
    rows += [
        Check("fsdp.uneven.weights", "weights per rank, dim 0 not divisible by n = "
              "torch.chunk pieces (distlesson.parallel.sharding.dim0_shard)", "bytes",
              ranks(1, "weights"), local),
        Check("fsdp.uneven.moments", "AdamW moments per rank, uneven = two moments of the "
              "same pieces", "bytes", ranks(1, "moments"),
              tuple(optimizer_state_bytes("adamw", e, fp32.state_format) for e in elements)),
        Check("fsdp.uneven.total", "weights, all ranks together = the memory model's "
              "weights", "bytes", sum(ranks(1, "weights")), uneven_states.weights),
        Check("fsdp.uneven.even_split", "weights per rank, uneven, against the memory "
              "model's total / n", "bytes", ranks(1, "weights"), share,
              expect_equal=local == share,
              note="the memory model assumes an even split; torch.chunk gives the first "
              "ranks ceil(d0 / n) rows and the last the rest, possibly none"),
        Check("fsdp.uneven.padded", "storage allocated per rank, uneven = the first chunk's "
              "size for every tensor (padding included)", "bytes", ranks(1, "padded"),
              padded, note="FSDP2 pads each rank's piece so that all-gathers move equal "
              "pieces; the padding is n x padded - total"),
    ]
    return GroupResult(tuple(rows))
