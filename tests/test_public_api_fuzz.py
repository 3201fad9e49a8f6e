"""Every callable of ``distlesson.__all__`` against hostile arguments (Hypothesis, 500
examples each): a call refuses with ValueError or TypeError whose message names one of its
arguments, or answers values within physical bounds (finite, no negative size, a positive
count). The list of callables is read from ``__all__``: a new public function without a
strategy here fails :func:`test_every_public_callable_has_a_strategy`."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import distlesson
from distlesson.catalog.models import Architecture, ParameterTensor
from distlesson.memory.optimizers import Optimizer
from distlesson.memory.precision import FloatFormat, PrecisionPreset
from distlesson.memory.states import Layout, MemoryBreakdown

EXAMPLES = settings(max_examples=500, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
REFUSALS = (ValueError, TypeError)

# Values no caller should get an answer for, and the edges around them.
SPECIALS = st.sampled_from([
    0, -1, -10**30, 10**30, 10**400, 2.5, -0.0, 0.0, 1e-320, 1e308, math.nan, math.inf,
    -math.inf, True, False, None, "8", "", b"8", [], {}, (1, 2), 1j, Fraction(-1, 3),
    Fraction(5, 2), object(),
])
HOSTILE = st.one_of(SPECIALS, st.integers(-10**30, 10**30),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3))


def mixed(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Valid values half the time, so that the answers are checked too, not only refusals."""
    return st.one_of(valid, HOSTILE)


POSITIVE = st.integers(1, 64)
SIZE_VALID = st.one_of(st.integers(0, 10**15), st.floats(0, 1e15))
COUNT = mixed(POSITIVE)
SIZE = mixed(SIZE_VALID)
MODEL_KEY = mixed(st.sampled_from(sorted(distlesson.MODELS)))
GPU_KEY = mixed(st.sampled_from(sorted(distlesson.GPUS)))
OPTIMIZER = mixed(st.sampled_from([*sorted(distlesson.OPTIMIZERS),
                                   *distlesson.OPTIMIZERS.values()]))
PRECISION = mixed(st.sampled_from([*sorted(distlesson.PRESETS), *distlesson.PRESETS.values()]))
CLAIM_ID = mixed(st.sampled_from([claim.id for claim in distlesson.CLAIMS]))

# Valid field values of each dataclass; the hostile mix of them is the dataclass's own test.
ARCHITECTURE_VALID = {
    "key": st.text(max_size=8), "display_name": st.text(max_size=8),
    "source": st.text(max_size=8), "num_layers": st.integers(1, 4),
    "hidden_size": st.sampled_from([8, 16]), "num_heads": st.sampled_from([1, 2, 4]),
    "num_kv_heads": st.just(1), "ffn_hidden_size": POSITIVE, "vocab_size": POSITIVE,
    "norm": st.sampled_from(["layernorm", "rmsnorm"]), "mlp": st.sampled_from(["gelu", "swiglu"]),
    "bias": st.booleans(), "tied_embeddings": st.booleans(), "fused_qkv": st.just(False),
    "qkv_bias": st.booleans(), "max_positions": st.one_of(st.none(), POSITIVE),
    "published_params": st.one_of(st.none(), st.integers(1, 10**12)),
}
LAYOUT_VALID = {"dp": POSITIVE, "tp": POSITIVE, "pp": POSITIVE, "cp": POSITIVE,
                "zero": st.integers(0, 3)}
BREAKDOWN_VALID = {name: SIZE_VALID for name in ("weights", "grads", "master", "optimizer")}


OPTIMIZER_VALID = {"key": st.text(max_size=8), "display_name": st.text(max_size=8),
                   "moments": st.integers(0, 3), "block_size": st.one_of(st.none(), POSITIVE),
                   "factored": st.just(False), "source": st.text(max_size=8)}
FORMAT_VALID = {"name": st.text(max_size=8), "exponent_bits": st.just(8),
                "mantissa_bits": st.just(7), "bits": st.just(16), "has_inf": st.booleans()}
FORMATS = list({p.weight_format for p in distlesson.PRESETS.values()})
PRESET_VALID = {"key": st.text(max_size=8), "weight_format": st.sampled_from(FORMATS),
                "grad_format": st.sampled_from(FORMATS),
                "master_format": st.one_of(st.none(), st.sampled_from(FORMATS)),
                "state_format": st.sampled_from(FORMATS), "description": st.text(max_size=8),
                "source": st.text(max_size=8)}


def _hostile(fields: dict[str, st.SearchStrategy[Any]]) -> dict[str, st.SearchStrategy[Any]]:
    return {name: mixed(strategy) for name, strategy in fields.items()}


ARCHITECTURE = mixed(st.one_of(st.sampled_from(list(distlesson.MODELS.values())),
                               st.builds(Architecture, **ARCHITECTURE_VALID)))
LAYOUT = mixed(st.builds(Layout, **LAYOUT_VALID))
BREAKDOWN = mixed(st.builds(MemoryBreakdown, **BREAKDOWN_VALID))
MODEL = st.one_of(ARCHITECTURE, SIZE)

Call = tuple[tuple[Any, ...], dict[str, Any]]


def keywords(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[Call]:
    return st.fixed_dictionaries(fields).map(lambda kw: ((), kw))


def positional(*args: st.SearchStrategy[Any], **kwargs: st.SearchStrategy[Any],
               ) -> st.SearchStrategy[Call]:
    return st.tuples(st.tuples(*args), st.fixed_dictionaries(kwargs))


# Each public callable: the calls to try, and the names a refusal may give (the parameters,
# and the word the catalogs use: get_model(key) refuses "model='x' is not known").
RECIPE = {"optimizer": OPTIMIZER, "precision": PRECISION}
STRATEGIES: dict[str, tuple[st.SearchStrategy[Call], tuple[str, ...]]] = {
    "Architecture": (keywords(**_hostile(ARCHITECTURE_VALID)), tuple(ARCHITECTURE_VALID)),
    "Layout": (keywords(**_hostile(LAYOUT_VALID)), tuple(LAYOUT_VALID)),
    "MemoryBreakdown": (keywords(**_hostile(BREAKDOWN_VALID)), tuple(BREAKDOWN_VALID)),
    "bytes_per_param": (positional(MODEL, **RECIPE), ("params", "optimizer", "precision")),
    "model_states": (positional(MODEL, **RECIPE), ("params", "optimizer", "precision")),
    "get_claim": (positional(CLAIM_ID), ("claim",)),
    "get_gpu": (positional(GPU_KEY), ("gpu",)),
    "get_model": (positional(MODEL_KEY), ("model",)),
    "get_optimizer": (positional(OPTIMIZER), ("optimizer",)),
    "get_preset": (positional(PRECISION), ("precision",)),
    "min_gpus": (positional(SIZE, mixed(st.integers(1, 10**11))),
                 ("total_bytes", "gpu_memory_bytes")),
    "parameter_tensors": (positional(ARCHITECTURE), ("arch",)),
    "parse_quantity": (positional(mixed(st.from_regex(r"\A[0-9]{1,4}(\.[0-9])?[kMBT]?\Z")),
                                  name=mixed(st.just("tokens"))), ("tokens", "name")),
    "per_gpu_states": (positional(BREAKDOWN, LAYOUT), ("states", "layout")),
}
# The dataclasses that public functions take besides those above (model_states takes an
# Optimizer and a PrecisionPreset, a preset holds FloatFormats): built from hostile fields.
TAKEN = {Optimizer: OPTIMIZER_VALID, PrecisionPreset: PRESET_VALID, FloatFormat: FORMAT_VALID}
STRATEGIES.update({cls.__name__: (keywords(**_hostile(valid)), tuple(valid))
                   for cls, valid in TAKEN.items()})


def _public_callables() -> dict[str, Callable[..., Any]]:
    return {name: getattr(distlesson, name) for name in distlesson.__all__
            if callable(getattr(distlesson, name))}


def _callables() -> dict[str, Callable[..., Any]]:
    return {**_public_callables(), **{cls.__name__: cls for cls in TAKEN}}


def test_every_public_callable_has_a_strategy():
    assert set(_callables()) == set(STRATEGIES)
    assert len(_public_callables()) == 14  # when this grows, the strategies above grow too


def _finite_nonneg(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float | Fraction) and (
        math.isfinite(float(value)) and value >= 0)


def _within_bounds(result: Any) -> None:
    """What an answer may be: sizes finite and >= 0, counts >= 1, no NaN or inf anywhere."""
    if isinstance(result, MemoryBreakdown):
        assert all(_finite_nonneg(v) for v in (*vars(result).values(), result.total)), result
    elif isinstance(result, Architecture):
        assert result.num_params >= 1
    elif isinstance(result, Layout):
        assert result.world_size >= 1
    elif isinstance(result, tuple):  # parameter_tensors
        assert result and all(isinstance(t, ParameterTensor) and t.numel >= 1 for t in result)
    elif isinstance(result, int | float | Fraction):  # min_gpus, parse_quantity
        assert _finite_nonneg(result), result
    else:  # a catalog entry: a GPU, a model, an optimizer, a preset, a claim
        assert result is not None
        if isinstance(result, Optimizer):
            assert result.moments >= 0
        if isinstance(result, FloatFormat):
            assert result.bytes >= 1 and math.isfinite(result.max_finite)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_public_callable_answers_within_bounds_or_refuses_by_name(name):
    function = _callables()[name]
    calls, names = STRATEGIES[name]

    @EXAMPLES
    @given(calls)
    def check(call: Call) -> None:
        args, kwargs = call
        try:
            result = function(*args, **kwargs)
        except REFUSALS as error:
            message = str(error)
            # parse_quantity names its argument as the caller says (name="tokens")
            named = (*names, kwargs["name"]) if isinstance(kwargs.get("name"), str) else names
            assert any(f"{n}=" in message for n in named), f"{name}: {message!r}"
            return
        _within_bounds(result)

    check()
