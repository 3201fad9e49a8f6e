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

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
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

# %% [markdown] lang="fa"
# # آزمایشگاه: زمان‌بندی‌های خط لوله، GPipe و 1F1B
#
# موازی‌سازی خط لوله به هر GPU گروهی از لایه‌های پشت‌سرهم، یعنی یک *مرحله*، را می‌دهد و دسته را
# به ریزدسته‌هایی تقسیم می‌کند که یکی پس از دیگری از مرحله‌ها می‌گذرند. ترتیبی که هر مرحله
# گذرهای رو به جلو و رو به عقبش را با آن اجرا می‌کند *زمان‌بندی* نام دارد. زمان‌بندی دو چیز را
# تعیین می‌کند: مرحله‌ها چقدر منتظر یکدیگر می‌مانند (*حباب*) و هر مرحله باید فعال‌سازی‌های چند
# ریزدسته را هم‌زمان نگه دارد.
#
# در این آزمایشگاه دو زمان‌بندی، GPipe و 1F1B، را به شکل فهرست‌های ساده می‌نویسید، سپس یک
# شبیه‌ساز کوچک که جای هر عملیات را در زمان تعیین می‌کند، و هر دو کمیت را اندازه می‌گیرید. مثال
# اصلی همان مثال فصل زمان‌بندی‌های خط لوله است که در کد زیر تنظیم شده است. هر گام با یک
# `assert` در برابر کتابخانهٔ `distlesson` تمام می‌شود؛ سایت این نوت‌بوک را در هر بار ساخت اجرا
# می‌کند.

# %%
LOCALE = "en"

# %%
from fractions import Fraction

from IPython.display import HTML, Markdown, display

from distlesson.pages import pipeline as pipeline_chapter
from distlesson.pages.lab_labels import label
from distlesson.pipeline.bubble import bubble_fraction, bubble_over_ideal, peak_activations
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate
from distlesson.render.numbers import format_number, format_percent
from distlesson.site.captions import NotebookFigures
from distlesson.render.tables import Table, markdown_table


def t(key):
    #[en] The word for ``key`` in the notebook's language.
    #[ca] La paraula per a ``key`` en la llengua del quadern.
    #[fa] واژهٔ ``key`` به زبان نوت‌بوک.
    return label(key, LOCALE)


def table(headers, rows, numeric):
    #[en] Show a table of already formatted cells.
    #[ca] Mostra una taula de cel·les ja formatades.
    #[fa] جدولی را نمایش می‌دهد که خانه‌هایش از پیش قالب‌بندی شده‌اند.
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


def n(value, digits=0):
    return format_number(value, LOCALE, digits=digits)


def percent(fraction):
    return format_percent(float(fraction), LOCALE, digits=1)


#[en] stages, micro-batches
#[ca] etapes, microlots
#[fa] مرحله‌ها، ریزدسته‌ها
P, M = 4, 8
#[en] time of one micro-batch's forward and backward on one stage
#[ca] temps del forward i del backward d'un microlot en una etapa
#[fa] زمان گذر رو به جلو و گذر رو به عقب یک ریزدسته در یک مرحله
FWD, BWD = 1, 2

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
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

# %% [markdown] lang="fa"
# ## زمان‌بندی‌ها به شکل فهرست
#
# زمان‌بندی، داده است: برای هر مرحله، فهرست عملیاتی که آن مرحله به ترتیب اجرا می‌کند. هر عملیات
# یا گذر رو به جلوی (`F`) یک ریزدسته است یا گذر رو به عقب (`B`) آن.
#
# - **GPipe** همهٔ گذرهای رو به جلو را اجرا می‌کند و سپس همهٔ گذرهای رو به عقب را. اینجا
#   گذرهای رو به عقب از آخرین ریزدسته شروع می‌شوند، همان‌طور که مقالهٔ GPipe آن‌ها را رسم کرده
#   است؛ این ترتیب انتخابی آزاد است (`ScheduleGPipe` در PyTorch آن‌ها را به ترتیب ریزدسته‌ها
#   اجرا می‌کند)، چون گذرهای رو به عقب ریزدسته‌ها به یکدیگر وابسته نیستند، و زمان گام را تغییر
#   نمی‌دهد.
# - **1F1B** گذرهای رو به عقب را هر چه زودتر آغاز می‌کند: مرحلهٔ `s` ابتدا `P - s - 1` گذر رو به
#   جلوی گرم‌کردن (warm-up) اجرا می‌کند، سپس به نوبت یک گذر رو به جلو و یک گذر رو به عقب، و در
#   پایان گذرهای رو به عقبی را که هنوز مانده‌اند.
#
# هر دو را بنویسید و با جدول‌های عملیات کتابخانه مقایسه کنید.

# %%
def my_gpipe(p, m):
    row = [("F", i) for i in range(m)] + [("B", i) for i in reversed(range(m))]
    return [row] * p


def my_1f1b(p, m):
    rows = []
    for s in range(p):
        warmup = min(p - s - 1, m)
        #[en] warm-up: fill the pipeline
        #[ca] escalfament: s'omple el pipeline
        #[fa] گرم‌کردن: پر کردن خط لوله
        row = [("F", i) for i in range(warmup)]
        forwards = warmup
        #[en] steady state: one forward (while any is left), one backward
        #[ca] règim estable: un forward (mentre en quedin) i un backward
        #[fa] حالت پایدار: یک گذر رو به جلو (تا وقتی باقی مانده باشد) و یک گذر رو به عقب
        for b in range(m):
            if forwards < m:
                row.append(("F", forwards))
                forwards += 1
            row.append(("B", b))
        rows.append(row)
    return rows


MINE = {"gpipe": my_gpipe, "1f1b": my_1f1b}
for name, build in MINE.items():
    library = build_schedule(name, P, M)
    my_schedule = build(P, M)
    library_schedule = [[(op.kind, op.microbatch) for op in row] for row in library.stages]
    assert my_schedule == library_schedule, next(
        (f"{name=} [{s}]: {a} != {b}"
         for s, (a, b) in enumerate(zip(my_schedule, library_schedule)) if a != b),
        f"{name=}: {len(my_schedule)} != {len(library_schedule)}")


#[en] stages and micro-batches counted from one, as in the charts below; an operation's
#[en] name (F1, B1) is written like code, in Latin digits, in every language
#[ca] les etapes i els microlots es compten a partir d'u, com als gràfics de més avall; el
#[ca] nom d'una operació (F1, B1) s'escriu com el codi, amb xifres llatines, en tots els idiomes
#[fa] مرحله‌ها و ریزدسته‌ها از یک شمرده می‌شوند، مانند نمودارهای پایین؛
#[fa] نام هر عملیات (F1، B1) مثل کد و با رقم‌های لاتین نوشته می‌شود، در همهٔ زبان‌ها
def show(row):
    return "`" + " ".join(f"{kind}{i + 1}" for kind, i in row) + "`"


table([t("stage"), "1F1B"], [(n(s + 1), show(row)) for s, row in enumerate(my_1f1b(P, M))],
      [True, False])

# %% [markdown] lang="en"
# ## A simulator
#
# Each stage runs its list in order, one operation at a time, each as early as possible:
# when the stage is free *and* the operation it depends on has finished. A forward needs the
# same micro-batch's forward on the previous stage; a backward needs its backward on the
# next stage (on the last stage, its own forward). Communication is taken as instantaneous.
# Sweep over the stages until every operation is placed:

# %% [markdown] lang="ca"
# ## Un simulador
#
# Cada etapa executa la seva llista en ordre, una operació cada vegada, i cadascuna tan aviat
# com pot: quan l'etapa està lliure *i* ha acabat l'operació de la qual depèn. Un forward
# necessita el forward del mateix microlot a l'etapa anterior; un backward necessita el
# backward del mateix microlot a l'etapa següent (a l'última etapa, el seu propi forward). Es
# considera que la comunicació és instantània. Recorreu les etapes tantes vegades com calgui,
# fins que s'hagin col·locat totes les operacions:

# %% [markdown] lang="fa"
# ## یک شبیه‌ساز
#
# هر مرحله فهرستش را به ترتیب اجرا می‌کند، هر بار یک عملیات، و هر عملیات را در زودترین زمان
# ممکن: وقتی مرحله آزاد است *و* عملیاتی که به آن وابسته است تمام شده است. هر گذر رو به جلو به
# گذر رو به جلوی همان ریزدسته در مرحلهٔ قبلی نیاز دارد؛ هر گذر رو به عقب به گذر رو به عقب همان
# ریزدسته در مرحلهٔ بعدی (و در مرحلهٔ آخر، به گذر رو به جلوی خودش). ارتباطات آنی فرض می‌شود.
# آن‌قدر مرحله‌ها را پیمایش کنید تا جای همهٔ عملیات مشخص شود:

# %%
def my_simulate(rows, fwd=FWD, bwd=BWD):
    p, cost = len(rows), {"F": fwd, "B": bwd}
    #[en] (kind, micro-batch, stage) -> when it finished
    #[ca] (tipus, microlot, etapa) -> quan ha acabat
    #[fa] (نوع، ریزدسته، مرحله) -> زمان پایان
    end = {}
    starts = [[] for _ in rows]
    #[en] when each stage is next free
    #[ca] quan torna a quedar lliure cada etapa
    #[fa] زمانی که هر مرحله دوباره آزاد می‌شود
    free = [0] * p
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
                    #[en] wait for another stage
                    #[ca] cal esperar una altra etapa
                    #[fa] باید منتظر مرحله‌ای دیگر ماند
                    break
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
    #[en] Per stage, the most micro-batches whose forward ran and whose backward has not.
    #[ca] Per a cada etapa, el màxim de microlots que ja han fet el forward però encara no el
    #[ca] backward.
    #[fa] برای هر مرحله، بیشترین تعداد ریزدسته‌هایی که گذر رو به جلویشان اجرا شده
    #[fa] ولی گذر رو به عقبشان نه.
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
    assert starts == library_starts and makespan == timeline.makespan, next(
        (f"{name=} [{s}]: {a} != {b}"
         for s, (a, b) in enumerate(zip(starts, library_starts)) if a != b),
        f"{name=}: {(len(starts), makespan)} != {(len(library_starts), timeline.makespan)}")
    library_bubble = bubble_fraction(name, P, M)
    assert bubble == timeline.bubble_fraction == library_bubble, (
        f"{name=}: {bubble} != {timeline.bubble_fraction} "
        f"or {timeline.bubble_fraction} != {library_bubble}")
    peaks = my_peaks(schedule)
    library_peaks = peak_activations(name, P, M)
    assert tuple(peaks) == timeline.peak_activations == library_peaks, (
        f"{name=}: {tuple(peaks)} != {timeline.peak_activations} "
        f"or {timeline.peak_activations} != {library_peaks}")
    rows.append((t(name), n(makespan), n(makespan - timeline.busy[0]), percent(bubble),
                 " | ".join(n(p) for p in peaks)))
table([t("schedule"), t("makespan"), t("idle_per_stage"), t("bubble_yours"), t("peak")],
      rows, [False, True, True, True, False])
#[en] what the text below says: the same step, and 1F1B's first stage holds one micro-batch
#[en] per stage, its last stage one
#[ca] el que diu el text de sota: la mateixa durada del pas, i la primera etapa d'1F1B
#[ca] conserva un microlot per etapa, i l'última, un de sol
#[fa] آنچه متن زیر می‌گوید: زمان گام یکسان است، و مرحلهٔ اول 1F1B به تعداد مرحله‌ها
#[fa] ریزدسته نگه می‌دارد و مرحلهٔ آخرش فقط یکی
assert my_simulate(my_gpipe(P, M))[1] == my_simulate(my_1f1b(P, M))[1], (
    f"{my_simulate(my_gpipe(P, M))[1]} != {my_simulate(my_1f1b(P, M))[1]}")
assert my_peaks(my_1f1b(P, M)) == [P - s for s in range(P)], (
    f"{my_peaks(my_1f1b(P, M))} != {[P - s for s in range(P)]}")

# %% [markdown] lang="en"
# Both schedules take the same time: the same fill at the start and drain at the end, so
# the same bubble. What 1F1B changes is memory. GPipe runs every forward before any
# backward, so every stage holds the activations of all the micro-batches at once; 1F1B
# frees a micro-batch's activations at its backward, so the first stage holds as many as
# there are stages and the last only one.
#
# The library draws the same two runs (its chapter on pipeline schedules shows them too):

# %% [markdown] lang="ca"
# Totes dues planificacions triguen el mateix: el mateix ompliment al principi i el mateix
# buidatge al final, i per tant la mateixa bombolla. El que canvia amb 1F1B és la memòria.
# GPipe executa tots els forwards abans de cap backward, de manera que cada etapa conserva
# alhora les activacions de tots els microlots; 1F1B allibera les activacions d'un microlot
# quan en fa el backward, de manera que la primera etapa en conserva tants com etapes hi ha, i
# l'última, només un.
#
# La biblioteca dibuixa aquestes mateixes dues execucions (el seu capítol sobre planificacions
# del pipeline també les mostra):

# %% [markdown] lang="fa"
# هر دو زمان‌بندی به یک اندازه طول می‌کشند: پر شدن یکسان در آغاز و خالی شدن یکسان در پایان، پس
# حباب یکسان. آنچه 1F1B تغییر می‌دهد حافظه است. GPipe همهٔ گذرهای رو به جلو را پیش از هر گذر رو
# به عقبی اجرا می‌کند، پس هر مرحله فعال‌سازی‌های همهٔ ریزدسته‌ها را هم‌زمان نگه می‌دارد؛ 1F1B
# فعال‌سازی‌های هر ریزدسته را در گذر رو به عقب همان ریزدسته آزاد می‌کند، پس مرحلهٔ اول به تعداد
# مرحله‌ها ریزدسته نگه می‌دارد و مرحلهٔ آخر فقط یکی.
#
# کتابخانه همین دو اجرا را رسم می‌کند (فصل زمان‌بندی‌های خط لوله هم آن‌ها را نشان می‌دهد):

# %%
assert pipeline_chapter.EXAMPLE == (P, M), f"{pipeline_chapter.EXAMPLE} != {(P, M)}"
assert (pipeline_chapter.DURATIONS.fwd, pipeline_chapter.DURATIONS.bwd) == (FWD, BWD), (
    f"{(pipeline_chapter.DURATIONS.fwd, pipeline_chapter.DURATIONS.bwd)} != {(FWD, BWD)}")
figures = NotebookFigures(LOCALE)
for name in MINE:
    display(HTML(figures.figure(pipeline_chapter.gantt(name, LOCALE), name=f"lab-{name}",
                                caption=label(f"fig_{name}", LOCALE))))

# %% [markdown] lang="en"
# ## The bubble against the number of micro-batches
#
# The fill and the drain take `P - 1` slots of forward and backward on every stage,
# whatever the number of micro-batches `M`; the useful work grows with `M`. So the idle
# share of the step is `(P - 1) / (M + P - 1)`, and more micro-batches shrink it. Run your
# simulator for several `M` and compare it with that closed form and with a second ratio
# often quoted as "the bubble": the bubble time over the *ideal* time, `(P - 1) / M`. The
# two differ, and sources mix them up.

# %% [markdown] lang="ca"
# ## La bombolla segons el nombre de microlots
#
# L'ompliment i el buidatge ocupen `P - 1` franges de forward i de backward a cada etapa, sigui
# quin sigui el nombre de microlots `M`, mentre que la feina útil creix amb `M`. Així doncs, la
# fracció inactiva del pas és `(P - 1) / (M + P - 1)`, i com més microlots, més petita és.
# Executeu el vostre simulador per a diversos valors de `M` i compareu-lo amb aquesta fórmula
# tancada i amb una segona ràtio que sovint es presenta com «la bombolla»: el temps de la
# bombolla dividit pel temps *ideal*, `(P - 1) / M`. Les dues ràtios són diferents, i les
# fonts les confonen.

# %% [markdown] lang="fa"
# ## حباب در برابر تعداد ریزدسته‌ها
#
# پر و خالی شدن خط لوله، هر تعداد ریزدسته (`M`) که داشته باشیم، در هر مرحله `P - 1` بازهٔ
# رو به جلو و رو به عقب طول می‌کشد؛ اما کار مفید با `M` زیاد می‌شود. پس سهم بیکاری از گام
# `(P - 1) / (M + P - 1)` است و ریزدسته‌های بیشتر آن را کوچک می‌کنند. شبیه‌سازتان را برای چند
# مقدار `M` اجرا کنید و با این فرمول بسته مقایسه کنید، و نیز با نسبت دومی که اغلب با نام «حباب»
# نقل می‌شود: زمان حباب تقسیم بر زمان *ایده‌آل*، یعنی `(P - 1) / M`. این دو با هم فرق دارند، و
# منابع آن‌ها را با هم اشتباه می‌گیرند.

# %%
rows = []
for m in (1, 2, 4, 8, 16, 32):
    _, _, mine = my_simulate(my_1f1b(P, m))
    closed = Fraction(P - 1, m + P - 1)
    library_bubble = bubble_fraction("1f1b", P, m)
    assert mine == closed == library_bubble, (
        f"{m=}: {mine} != {closed} or {closed} != {library_bubble}")
    assert my_simulate(my_gpipe(P, m))[2] == mine, (
        f"{m=}: {my_simulate(my_gpipe(P, m))[2]} != {mine}")
    over_ideal = Fraction(P - 1, m)
    assert over_ideal == bubble_over_ideal(P, m), f"{m=}: {over_ideal} != {bubble_over_ideal(P, m)}"
    rows.append((n(m), percent(mine), percent(closed), percent(over_ideal)))
table([t("microbatches"), t("bubble_yours"), t("bubble_formula"), t("over_ideal")], rows,
      [True, True, True, True])

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
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

# %% [markdown] lang="fa"
# با یک ریزدستهٔ تنها، در هر لحظه فقط یک مرحله کار می‌کند: سهم بیکاری برابر است با کل گام منهای
# سهم یک مرحله. با ریزدسته‌های زیاد، این دو نسبت به هم و به صفر نزدیک می‌شوند. اما هر ریزدستهٔ اضافه
# ریزدسته‌ها را کوچک‌تر می‌کند (برای دسته‌ای با اندازهٔ ثابت)، و همین هر ضرب ماتریسی را
# کم‌بازده‌تر می‌کند: تعداد ریزدسته‌ها یک بده‌بستان است، نه انتخابی بی‌هزینه.
#
# ## نوبت شما
#
# - به گذر رو به عقب هزینهٔ دیگری بدهید (`BWD = 3`) و بررسی کنید که فرمول حباب همچنان برقرار
#   است. چرا به مدت زمان عملیات بستگی ندارد؟
# - زمان‌بندی 1F1B درهم‌تنیده را بنویسید، که در آن هر مرحله چند تکه از مدل را نگه می‌دارد، و آن
#   را با `build_schedule("interleaved", P, M, chunks=2)` مقایسه کنید.
# - برای هشت مرحله، کمترین تعداد ریزدسته‌هایی را پیدا کنید که سهم بیکاری را به کمتر از یک‌دهم
#   می‌رسانند.
