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
# # Laboratori: planificacions del pipeline, GPipe i 1F1B
#
# El paral·lelisme de pipeline assigna a cada GPU un grup de capes consecutives, una *etapa*,
# i talla el lot en microlots que travessen les etapes. L'ordre en què cada etapa executa els
# seus forwards i backwards és la *planificació*, i en decideix dues coses: quant de temps
# s'esperen les etapes les unes a les altres (la *bombolla*) i de quants microlots ha de
# conservar alhora les activacions cada etapa.
#
# En aquest laboratori escriureu dues planificacions, GPipe i 1F1B, com a simples llistes, i
# després un petit simulador que situa cada operació en el temps, i mesurareu totes dues
# magnituds. L'exemple que us acompanyarà és el del capítol sobre planificacions del
# pipeline, i es fixa al codi de més avall. Cada pas acaba amb un `assert` que el contrasta
# amb la biblioteca `distlesson`; el lloc web executa aquest quadern cada vegada que es
# genera.

# %%
LOCALE = "ca"

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
# ## Planificacions com a llistes
#
# Una planificació són dades: per a cada etapa, la llista ordenada de les operacions que
# executa. Una operació és un forward `F` o un backward `B` d'un microlot.
#
# - **GPipe** executa tots els forwards i després tots els backwards. Aquí els backwards
#   comencen per l'últim microlot, tal com els dibuixa l'article de GPipe; aquest ordre és una
#   elecció lliure (el `ScheduleGPipe` de PyTorch els executa en l'ordre dels microlots),
#   perquè els backwards dels microlots no depenen els uns dels altres, i no canvia el temps
#   del pas.
# - **1F1B** comença els backwards tan aviat com pot: l'etapa `s` executa `P - s - 1`
#   forwards d'escalfament, després alterna un forward i un backward, i acaba amb els
#   backwards que encara li queden pendents.
#
# Escriviu totes dues i compareu-les amb les taules d'operacions de la biblioteca.

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
# ## Un simulador
#
# Cada etapa executa la seva llista en ordre, una operació cada vegada, i cadascuna tan aviat
# com pot: quan l'etapa està lliure *i* ha acabat l'operació de la qual depèn. Un forward
# necessita el forward del mateix microlot a l'etapa anterior; un backward necessita el
# backward del mateix microlot a l'etapa següent (a l'última etapa, el seu propi forward). Es
# considera que la comunicació és instantània. Recorreu les etapes tantes vegades com calgui,
# fins que s'hagin col·locat totes les operacions:

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
# Totes dues planificacions triguen el mateix: el mateix ompliment al principi i el mateix
# buidatge al final, i per tant la mateixa bombolla. El que canvia amb 1F1B és la memòria.
# GPipe executa tots els forwards abans de cap backward, de manera que cada etapa conserva
# alhora les activacions de tots els microlots; 1F1B allibera les activacions d'un microlot
# quan en fa el backward, de manera que la primera etapa en conserva tants com etapes hi ha, i
# l'última, només un.
#
# La biblioteca dibuixa aquestes mateixes dues execucions (el seu capítol sobre planificacions
# del pipeline també les mostra):

# %%
assert pipeline_chapter.EXAMPLE == (P, M)
assert (pipeline_chapter.DURATIONS.fwd, pipeline_chapter.DURATIONS.bwd) == (FWD, BWD)
for name in MINE:
    display(HTML(pipeline_chapter.gantt(name, LOCALE)))

# %% [markdown]
# ## La bombolla segons el nombre de microlots
#
# L'ompliment i el buidatge ocupen `P - 1` franges de forward i de backward a cada etapa, sigui
# quin sigui el nombre de microlots `M`, mentre que la feina útil creix amb `M`. Així doncs, la
# fracció inactiva del pas és `(P - 1) / (M + P - 1)`, i com més microlots, més petita és.
# Executeu el vostre simulador per a diversos valors de `M` i compareu-lo amb aquesta fórmula
# tancada i amb una segona ràtio que sovint es presenta com «la bombolla»: el temps de la
# bombolla dividit pel temps *ideal*, `(P - 1) / M`. Les dues ràtios són diferents, i les
# fonts les confonen.

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
# Amb un sol microlot, només treballa una etapa cada vegada: la fracció inactiva és tot el pas
# llevat de la part que correspon a una sola etapa. Amb molts microlots, totes dues ràtios s'acosten l'una a
# l'altra, i a zero. Però cada microlot addicional fa que els microlots siguin més petits (amb
# un lot fix), i això fa que cada producte de matrius sigui menys eficient: el nombre de
# microlots és un compromís, i res no surt de franc.
#
# ## Ara us toca a vosaltres
#
# - Doneu al backward un cost diferent (`BWD = 3`) i comproveu que la fórmula de la bombolla
#   continua sent vàlida. Per què no depèn de les durades?
# - Escriviu la planificació 1F1B intercalada, en què cada etapa té diversos trossos del
#   model, i compareu-la amb `build_schedule("interleaved", P, M, chunks=2)`.
# - Per a vuit etapes, trobeu el mínim de microlots que fa baixar la fracció inactiva per
#   sota d'una desena part del pas.
