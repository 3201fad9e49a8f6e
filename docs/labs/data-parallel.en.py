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
# # Lab: data parallelism, from shards to ZeRO
#
# Data parallelism gives every GPU a full copy of the model and a slice of the batch. Each
# GPU computes the gradient of its slice; the GPUs then agree on one gradient, the one the
# whole batch would have given, and all apply the same update. In this lab you simulate the
# GPUs ("ranks") as Python lists of numpy arrays and build, one piece at a time:
#
# - the split of a batch into shards, even when the batch does not divide evenly;
# - the combination of the ranks' gradients that equals the full-batch gradient;
# - the ring all-reduce that computes it, with the bytes each rank sends;
# - gradient accumulation, which sends the same gradient fewer times;
# - the ZeRO stages, which stop every rank from keeping every state.
#
# After each piece, an `assert` compares your version with the `distlesson` library. The
# site runs this notebook at every build: a drift between the two fails the build.

# %%
LOCALE = "en"

# %%
import numpy as np
from IPython.display import Markdown, display

from distlesson.parallel.collectives import ring_all_reduce, ring_bytes
from distlesson.parallel.data import data_parallel_grads, split_batch
from distlesson.memory.states import model_states
from distlesson.catalog.models import get_model
from distlesson.pages.lab_labels import label
from distlesson.render.numbers import format_number, format_quantity, format_scientific
from distlesson.render.tables import Table, markdown_table
from distlesson.parallel.toy_mlp import AdamW, flatten, init_mlp, loss_and_grads, train_single_device
from distlesson.parallel.zero import train_zero, zero_comm_bytes


def table(headers, rows, numeric):
    """Show a table of already formatted cells."""
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


def t(key):
    """The word for ``key`` in the notebook's language."""
    return label(key, LOCALE)


def n(value, digits=0):
    return format_number(value, LOCALE, digits=digits)


def nbytes(value):
    return format_quantity(value, "bytes", LOCALE)


# %% [markdown]
# ## The model and one batch
#
# The model is the library's small two-layer MLP, written in numpy with its backward by hand
# (`distlesson.parallel.toy_mlp`). Its loss is half the squared error summed over the outputs,
# averaged over the examples. The model's size does not matter here: what matters is that
# the loss is a *mean over the examples of the batch*. The batch size is chosen so that it
# does not divide evenly over the ranks.

# %%
DP = 4  # simulated ranks
BATCH = 10  # examples: not a multiple of DP on purpose
rng = np.random.default_rng(0)
params = init_mlp(6, 16, 3, seed=1)  # d_in, d_hidden, d_out; float64
x = rng.standard_normal((BATCH, 6))  # (B, d_in)
y = rng.standard_normal((BATCH, 3))  # (B, d_out)

full_loss, full_grads = loss_and_grads(params, x, y)
full = flatten(full_grads)  # (P,): the gradient that data parallelism must reproduce
print(f"{t('params')}: {n(params.num_params)}")
print(f"{t('grad_buffer')}: {nbytes(full.nbytes)}")

# %% [markdown]
# ## Shards
#
# Give each rank a contiguous slice. When the batch does not divide, the first ranks take
# one example more, as `numpy.array_split` does.

# %%
def my_split(batch, dp):
    base, extra = divmod(batch, dp)
    sizes = [base + (rank < extra) for rank in range(dp)]
    starts = np.cumsum([0, *sizes])
    return [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]


shards = my_split(BATCH, DP)
print(f"{t('examples_per_rank')}:", " | ".join(n(s.stop - s.start) for s in shards))
assert tuple(shards) == split_batch(BATCH, DP)

# %% [markdown]
# ## The gradient every rank must agree on
#
# Each rank computes the mean gradient `g_r` of its own `b_r` examples. The tempting
# combination is the mean of the `g_r`, which is what dividing an all-reduced sum by the
# number of ranks gives. It is right only when every rank has the same number of examples.
# The right combination weighs each rank by its examples: `sum_r b_r g_r / B`. Compare both
# with the full-batch gradient:

# %%
local = [loss_and_grads(params, x[s], y[s]) for s in shards]
sizes = [s.stop - s.start for s in shards]
mean_of_means = np.mean([flatten(g) for _, g in local], axis=0)
weighted = sum(b * flatten(g) for b, (_, g) in zip(sizes, local)) / BATCH

errors = {"mean_of_means": np.abs(mean_of_means - full).max(),
          "weighted_sum": np.abs(weighted - full).max()}
table([t("combination"), t("max_abs_error")],
      [(t(k), format_scientific(v, LOCALE)) for k, v in errors.items()], [False, True])
np.testing.assert_allclose(weighted, full, rtol=1e-12, atol=1e-15)
assert errors["mean_of_means"] > 1e3 * errors["weighted_sum"]

# %% [markdown]
# The weighted sum differs from the full batch only by float round-off (the additions
# happen in another order); the plain mean is wrong by orders of magnitude more. Frameworks
# avoid the problem by giving every rank the same number of examples.
#
# ## The ring all-reduce
#
# The ranks must add up their vectors `b_r g_r` and each end with the sum. The ring
# algorithm does it without any rank receiving everything: cut each vector into as many
# chunks as there are ranks, and arrange the ranks in a ring where each sends only to the
# next one.
#
# - **Reduce-scatter**, one round fewer than there are ranks: in each round, every rank
#   passes one chunk to its neighbour, which adds it to its own copy. A chunk travels the
#   ring collecting one contribution per round, and arrives complete at its owner.
# - **All-gather**, as many rounds again: every rank forwards the complete chunk it got
#   last, until every rank has every complete chunk.
#
# Count the bytes each rank puts on the wire as you go.

# %%
def my_ring_all_reduce(vectors):
    ranks = len(vectors)
    chunks = [np.array_split(v.copy(), ranks) for v in vectors]  # chunks[rank][chunk]
    sent = [0] * ranks
    # reduce-scatter: in round s, rank r sends chunk (r - 1 - s) mod n to rank r + 1
    for s in range(ranks - 1):
        messages = [(r, (r - 1 - s) % ranks) for r in range(ranks)]
        pieces = [chunks[r][c].copy() for r, c in messages]  # every send reads the old state
        for (r, c), piece in zip(messages, pieces):
            chunks[(r + 1) % ranks][c] = chunks[(r + 1) % ranks][c] + piece
            sent[r] += piece.nbytes
    # now rank r holds the complete sum of chunk r
    # all-gather: in round s, rank r forwards chunk (r - s) mod n to rank r + 1
    for s in range(ranks - 1):
        messages = [(r, (r - s) % ranks) for r in range(ranks)]
        pieces = [chunks[r][c].copy() for r, c in messages]
        for (r, c), piece in zip(messages, pieces):
            chunks[(r + 1) % ranks][c] = piece
            sent[r] += piece.nbytes
    return [np.concatenate(c) for c in chunks], sent


contributions = [b * flatten(g) for b, (_, g) in zip(sizes, local)]  # DP x (P,)
mine, my_sent = my_ring_all_reduce(contributions)
library = ring_all_reduce(contributions)
for rank in range(DP):
    assert np.array_equal(mine[rank], library.outputs[rank])  # bit for bit
assert my_sent == list(library.sent_bytes)
np.testing.assert_allclose(mine[0] / BATCH, full, rtol=1e-12, atol=1e-15)
print(f"{t('sent_sim')}:", " | ".join(nbytes(b) for b in my_sent))
print(f"{t('sent_formula')}:", format_quantity(
    float(ring_bytes("all_reduce", full.nbytes, DP)), "bytes", LOCALE, digits=1))
assert sum(my_sent) == 2 * (DP - 1) * full.nbytes

# %% [markdown]
# Each rank sends `2 (n - 1) / n` times the buffer: close to twice the gradient as soon as
# there are more than a few ranks, and then almost independent of their number. In that
# sense the ring is bandwidth-optimal. Its latency is not: the buffer goes round in
# `2 (n - 1)` steps, each paying a message's start-up time, so the latency term grows with
# the number of ranks and dominates for small messages or very many ranks. That is why, at
# scale, NCCL switches to tree or NVLS algorithms, and large clusters use hierarchical ones
# (a ring inside each server, another between servers). The ranks send slightly different
# amounts here because the parameter count does not divide into equal chunks; the total over
# all ranks is exactly `2 (n - 1)` buffers. At the scale of a real model, with bf16
# gradients:

# %%
model = get_model("llama3-70b")
grad_bytes = model_states(model, precision="mixed").grads  # bf16: two bytes per parameter
rows = []
for ranks in (2, 8, 64, 1024):
    per_rank = 2 * (ranks - 1) * grad_bytes / ranks
    assert per_rank == ring_bytes("all_reduce", grad_bytes, ranks)
    rows.append((n(ranks), format_quantity(per_rank, "GB", LOCALE, digits=1),
                 n(per_rank / grad_bytes, 3)))
table([t("ranks"), f"{model.display_name}: {t('sent_rank')}", t("sent_ratio")], rows,
      [True, True, True])

# %% [markdown]
# ## One data-parallel step, against the library
#
# Put the pieces together: shard, compute each rank's `b_r g_r`, all-reduce, divide by the
# batch. The library's `data_parallel_grads` does the same and reports what it sent.

# %%
result = data_parallel_grads(params, x, y, dp=DP)
np.testing.assert_allclose(flatten(result.grads), mine[0] / BATCH, rtol=1e-12, atol=1e-15)
assert result.sent_bytes == tuple(my_sent) and result.all_reduces == 1
assert result.replicas_agree  # every rank applies the very same gradient
print(f"{t('all_reduces')}: {n(result.all_reduces)}")
print(f"{t('replicas_agree')}: {t('yes') if result.replicas_agree else t('no')}")

# %% [markdown]
# ## Gradient accumulation
#
# When a rank's share of the batch does not fit in memory at once, it processes it in `K`
# micro-batches. The naive way all-reduces after every micro-batch. But the all-reduce is a
# sum, and sums can wait: add the micro-batches' `b g` locally and all-reduce once at the
# end (PyTorch DDP's `no_sync`). Same gradient, `K` times fewer all-reduces and bytes.

# %%
K = 3
BIG = 24  # each rank gets six examples: three micro-batches of two
xb = rng.standard_normal((BIG, 6))
yb = rng.standard_normal((BIG, 3))
_, reference = loss_and_grads(params, xb, yb)


def my_accumulated(sync_every_microbatch):
    shards = my_split(BIG, DP)
    pending = [np.zeros(params.num_params) for _ in range(DP)]
    total, sent, all_reduces = np.zeros(params.num_params), [0] * DP, 0
    for micro in range(K):
        for rank, shard in enumerate(shards):
            part = my_split(shard.stop - shard.start, K)[micro]
            rows = slice(shard.start + part.start, shard.start + part.stop)
            _, g = loss_and_grads(params, xb[rows], yb[rows])
            pending[rank] += (part.stop - part.start) * flatten(g)  # no communication
        if sync_every_microbatch or micro == K - 1:
            reduced, bytes_sent = my_ring_all_reduce(pending)
            total += reduced[0]
            sent = [a + b for a, b in zip(sent, bytes_sent)]
            all_reduces += 1
            pending = [np.zeros(params.num_params) for _ in range(DP)]
    return total / BIG, sent, all_reduces


rows = []
for naive in (True, False):
    grads, sent, count = my_accumulated(naive)
    library = data_parallel_grads(params, xb, yb, dp=DP, num_microbatches=K,
                                  sync_every_microbatch=naive)
    assert (count, tuple(sent)) == (library.all_reduces, library.sent_bytes)
    np.testing.assert_allclose(grads, flatten(library.grads), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(grads, flatten(reference), rtol=1e-12, atol=1e-15)
    rows.append((t("every_micro" if naive else "accumulated"), n(count), nbytes(sent[0]),
                 format_scientific(np.abs(grads - flatten(reference)).max(), LOCALE)))
table(["", t("all_reduces"), t("sent_first_rank"), t("error_vs_full")], rows,
      [False, True, True, True])

# %% [markdown]
# ## ZeRO: stop keeping everything everywhere
#
# Plain data parallelism replicates the weights, the gradients and AdamW's two moments on
# every rank. ZeRO shards them over the ranks, one kind of state more at each stage:
#
# - **ZeRO-1** shards the optimizer state: each rank updates only its slice of the
#   weights, with its slice of the moments, then an all-gather brings back whole weights;
# - **ZeRO-2** also keeps only the reduced slice of the gradient (a reduce-scatter
#   replaces the all-reduce);
# - **ZeRO-3** (FSDP) shards the weights too, and gathers them just in time for the
#   forward and again for the backward.
#
# The parameters are flattened into one vector and padded with zeros to a multiple of the
# number of ranks, so that every rank owns an equal slice of `S` values. Write what one
# rank holds at each stage, in values, then compare with the library, which *measures*
# the arrays its simulated ranks keep after a few real AdamW steps:

# %%
P = params.num_params
S = -(-P // DP)  # the slice of each rank: ceil(P / DP)
ITEM = np.dtype(np.float64).itemsize


def my_zero_values(stage):
    """(weights, gradients, AdamW moments) values one rank holds at rest."""
    padded = DP * S
    if stage == 0:
        return P, P, 2 * P
    return (padded if stage < 3 else S, padded if stage < 2 else S, 2 * S)


batches = [(rng.standard_normal((8, 6)), rng.standard_normal((8, 3))) for _ in range(3)]
final, losses = train_single_device(params, batches, AdamW())
rows, sent_per_step = [], {}
for stage in range(4):
    run = train_zero(params, batches, dp=DP, stage=stage)
    np.testing.assert_allclose(run.losses, losses, rtol=1e-12)  # the same training
    np.testing.assert_allclose(flatten(run.params), flatten(final), rtol=1e-10, atol=1e-12)
    mine = [v * ITEM for v in my_zero_values(stage)]
    for rank in run.ranks:
        held = rank.memory
        assert mine == [held.weights, held.grads, held.optimizer], stage
    buffer = (P if stage == 0 else DP * S) * ITEM
    assert sum(run.sent_bytes[0]) == DP * zero_comm_bytes(buffer, DP, stage)
    sent_per_step[stage] = sum(run.sent_bytes[0])
    rows.append((f"ZeRO-{stage}", *(nbytes(v) for v in mine), nbytes(sum(mine)),
                 nbytes(sum(run.sent_bytes[0]) / DP)))
table([t("zero_stage"), t("weights_rank"), t("grads_rank"), t("optimizer_rank"),
       t("total"), t("sent_rank_step")], rows, [False] + [True] * 5)
print(f"{t('full_copy')}: {nbytes(sum(my_zero_values(0)) * ITEM / DP)}")
# what the text below says: stages one and two send what an all-reduce of the padded
# buffer sends; stage three half as much again
assert sent_per_step[1] == sent_per_step[2] == DP * ring_bytes("all_reduce", DP * S * ITEM, DP)
assert 2 * sent_per_step[3] == 3 * sent_per_step[2]

# %% [markdown]
# Every stage trains like one device: the same losses and final weights, to float
# round-off. What changes is what a rank holds, and what it sends. ZeRO-1 and ZeRO-2 send
# as much as plain data parallelism (a reduce-scatter plus an all-gather cost one
# all-reduce; the padding adds a little here); ZeRO-3 sends half as much again, for the
# second gathering of the weights. ZeRO-3's total per rank is
# the full copy divided by the number of ranks, plus the padding. The memory lab applies
# the same stages to Llama 3 70B.
#
# ## Your turn
#
# - Give the ranks unequal batches in `data_parallel_grads` and check that the weighted
#   combination still matches the full batch, while the plain mean does not.
# - Measure the bytes sent with `K` micro-batches for several values of `K`.
# - Change the model's hidden width so that ZeRO-3 needs no padding.
