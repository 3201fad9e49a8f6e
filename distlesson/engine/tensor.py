"""Tensor parallelism with DTensor against the library's Megatron-LM simulation.

The SwiGLU MLP (float64, the library's weights) is split over the n ranks with
``parallelize_module``: gate and up ``ColwiseParallel``, down ``RowwiseParallel``, and a
``PrepareModuleInput`` on the MLP that makes its input a replicated DTensor once, the
place of Megatron's f operator. ``CommDebugMode`` counts the collectives of the forward
and of the backward; the library's :func:`distlesson.parallel.tensor.megatron_mlp` and
:func:`~distlesson.parallel.tensor.megatron_mlp_backward` count theirs: one all-reduce each
way (Shoeybi et al. 2019, figure 3).

Without the ``PrepareModuleInput``, each ColwiseParallel linear turns the input into a
DTensor by itself, and the backward all-reduces the input gradient once per linear (gate
and up: two) instead of summing the two partial gradients locally first. A contrast row
measures that plan too.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.tensor import Replicate
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    PrepareModuleInput,
    RowwiseParallel,
    parallelize_module,
)

from distlesson.parallel.swiglu import SwiGLUWeights
from distlesson.parallel.tensor import megatron_mlp, megatron_mlp_backward

from .config import SEED, TP_HIDDEN, TP_TOKENS, TP_TOLERANCE, ffn_hidden
from .group import DistContext
from .report import Check, GroupResult
from .toy_models import SwiGLU, to_numpy

__all__ = ["COLUMN_PARALLEL", "run"]

COLUMN_PARALLEL = ("gate", "up")
"""The column-parallel linears, both consumers of the MLP's input x: without Megatron's f
operator, the backward all-reduces the input gradient once for each."""


def _counts(mode: CommDebugMode) -> dict[str, int]:
    """Collectives by name (``all_reduce``, ``all_gather_into_tensor``, ...)."""
    return {str(op).split(".")[-1]: count for op, count in mode.get_comm_counts().items()}


def _kinds(counts: dict[str, int]) -> str:
    """The collectives by kind, as one comparable text: ``all_reduce x 1`` (kinds sorted,
    joined by ``, ``), so that a check compares the kind as well as the count."""
    return ", ".join(f"{name} x {count}" for name, count in sorted(counts.items()))


def _parallel_pass(weights: SwiGLUWeights, x: np.ndarray, grad_output: np.ndarray,
                   mesh: DeviceMesh, device: str, *, megatron: bool
                   ) -> tuple[dict[str, int], dict[str, int], np.ndarray, np.ndarray]:
    """(forward collectives, backward collectives, output, input gradient) of one pass."""
    plan = {name: ColwiseParallel() for name in COLUMN_PARALLEL}
    plan["down"] = RowwiseParallel()
    if megatron:  # the f operator: replicate the input once, for gate and up together
        plan[""] = PrepareModuleInput(input_layouts=(Replicate(),),
                                      desired_input_layouts=(Replicate(),),
                                      use_local_output=False)
    module = parallelize_module(SwiGLU(weights, device), mesh, plan)
    inputs = torch.tensor(x, device=device, requires_grad=True)  # (N, h)
    with CommDebugMode() as forward:
        output = module(inputs)  # (N, h), every rank the whole sum (RowwiseParallel)
    with CommDebugMode() as backward:
        output.backward(torch.tensor(grad_output, device=device))
    return _counts(forward), _counts(backward), to_numpy(output), to_numpy(inputs.grad)


def run(ctx: DistContext) -> GroupResult:
    n = ctx.world_size
    rng = np.random.default_rng(SEED)
    f = ffn_hidden(n)
    weights = SwiGLUWeights(rng.standard_normal((TP_HIDDEN, f)) / np.sqrt(TP_HIDDEN),  # (h, f)
                            rng.standard_normal((TP_HIDDEN, f)) / np.sqrt(TP_HIDDEN),  # (h, f)
                            rng.standard_normal((f, TP_HIDDEN)) / np.sqrt(f))  # (f, h)
    x = rng.standard_normal((TP_TOKENS, TP_HIDDEN))  # (N, h)
    grad_output = rng.standard_normal((TP_TOKENS, TP_HIDDEN))  # (N, h)
    mesh = init_device_mesh(ctx.device_type, (n,))
    fwd, bwd, output, grad_input = _parallel_pass(weights, x, grad_output, mesh, ctx.device,
                                                  megatron=True)
    _, naive_bwd, _, _ = _parallel_pass(weights, x, grad_output, mesh, ctx.device,
                                        megatron=False)
    if ctx.rank != 0:  # the output and the input gradient are replicated: rank 0 reports
        return GroupResult()

    library = megatron_mlp(x, weights, n)
    library_bwd = megatron_mlp_backward(x, weights, grad_output, n)
    note = f"float64 on both sides: allowed |difference| <= {TP_TOLERANCE:g}"
    checks = (
        Check("tp.output", "tensor-parallel MLP output = the library's Megatron MLP",
              "abs_error", float(np.max(np.abs(output - library.rank_outputs[0]))), 0.0,
              TP_TOLERANCE, note=note),
        Check("tp.grad_input", "input gradient = the library's Megatron backward",
              "abs_error", float(np.max(np.abs(grad_input - library_bwd.grad_input[0]))),
              0.0, TP_TOLERANCE, note=note),
        Check("tp.forward_allreduces", "collectives in the forward (CommDebugMode), by "
              "kind = the library's all-reduces (g operators)", "collectives", _kinds(fwd),
              _kinds({"all_reduce": library.comm.all_reduces})),
        Check("tp.backward_allreduces", "collectives in the backward, by kind = the "
              "library's all-reduces (f operators)", "collectives", _kinds(bwd),
              _kinds({"all_reduce": library_bwd.comm.all_reduces})),
        Check("tp.naive_backward", "collectives in the backward without PrepareModuleInput, "
              "by kind = the library's f operators x the column-parallel consumers of x",
              "collectives", _kinds(naive_bwd),
              _kinds({"all_reduce": len(COLUMN_PARALLEL) * library_bwd.comm.all_reduces}),
              note="each ColwiseParallel linear replicates its own input, so gate and up "
              "each all-reduce their input gradient; Megatron's f sums them first"),
    )
    return GroupResult(checks)
