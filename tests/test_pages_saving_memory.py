"""The saving-memory chapter's figures and tables, against hand derivations."""

import math

import pytest

from distlesson.pages import checkpointing, savings
from distlesson.site.figures import figure_registry

# course-tiny: 2 blocks, C = 32, 4 heads of D = 8, F = 88, V = 96; one sequence, L = 128
C, A, F, V, L, N = 32, 4, 88, 96, 128, 2


def value(name):
    return figure_registry()[name].value


def test_block_tape_by_hand():
    # x, n1, attn, h, n2: L C each; qr, kr, v: A L D = L C each; gate, up, act: L F each;
    # two rstd of L; probs: A L^2
    linear = 8 * L * C + 3 * L * F + 2 * L
    assert value("ckpt.block_scalars") == linear + A * L * L == 132_352
    assert value("ckpt.probs_scalars") == A * L * L
    assert value("ckpt.probs_share") == pytest.approx(A * L * L / (linear + A * L * L))
    assert value("ckpt.input_scalars") == L * C


def test_peak_without_checkpointing_is_every_tape():
    # head: x, n (L C each), rstd (L), probs (L V), targets (L); the tokens (L)
    head = 2 * L * C + L + L * V + L
    block = 8 * L * C + 3 * L * F + 2 * L + A * L * L
    assert value("ckpt.peak_none") == N * block + head + L


def test_full_checkpointing_peak():
    # held: each block's input plus the head and tokens; recomputed: one block's tape
    # without its input (already held)
    head = 2 * L * C + L + L * V + L
    block = 8 * L * C + 3 * L * F + 2 * L + A * L * L
    assert value("ckpt.peak_full") == N * L * C + head + L + (block - L * C)


def test_reduction_grows_with_layers():
    rows = checkpointing.layers_table("en").splitlines()[2:]
    factors = [float(row.split("|")[4].strip().rstrip("×")) for row in rows]
    assert factors == sorted(factors) and factors[0] > 1


def test_crossover_is_where_attention_outweighs_the_rest():
    # 2 blocks x 4 heads x L^2 against the rest, linear in L: (2 x 522 + 163) L; 8 L > 1207
    assert value("ckpt.crossover") == math.floor(1207 / 8) + 1


def test_measured_times_within_bounds():
    ratio, overhead = value("ckpt.measured_ratio"), value("ckpt.measured_overhead")
    assert 0.2 < ratio < 10  # measured: varies with the machine, never pinned
    assert 0 < overhead < 3


def test_training_lowers_the_loss():
    assert value("ckpt.loss_after") < value("ckpt.loss_before") - 1
    assert value("ckpt.loss_before") == pytest.approx(math.log(96), abs=0.1)


def test_at_scale_by_hand():
    # Llama 3 70B, s = 8192, h = 8192, a = 64: 5 a s / h = 320
    sbh = 8192 * 8192
    assert value("ckpt.scale_none_layer") == sbh * (34 + 320)
    assert value("ckpt.scale_full_all") == 2 * sbh / 8 * 80  # inputs, sharded by sp


def test_offload_and_lora_figures():
    assert value("save.gpus_none") == 16  # 70e9 x 16 B = 1,120 GB over 80 GB: 14, so 2 nodes
    assert value("save.gpus_nvme") == 8
    # ZeRO-Offload (Ren et al. 2021, section 4.1): bf16 grads, fp32 master, two fp32 moments
    assert value("save.cpu_states") == 70e9 * (2 + 4 + 8)  # 980 GB
    assert value("save.cpu_per_node") == 70e9 * 14 / 16 * 8  # 490 GB of a node's 512
    # DeepSpeed's 1.5 x margin: 735 GB on two nodes is too much; three hold 490 GB each
    assert value("save.buffer_factor") == 1.5
    assert value("save.gpus_cpu_buffered") == 24 > value("save.gpus_none")
    assert value("save.gpus_cpu_zero3") == 16 and value("save.gpus_cpu_zero3_buffered") == 24
    assert value("save.lora_trainable_8b") == 32 * 16 * (2 * 8192 + 2 * 5120)


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_render_in_each_locale(locale):
    for table in (checkpointing.saved_arrays_table, checkpointing.modes_table,
                  checkpointing.formula_table, checkpointing.at_scale_table,
                  savings.updates_table, savings.loss_scale_table, savings.accumulation_table,
                  savings.offload_table, savings.lora_table):
        text = table(locale)
        assert text.count("\n") >= 3 and "{" not in text
    assert "<svg" in checkpointing.scaling_plot(locale)


def test_bf16_alone_never_moves():
    for _, low, master, bf16_copy, exact in savings._update_runs():
        # fp32 rounds each of up to 1,000 additions by at most 2^-24 relative
        assert low == 1.0 and master == pytest.approx(exact, rel=1e-4)
        # the copy the forward reads is the master rounded to bf16's 8 significant bits
        assert bf16_copy == pytest.approx(master, rel=2**-8)
