"""Memory of the model states: weights, gradients, master copy and optimizer state.

Whole-model byte counts are exact integers; per-GPU counts are exact rationals
(``fractions.Fraction`` where a division leaves a remainder, ``int`` otherwise), so that
statements such as "ZeRO-3 holds exactly total / n per GPU" are true without rounding.
Convert with ``float()`` (or divide by ``units.GB``) at the edge, where numbers are shown.
Activations are not model states and are not counted here.
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import astuple, dataclass, fields
from fractions import Fraction

from distlesson.catalog.models import Architecture, parameter_tensors
from distlesson.checks import check_positive_int
from distlesson.memory.optimizers import Optimizer, optimizer_state_bytes
from distlesson.memory.precision import PrecisionPreset, get_preset

__all__ = [
    "Bytes",
    "Layout",
    "MemoryBreakdown",
    "bytes_per_param",
    "check_layout",
    "min_gpus",
    "model_states",
    "per_gpu_states",
    "saving_against_fp32",
]

Bytes = int | Fraction
"""An exact number of bytes (or bytes per parameter)."""


MAX_BYTES = 10**18
"""An exabyte: a thousand times the memory of today's largest clusters. Beyond it a size is
a typing error (and its float, for JSON and tables, would lose every digit that matters)."""


def _exact(value: float | Fraction, name: str) -> Bytes:
    """``value`` as an exact int or Fraction; ValueError if negative, nan, infinite, beyond
    :data:`MAX_BYTES` or not a real number (Fraction would parse the string "8")."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}={value!r} must be a number of bytes")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name}={value!r} must be a finite number")
    exact = Fraction(value)
    if exact < 0:
        raise ValueError(f"{name}={value!r} must be >= 0")
    if exact > MAX_BYTES:
        raise ValueError(f"{name}={value!r} is beyond any real cluster; allowed: up to "
                         f"{MAX_BYTES:.0e} bytes")
    return int(exact) if exact.denominator == 1 else exact


@dataclass(frozen=True)
class MemoryBreakdown:
    """Bytes of each model state (whole model, one GPU, or one parameter)."""

    weights: Bytes
    """The weights the forward and backward passes read."""
    grads: Bytes
    """The gradients of those weights."""
    master: Bytes
    """A separate high-precision copy of the weights that the optimizer updates (0 if none)."""
    optimizer: Bytes
    """The optimizer's state (moments, scales, factored statistics)."""

    def __post_init__(self) -> None:
        for field in fields(self):
            object.__setattr__(self, field.name, _exact(getattr(self, field.name), field.name))
        if sum(astuple(self)) > MAX_BYTES:  # each part allowed, their sum not
            parts = " + ".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self))
            raise ValueError(f"{parts} is beyond any real cluster; allowed: a total up to "
                             f"{MAX_BYTES:.0e} bytes")

    @property
    def total(self) -> Bytes:
        """weights + grads + master + optimizer."""
        return sum(astuple(self))

    def divided(self, *, weights: int = 1, grads: int = 1, master: int = 1,
                optimizer: int = 1) -> MemoryBreakdown:
        """Each state divided by its own whole divisor (how many GPUs share it)."""
        divisors = {"weights": weights, "grads": grads, "master": master,
                    "optimizer": optimizer}
        for name, d in divisors.items():
            check_positive_int(f"divisor for {name}", d)
        return MemoryBreakdown(**{
            name: Fraction(getattr(self, name)) / d for name, d in divisors.items()
        })

    def per_param(self, params: int) -> MemoryBreakdown:
        """Each state divided by the parameter count: bytes per parameter."""
        if isinstance(params, bool) or not isinstance(params, numbers.Rational) or params <= 0:
            raise ValueError(f"params={params!r} must be positive")
        return MemoryBreakdown(*(Fraction(v) / Fraction(params) for v in astuple(self)))

    def as_dict(self) -> dict[str, float]:
        """The states and the total as floats, for JSON and renderers."""
        result = {field.name: float(getattr(self, field.name)) for field in fields(self)}
        result["total"] = float(self.total)
        return result


MAX_PARAMS = 10**15
"""A quadrillion parameters, a thousand times today's largest models: beyond it a count is
a typing error, and its bytes no longer fit a float."""


def _resolve(model_or_params: Architecture | float | int) -> tuple[int, object]:
    """(parameter count, what optimizer_state_bytes needs: tensors or the count)."""
    if isinstance(model_or_params, Architecture):
        count = model_or_params.num_params
        if count > MAX_PARAMS:
            raise ValueError(f"params={count} of {model_or_params.key!r} is beyond any real "
                             f"model; allowed: up to {MAX_PARAMS:.0e}")
        return count, parameter_tensors(model_or_params)
    if isinstance(model_or_params, bool) or not isinstance(model_or_params,
                                                           int | float | Fraction):
        raise TypeError(f"params={model_or_params!r} must be an Architecture or a count")
    if isinstance(model_or_params, float) and not math.isfinite(model_or_params):
        raise ValueError(f"params={model_or_params!r} must be a positive whole number")
    count = Fraction(model_or_params)
    if count <= 0 or count.denominator != 1:
        raise ValueError(f"params={model_or_params!r} must be a positive whole number")
    if count > MAX_PARAMS:
        raise ValueError(f"params={model_or_params!r} is beyond any real model; allowed: up "
                         f"to {MAX_PARAMS:.0e}")
    return int(count), int(count)


def _check_recipe(optimizer: object, precision: object) -> None:
    """TypeError unless each is a name or its dataclass (before a cache hashes them)."""
    if not isinstance(optimizer, str | Optimizer):
        raise TypeError(f"optimizer={optimizer!r} must be a name or an Optimizer")
    if not isinstance(precision, str | PrecisionPreset):
        raise TypeError(f"precision={precision!r} must be a name or a PrecisionPreset")


def model_states(
    model_or_params: Architecture | float | int,
    *,
    optimizer: str | Optimizer = "adamw",
    precision: str | PrecisionPreset = "mixed",
) -> MemoryBreakdown:
    """Bytes of the model states of a whole model, on all GPUs together.

    Equation (N parameters, b_x the bytes of the format of x in the preset):
    weights = N b_w, grads = N b_g, master = N b_master (0 without one),
    optimizer = :func:`~distlesson.memory.optimizers.optimizer_state_bytes`.
    With AdamW and the ``mixed`` preset that is 2N + 2N + 4N + 8N = 16N: the "16 bytes per
    parameter" of Rajbhandari et al. 2020, section 3.1 (2 + 2 + K with K = 12).
    Assumptions: every parameter is trained; no activations, buffers or fragmentation.
    Units: bytes. An architecture gives exact shapes (needed by Adafactor); a bare count
    must be a positive whole number.
    """
    _check_recipe(optimizer, precision)
    if not isinstance(model_or_params, Architecture):  # an architecture is hashable
        _resolve(model_or_params)  # refuses a bad count by name before the cache hashes it
    return _model_states(model_or_params, optimizer=optimizer, precision=precision)


# Pure in frozen inputs, and asked for again for every layout of a grid (the widgets' and
# the planner's): counting a catalog model's tensors once is enough.
@functools.lru_cache(maxsize=256)
def _model_states(model_or_params: Architecture | float | int, *, optimizer: str | Optimizer,
                  precision: str | PrecisionPreset) -> MemoryBreakdown:
    preset = precision if isinstance(precision, PrecisionPreset) else get_preset(precision)
    count, tensors = _resolve(model_or_params)
    master = preset.master_format.bytes if preset.master_format is not None else 0
    return MemoryBreakdown(
        weights=count * preset.weight_format.bytes,
        grads=count * preset.grad_format.bytes,
        master=count * master,
        optimizer=optimizer_state_bytes(optimizer, tensors, preset.state_format),
    )


def bytes_per_param(
    model_or_params: Architecture | float | int,
    *,
    optimizer: str | Optimizer = "adamw",
    precision: str | PrecisionPreset = "mixed",
) -> MemoryBreakdown:
    """:func:`model_states` divided by the parameter count (exact; bytes per parameter)."""
    _check_recipe(optimizer, precision)
    count, _ = _resolve(model_or_params)
    states = model_states(model_or_params, optimizer=optimizer, precision=precision)
    return states.per_param(count)


@dataclass(frozen=True)
class Layout:
    """How the GPUs split the work: data, tensor, pipeline, context parallel degrees, ZeRO."""

    dp: int = 1
    """Data-parallel replicas (ZeRO shards over these)."""
    tp: int = 1
    """Tensor-parallel degree: each matrix is split over tp GPUs."""
    pp: int = 1
    """Pipeline stages: the layers are split over pp GPUs."""
    zero: int = 0
    """ZeRO stage 0..3 over the dp replicas (0: none; 3 is FSDP's full sharding)."""
    cp: int = 1
    """Context-parallel degree: the sequence is split over cp GPUs, the weights replicated."""

    def __post_init__(self) -> None:
        for name in ("dp", "tp", "pp", "cp"):
            check_positive_int(name, getattr(self, name))
        if not isinstance(self.zero, int) or isinstance(self.zero, bool) or not (
            0 <= self.zero <= 3
        ):
            raise ValueError(f"zero={self.zero!r} must be 0, 1, 2 or 3")

    @property
    def world_size(self) -> int:
        """Number of GPUs: dp x tp x pp x cp."""
        return self.dp * self.tp * self.pp * self.cp


def check_layout(arch: Architecture, layout: Layout) -> None:
    """ValueError unless ``layout`` can split ``arch`` evenly.

    tp must divide num_heads, num_kv_heads (each rank keeps whole heads; replicating
    key/value heads is not modelled) and ffn_hidden_size (Shoeybi et al. 2019); pp may not
    exceed num_layers (every stage needs a layer).
    """
    for name in ("num_heads", "num_kv_heads", "ffn_hidden_size"):
        value = getattr(arch, name)
        if value % layout.tp:
            raise ValueError(f"tp={layout.tp} must divide {name}={value} of {arch.key}")
    if layout.pp > arch.num_layers:
        raise ValueError(
            f"pp={layout.pp} must not exceed num_layers={arch.num_layers} of {arch.key}"
        )


def per_gpu_states(states: MemoryBreakdown, layout: Layout) -> MemoryBreakdown:
    """Model states held by one GPU under ``layout``.

    Equation: every state is divided by tp x pp; ZeRO stage s additionally divides by dp
    the master copy and optimizer state (s >= 1), the gradients (s >= 2) and the weights
    (s = 3), as in Figure 1 of Rajbhandari et al. 2020. Without ZeRO, dp replicates; cp
    always replicates the states (each context-parallel rank holds the same weights).
    Assumptions: layers and matrices split uniformly (norms and embeddings too, nothing
    replicated); no padding of shards; ZeRO shards over the dp group only (Megatron-LM's
    distributed optimizer also folds the cp ranks into that group: not modelled).
    Units: bytes, exact.
    """
    if not isinstance(states, MemoryBreakdown):
        raise TypeError(f"states={states!r} must be a MemoryBreakdown (from model_states)")
    if not isinstance(layout, Layout):
        raise TypeError(f"layout={layout!r} must be a Layout")
    model_parallel = layout.tp * layout.pp

    def over(stage: int) -> int:
        return model_parallel * (layout.dp if layout.zero >= stage else 1)

    return states.divided(weights=over(3), grads=over(2), master=over(1), optimizer=over(1))


def min_gpus(total_bytes: float | Fraction, gpu_memory_bytes: float | Fraction) -> int:
    """Fewest GPUs whose memory together holds ``total_bytes``: ceil(total / memory).

    Computed on exact rationals, so 1120e9 / 80e9 gives 14, not 15 from a float residue.
    Assumes the bytes can be split freely (as ZeRO-3 does). Units: a count.
    """
    for name, value in (("total_bytes", total_bytes), ("gpu_memory_bytes", gpu_memory_bytes)):
        if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
            raise TypeError(f"{name}={value!r} must be a number of bytes")
    total = _exact(total_bytes, "total_bytes")
    memory = _exact(gpu_memory_bytes, "gpu_memory_bytes")
    if memory == 0:
        raise ValueError(f"gpu_memory_bytes={gpu_memory_bytes!r} must be positive")
    if memory < 1:  # a GPU holds at least a byte; less would ask for more GPUs than bytes
        raise ValueError(f"gpu_memory_bytes={gpu_memory_bytes!r} must be at least 1 byte")
    return math.ceil(Fraction(total) / Fraction(memory))


def saving_against_fp32(
    model_or_params: Architecture | float | int,
    *,
    precision: str | PrecisionPreset,
    optimizer: str | Optimizer = "adamw",
) -> Fraction:
    """Share of fp32 training's model states that ``precision`` saves (negative: costs more).

    Equation: 1 - states(precision) / states(fp32), same model and optimizer. With AdamW,
    mixed precision with an fp32 master copy saves 1 - 16/16 = 0; without one,
    1 - 12/16 = 1/4. Units: a fraction, exact.
    """
    fp32 = model_states(model_or_params, optimizer=optimizer, precision="fp32").total
    chosen = model_states(model_or_params, optimizer=optimizer, precision=precision).total
    return 1 - Fraction(chosen) / Fraction(fp32)

