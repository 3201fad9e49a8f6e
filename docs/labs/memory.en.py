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
# # Lab: the memory calculator
#
# How many GPUs does it take just to *hold* a model while it trains? In this lab you build
# the answer yourself, in a few lines of Python, and then check every step against the
# `distlesson` library that computes the figures of the course. The plan:
#
# - the bytes of one value in each floating-point format;
# - the bytes that training keeps per parameter, for a precision recipe and an optimizer;
# - the model states of a real architecture, and the GPUs needed to hold them;
# - the comparison everyone gets wrong: how much mixed precision really saves.
#
# Each step ends with an `assert` that your result equals the library's. The site runs this
# notebook at every build, so if the library ever drifts from what you derived here, the
# build fails. Only *model states* are counted (weights, gradients, master copy, optimizer
# state): activations come on top and are the subject of another chapter.
#
# The first cell sets the language of the printed numbers: `en`, `ca` or `fa`.

# %%
LOCALE = "en"

# %%
from fractions import Fraction
import math

import ml_dtypes
import numpy as np
from IPython.display import HTML, Markdown, display

from distlesson.catalog.hardware import get_gpu
from distlesson.memory.states import (
    Layout, bytes_per_param, min_gpus, model_states, per_gpu_states, saving_against_fp32)
from distlesson.catalog.models import get_model
from distlesson.pages.lab_labels import OPTIMIZER_NAMES, PRESET_NAMES, label
from distlesson.memory.precision import BF16, FP32
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.svg import stacked_barh
from distlesson.render.tables import Table, markdown_table


def t(key):
    """The word for ``key`` in the notebook's language (the course's own labels)."""
    return label(key, LOCALE)


def table(headers, rows, numeric):
    """Show a table of already formatted cells."""
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


# %% [markdown]
# ## The bytes of a value
#
# A format's size follows from its bits: a sign, an exponent and a mantissa. numpy knows
# fp32; bf16 comes from `ml_dtypes`, the package JAX uses for it. The library derives the
# same sizes from the bit layouts it stores, so the two sources are independent.

# %%
FORMAT_BYTES = {
    "fp32": np.dtype(np.float32).itemsize,
    "bf16": np.dtype(ml_dtypes.bfloat16).itemsize,
}
for name, size in FORMAT_BYTES.items():
    print(f"{name}: {format_quantity(size, 'bytes', LOCALE)}")

assert FORMAT_BYTES["fp32"] == FP32.bytes and FORMAT_BYTES["bf16"] == BF16.bytes

# %% [markdown]
# ## Bytes per parameter
#
# Training keeps four things for every parameter:
#
# - the **weights** that the forward and backward passes read;
# - the **gradients** of those weights;
# - in mixed precision, a **master copy** of the weights in fp32, which the optimizer
#   updates (bf16 has too few mantissa bits to absorb small updates);
# - the **optimizer state**: AdamW keeps two moments, `m` and `v`, in fp32; SGD with
#   momentum and Lion keep one.
#
# A recipe says which format each of these is kept in. Write the sum for the four recipes
# the course uses: everything in fp32, mixed precision with a master copy, mixed precision
# without one, and Megatron-LM's default with fp32 gradients.

# %%
B = FORMAT_BYTES
RECIPES = {  # weights, gradients, master copy (None: no copy), optimizer state
    "fp32": (B["fp32"], B["fp32"], None, B["fp32"]),
    "mixed": (B["bf16"], B["bf16"], B["fp32"], B["fp32"]),
    "mixed-no-master": (B["bf16"], B["bf16"], None, B["fp32"]),
    "mixed-fp32-grads": (B["bf16"], B["fp32"], B["fp32"], B["fp32"]),
}
MOMENTS = {"adamw": 2, "sgd": 1, "lion": 1}  # state buffers the size of the weights


def my_bytes_per_param(recipe, optimizer):
    weights, grads, master, state = RECIPES[recipe]
    return {"weights": weights, "grads": grads, "master": master or 0,
            "optimizer": MOMENTS[optimizer] * state}


rows = []
for recipe in RECIPES:
    mine = my_bytes_per_param(recipe, "adamw")
    rows.append((PRESET_NAMES[recipe][LOCALE],
                 *(format_number(v, LOCALE) for v in mine.values()),
                 format_number(sum(mine.values()), LOCALE)))
table([t("preset"), t("weights"), t("grads"), t("master"), t("optimizer"), t("total")],
      rows, [False] + [True] * 5)

# %% [markdown]
# The library answers the same question with `bytes_per_param`, which returns a breakdown
# (exact fractions, not floats). Compare every field, for every recipe and optimizer:

# %%
ANY_COUNT = 1_000_000  # bytes per parameter do not depend on the count for these optimizers
for recipe in RECIPES:
    for optimizer in MOMENTS:
        library = bytes_per_param(ANY_COUNT, optimizer=optimizer, precision=recipe)
        assert my_bytes_per_param(recipe, optimizer) == {
            "weights": library.weights, "grads": library.grads,
            "master": library.master, "optimizer": library.optimizer}, (recipe, optimizer)
print(f"{t('bpp')}: {t('same_as_library')}")

# %% [markdown]
# 8-bit Adam is the odd one out: each moment is stored as one-byte codes plus one fp32 scale
# for every block of values, so its cost per parameter depends on how the count divides
# into blocks. The block size is an input of the library, with its source; the formula is
# yours:

# %%
from distlesson.memory.optimizers import get_optimizer

BLOCK = get_optimizer("adam8bit").block_size


def my_adam8bit_bytes(count):
    one_moment = count * 1 + math.ceil(count / BLOCK) * B["fp32"]  # codes + scales
    return 2 * one_moment


rows = []
for count in (BLOCK, BLOCK + 1):
    library = model_states(count, optimizer="adam8bit", precision="mixed").optimizer
    assert my_adam8bit_bytes(count) == library
    rows.append((format_number(count, LOCALE),
                 format_number(float(Fraction(library, count)), LOCALE, digits=4)))
table([t("params"), f"{OPTIMIZER_NAMES['adam8bit'][LOCALE]}: {t('bpp')}"], rows,
      [True, True])

# %% [markdown]
# ## The states of a real model, and the GPUs to hold them
#
# The catalog holds published architectures; the library counts their parameters tensor by
# tensor. Multiply by the bytes per parameter and divide by the memory of one GPU, rounding
# up: that is the fewest GPUs whose memory, pooled, holds the states. Pooling is what
# ZeRO-3 and FSDP do, so the same division also gives the states per GPU under ZeRO-3.

# %%
MODELS = ("llama3-8b", "llama3-70b", "llama3-405b")
GPU = get_gpu("h100-sxm")
GPU_BYTES = int(GPU.memory_bytes)


def my_states(count, recipe="mixed", optimizer="adamw"):
    return count * sum(my_bytes_per_param(recipe, optimizer).values())


def my_min_gpus(total):
    return -(-total // GPU_BYTES)  # ceiling division, in integers: no float residue


rows = []
for key in MODELS:
    model = get_model(key)
    total = my_states(model.num_params)
    gpus = my_min_gpus(total)
    library = model_states(model, optimizer="adamw", precision="mixed")
    assert total == library.total
    assert gpus == min_gpus(library.total, GPU.memory_bytes)
    rows.append((model.display_name, format_quantity(model.num_params, "B params", LOCALE, digits=1),
                 format_quantity(total, "GB", LOCALE), format_number(gpus, LOCALE)))
table([t("model"), t("params"), t("total"),
       t("gpus80").format(gb=format_quantity(GPU_BYTES, "GB", LOCALE))],
      rows, [False, True, True, True])

# %% [markdown]
# Holding the states is only the floor: activations, temporary buffers and fragmentation
# need room too, so real jobs use more GPUs than the last column.
#
# Now split the states of Llama 3 70B over `DP` GPUs with each ZeRO stage. Stage one shards
# the optimizer state (and the master copy) over the data-parallel ranks, stage two the
# gradients too, stage three the weights as well:

# %%
model = get_model("llama3-70b")
states = model_states(model, optimizer="adamw", precision="mixed")
DP = 8


def my_zero(bpp, dp, stage):
    """Bytes per parameter that one rank holds, per state, at ZeRO ``stage``."""
    shard = {"weights": 3, "grads": 2, "master": 1, "optimizer": 1}  # sharded from this stage
    return {name: Fraction(value, dp if stage >= shard[name] else 1)
            for name, value in bpp.items()}


rows = []
for stage in range(4):
    mine = {name: v * model.num_params
            for name, v in my_zero(my_bytes_per_param("mixed", "adamw"), DP, stage).items()}
    library = per_gpu_states(states, Layout(dp=DP, zero=stage))
    assert mine == {name: getattr(library, name) for name in mine}
    total = sum(mine.values())
    rows.append((f"ZeRO-{stage}", *(format_quantity(v, "GB", LOCALE) for v in mine.values()),
                 format_quantity(total, "GB", LOCALE), t("yes" if total <= GPU_BYTES else "no")))
table([t("zero_stage"), t("weights"), t("grads"), t("master"), t("optimizer"), t("total"),
       t("fits").format(gb=format_quantity(GPU_BYTES, "GB", LOCALE))],
      rows, [False] + [True] * 5 + [False])

# %% [markdown]
# ## What mixed precision saves
#
# Moving from fp32 to bf16 halves the bytes of the weights and of the gradients, so it is
# tempting to expect half the memory. Compare the totals of the recipes:

# %%
fp32 = sum(my_bytes_per_param("fp32", "adamw").values())
rows, savings = [], {}
for recipe in ("fp32", "mixed", "mixed-no-master"):
    per = sum(my_bytes_per_param(recipe, "adamw").values())
    saving = savings[recipe] = 1 - Fraction(per, fp32)
    assert saving == saving_against_fp32(model, precision=recipe, optimizer="adamw")
    rows.append((PRESET_NAMES[recipe][LOCALE], format_number(per, LOCALE),
                 format_quantity(per * model.num_params, "GB", LOCALE),
                 format_percent(float(saving), LOCALE)))
table([t("preset"), t("bpp"), t("states_of").format(model=model.display_name), t("saving")],
      rows, [False, True, True, True])

adam_share = Fraction(my_bytes_per_param("fp32", "adamw")["optimizer"], fp32)
print(f"{t('adam_share')}: {format_percent(float(adam_share), LOCALE)}")
# what the text below says: far from half, and the master copy takes back all bf16 saved
assert all(s < Fraction(1, 2) for s in savings.values()) and savings["mixed"] == 0

# %% [markdown]
# The saving is far from half. AdamW's two moments stay in fp32 whatever the recipe, and
# they alone are the share printed above of fp32 training's bytes. Halving the weights and
# gradients touches only the rest; and the usual recipe then adds an fp32 master copy,
# which takes back all that the halving saved. Without a master copy the saving is the one
# in the table's last row, at the price of updates too small for bf16 to represent (the
# chapter [Saving memory](../../saving-memory/) shows them vanish). Mixed precision is
# worth it for speed and for the activations, not for the memory of the model states:
# tensor cores run bf16 several times faster than plain fp32 (though only about twice as
# fast as their `TF32` mode), and bf16 halves the memory of the activations and the bytes
# that tensor and pipeline parallelism send, which are activations too.
#
# The same comparison as a picture, drawn by the library's plotting helper:

# %%
recipes = ("fp32", "mixed", "mixed-no-master", "mixed-fp32-grads")
per = [my_bytes_per_param(r, "adamw") for r in recipes]
display(HTML(stacked_barh(
    [PRESET_NAMES[r][LOCALE] for r in recipes],
    [(t(part), [float(p[part]) for p in per]) for part in ("weights", "grads", "master",
                                                           "optimizer")],
    xlabel=t("bpp"), locale=LOCALE,
    tick_format=lambda x: format_number(x, LOCALE, digits=0 if x == int(x) else 1),
    total_format=lambda x: format_number(x, LOCALE),
    name=f"lab-memory-{LOCALE}", title=t("bpp"))))

# %% [markdown]
# ## Your turn
#
# - Replace AdamW by SGD with momentum in the model table: how many GPUs does Llama 3 405B need
#   now? Which state dominates?
# - Add a recipe that keeps AdamW's moments in bf16. What does it save, and why do
#   practitioners hesitate to use it?
# - Find the smallest ZeRO stage and the smallest number of data-parallel ranks at which
#   Llama 3 70B's states fit on one GPU of the catalog.
