"""Optimizer state, per optimizer, counted by hand."""

import math

import pytest

from distlesson.catalog.models import ParameterTensor, get_model, parameter_tensors
from distlesson.memory.optimizers import (
    OPTIMIZERS,
    accumulation_bytes_per_param,
    get_optimizer,
    optimizer_state_bytes,
    update_bytes_per_param,
)
from distlesson.memory.precision import BF16, FP32


@pytest.mark.parametrize(
    ("optimizer", "bytes_per_param"), [("adamw", 8), ("sgd", 4), ("lion", 4)]
)
def test_dense_states_in_fp32(optimizer, bytes_per_param):
    assert optimizer_state_bytes(optimizer, 1_000_000, FP32) == 1_000_000 * bytes_per_param


def test_state_format_sets_the_width():
    assert optimizer_state_bytes("adamw", 10, BF16) == 10 * 2 * 2


def test_adam8bit_codes_plus_scales_per_block():
    # 1000 values: 1000 one-byte codes + ceil(1000/256) = 4 fp32 scales, per moment.
    assert optimizer_state_bytes("adam8bit", 1000, FP32) == 2 * (1000 + 4 * 4)
    assert optimizer_state_bytes("adam8bit", 256, BF16) == 2 * (256 + 4)  # format ignored


def test_adam8bit_blocks_restart_per_tensor():
    tensors = [ParameterTensor("a", (10, 10)), ParameterTensor("b", (300,))]
    # a: 100 codes + 1 scale; b: 300 codes + 2 scales
    assert optimizer_state_bytes("adam8bit", tensors, FP32) == 2 * (100 + 4 + 300 + 8)


def test_adafactor_factors_matrices_and_keeps_vectors():
    tensors = [
        ParameterTensor("w", (3, 5)),  # row 3 + column 5
        ParameterTensor("n", (7,)),  # full: 7
        ParameterTensor("stack", (2, 4, 6)),  # two matrices of 4 x 6: 2 * (4 + 6)
    ]
    assert optimizer_state_bytes("adafactor", tensors, FP32) == (8 + 7 + 20) * 4


def test_adafactor_on_llama3_70b_by_hand():
    h, kv, f, v, layers = 8192, 1024, 28672, 128256, 80
    per_layer = (h + h) + 2 * (kv + h) + (h + h) + 3 * (f + h) + 2 * h  # q, k v, o, mlp, norms
    values = layers * per_layer + 2 * (v + h) + h  # embed, head, final norm
    arch = get_model("llama3-70b")
    assert optimizer_state_bytes("adafactor", parameter_tensors(arch), FP32) == values * 4


def test_adafactor_needs_shapes():
    with pytest.raises(ValueError, match=r"adafactor.*--model"):
        optimizer_state_bytes("adafactor", 70e9, FP32)


def test_bad_inputs():
    with pytest.raises(ValueError, match="allowed: adamw, sgd, lion, adam8bit, adafactor"):
        get_optimizer("adam")
    with pytest.raises(ValueError, match=r"params=1\.5 must be a whole number"):
        optimizer_state_bytes("adamw", 1.5, FP32)
    with pytest.raises(ValueError, match="params=-1"):
        optimizer_state_bytes("adamw", -1, FP32)


def test_float_counts_are_exact():
    assert optimizer_state_bytes("adamw", 7.5e9, FP32) == 60 * 10**9
    assert isinstance(optimizer_state_bytes("adamw", 7.5e9, FP32), int)


def test_catalog():
    assert set(OPTIMIZERS) == {"adamw", "sgd", "lion", "adam8bit", "adafactor"}
    assert all(o.source for o in OPTIMIZERS.values())
    assert math.ceil(1000 / OPTIMIZERS["adam8bit"].block_size) == 4


@pytest.mark.parametrize(("optimizer", "precision", "expected"), [
    # gradient read twice + master read, written and cast + moments read and written
    ("adamw", "mixed-fp32-grads", 2 * 4 + (2 * 4 + 2) + 2 * 2 * 4),  # 34
    ("adamw", "mixed", 2 * 2 + (2 * 4 + 2) + 2 * 2 * 4),  # 30
    ("sgd", "fp32", 2 * 4 + 2 * 4 + 1 * 2 * 4),  # no master: the weights read and written
    ("adam8bit", "mixed", 2 * 2 + (2 * 4 + 2) + 2 * 2 * 1),  # one-byte codes
    ("adafactor", "mixed", 2 * 2 + (2 * 4 + 2)),  # the factored moment left out
])
def test_update_bytes_by_hand(optimizer, precision, expected):
    assert update_bytes_per_param(optimizer, precision) == expected


def test_update_bytes_bad_names():
    with pytest.raises(ValueError, match="optimizer"):
        update_bytes_per_param("adamx", "mixed")
    with pytest.raises(ValueError, match="precision"):
        update_bytes_per_param("adamw", "fp7")


def test_accumulation_pass_bytes_by_hand():
    # bf16 gradient read (2), its fp32 copy written and read (4 + 4), the fp32 sum read and
    # written (4 + 4): DeepSpeed's hp_grad.add_(lp.grad.to(float32))
    assert accumulation_bytes_per_param("mixed-fp32-grads") == 2 + 4 + 4 + 4 + 4
    assert accumulation_bytes_per_param("mixed") == 2 + 2 + 2 + 2 + 2  # bf16 all through
