"""distlesson: the numbers behind a course on distributed training of large language models.

Everything is in base units (bytes, FLOPs, seconds, fractions); :mod:`distlesson.render`
formats for a page's language. The names below are the public API used by the pages'
examples and the command line.
"""

from distlesson.catalog.hardware import GPUS, get_gpu
from distlesson.catalog.models import MODELS, Architecture, get_model, parameter_tensors
from distlesson.claims.register import CLAIMS, get_claim
from distlesson.memory.optimizers import OPTIMIZERS, get_optimizer
from distlesson.memory.precision import FLOAT_FORMATS, PRESETS, get_preset
from distlesson.memory.states import (
    Layout,
    MemoryBreakdown,
    bytes_per_param,
    min_gpus,
    model_states,
    per_gpu_states,
)
from distlesson.units import GB, MB, TB, GiB, parse_quantity

__all__ = [
    "CLAIMS",
    "FLOAT_FORMATS",
    "GB",
    "GPUS",
    "MB",
    "MODELS",
    "OPTIMIZERS",
    "PRESETS",
    "TB",
    "Architecture",
    "GiB",
    "Layout",
    "MemoryBreakdown",
    "bytes_per_param",
    "get_claim",
    "get_gpu",
    "get_model",
    "get_optimizer",
    "get_preset",
    "min_gpus",
    "model_states",
    "parameter_tensors",
    "parse_quantity",
    "per_gpu_states",
]
