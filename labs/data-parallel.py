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

# %% [markdown] lang="ca"
# # Laboratori: paral·lelisme de dades, dels fragments a ZeRO
#
# El paral·lelisme de dades dona a cada GPU una còpia completa del model i una porció del lot.
# Cada GPU calcula el gradient de la seva porció; després, les GPU es posen d'acord en un sol
# gradient, el que hauria donat el lot sencer, i totes apliquen la mateixa actualització. En
# aquest laboratori simulareu les GPU (els «rangs») com a llistes de Python d'arrays de numpy
# i construireu, peça a peça:
#
# - la divisió d'un lot en fragments, fins i tot quan el lot no es divideix a parts iguals;
# - la combinació dels gradients dels rangs que dona exactament el gradient del lot sencer;
# - l'all-reduce en anell que la calcula, amb els bytes que envia cada rang;
# - l'acumulació de gradients, que envia el mateix gradient menys vegades;
# - les etapes de ZeRO, que eviten que cada rang hagi de guardar tots els estats.
#
# Després de cada peça, un `assert` compara la vostra versió amb la de la biblioteca
# `distlesson`. El lloc web executa aquest quadern cada vegada que es genera: qualsevol
# divergència entre totes dues fa fallar la generació.

# %% [markdown] lang="fa"
# # آزمایشگاه: موازی‌سازی داده، از شاردها تا ZeRO
#
# موازی‌سازی داده به هر GPU یک نسخهٔ کامل از مدل و برشی از دسته می‌دهد. هر GPU گرادیان برش خودش
# را حساب می‌کند؛ سپس GPUها بر سر یک گرادیان توافق می‌کنند، همان گرادیانی که کل دسته به دست
# می‌داد، و همه به‌روزرسانی یکسانی را اعمال می‌کنند. در این آزمایشگاه GPUها («رنک‌ها») را به شکل
# فهرست‌هایی پایتونی از آرایه‌های numpy شبیه‌سازی می‌کنید و این اجزا را یکی‌یکی می‌سازید:
#
# - تقسیم دسته به شاردها، حتی وقتی دسته به‌طور مساوی تقسیم نمی‌شود؛
# - ترکیبی از گرادیان‌های رنک‌ها که با گرادیان کل دسته برابر است؛
# - all-reduce حلقوی‌ای که این ترکیب را حساب می‌کند، همراه با بایت‌هایی که هر رنک می‌فرستد؛
# - انباشت گرادیان، که همان گرادیان را به دفعات کمتر می‌فرستد؛
# - مرحله‌های ZeRO، که در آن‌ها دیگر هر رنک همهٔ حالت‌ها را نگه نمی‌دارد.
#
# پس از هر جزء، یک `assert` نسخهٔ شما را با کتابخانهٔ `distlesson` مقایسه می‌کند. سایت این
# نوت‌بوک را در هر بار ساخت اجرا می‌کند: هر ناهم‌خوانی میان این دو ساخت سایت را با خطا متوقف می‌کند.

# %%
LOCALE = "en"

# %%
import numpy as np
from IPython.display import Markdown, display

from distlesson.catalog.models import get_model
from distlesson.memory.states import model_states
from distlesson.pages.lab_labels import label
from distlesson.parallel.collectives import ring_all_reduce, ring_bytes
from distlesson.parallel.data import data_parallel_grads, split_batch
from distlesson.parallel.toy_mlp import AdamW, flatten, init_mlp, loss_and_grads, train_single_device
from distlesson.parallel.zero import train_zero, zero_comm_bytes
from distlesson.render.numbers import format_number, format_quantity, format_scientific
from distlesson.render.tables import Table, markdown_table


def table(headers, rows, numeric):
    #[en] Show a table of already formatted cells.
    #[ca] Mostra una taula de cel·les ja formatades.
    #[fa] جدولی را نمایش می‌دهد که خانه‌هایش از پیش قالب‌بندی شده‌اند.
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


def t(key):
    #[en] The word for ``key`` in the notebook's language.
    #[ca] La paraula per a ``key`` en la llengua del quadern.
    #[fa] واژهٔ ``key`` به زبان نوت‌بوک.
    return label(key, LOCALE)


def n(value, digits=0):
    return format_number(value, LOCALE, digits=digits)


def nbytes(value):
    return format_quantity(value, "bytes", LOCALE)


# %% [markdown] lang="en"
# ## The model and one batch
#
# The model is the library's small two-layer MLP, written in numpy with its backward by hand
# (`distlesson.parallel.toy_mlp`). Its loss is half the squared error summed over the outputs,
# averaged over the examples. The model's size does not matter here: what matters is that
# the loss is a *mean over the examples of the batch*. The batch size is chosen so that it
# does not divide evenly over the ranks.

# %% [markdown] lang="ca"
# ## El model i un lot
#
# El model és el petit MLP de dues capes de la biblioteca, escrit en numpy i amb el backward
# fet a mà (`distlesson.parallel.toy_mlp`). La seva pèrdua és la meitat de l'error quadràtic
# sumat sobre les sortides, i se'n fa la mitjana sobre els exemples. La mida del model aquí
# no importa: el que importa és que la pèrdua és una *mitjana sobre els exemples del lot*.
# La mida del lot s'ha triat expressament perquè no es pugui repartir a parts iguals entre
# els rangs.

# %% [markdown] lang="fa"
# ## مدل و یک دسته
#
# مدل همان MLP کوچک دولایهٔ کتابخانه است که با numpy نوشته شده و گذر رو به عقبش دستی پیاده
# شده است (`distlesson.parallel.toy_mlp`). تابع زیان آن نصفِ مجموع مربع خطا روی خروجی‌هاست که روی
# نمونه‌ها میانگین گرفته می‌شود. اندازهٔ مدل اینجا اهمیتی ندارد: آنچه مهم است این است که
# تابع زیان *میانگینی روی نمونه‌های دسته* است. اندازهٔ دسته عمداً طوری انتخاب شده که به‌طور
# مساوی میان رنک‌ها تقسیم نشود.

# %%
#[en] simulated ranks
#[ca] rangs simulats
#[fa] رنک‌های شبیه‌سازی‌شده
DP = 4
#[en] examples: not a multiple of DP on purpose
#[ca] exemples: expressament no és múltiple de DP
#[fa] نمونه‌ها: عمداً مضربی از DP نیست
BATCH = 10
rng = np.random.default_rng(0)
#[en] d_in, d_hidden, d_out; float64
#[ca] d_in, d_hidden, d_out; en float64
#[fa] اندازه‌های d_in، d_hidden و d_out؛ از نوع float64
params = init_mlp(6, 16, 3, seed=1)
#[en] (B, d_in)
#[ca] (B, d_in)
#[fa] (B, d_in)
x = rng.standard_normal((BATCH, 6))
#[en] (B, d_out)
#[ca] (B, d_out)
#[fa] (B, d_out)
y = rng.standard_normal((BATCH, 3))

full_loss, full_grads = loss_and_grads(params, x, y)
#[en] (P,): the gradient that data parallelism must reproduce
#[ca] (P,): el gradient que el paral·lelisme de dades ha de reproduir
#[fa] گرادیانی با شکل (P,) که موازی‌سازی داده باید عیناً بازتولید کند
full = flatten(full_grads)
print(f"{t('params')}: {n(params.num_params)}")
print(f"{t('grad_buffer')}: {nbytes(full.nbytes)}")

# %% [markdown] lang="en"
# ## Shards
#
# Give each rank a contiguous slice. When the batch does not divide, the first ranks take
# one example more, as `numpy.array_split` does.

# %% [markdown] lang="ca"
# ## Fragments
#
# Doneu a cada rang una porció contigua del lot. Quan el lot no es divideix exactament, els
# primers rangs s'enduen un exemple més, tal com fa `numpy.array_split`.

# %% [markdown] lang="fa"
# ## شاردها
#
# به هر رنک یک برش پیوسته بدهید. وقتی دسته بخش‌پذیر نیست، رنک‌های اول هر کدام یک نمونه بیشتر
# می‌گیرند، همان کاری که `numpy.array_split` می‌کند.

# %%
def my_split(batch, dp):
    base, extra = divmod(batch, dp)
    sizes = [base + (rank < extra) for rank in range(dp)]
    starts = np.cumsum([0, *sizes])
    return [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]


shards = my_split(BATCH, DP)
print(f"{t('examples_per_rank')}:", " | ".join(n(s.stop - s.start) for s in shards))
assert tuple(shards) == split_batch(BATCH, DP), f"{tuple(shards)} != {split_batch(BATCH, DP)}"

# %% [markdown] lang="en"
# ## The gradient every rank must agree on
#
# Each rank computes the mean gradient `g_r` of its own `b_r` examples. The tempting
# combination is the mean of the `g_r`, which is what dividing an all-reduced sum by the
# number of ranks gives. It is right only when every rank has the same number of examples.
# The right combination weighs each rank by its examples: `sum_r b_r g_r / B`. Compare both
# with the full-batch gradient:

# %% [markdown] lang="ca"
# ## El gradient en què s'han de posar d'acord tots els rangs
#
# Cada rang calcula el gradient mitjà `g_r` dels seus `b_r` exemples. La combinació més immediata
# és la mitjana dels `g_r`, que és el que s'obté quan es divideix pel nombre de rangs la suma
# que surt d'un all-reduce. Només és correcta quan tots els rangs tenen el mateix nombre
# d'exemples. La combinació correcta pondera cada rang pels seus exemples:
# `sum_r b_r g_r / B`. Compareu totes dues amb el gradient del lot sencer:

# %% [markdown] lang="fa"
# ## گرادیانی که همهٔ رنک‌ها باید بر سرش توافق کنند
#
# هر رنک گرادیان میانگین `g_r` را روی `b_r` نمونهٔ خودش حساب می‌کند. ترکیب وسوسه‌انگیز این است
# که از `g_r` رنک‌ها میانگین بگیریم، یعنی همان چیزی که از تقسیم مجموعِ حاصل از all-reduce بر
# تعداد رنک‌ها به دست می‌آید. این ترکیب فقط وقتی درست است که همهٔ رنک‌ها تعداد نمونهٔ یکسانی
# داشته باشند. ترکیب درست به هر رنک به اندازهٔ تعداد نمونه‌هایش وزن می‌دهد: `sum_r b_r g_r / B`.
# هر دو را با گرادیان کل دسته مقایسه کنید:

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
assert errors["mean_of_means"] > 1e3 * errors["weighted_sum"], (
    f"{errors['mean_of_means']} <= 1e3 * {errors['weighted_sum']}")

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# La suma ponderada només difereix del lot sencer en l'arrodoniment de coma flotant (les
# sumes es fan en un altre ordre); l'error de la mitjana simple és uns quants ordres de
# magnitud més gran. Els entorns d'entrenament eviten el problema donant a tots els rangs el mateix
# nombre d'exemples.
#
# ## L'all-reduce en anell
#
# Els rangs han de sumar els seus vectors `b_r g_r` i acabar tots amb la suma. L'algorisme en
# anell ho aconsegueix sense que cap rang ho hagi de rebre tot: es talla cada vector en tants
# trossos com rangs hi ha, i es col·loquen els rangs en un anell en què cadascun només envia
# dades al següent.
#
# - **Reduce-scatter**, en tantes rondes com rangs menys una: a cada ronda, cada rang passa un
#   tros al seu veí, que el suma a la seva còpia. Cada tros recorre l'anell recollint una
#   contribució per ronda i arriba complet al rang que n'és propietari.
# - **All-gather**, en el mateix nombre de rondes: cada rang reenvia el tros complet que ha
#   rebut en últim lloc, fins que tots els rangs tenen tots els trossos complets.
#
# Aneu comptant els bytes que cada rang envia per la xarxa.

# %% [markdown] lang="fa"
# مجموع وزن‌دار فقط به اندازهٔ خطای گردکردن ممیز شناور با کل دسته فرق دارد (جمع‌ها به ترتیب
# دیگری انجام می‌شوند)؛ خطای میانگین ساده چندین مرتبهٔ بزرگی بیشتر است. چارچوب‌ها با دادن
# تعداد نمونهٔ یکسان به همهٔ رنک‌ها اصلاً با این مشکل روبه‌رو نمی‌شوند.
#
# ## all-reduce حلقوی
#
# رنک‌ها باید بردارهای `b_r g_r` خود را با هم جمع بزنند و هر کدام در پایان مجموع را داشته باشد.
# الگوریتم حلقوی این کار را بی‌آنکه هیچ رنکی همه‌چیز را دریافت کند انجام می‌دهد: هر بردار را به
# تعداد رنک‌ها تکه کنید و رنک‌ها را در حلقه‌ای بچینید که در آن هر رنک فقط به رنک بعدی می‌فرستد.
#
# - **Reduce-scatter**، به تعداد رنک‌ها منهای یک دور: در هر دور، هر رنک یک تکه را به همسایه‌اش
#   می‌دهد و همسایه آن را با نسخهٔ خودش جمع می‌زند. هر تکه در حلقه می‌چرخد، در هر دور سهم یک
#   رنک را به خود اضافه می‌کند و کامل به دست صاحبش می‌رسد.
# - **All-gather**، باز به همان تعداد دور: هر رنک تکهٔ کاملی را که آخر از همه دریافت کرده به
#   رنک بعدی می‌دهد، تا هر رنک همهٔ تکه‌های کامل را داشته باشد.
#
# در طول کار بایت‌هایی را که هر رنک روی شبکه می‌فرستد بشمارید.

# %%
def my_ring_all_reduce(vectors):
    ranks = len(vectors)
    #[en] chunks[rank][chunk]
    #[ca] chunks[rank][chunk]: primer el rang, després el tros
    #[fa] ترتیب اندیس‌ها در chunks[rank][chunk]: اول رنک، بعد تکه
    chunks = [np.array_split(v.copy(), ranks) for v in vectors]
    sent = [0] * ranks
    #[en] reduce-scatter: in round s, rank r sends chunk (r - 1 - s) mod n to rank r + 1
    #[ca] reduce-scatter: a la ronda s, el rang r envia el tros (r - 1 - s) mod n al rang r + 1
    #[fa] نیمهٔ reduce-scatter: در دور s، رنک r تکهٔ (r - 1 - s) mod n را به رنک r + 1 می‌فرستد
    for s in range(ranks - 1):
        messages = [(r, (r - 1 - s) % ranks) for r in range(ranks)]
        #[en] every send reads the old state
        #[ca] cada enviament llegeix l'estat anterior
        #[fa] هر ارسال وضعیت قبلی را می‌خواند
        pieces = [chunks[r][c].copy() for r, c in messages]
        for (r, c), piece in zip(messages, pieces):
            chunks[(r + 1) % ranks][c] = chunks[(r + 1) % ranks][c] + piece
            sent[r] += piece.nbytes
    #[en] now rank r holds the complete sum of chunk r
    #[ca] ara el rang r té la suma completa del tros r
    #[fa] اکنون رنک r مجموع کامل تکهٔ r را دارد
    #[en] all-gather: in round s, rank r forwards chunk (r - s) mod n to rank r + 1
    #[ca] all-gather: a la ronda s, el rang r reenvia el tros (r - s) mod n al rang r + 1
    #[fa] نیمهٔ all-gather: در دور s، رنک r تکهٔ (r - s) mod n را به رنک r + 1 بازارسال می‌کند
    for s in range(ranks - 1):
        messages = [(r, (r - s) % ranks) for r in range(ranks)]
        pieces = [chunks[r][c].copy() for r, c in messages]
        for (r, c), piece in zip(messages, pieces):
            chunks[(r + 1) % ranks][c] = piece
            sent[r] += piece.nbytes
    return [np.concatenate(c) for c in chunks], sent


#[en] DP x (P,)
#[ca] DP x (P,)
#[fa] DP x (P,)
contributions = [b * flatten(g) for b, (_, g) in zip(sizes, local)]
mine, my_sent = my_ring_all_reduce(contributions)
library = ring_all_reduce(contributions)
for rank in range(DP):
    #[en] bit for bit
    #[ca] bit a bit
    #[fa] بیت به بیت
    assert np.array_equal(mine[rank], library.outputs[rank]), (
        f"{rank=}: max |diff| = {np.abs(mine[rank] - library.outputs[rank]).max()}")
assert my_sent == list(library.sent_bytes), f"{my_sent} != {list(library.sent_bytes)}"
np.testing.assert_allclose(mine[0] / BATCH, full, rtol=1e-12, atol=1e-15)
print(f"{t('sent_sim')}:", " | ".join(nbytes(b) for b in my_sent))
print(f"{t('sent_formula')}:", format_quantity(
    float(ring_bytes("all_reduce", full.nbytes, DP)), "bytes", LOCALE, digits=1))
assert sum(my_sent) == 2 * (DP - 1) * full.nbytes, (
    f"{sum(my_sent)} != 2 * ({DP} - 1) * {full.nbytes}")

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# Cada rang envia `2 (n - 1) / n` vegades el buffer: gairebé el doble del gradient tan bon
# punt hi ha més d'uns quants rangs, i a partir d'aquí pràcticament independent de quants
# n'hi hagi. En aquest sentit, l'anell és òptim en amplada de banda. En latència no ho és:
# el buffer fa la volta en `2 (n - 1)` passos, i cadascun paga el temps d'arrencada d'un
# missatge, de manera que el terme de latència creix amb el nombre de rangs i domina amb
# missatges petits o amb moltíssims rangs. Per això, a gran escala, NCCL passa als
# algorismes en arbre o NVLS, i els clústers grans fan servir algorismes jeràrquics (un
# anell dins de cada servidor i un altre entre servidors). Aquí els rangs envien quantitats
# lleugerament diferents perquè el nombre de paràmetres no es pot dividir en trossos iguals;
# el total de tots els rangs és exactament `2 (n - 1)` buffers. A l'escala d'un model real,
# amb gradients en bf16:

# %% [markdown] lang="fa"
# هر رنک `2 (n - 1) / n` برابر اندازهٔ بافر را می‌فرستد: همین که تعداد رنک‌ها از چند تا
# بیشتر شود، این مقدار به دو برابر گرادیان نزدیک می‌شود و از آن پس تقریباً به تعدادشان بستگی
# ندارد. به این معنا الگوریتم حلقوی از نظر پهنای باند بهینه است؛ اما از نظر تأخیر نه: بافر
# در `2 (n - 1)` گام دور حلقه می‌چرخد و هر گام هزینهٔ راه‌اندازی یک پیام را می‌پردازد، پس
# جملهٔ تأخیر با تعداد رنک‌ها بزرگ می‌شود و برای پیام‌های کوچک یا تعداد بسیار زیاد رنک‌ها
# غالب است. به همین دلیل NCCL در مقیاس بزرگ به الگوریتم‌های درختی یا NVLS روی می‌آورد و
# خوشه‌های بزرگ از الگوریتم‌های سلسله‌مراتبی استفاده می‌کنند (یک حلقه درون هر سرور و حلقه‌ای
# دیگر میان سرورها). اینجا رنک‌ها مقدارهایی اندکی متفاوت می‌فرستند، چون تعداد پارامترها به
# تکه‌های مساوی تقسیم نمی‌شود؛ مجموع ارسالی همهٔ رنک‌ها دقیقاً `2 (n - 1)` برابر اندازهٔ بافر است. در
# مقیاس یک مدل واقعی، با گرادیان‌های bf16:

# %%
model = get_model("llama3-70b")
#[en] bf16: two bytes per parameter
#[ca] bf16: dos bytes per paràmetre
#[fa] قالب bf16: دو بایت به‌ازای هر پارامتر
grad_bytes = model_states(model, precision="mixed").grads
rows = []
for ranks in (2, 8, 64, 1024):
    per_rank = 2 * (ranks - 1) * grad_bytes / ranks
    assert per_rank == ring_bytes("all_reduce", grad_bytes, ranks), (
        f"{ranks=}: {per_rank} != {ring_bytes('all_reduce', grad_bytes, ranks)}")
    rows.append((n(ranks), format_quantity(per_rank, "GB", LOCALE, digits=1),
                 n(per_rank / grad_bytes, 3)))
table([t("ranks"), f"{t('sent_rank')} ({model.display_name})", t("sent_ratio")], rows,
      [True, True, True])

# %% [markdown] lang="en"
# ## One data-parallel step, against the library
#
# Put the pieces together: shard, compute each rank's `b_r g_r`, all-reduce, divide by the
# batch. The library's `data_parallel_grads` does the same and reports what it sent.

# %% [markdown] lang="ca"
# ## Un pas de paral·lelisme de dades, contrastat amb la biblioteca
#
# Ajunteu les peces: repartiu el lot en fragments, calculeu el `b_r g_r` de cada rang, feu
# l'all-reduce i dividiu pel lot. La funció `data_parallel_grads` de la biblioteca fa el
# mateix i informa del que ha enviat.

# %% [markdown] lang="fa"
# ## یک گام موازی‌سازی داده، در مقایسه با کتابخانه
#
# اجزا را کنار هم بگذارید: شاردکردن، محاسبهٔ `b_r g_r` هر رنک، all-reduce، و تقسیم بر اندازهٔ
# دسته. تابع `data_parallel_grads` کتابخانه همین کار را انجام می‌دهد و گزارش می‌کند چه چیزی
# فرستاده است.

# %%
result = data_parallel_grads(params, x, y, dp=DP)
np.testing.assert_allclose(flatten(result.grads), mine[0] / BATCH, rtol=1e-12, atol=1e-15)
assert result.sent_bytes == tuple(my_sent) and result.all_reduces == 1, (
    f"{(result.sent_bytes, result.all_reduces)} != {(tuple(my_sent), 1)}")
#[en] every rank applies the very same gradient
#[ca] tots els rangs apliquen exactament el mateix gradient
#[fa] همهٔ رنک‌ها عیناً همان گرادیان را اعمال می‌کنند
assert result.replicas_agree, f"{result.replicas_agree=}"
print(f"{t('all_reduces')}: {n(result.all_reduces)}")
print(f"{t('replicas_agree')}: {t('yes') if result.replicas_agree else t('no')}")

# %% [markdown] lang="en"
# ## Gradient accumulation
#
# When a rank's share of the batch does not fit in memory at once, it processes it in `K`
# micro-batches. The naive way all-reduces after every micro-batch. But the all-reduce is a
# sum, and sums can wait: add the micro-batches' `b g` locally and all-reduce once at the
# end (PyTorch DDP's `no_sync`). Same gradient, `K` times fewer all-reduces and bytes.

# %% [markdown] lang="ca"
# ## Acumulació de gradients
#
# Quan la part del lot que correspon a un rang no li cap a la memòria de cop, el rang la
# processa en `K` microlots. La manera més directa és fer un all-reduce després de cada microlot.
# Però l'all-reduce és una suma, i les sumes poden esperar: sumeu localment els `b g` dels
# microlots i feu un sol all-reduce al final (és el `no_sync` del DDP de PyTorch). El gradient
# és el mateix, amb `K` vegades menys all-reduces i menys bytes.

# %% [markdown] lang="fa"
# ## انباشت گرادیان
#
# وقتی سهم یک رنک از دسته یک‌جا در حافظه جا نمی‌شود، رنک آن را در `K` ریزدسته پردازش می‌کند.
# روش ساده پس از هر ریزدسته یک all-reduce انجام می‌دهد. اما all-reduce یک جمع است، و جمع را
# می‌توان به تعویق انداخت: `b g` ریزدسته‌ها را به‌صورت محلی روی هم جمع بزنید و فقط یک بار در پایان
# all-reduce کنید (کاری که DDP در PyTorch با `no_sync` انجام می‌دهد). گرادیان همان است، و
# تعداد all-reduceها و بایت‌ها `K` برابر کمتر.

# %%
K = 3
#[en] each rank gets six examples: three micro-batches of two
#[ca] cada rang rep sis exemples: tres microlots de dos
#[fa] هر رنک شش نمونه می‌گیرد: سه ریزدستهٔ دوتایی
BIG = 24
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
            #[en] no communication
            #[ca] sense comunicació
            #[fa] بدون هیچ ارتباطی
            pending[rank] += (part.stop - part.start) * flatten(g)
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
    assert (count, tuple(sent)) == (library.all_reduces, library.sent_bytes), (
        f"{naive=}: {(count, tuple(sent))} != {(library.all_reduces, library.sent_bytes)}")
    np.testing.assert_allclose(grads, flatten(library.grads), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(grads, flatten(reference), rtol=1e-12, atol=1e-15)
    rows.append((t("every_micro" if naive else "accumulated"), n(count), nbytes(sent[0]),
                 format_scientific(np.abs(grads - flatten(reference)).max(), LOCALE)))
table(["", t("all_reduces"), t("sent_first_rank"), t("error_vs_full")], rows,
      [False, True, True, True])

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# ## ZeRO: deixar de guardar-ho tot a tot arreu
#
# El paral·lelisme de dades simple replica a cada rang els pesos, els gradients i els dos
# moments d'AdamW. ZeRO els particiona entre els rangs, un tipus d'estat més a cada etapa:
#
# - **ZeRO-1** particiona els estats de l'optimitzador: cada rang només actualitza la seva
#   porció dels pesos, amb la seva porció dels moments, i després un all-gather torna a
#   reunir els pesos sencers;
# - **ZeRO-2**, a més, només guarda la porció reduïda del gradient (un reduce-scatter
#   substitueix l'all-reduce);
# - **ZeRO-3** (FSDP) també particiona els pesos, i els reuneix just quan calen per al
#   forward i, de nou, per al backward.
#
# Els paràmetres s'aplanen en un sol vector i es farceixen amb zeros fins a un múltiple del
# nombre de rangs, de manera que cada rang és propietari d'una porció igual de `S` valors.
# Escriviu què guarda un rang a cada etapa, en nombre de valors, i compareu-ho amb la
# biblioteca, que *mesura* els arrays que guarden els seus rangs simulats després d'uns
# quants passos reals d'AdamW:

# %% [markdown] lang="fa"
# ## ZeRO: دیگر همه‌چیز را همه‌جا نگه ندارید
#
# موازی‌سازی دادهٔ ساده وزن‌ها، گرادیان‌ها و دو گشتاور AdamW را روی همهٔ رنک‌ها تکرار می‌کند.
# ZeRO آن‌ها را میان رنک‌ها شارد می‌کند و در هر مرحله یک نوع حالت دیگر را هم به این فهرست
# می‌افزاید:
#
# - **ZeRO-1** حالت بهینه‌ساز را شارد می‌کند: هر رنک فقط برش خودش از وزن‌ها را با برش خودش از
#   گشتاورها به‌روز می‌کند، و سپس یک all-gather وزن‌های کامل را به همه برمی‌گرداند؛
# - **ZeRO-2** از گرادیان هم فقط برش جمع‌زدهٔ خودش را نگه می‌دارد (یک reduce-scatter جای
#   all-reduce را می‌گیرد)؛
# - **ZeRO-3** (همان FSDP) وزن‌ها را هم شارد می‌کند و آن‌ها را درست به‌موقع گرد می‌آورد، یک بار
#   برای گذر رو به جلو و بار دیگر برای گذر رو به عقب.
#
# پارامترها در یک بردار تخت کنار هم چیده و با صفر پدینگ می‌شوند تا طولشان مضربی از تعداد رنک‌ها شود،
# و هر رنک برش برابری از `S` مقدار داشته باشد. بنویسید که یک رنک در هر مرحله، بر حسب تعداد
# مقدارها، چه چیزی نگه می‌دارد، و سپس با کتابخانه مقایسه کنید، که آرایه‌هایی را که رنک‌های
# شبیه‌سازی‌شده‌اش پس از چند گام واقعی AdamW نگه می‌دارند *اندازه می‌گیرد*:

# %%
P = params.num_params
#[en] the slice of each rank: ceil(P / DP)
#[ca] la porció de cada rang: ceil(P / DP)
#[fa] برش هر رنک: ceil(P / DP)
S = -(-P // DP)
ITEM = np.dtype(np.float64).itemsize


def my_zero_values(stage):
    #[en] (weights, gradients, AdamW moments) values one rank holds at rest.
    #[ca] Nombre de valors (pesos, gradients, moments d'AdamW) que un rang guarda entre pas i pas.
    #[fa] تعداد مقدارهایی (وزن‌ها، گرادیان‌ها، گشتاورهای AdamW) که یک رنک در فاصلهٔ میان
    #[fa] گام‌ها نگه می‌دارد.
    padded = DP * S
    if stage == 0:
        return P, P, 2 * P
    return (padded if stage < 3 else S, padded if stage < 2 else S, 2 * S)


batches = [(rng.standard_normal((8, 6)), rng.standard_normal((8, 3))) for _ in range(3)]
final, losses = train_single_device(params, batches, AdamW())
rows, sent_per_step = [], {}
for stage in range(4):
    run = train_zero(params, batches, dp=DP, stage=stage)
    #[en] the same training
    #[ca] el mateix entrenament
    #[fa] همان آموزش
    np.testing.assert_allclose(run.losses, losses, rtol=1e-12)
    np.testing.assert_allclose(flatten(run.params), flatten(final), rtol=1e-10, atol=1e-12)
    mine = [v * ITEM for v in my_zero_values(stage)]
    for rank in run.ranks:
        held = rank.memory
        assert mine == [held.weights, held.grads, held.optimizer], stage
    buffer = (P if stage == 0 else DP * S) * ITEM
    assert sum(run.sent_bytes[0]) == DP * zero_comm_bytes(buffer, DP, stage), (
        f"{stage=}: {sum(run.sent_bytes[0])} != {DP} * {zero_comm_bytes(buffer, DP, stage)}")
    sent_per_step[stage] = sum(run.sent_bytes[0])
    rows.append((f"ZeRO-{stage}", *(nbytes(v) for v in mine), nbytes(sum(mine)),
                 nbytes(sum(run.sent_bytes[0]) / DP)))
table([t("zero_stage"), t("weights_rank"), t("grads_rank"), t("optimizer_rank"),
       t("total"), t("sent_rank_step")], rows, [False] + [True] * 5)
print(f"{t('full_copy')}: {nbytes(sum(my_zero_values(0)) * ITEM / DP)}")
#[en] what the text below says: stages one and two send what an all-reduce of the padded
#[en] buffer sends; stage three half as much again
#[ca] el que diu el text de sota: la primera i la segona etapa envien el mateix que un
#[ca] all-reduce del buffer amb farciment; la tercera, una vegada i mitja aquesta quantitat
#[fa] آنچه متن زیر می‌گوید: مرحله‌های اول و دوم همان‌قدر می‌فرستند که یک all-reduce
#[fa] بافر پدینگ‌شده؛ مرحلهٔ سوم، نصف همین مقدار را هم اضافه بر آن
padded_all_reduce = DP * ring_bytes("all_reduce", DP * S * ITEM, DP)
assert sent_per_step[1] == sent_per_step[2] == padded_all_reduce, (
    f"{sent_per_step[1]} != {sent_per_step[2]} or {sent_per_step[2]} != {padded_all_reduce}")
assert 2 * sent_per_step[3] == 3 * sent_per_step[2], (
    f"2 * {sent_per_step[3]} != 3 * {sent_per_step[2]}")

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# Totes les etapes entrenen igual que un sol dispositiu: les mateixes pèrdues i els mateixos
# pesos finals, llevat de l'arrodoniment de coma flotant. El que canvia és què guarda cada
# rang i què envia. ZeRO-1 i ZeRO-2 envien tant com el paral·lelisme de dades simple (un
# reduce-scatter més un all-gather costen el mateix que un all-reduce; aquí el farciment hi
# afegeix una mica); ZeRO-3 envia una vegada i mitja aquesta quantitat, per la segona reunió
# dels pesos. El total per rang de ZeRO-3 és la còpia completa dividida pel nombre de rangs, més el farciment. El
# laboratori de memòria aplica aquestes mateixes etapes a Llama 3 70B.
#
# ## Ara us toca a vosaltres
#
# - Amb `data_parallel_grads`, doneu lots desiguals als rangs i comproveu que la combinació
#   ponderada continua coincidint amb el lot sencer, mentre que la mitjana simple no.
# - Mesureu els bytes enviats amb `K` microlots per a diversos valors de `K`.
# - Canvieu l'amplada de la capa oculta del model perquè ZeRO-3 no necessiti farciment.

# %% [markdown] lang="fa"
# هر مرحله درست همان نتیجهٔ آموزش روی یک دستگاه را می‌دهد: همان مقادیر زیان و همان وزن‌های نهایی، تا حد خطای
# گردکردن. آنچه تغییر می‌کند این است که یک رنک چه نگه می‌دارد و چه می‌فرستد. ZeRO-1 و ZeRO-2
# همان‌قدر می‌فرستند که موازی‌سازی دادهٔ ساده (هزینهٔ یک reduce-scatter به‌علاوهٔ یک all-gather
# برابر یک all-reduce است؛ اینجا پدینگ کمی به آن می‌افزاید)؛ ZeRO-3 به خاطر گردآوری دوبارهٔ
# وزن‌ها نصف همین مقدار را هم اضافه بر آن می‌فرستد. مجموع حافظهٔ هر رنک در ZeRO-3 برابر است با
# نسخهٔ کامل تقسیم بر تعداد رنک‌ها، به‌علاوهٔ پدینگ. آزمایشگاه حافظه همین مرحله‌ها را روی
# Llama 3 70B اعمال می‌کند.
#
# ## نوبت شما
#
# - در `data_parallel_grads` به رنک‌ها دسته‌های نابرابر بدهید و بررسی کنید که ترکیب وزن‌دار
#   همچنان با کل دسته مطابق است، در حالی که میانگین ساده نیست.
# - بایت‌های ارسالی با `K` ریزدسته را برای چند مقدار مختلف `K` اندازه بگیرید.
# - پهنای لایهٔ پنهان مدل را طوری تغییر دهید که ZeRO-3 به پدینگ نیازی نداشته باشد.
