"""Optimizers, described by the state they keep per parameter.

An :class:`Optimizer` says how many state buffers it keeps and how they are stored;
:func:`optimizer_state_bytes` turns that into bytes for a whole model. Most optimizers keep
buffers the size of the weights, so a parameter count is enough; Adafactor's factored second
moment depends on each matrix's shape, so it needs the model's tensors.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from distlesson.catalog.lookup import lookup
from distlesson.catalog.models import ParameterTensor
from distlesson.checks import check_nonneg_int, check_positive_int, check_type
from distlesson.memory.precision import FP32, FloatFormat, get_preset

__all__ = [
    "OPTIMIZERS",
    "Optimizer",
    "accumulation_bytes_per_param",
    "get_optimizer",
    "optimizer_state_bytes",
    "update_bytes_per_param",
]

_CODE_BYTES = 1
"""Bytes of one 8-bit quantization code (Dettmers et al. 2022: dynamic tree quantization)."""


@dataclass(frozen=True)
class Optimizer:
    """What an optimizer keeps between steps, besides the weights and gradients."""

    key: str
    """Name used on the command line (``--optimizer adamw``)."""
    display_name: str
    """Name for prose and tables."""
    moments: int
    """Number of state buffers the size of the parameters (AdamW: m and v)."""
    block_size: int | None = None
    """If set, each buffer is stored as one-byte codes plus one fp32 scale per block."""
    factored: bool = False
    """If True, the second moment of every matrix is kept as a row and a column vector."""
    source: str = ""
    """The paper that defines the optimizer and its state."""

    def __post_init__(self) -> None:
        for name in ("key", "display_name", "source"):
            check_type(name, getattr(self, name), str)
        check_type("factored", self.factored, bool)
        check_nonneg_int("moments", self.moments)
        if self.block_size is not None:
            check_positive_int("block_size", self.block_size)
        if self.factored and self.block_size is not None:
            raise ValueError("an optimizer cannot be both factored and block-quantized")


OPTIMIZERS: dict[str, Optimizer] = {
    o.key: o
    for o in (
        Optimizer("adamw", "AdamW", moments=2,
                  source="Loshchilov & Hutter 2019 (decoupled weight decay); Kingma & Ba 2015"),
        Optimizer("sgd", "SGD with momentum", moments=1,
                  source="Polyak 1964; one momentum buffer as in torch.optim.SGD(momentum>0)"),
        Optimizer("lion", "Lion", moments=1,
                  source="Chen et al. 2023, Symbolic Discovery of Optimization Algorithms"),
        Optimizer("adam8bit", "8-bit Adam", moments=2, block_size=256,
                  source="Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization "
                  "(blocks of 256 as in bitsandbytes' 8-bit optimizers)"),
        Optimizer("adafactor", "Adafactor", moments=1, factored=True,
                  source="Shazeer & Stern 2018, Adafactor (beta1 = 0, the paper's default: "
                  "no first moment; factored second moment)"),
    )
}
"""The optimizers, by key."""


def get_optimizer(key: str | Optimizer) -> Optimizer:
    """The optimizer named ``key``; ValueError listing the allowed keys otherwise."""
    if isinstance(key, Optimizer):
        return key
    return lookup(OPTIMIZERS, key, what="optimizer")


def _whole_count(params: float | int | Fraction) -> int:
    value = Fraction(params)
    if value < 0 or value.denominator != 1:
        raise ValueError(f"params={params!r} must be a whole number >= 0")
    return int(value)


def _factored_values(shape: tuple[int, ...]) -> int:
    """Adafactor second-moment values of one tensor (Shazeer & Stern 2018, Algorithm 4).

    A matrix of r x c keeps a row vector (r) and a column vector (c): r + c values. A tensor
    of higher rank is treated as a stack of matrices over its last two axes. A vector keeps
    its full second moment (n values).
    """
    if len(shape) < 2:
        return math.prod(shape)
    *stack, rows, cols = shape
    return math.prod(stack) * (rows + cols)


def _blockwise_bytes(numel: int, block_size: int) -> int:
    """One 8-bit buffer: numel one-byte codes + ceil(numel / block) fp32 scales."""
    return numel * _CODE_BYTES + math.ceil(numel / block_size) * FP32.bytes


def optimizer_state_bytes(
    optimizer: str | Optimizer,
    tensors_or_param_count: Sequence[ParameterTensor] | int | float,
    state_format: FloatFormat,
) -> int:
    """Bytes of optimizer state for a whole model.

    Equations (N parameters, b = state_format.bytes):

    - buffers the size of the weights (AdamW, SGD, Lion): moments x N x b;
    - 8-bit blockwise (Dettmers et al. 2022): per buffer and tensor, n one-byte codes plus
      ceil(n / 256) fp32 scales; ``state_format`` does not apply (the format is fixed);
    - factored (Adafactor, Shazeer & Stern 2018): per matrix r x c, (r + c) x b; per vector
      n x b; no first moment.

    Assumptions: with a bare parameter count the 8-bit state is one flat buffer (blocks
    do not restart at tensor boundaries); bitsandbytes' rule of keeping tensors under 4096
    values in fp32 is ignored. Units: bytes (an exact integer).

    Raises ValueError for Adafactor given only a count: it needs the weights' shapes.
    """
    opt = get_optimizer(optimizer)
    if isinstance(tensors_or_param_count, (int, float, Fraction)):
        if opt.factored:
            raise ValueError(
                f"optimizer={opt.key!r} factors each matrix, so it needs the model's shapes: "
                "give an architecture (--model), not a parameter count (--params)"
            )
        sizes = [_whole_count(tensors_or_param_count)]
    else:
        sizes = [t.numel for t in tensors_or_param_count]
    if opt.block_size is not None:
        return opt.moments * sum(_blockwise_bytes(n, opt.block_size) for n in sizes)
    if opt.factored:
        values = sum(_factored_values(t.shape) for t in tensors_or_param_count)
        return opt.moments * values * state_format.bytes
    return opt.moments * sum(sizes) * state_format.bytes


def update_bytes_per_param(optimizer: str | Optimizer, precision: str) -> int:
    """Bytes the optimizer step reads and writes in memory per parameter it updates.

    The step is memory-bound: a few operations per value, each value read once and written
    once by a fused kernel (apex's and PyTorch's fused Adam). Counted from the update rule:

    - the gradient, read twice: once for its norm (gradient clipping), once by the update;
    - the weights it updates: the master copy read and written, then the working copy
      written from it; without a master copy, the working weights read and written;
    - each state buffer read and written (8-bit: the one-byte codes; a factored second
      moment is a row and a column per matrix, left out as negligible).

    Mixed precision with fp32 main gradients and AdamW: 2 x 4 + (2 x 4 + 2) + 2 x 2 x 4 =
    34 bytes. Units: bytes per parameter.
    """
    opt, preset = get_optimizer(optimizer), get_preset(precision)
    grads = 2 * preset.grad_format.bytes
    weights = (2 * preset.master_format.bytes + preset.weight_format.bytes
               if preset.master_format is not None else 2 * preset.weight_format.bytes)
    state = 0 if opt.factored else 2 * opt.moments * (
        _CODE_BYTES if opt.block_size is not None else preset.state_format.bytes)
    return grads + weights + state


def accumulation_bytes_per_param(precision: str) -> int:
    """Bytes per parameter of adding one micro-batch's gradients into the main gradients
    in a separate pass, as DeepSpeed's bf16 optimizer does after each backward
    (``hp_grad.add_(lp.grad.to(hp_grad.dtype))`` in ``runtime/bf16_optimizer.py``): the
    low-precision gradient read, its high-precision copy written and read, the sum read and
    written. With bf16 gradients into fp32: 2 + 2 x 4 + 2 x 4 = 18 bytes. (Megatron-LM's
    weight-gradient products add into the fp32 buffer themselves: no pass.)"""
    preset = get_preset(precision)
    low = preset.weight_format.bytes  # the backward writes gradients in the weights' format
    high = preset.grad_format.bytes
    return low + 2 * high + 2 * high
