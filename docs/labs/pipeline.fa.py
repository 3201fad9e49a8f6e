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
LOCALE = "fa"

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
#   پایان گذرهای رو به عقبی را که هنوز مانده است.
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
# ## یک شبیه‌ساز
#
# هر مرحله فهرستش را به ترتیب اجرا می‌کند، هر بار یک عملیات، و هر عملیات را در زودترین زمان
# ممکن: وقتی مرحله آزاد است *و* عملیاتی که به آن وابسته است تمام شده است. هر گذر رو به جلو به
# گذر رو به جلوی همان ریزدسته در مرحلهٔ قبلی نیاز دارد؛ هر گذر رو به عقب به گذر رو به عقب همان
# ریزدسته در مرحلهٔ بعدی (و در مرحلهٔ آخر، به گذر رو به جلوی خودش). ارتباطات آنی فرض می‌شود.
# آن‌قدر روی مرحله‌ها بچرخید تا جای همهٔ عملیات مشخص شود:

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
# هر دو زمان‌بندی به یک اندازه طول می‌کشند: پر شدن یکسان در آغاز و خالی شدن یکسان در پایان، پس
# حباب یکسان. آنچه 1F1B تغییر می‌دهد حافظه است. GPipe همهٔ گذرهای رو به جلو را پیش از هر گذر رو
# به عقبی اجرا می‌کند، پس هر مرحله فعال‌سازی‌های همهٔ ریزدسته‌ها را هم‌زمان نگه می‌دارد؛ 1F1B
# فعال‌سازی‌های هر ریزدسته را در گذر رو به عقب همان ریزدسته آزاد می‌کند، پس مرحلهٔ اول به تعداد
# مرحله‌ها ریزدسته نگه می‌دارد و مرحلهٔ آخر فقط یکی.
#
# کتابخانه همین دو اجرا را رسم می‌کند (فصل زمان‌بندی‌های خط لوله هم آن‌ها را نشان می‌دهد):

# %%
assert pipeline_chapter.EXAMPLE == (P, M)
assert (pipeline_chapter.DURATIONS.fwd, pipeline_chapter.DURATIONS.bwd) == (FWD, BWD)
for name in MINE:
    display(HTML(pipeline_chapter.gantt(name, LOCALE)))

# %% [markdown]
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
    assert mine == closed == bubble_fraction("1f1b", P, m)
    assert my_simulate(my_gpipe(P, m))[2] == mine
    over_ideal = Fraction(P - 1, m)
    assert over_ideal == bubble_over_ideal(P, m)
    rows.append((n(m), percent(mine), percent(closed), percent(over_ideal)))
table([t("microbatches"), t("bubble_yours"), t("bubble_formula"), t("over_ideal")], rows,
      [True, True, True, True])

# %% [markdown]
# با یک ریزدستهٔ تنها، در هر لحظه فقط یک مرحله کار می‌کند: سهم بیکاری کل گام است منهای سهم یک
# مرحله. با ریزدسته‌های زیاد، این دو نسبت به هم و به صفر نزدیک می‌شوند. اما هر ریزدستهٔ اضافه
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
