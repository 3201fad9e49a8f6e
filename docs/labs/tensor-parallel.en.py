# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lab: tensor parallelism in an MLP
#
# Tensor parallelism splits each weight matrix of a layer over several GPUs, so that no GPU
# holds, or multiplies by, a whole matrix. Done naively it needs communication after every
# matrix product. Megatron-LM's arrangement needs a single all-reduce for a whole MLP: split
# the first matrices by columns, the last one by rows, and everything in between stays
# local.
#
# In this lab you build that arrangement in numpy for the SwiGLU MLP of Llama 3, check that
# it computes exactly what one device computes, see why the other order would not work,
# and count what it sends. Each step ends with an `assert` against the `distlesson`
# library; the site runs this notebook at every build.

# %%
LOCALE = "en"

# %%
import numpy as np
from IPython.display import Markdown, display

from distlesson.parallel.collectives import ring_all_reduce, ring_bytes
from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import get_model
from distlesson.pages.lab_labels import label
from distlesson.render.numbers import format_number, format_quantity, format_scientific
from distlesson.render.tables import Table, markdown_table
from distlesson.parallel.swiglu import SwiGLUWeights, swiglu_mlp, swiglu_mlp_backward
from distlesson.parallel.tensor import (
    block_allreduce_count, megatron_mlp, megatron_mlp_backward, tp_bytes_per_layer)


def t(key):
    """The word for ``key`` in the notebook's language."""
    return label(key, LOCALE)


def table(headers, rows, numeric):
    """Show a table of already formatted cells."""
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


def difference(a, b):
    """Largest difference between two arrays, relative to the largest value of ``b``."""
    return float(np.abs(a - b).max() / np.abs(b).max())


checks = []  # (what, relative difference) for the summary table

# %% [markdown]
# ## One device
#
# The SwiGLU MLP takes the activations `x` of some tokens (one row per token, `hidden`
# columns), multiplies them by two matrices, `W_gate` and `W_up`, combines the results
# elementwise, and projects back with `W_down`:
#
# `y = (silu(x W_gate) * (x W_up)) W_down`, with `silu(a) = a sigmoid(a)`.
#
# Write it, and compare it with the library's version, which every parallel simulation of
# the course is checked against.

# %%
HIDDEN, FFN, TOKENS, TP = 8, 32, 5, 4
rng = np.random.default_rng(0)
weights = SwiGLUWeights(
    gate=rng.standard_normal((HIDDEN, FFN)) / np.sqrt(HIDDEN),  # (h, f)
    up=rng.standard_normal((HIDDEN, FFN)) / np.sqrt(HIDDEN),  # (h, f)
    down=rng.standard_normal((FFN, HIDDEN)) / np.sqrt(FFN),  # (f, h)
)
x = rng.standard_normal((TOKENS, HIDDEN))  # (N, h)


def silu(a):
    return a / (1 + np.exp(-a))


def my_mlp(x, gate, up, down):
    return (silu(x @ gate) * (x @ up)) @ down  # (N, h)


y = my_mlp(x, weights.gate, weights.up, weights.down)
checks.append(("own_vs_library", difference(y, swiglu_mlp(x, weights))))
assert checks[-1][1] < 1e-14

# %% [markdown]
# ## Split the first two matrices by columns
#
# Give rank `r` a block of columns of `W_gate` and the *same* block of columns of `W_up`.
# It computes its slice of `x W_gate` and of `x W_up` from the whole `x`, which every rank
# has. `silu` and the product act element by element, so the rank can apply them to its
# slice alone: no communication so far, and the slices, side by side, are the full hidden
# activation.

# %%
gate_cols = np.split(weights.gate, TP, axis=1)  # TP x (h, f/TP)
up_cols = np.split(weights.up, TP, axis=1)  # TP x (h, f/TP)
hidden = [silu(x @ g) * (x @ u) for g, u in zip(gate_cols, up_cols)]  # TP x (N, f/TP)

full_hidden = silu(x @ weights.gate) * (x @ weights.up)  # (N, f)
checks.append(("column_concat", difference(np.concatenate(hidden, axis=1), full_hidden)))
assert checks[-1][1] < 1e-14

# %% [markdown]
# ## Then split the last matrix by rows
#
# Rank `r` holds the rows of `W_down` that match its hidden columns. Its product is a
# *partial* output with every column of `y`, but only its share of the sum that a matrix
# product is. Adding the ranks' partial outputs gives `y`: that addition is the MLP's one
# all-reduce, after which every rank holds the output. Use the ring all-reduce of the data
# parallelism lab (the library's) and count its bytes.

# %%
down_rows = np.split(weights.down, TP, axis=0)  # TP x (f/TP, h)
partials = [h_r @ d_r for h_r, d_r in zip(hidden, down_rows)]  # TP x (N, h)
reduced = ring_all_reduce(partials)
checks.append(("row_sum", max(difference(out, y) for out in reduced.outputs)))
assert checks[-1][1] < 1e-14

# %% [markdown]
# ## Why not the other order?
#
# Split `W_gate` and `W_up` by *rows* instead, and give each rank a slice of the columns of
# `x`. Each rank then holds a partial sum of `x W_gate`, not a slice of it; and `silu` of a
# partial sum is not a part of `silu` of the sum. The ranks would have to all-reduce
# *before* the activation, and again after `W_down`. See how wrong skipping that first
# all-reduce is:

# %%
x_cols = np.split(x, TP, axis=1)  # TP x (N, h/TP)
gate_rows = np.split(weights.gate, TP, axis=0)  # TP x (h/TP, f)
up_rows = np.split(weights.up, TP, axis=0)
wrong = sum(silu(xr @ g) * (xr @ u) for xr, g, u in zip(x_cols, gate_rows, up_rows))
checks.append(("activation_on_partials", difference(wrong, full_hidden)))
assert checks[-1][1] > 0.1

table([t("check"), t("max_error")],
      [(t(what), format_scientific(value, LOCALE)) for what, value in checks], [False, True])

# %% [markdown]
# The first three lines are float round-off; the last is a wrong answer.
#
# ## Against the library
#
# The library's `megatron_mlp` runs the same arrangement: every rank applies the
# single-device MLP to its shard of the weights (a shard of an MLP is a smaller MLP), then
# one all-reduce. Compare its outputs, its count of all-reduces and its bytes with yours.
# Then the backward: by the same argument each rank differentiates its own smaller MLP,
# which gives the gradients of its own weights directly; only the gradient of the input is
# a partial sum, and needs the backward's one all-reduce.

# %%
result = megatron_mlp(x, weights, TP)
for out in result.rank_outputs:
    assert np.array_equal(out, result.rank_outputs[0])  # every rank holds the same output
    assert difference(out, y) < 1e-14
assert result.comm.all_reduces == 1 and result.comm.backward_all_reduces == 1
assert result.comm.sent_bytes == reduced.sent_bytes
assert all(b == ring_bytes("all_reduce", y.nbytes, TP) for b in reduced.sent_bytes)

grad_y = rng.standard_normal(y.shape)  # (N, h): some gradient arriving from above
single = swiglu_mlp_backward(x, weights, grad_y)
shards = [SwiGLUWeights(g, u, d) for g, u, d in zip(gate_cols, up_cols, down_rows)]
mine = [swiglu_mlp_backward(x, shard, grad_y) for shard in shards]  # each rank alone
my_input_grad = sum(m.x for m in mine)  # the backward's all-reduce
library = megatron_mlp_backward(x, weights, grad_y, TP)
assert library.comm.all_reduces == 1
for rank in range(TP):
    assert difference(library.grad_input[rank], my_input_grad) < 1e-14
    for name in ("gate", "up", "down"):
        assert np.array_equal(getattr(library.weight_grads[rank], name),
                              getattr(mine[rank].weights, name))
weight_grad_error = max(
    difference(np.concatenate([getattr(m.weights, name) for m in mine], axis=axis),
               getattr(single.weights, name))
    for name, axis in (("gate", 1), ("up", 1), ("down", 0)))
table([t("check"), t("max_error")], [
    (t("library_ranks"), format_scientific(
        max(difference(o, y) for o in result.rank_outputs), LOCALE)),
    (t("input_grad"), format_scientific(difference(my_input_grad, single.x), LOCALE)),
    (t("weight_grads"), format_scientific(weight_grad_error, LOCALE)),
], [False, True])
print(f"{t('fwd_ar')}: {format_number(result.comm.all_reduces, LOCALE)}")
print(f"{t('bwd_ar')}: {format_number(library.comm.all_reduces, LOCALE)}")
print(f"{t('sent_rank')}: {format_quantity(reduced.sent_bytes[0], 'bytes', LOCALE)}")

# %% [markdown]
# ## What it costs at scale
#
# A transformer block has two such sublayers, attention (split by heads, which play the
# role of the hidden columns) and the MLP: two all-reduces in the forward, two in the
# backward. Each all-reduces the activations of a micro-batch, one value per token and
# hidden unit, in bf16. With the ring's closed form, write the bytes each GPU sends per
# layer for one micro-batch, and compare with the library's `tp_bytes_per_layer`:

# %%
model = get_model("llama3-70b")
SEQ, MICRO_BATCH, BF16_BYTES = 8192, 1, 2
count = block_allreduce_count()
assert (count.forward, count.backward) == (2, 2)
activation = SEQ * MICRO_BATCH * model.hidden_size * BF16_BYTES
rows = []
for tp in (2, 4, 8):
    mine = 4 * 2 * (tp - 1) * activation / tp
    assert mine == tp_bytes_per_layer(SEQ, MICRO_BATCH, model.hidden_size, tp)
    rows.append((format_number(tp, LOCALE), format_quantity(mine, "MB", LOCALE),
                 format_quantity(mine * model.num_layers, "GB", LOCALE, digits=1)))
table([t("tp_degree"), t("sent_gpu_layer"), f"{model.display_name}: {t('comm_micro_batch')}"],
      rows, [True, True, True])
print(f"{t('tokens')}: {format_number(SEQ * MICRO_BATCH, LOCALE)}")
nvlink, network = get_interconnect("nvlink4"), get_interconnect("ib-ndr")
speedup = nvlink.bandwidth / network.bandwidth
print(f"{nvlink.display_name} ÷ {network.display_name}: {format_quantity(speedup, 'x', LOCALE)}")
assert speedup >= 3  # the text below: several times

# %% [markdown]
# Most of those bytes are on the critical path: in the forward, the next matrix product
# needs the result of the all-reduce. In the backward, Megatron-LM overlaps the input
# gradient's all-reduce with the product that computes the weight gradient, and frameworks
# offer options that overlap more of tensor parallelism's communication with computation
# (by splitting the products into chunks), but these hide only part of it. That is why
# tensor parallelism stays inside one server, where NVLink
# carries several times more bytes per second than the network between servers (the last
# line above: per GPU and direction, from the course's catalog of links).
#
# ## Your turn
#
# - Split the MLP over a number of ranks that does not divide `FFN`. What fails, and
#   where would padding go?
# - Add the attention sublayer: split `W_q`, `W_k` and `W_v` by heads (columns) and
#   `W_o` by rows, with `distlesson.parallel.tensor.megatron_attention` as the reference.
# - How do the bytes per layer change with sequence parallelism, which replaces each
#   all-reduce by a reduce-scatter and an all-gather?
