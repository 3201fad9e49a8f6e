"""The Persian lesson's code listings, as printed when run, against the register.

Its listings (``simulate_data_parallelism``, ``simulate_tensor_parallelism``,
``simulate_pipeline_parallelism``, ``memory_calculator``, ``mixed_precision_comparison``
and ``run_all_demos``, which prints their results) stay out of the repository; their
arithmetic is re-derived here by hand from the source text. A printed figure that disagrees
with the lesson's prose or with the library is a claim of the register, its ``stated`` the
printout; a printed figure that agrees is checked here against the library, so that a
change on either side shows.
"""

from fractions import Fraction

import numpy as np
import pytest

from distlesson.claims.listings import CALCULATOR_ROWS, unweighted_mean_error
from distlesson.claims.register import get_claim
from distlesson.memory.states import model_states
from distlesson.pages.parallelism_sims import BATCH, MLP_SHAPE
from distlesson.parallel.tensor import column_parallel_linear
from distlesson.parallel.toy_mlp import flatten, init_mlp, loss_and_grads
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate


def _printed_per_gpu(params_billions, sharding, gpus):
    """memory_calculator(params, num_gpus=gpus, sharding=sharding)["per_gpu_total_gb"] as
    its demo formats it (one decimal): precision_bytes 2, Adam at 4 x 2 bytes, and, with no
    hidden_dim or num_layers, activations of params x precision_bytes x 0.5, never sharded."""
    params = params_billions * 1e9
    weights, optimizer, grads = params * 2, params * 4 * 2, params * 2
    activations = params * 2 * 0.5
    if sharding == "fsdp":
        weights, optimizer, grads = weights / gpus, optimizer / gpus, grads / gpus
    return round((weights + optimizer + grads + activations) / 1e9, 1)


# run_all_demos' configs: (params, sharding, gpus) in the order it prints them
DEMO_CONFIGS = [(7, "none", 1), (7, "fsdp", 8), (70, "none", 1), (70, "fsdp", 8),
                (70, "fsdp", 16), (405, "fsdp", 64), (405, "fsdp", 128)]


@pytest.mark.parametrize(("row", "config"), list(zip(CALCULATOR_ROWS, DEMO_CONFIGS,
                                                      strict=True)), ids=lambda x: str(x))
def test_every_printed_row_of_the_memory_table_is_a_claim(row, config):
    params, sharding, gpus = config
    claim = get_claim(row.id)
    assert claim.stated == _printed_per_gpu(params, sharding, gpus) * 1e9
    assert (row.params, row.gpus) == (params * 1e9, gpus)
    assert not claim.agrees


def test_the_table_contradicts_the_prose_at_sixteen_gpus():
    # the prose: "at least 16 GPUs to get below 80GB per GPU"; the printout: "No"
    assert _printed_per_gpu(70, "fsdp", 16) > 80


def _listing_average(x, y, params, num_gpus):
    """simulate_data_parallelism as the listing writes it: shards of batch // n, the first
    batch % n one example longer, then np.mean over the GPUs' (loss, gradient) pairs."""
    batch = len(x)
    shard_size, remainder = divmod(batch, num_gpus)
    losses, grads, offset = [], [], 0
    for gpu_id in range(num_gpus):
        extra = 1 if gpu_id < remainder else 0
        rows = slice(offset, offset + shard_size + extra)
        offset += shard_size + extra
        loss, grad = loss_and_grads(params, x[rows], y[rows])
        losses.append(loss)
        grads.append(flatten(grad))
    return np.mean(losses), np.mean(grads, axis=0)


def _data():
    rng = np.random.default_rng(2024)
    return (rng.standard_normal((BATCH, MLP_SHAPE[0])),
            rng.standard_normal((BATCH, MLP_SHAPE[2])))


@pytest.mark.parametrize("num_gpus", [1, 2, 4, 8])
def test_the_demo_splits_evenly_so_its_average_is_the_whole_batch(num_gpus):
    params, (x, y) = init_mlp(*MLP_SHAPE, seed=1), _data()
    loss, grad = _listing_average(x, y, params, num_gpus)
    whole_loss, whole = loss_and_grads(params, x, y)
    assert loss == pytest.approx(whole_loss, rel=1e-12)
    np.testing.assert_allclose(grad, flatten(whole), rtol=1e-12, atol=1e-15)


def test_an_uneven_split_weighs_the_smaller_shards_more():
    params, (x, y) = init_mlp(*MLP_SHAPE, seed=1), _data()
    _, grad = _listing_average(x, y, params, 3)  # 22, 21, 21 examples
    whole = flatten(loss_and_grads(params, x, y)[1])
    expected = np.max(np.abs(grad - whole)) / np.max(np.abs(whole))
    assert unweighted_mean_error(3) == pytest.approx(expected, rel=1e-9)
    claim = get_claim("fa_dp_unweighted_mean")
    assert claim.computed_value == pytest.approx(expected, rel=1e-9)
    assert expected > 1e-3 and not claim.agrees


# Printed figures that agree with the prose and the library: checked, not registered.

@pytest.mark.parametrize("num_gpus", [1, 2, 4, 8])
def test_tensor_parallel_printout_error_zero(num_gpus):
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((4, 256)), rng.standard_normal((256, 256))
    result = column_parallel_linear(x, w, num_gpus)
    assert np.array_equal(np.concatenate(result.rank_outputs, axis=-1), x @ w)


# "total_time=  64, bubble=75.0%" ... for 32 layers on 4 stages: every forward and backward
# takes 32 / 4 = 8 units, all forwards first (GPipe)
PIPELINE_PRINTOUT = {1: (64, "75.0%"), 4: (112, "42.9%"), 8: (176, "27.3%"),
                     16: (304, "15.8%"), 32: (560, "8.6%")}


@pytest.mark.parametrize("microbatches", sorted(PIPELINE_PRINTOUT))
def test_pipeline_printout_agrees_with_the_library(microbatches):
    total, bubble = PIPELINE_PRINTOUT[microbatches]
    run = simulate(build_schedule("gpipe", 4, microbatches), Durations(fwd=8, bwd=8, wgrad=0))
    assert run.makespan == total
    assert f"{float(run.bubble_fraction):.1%}" == bubble
    assert run.bubble_fraction == Fraction(3, microbatches + 3)


# "7B: FP32=112GB, Mixed BF16=84GB, Savings=25%" and the same for 13B, 70B, 405B
@pytest.mark.parametrize(("params", "fp32", "mixed"), [(7, 112, 84), (13, 208, 156),
                                                       (70, 1120, 840), (405, 6480, 4860)])
def test_mixed_precision_printout_agrees_under_the_lessons_convention(params, fp32, mixed):
    assert model_states(params * 1e9, precision="fp32").total == fp32 * 1e9
    assert model_states(params * 1e9, precision="mixed-no-master").total == mixed * 1e9
    # its 25 % is the register's fa_mixed_precision_savings: no master copy
    assert get_claim("fa_mixed_precision_savings").stated == 1 - mixed / fp32
