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
# # Lab: pipeline schedules, GPipe and 1F1B
#
# Pipeline parallelism gives each GPU a consecutive group of layers, a *stage*, and cuts the
# batch into micro-batches that flow through the stages. The order in which each stage runs
# its forwards and backwards is the *schedule*. It decides two things: how long the stages
# wait for each other (the *bubble*) and how many micro-batches' activations each stage
# must keep at once.
#
# In this lab you write two schedules as plain lists, GPipe and 1F1B, then a small
# simulator that places every operation in time, and you measure both quantities. The
# running example is the one of the chapter on pipeline schedules, set in the code below.
# Each step ends with an `assert` against the `distlesson` library; the site runs this
# notebook at every build.

# %%
LOCALE = "en"

# %%
from fractions import Fraction

from IPython.display import HTML, Markdown, display

from distlesson.pipeline.bubble import bubble_fraction, bubble_over_ideal, peak_activations
from distlesson.pages import pipeline as pipeline_chapter
from distlesson.pages.lab_labels import label
from distlesson.pipeline.simulator import Durations, simulate
from distlesson.render.numbers import format_number, format_percent
from distlesson.render.tables import Table, markdown_table
from distlesson.pipeline.schedules import build_schedule


def t(key):
    """The word for ``key`` in the notebook's language."""
    return label(key, LOCALE)


def table(headers, rows, numeric):
    """Show a table of already formatted cells."""
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


def n(value, digits=0):
    return format_number(value, LOCALE, digits=digits)


def percent(fraction):
    return format_percent(float(fraction), LOCALE, digits=1)


P, M = 4, 8  # stages, micro-batches
FWD, BWD = 1, 2  # time of one micro-batch's forward and backward on one stage

# %% [markdown]
# ## Schedules as lists
#
# A schedule is data: for each stage, the list of operations it runs, in order. An
# operation is a forward `F` or a backward `B` of one micro-batch.
#
# - **GPipe** runs every forward, then every backward. Here the backwards start with the
#   last micro-batch, as the GPipe paper draws them; that order is a free choice (PyTorch's
#   `ScheduleGPipe` runs them in micro-batch order), since the micro-batches' backwards do
#   not depend on one another, and it does not change the step time.
# - **1F1B** starts the backwards as soon as it can: stage `s` runs `P - s - 1` warm-up
#   forwards, then alternates one forward and one backward, and finishes with the
#   backwards it still owes.
#
# Write both, and compare them with the library's tables of operations.

# %%
def my_gpipe(p, m):
    row = [("F", i) for i in range(m)] + [("B", i) for i in reversed(range(m))]
    return [row] * p


def my_1f1b(p, m):
    rows = []
    for s in range(p):
        warmup = min(p - s - 1, m)
        row = [("F", i) for i in range(warmup)]  # warm-up: fill the pipeline
        forwards = warmup
        for b in range(m):  # steady state: one forward (while any is left), one backward
            if forwards < m:
                row.append(("F", forwards))
                forwards += 1
            row.append(("B", b))
        rows.append(row)
    return rows


MINE = {"gpipe": my_gpipe, "1f1b": my_1f1b}
for name, build in MINE.items():
    library = build_schedule(name, P, M)
    assert build(P, M) == [[(op.kind, op.microbatch) for op in row] for row in library.stages]


def show(row):  # stages and micro-batches counted from one, as in the charts below
    return " ".join(f"{kind}{n(i + 1)}" for kind, i in row)


table([t("stage"), "1F1B"], [(n(s + 1), show(row)) for s, row in enumerate(my_1f1b(P, M))],
      [True, False])

# %% [markdown]
# ## A simulator
#
# Each stage runs its list in order, one operation at a time, each as early as possible:
# when the stage is free *and* the operation it depends on has finished. A forward needs the
# same micro-batch's forward on the previous stage; a backward needs its backward on the
# next stage (on the last stage, its own forward). Communication is taken as instantaneous.
# Sweep over the stages until every operation is placed:

# %%
def my_simulate(rows, fwd=FWD, bwd=BWD):
    p, cost = len(rows), {"F": fwd, "B": bwd}
    end = {}  # (kind, micro-batch, stage) -> when it finished
    starts = [[] for _ in rows]
    free = [0] * p  # when each stage is next free
    placed = True
    while placed:
        placed = False
        for s, row in enumerate(rows):
            while len(starts[s]) < len(row):
                kind, i = row[len(starts[s])]
                if kind == "F":
                    needs = ("F", i, s - 1) if s > 0 else None
                else:
                    needs = ("B", i, s + 1) if s < p - 1 else ("F", i, s)
                if needs is not None and needs not in end:
                    break  # wait for another stage
                begin = max(free[s], end[needs] if needs else 0)
                starts[s].append(begin)
                free[s] = end[(kind, i, s)] = begin + cost[kind]
                placed = True
    assert all(len(st) == len(row) for st, row in zip(starts, rows)), "deadlock"
    makespan = max(free)
    busy = [sum(cost[kind] for kind, _ in row) for row in rows]
    bubble = Fraction(sum(makespan - b for b in busy), p * makespan)
    return starts, makespan, bubble


def my_peaks(rows):
    """Per stage, the most micro-batches whose forward ran and whose backward has not."""
    peaks = []
    for row in rows:
        held = peak = 0
        for kind, _ in row:
            held += 1 if kind == "F" else -1
            peak = max(peak, held)
        peaks.append(peak)
    return peaks


rows = []
for name, build in MINE.items():
    schedule = build(P, M)
    starts, makespan, bubble = my_simulate(schedule)
    timeline = simulate(build_schedule(name, P, M), Durations(fwd=FWD, bwd=BWD))
    library_starts = [[slot.start for slot in timeline.slots if slot.stage == s]
                      for s in range(P)]
    assert starts == library_starts and makespan == timeline.makespan
    assert bubble == timeline.bubble_fraction == bubble_fraction(name, P, M)
    peaks = my_peaks(schedule)
    assert tuple(peaks) == timeline.peak_activations == peak_activations(name, P, M)
    rows.append((t(name), n(makespan), n(makespan - timeline.busy[0]), percent(bubble),
                 " | ".join(n(p) for p in peaks)))
table([t("schedule"), t("makespan"), t("idle_per_stage"), t("bubble_yours"), t("peak")],
      rows, [False, True, True, True, False])
# what the text below says: the same step, and 1F1B's first stage holds one micro-batch
# per stage, its last stage one
assert my_simulate(my_gpipe(P, M))[1] == my_simulate(my_1f1b(P, M))[1]
assert my_peaks(my_1f1b(P, M)) == [P - s for s in range(P)]

# %% [markdown]
# Both schedules take the same time: the same fill at the start and drain at the end, so
# the same bubble. What 1F1B changes is memory. GPipe runs every forward before any
# backward, so every stage holds the activations of all the micro-batches at once; 1F1B
# frees a micro-batch's activations at its backward, so the first stage holds as many as
# there are stages and the last only one.
#
# The library draws the same two runs (its chapter on pipeline schedules shows them too):

# %%
assert pipeline_chapter.EXAMPLE == (P, M)
assert (pipeline_chapter.DURATIONS.fwd, pipeline_chapter.DURATIONS.bwd) == (FWD, BWD)
for name in MINE:
    display(HTML(pipeline_chapter.gantt(name, LOCALE)))

# %% [markdown]
# ## The bubble against the number of micro-batches
#
# The fill and the drain take `P - 1` slots of forward and backward on every stage,
# whatever the number of micro-batches `M`; the useful work grows with `M`. So the idle
# share of the step is `(P - 1) / (M + P - 1)`, and more micro-batches shrink it. Run your
# simulator for several `M` and compare it with that closed form and with a second ratio
# often quoted as "the bubble": the bubble time over the *ideal* time, `(P - 1) / M`. The
# two differ, and sources mix them up.

# %%
rows = []
for m in (1, 2, 4, 8, 16, 32):
    _, _, mine = my_simulate(my_1f1b(P, m))
    closed = Fraction(P - 1, m + P - 1)
    assert mine == closed == bubble_fraction("1f1b", P, m)
    assert my_simulate(my_gpipe(P, m))[2] == mine
    over_ideal = Fraction(P - 1, m)
    assert over_ideal == bubble_over_ideal(P, m)
    rows.append((n(m), percent(mine), percent(closed), percent(over_ideal)))
table([t("microbatches"), t("bubble_yours"), t("bubble_formula"), t("over_ideal")], rows,
      [True, True, True, True])

# %% [markdown]
# With a single micro-batch, only one stage works at a time: the idle share is all but one
# stage's worth. With many, the two ratios approach each other, and zero. But each extra
# micro-batch makes micro-batches smaller (for a fixed batch), which makes each matrix
# product less efficient: the number of micro-batches is a trade-off, not a free lunch.
#
# ## Your turn
#
# - Give the backward a different cost (`BWD = 3`) and check that the bubble formula
#   still holds. Why does it not depend on the durations?
# - Write the interleaved 1F1B schedule, where each stage holds several model chunks, and
#   compare it with `build_schedule("interleaved", P, M, chunks=2)`.
# - For eight stages, find the fewest micro-batches that bring the idle share below a
#   tenth.
