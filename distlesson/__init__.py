"""distlesson: the numbers behind a course on distributed training of large language models.

Everything is in base units (bytes, FLOPs, seconds, fractions); :mod:`distlesson.render`
formats for a page's language. The names below are the public API used by the pages'
examples and the command line.

They are imported when first used (``distlesson.get_model``, ``from distlesson import
get_model``), not with the package: importing one module of the library (a page's
``distlesson.pages.fit``) then runs only what that module imports, which is what the build
cache reads to know which pages an edit can change (:mod:`distlesson.site.module_graph`).
"""

from __future__ import annotations

import importlib
from typing import Any

# name -> the module that defines it (the build cache's import graph reads this table)
_LAZY_EXPORTS = {
    "GPUS": "distlesson.catalog.hardware",
    "get_gpu": "distlesson.catalog.hardware",
    "MODELS": "distlesson.catalog.models",
    "Architecture": "distlesson.catalog.models",
    "get_model": "distlesson.catalog.models",
    "parameter_tensors": "distlesson.catalog.models",
    "CLAIMS": "distlesson.claims.register",
    "get_claim": "distlesson.claims.register",
    "OPTIMIZERS": "distlesson.memory.optimizers",
    "get_optimizer": "distlesson.memory.optimizers",
    "FLOAT_FORMATS": "distlesson.memory.precision",
    "PRESETS": "distlesson.memory.precision",
    "get_preset": "distlesson.memory.precision",
    "Layout": "distlesson.memory.states",
    "MemoryBreakdown": "distlesson.memory.states",
    "bytes_per_param": "distlesson.memory.states",
    "min_gpus": "distlesson.memory.states",
    "model_states": "distlesson.memory.states",
    "per_gpu_states": "distlesson.memory.states",
    "GB": "distlesson.units",
    "MB": "distlesson.units",
    "TB": "distlesson.units",
    "GiB": "distlesson.units",
    "parse_quantity": "distlesson.units",
}

__all__ = sorted(_LAZY_EXPORTS)


def __getattr__(name: str) -> Any:
    # Looked up on every use, never stored here: after mkdocs serve reloads the library,
    # distlesson.get_model is the fresh module's (a stored one would outlive the reload).
    try:
        module = _LAZY_EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'distlesson' has no attribute {name!r}") from None
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY_EXPORTS])
