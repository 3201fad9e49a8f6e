"""The claims register's claims on what the Persian lesson's code listings print, when run.

Its data-parallel simulation averages the GPUs' mean gradients with equal weights, and its
demo splits the batch only evenly; its memory calculator, given no model shape (as in its
demo), charges activations at half the weights' bytes, on every GPU whatever the sharding.
The library computes the same quantities (:mod:`distlesson.parallel.data`,
:mod:`distlesson.memory`). Like :mod:`distlesson.claims.register`, each claim keeps the
printed number as a typed input; assembled into the register there.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.claims.claim import Claim, Figure
from distlesson.memory.activations import activation_bytes_per_layer
from distlesson.memory.states import Layout, model_states, per_gpu_states
from distlesson.pages.parallelism_sims import BATCH, MLP_SHAPE
from distlesson.parallel.data import data_parallel_grads, split_batch
from distlesson.parallel.toy_mlp import flatten, init_mlp, loss_and_grads

__all__ = ["CALCULATOR_ROWS", "CalculatorRow", "data_parallel_claims", "listing_claims",
           "unweighted_mean_error"]

FA_CONVENTION = "mixed-no-master"  # the lesson's bytes: bf16 weights and grads, fp32 moments
CALCULATOR_SEQ = 2048  # memory_calculator's default sequence_length
UNEVEN_GPUS = 3  # the smallest count that splits the demo's 64 examples unevenly


def unweighted_mean_error(dp: int = UNEVEN_GPUS) -> float:
    """Largest difference between the listing's gradient and the whole batch's, relative to
    the whole batch's largest entry, on the chapter's toy MLP and batch
    (:mod:`distlesson.pages.parallelism_sims`: seed 2024 data, seed 1 weights).

    The listing's rule: the unweighted mean over ranks of each rank's mean gradient, the
    batch split as :func:`~distlesson.parallel.data.split_batch` splits it (the first
    ranks one example more, as the listing does). The reference: the library's data
    parallelism, which weights each rank by its examples. Units: a fraction.
    """
    params = init_mlp(*MLP_SHAPE, seed=1)
    rng = np.random.default_rng(2024)
    x = rng.standard_normal((BATCH, MLP_SHAPE[0]))  # (B, in)
    y = rng.standard_normal((BATCH, MLP_SHAPE[2]))  # (B, out)
    exact = flatten(data_parallel_grads(params, x, y, dp=dp).grads)  # (P,)
    shards = [flatten(loss_and_grads(params, x[s], y[s])[1]) for s in split_batch(BATCH, dp)]
    listing = np.mean(shards, axis=0)  # (P,)   np.mean(gpu_gradients, axis=0)
    return float(np.max(np.abs(listing - exact)) / np.max(np.abs(exact)))


@dataclass(frozen=True)
class CalculatorRow:
    """One row of the demo's memory table, and the architecture the library counts for it."""

    id: str
    """Claim id."""
    params: float
    """The row's model, its nominal count ("70B": 70e9)."""
    gpus: int
    """Its GPUs; FSDP (ZeRO-3) when more than one."""
    printed: float
    """Per-GPU bytes it prints ("122.5GB": 122.5e9)."""
    model: str
    """Catalog key of the architecture whose activations the library counts ("" for the
    lesson's own seven-billion example: width 4096, 32 layers of 32 heads)."""


CALCULATOR_ROWS: tuple[CalculatorRow, ...] = (
    CalculatorRow("fa_calc_seven_b_one_gpu", 7e9, 1, 91.0e9, ""),
    CalculatorRow("fa_calc_seven_b_fsdp_eight", 7e9, 8, 17.5e9, ""),
    CalculatorRow("fa_calc_seventy_b_one_gpu", 70e9, 1, 910.0e9, "llama3-70b"),
    CalculatorRow("fa_calc_seventy_b_fsdp_eight", 70e9, 8, 175.0e9, "llama3-70b"),
    CalculatorRow("fa_calc_seventy_b_fsdp_sixteen", 70e9, 16, 122.5e9, "llama3-70b"),
    CalculatorRow("fa_calc_largest_fsdp_sixty_four", 405e9, 64, 480.9e9, "llama3-405b"),
    CalculatorRow("fa_calc_largest_fsdp_one_twenty_eight", 405e9, 128, 443.0e9,
                  "llama3-405b"),
)
"""The memory table its demo prints (``run_all_demos``), row by row."""

# What the lesson's prose says for the same setting, where it says it: bytes per GPU.
_PROSE = {
    "fa_calc_seven_b_one_gpu": 56e9,  # "56 GB of the 80 GB are used"
    "fa_calc_seventy_b_one_gpu": 840e9,  # "each GPU needs 840GB"
    "fa_calc_seventy_b_fsdp_eight": 105e9,  # its FSDP table: "105 GB per GPU"
}

_DETAIL = {
    "fa_calc_seven_b_one_gpu":
        "Either way it does not fit, though the lesson's prose counts the states at "
        "{{ claim.fa_calc_seven_b_one_gpu.prose }} and leaves room beside them for "
        "activations.",
    "fa_calc_seven_b_fsdp_eight": "Either way it fits.",
    "fa_calc_seventy_b_one_gpu":
        "The lesson's prose puts each data-parallel GPU at "
        "{{ claim.fa_calc_seventy_b_one_gpu.prose }}: the states alone.",
    "fa_calc_seventy_b_fsdp_eight":
        "The lesson's FSDP table puts the same GPUs at "
        "{{ claim.fa_calc_seventy_b_fsdp_eight.prose }}: the states alone.",
    "fa_calc_seventy_b_fsdp_sixteen":
        "The lesson's prose says these GPUs bring each below "
        "{{ claim.fa_calc_seventy_b_fsdp_sixteen.gpu_memory }}, and its calculator "
        "prints that they do not. The states do fit; the activations fit beside them only "
        "if recomputed: with full recomputation the library counts "
        "{{ claim.fa_calc_seventy_b_fsdp_sixteen.full_recompute }}.",
    "fa_calc_largest_fsdp_sixty_four":
        "Neither fits. With full recomputation the library counts "
        "{{ claim.fa_calc_largest_fsdp_sixty_four.full_recompute }}, still above "
        "{{ claim.fa_calc_largest_fsdp_sixty_four.gpu_memory }}.",
    "fa_calc_largest_fsdp_one_twenty_eight":
        "Neither fits. With full recomputation the library counts "
        "{{ claim.fa_calc_largest_fsdp_one_twenty_eight.full_recompute }}, which fits: "
        "the calculator cannot find this, as its activations never shrink.",
}

_STATEMENT = {
    False: "On one GPU, the lesson's memory calculator prints {{{{ claim.{id}.stated }}}} for "
           "a model of {{{{ claim.{id}.params }}}} parameters.",
    True: "With FSDP over {{{{ claim.{id}.gpus }}}} GPUs, the lesson's memory calculator "
          "prints {{{{ claim.{id}.stated }}}} per GPU for a model of "
          "{{{{ claim.{id}.params }}}} parameters.",
}

_WHY = (
    "Its model states agree with the library under the lesson's convention, "
    "{{{{ claim.{id}.states }}}} per GPU. Its activations, given no model shape, are half the "
    "weights' bytes, {{{{ claim.{id}.listing_activations }}}}, whatever the sequence and "
    "however many GPUs share the model. For {model} at the calculator's "
    "{{{{ claim.{id}.seq }}}} tokens, keeping every activation but the attention scores, "
    "the library counts {{{{ claim.{id}.activations }}}}, so "
    "{{{{ claim.{id}.computed }}}} per GPU. {detail}"
)
_MODEL_NAMES = {"": "the lesson's own shape of this model", "llama3-70b": "Llama 3 70B",
                "llama3-405b": "Llama 3 405B"}


def _shape(model: str) -> tuple[int, int, int]:
    """(hidden size, heads, layers) whose activations the library counts."""
    if not model:
        return 4096, 32, 32  # the lesson's "2048-token sequence, 4096-dimensional model"
    arch = get_model(model)
    return arch.hidden_size, arch.num_heads, arch.num_layers


def _activations(row: CalculatorRow, recompute: str = "selective") -> Fraction:
    hidden, heads, layers = _shape(row.model)
    return layers * activation_bytes_per_layer(
        seq_len=CALCULATOR_SEQ, micro_batch=1, hidden_size=hidden, num_heads=heads,
        recompute=recompute)


def _states(row: CalculatorRow) -> Fraction:
    states = model_states(row.params, precision=FA_CONVENTION)
    layout = Layout(dp=row.gpus, zero=3 if row.gpus > 1 else 0)
    return Fraction(per_gpu_states(states, layout).total)


def _calculator_claim(row: CalculatorRow) -> Claim:
    extras = [
        Figure("params", lambda: row.params, "count"),
        Figure("gpus", lambda: row.gpus, "count"),
        Figure("states", lambda: _states(row), "bytes"),
        Figure("listing_activations", lambda: row.params * 2 * 0.5, "bytes"),  # its rule
        Figure("seq", lambda: CALCULATOR_SEQ, "count"),
        Figure("activations", lambda: _activations(row), "bytes"),
        Figure("gpu_memory", lambda: get_gpu("a100-80gb").memory_bytes, "bytes"),
        Figure("full_recompute", lambda: _states(row) + _activations(row, "full"), "bytes"),
    ]
    if row.id in _PROSE:
        extras.append(Figure("prose", lambda: _PROSE[row.id], "bytes"))
    return Claim(
        id=row.id, source="fa: use it (the demo's memory table)", unit="bytes",
        stated=row.printed, precision=1e8,  # printed with one decimal, in GB
        computed=lambda: _states(row) + _activations(row),
        statement={"en": _STATEMENT[row.gpus > 1].format(id=row.id)},
        why={"en": _WHY.format(id=row.id, model=_MODEL_NAMES[row.model],
                               detail=_DETAIL[row.id])},
        extras=tuple(extras),
    )


def listing_claims() -> list[Claim]:
    """The claims on the listings' printouts, in the order of the chapter."""
    return [_calculator_claim(row) for row in CALCULATOR_ROWS]


def data_parallel_claims() -> list[Claim]:
    """The data-parallel listing's claim (shown in the parallelism chapter)."""
    return [
        Claim(
            id="fa_dp_unweighted_mean", source="fa: build it, step one", unit="fraction",
            stated=0.0,  # its demo prints identical losses and gradient norms
            precision=1e-5,  # its printout's six digits (loss=30.2175): a hundred-thousandth
            chapter="parallelism", computed=unweighted_mean_error,
            statement={"en": "Averaging the GPUs' losses and gradients gives those of the "
                       "whole batch: the demo prints the same loss and gradient on one, "
                       "two, four and eight GPUs, a difference of "
                       "{{ claim.fa_dp_unweighted_mean.stated }}."},
            why={"en": "The code averages each GPU's mean gradient with equal weights. That "
                 "is the whole batch's mean only when the shards are equal, as in the demo; "
                 "the code also accepts uneven shards and gives the first GPUs one example "
                 "more. Splitting the demo's {{ claim.fa_dp_unweighted_mean.batch }} examples "
                 "over {{ claim.fa_dp_unweighted_mean.gpus }} GPUs instead, its average is "
                 "off by "
                 "{{ claim.fa_dp_unweighted_mean.computed }} of the gradient's largest "
                 "entry on the course's small network. The library weights each GPU's "
                 "gradient by its examples and matches the whole batch to float "
                 "round-off."},
            extras=(Figure("batch", lambda: BATCH, "count"),
                    Figure("gpus", lambda: UNEVEN_GPUS, "count")),
        ),
    ]
