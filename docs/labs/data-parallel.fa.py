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
# - انباشت گرادیان، که همان گرادیان را دفعات کمتری می‌فرستد؛
# - مرحله‌های ZeRO، که در آن‌ها دیگر هر رنک همهٔ حالت‌ها را نگه نمی‌دارد.
#
# پس از هر جزء، یک `assert` نسخهٔ شما را با کتابخانهٔ `distlesson` مقایسه می‌کند. سایت این
# نوت‌بوک را در هر بار ساخت اجرا می‌کند: هر ناهمخوانی میان این دو باعث شکست ساخت می‌شود.

# %%
LOCALE = "fa"

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
# ## مدل و یک دسته
#
# مدل همان MLP کوچک دولایهٔ کتابخانه است که با numpy نوشته شده و گذر رو به عقبش دستی پیاده
# شده است (`distlesson.parallel.toy_mlp`). تابع زیان آن نصفِ مجموع مربع خطا روی خروجی‌هاست که روی
# نمونه‌ها میانگین گرفته می‌شود. اندازهٔ مدل اینجا اهمیتی ندارد: آنچه مهم است این است که
# تابع زیان *میانگینی روی نمونه‌های دسته* است. اندازهٔ دسته عمداً طوری انتخاب شده که به‌طور
# مساوی میان رنک‌ها تقسیم نشود.

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
assert tuple(shards) == split_batch(BATCH, DP)

# %% [markdown]
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
assert errors["mean_of_means"] > 1e3 * errors["weighted_sum"]

# %% [markdown]
# مجموع وزن‌دار فقط به اندازهٔ خطای گردکردن ممیز شناور با کل دسته فرق دارد (جمع‌ها به ترتیب
# دیگری انجام می‌شوند)؛ خطای میانگین ساده چندین مرتبهٔ بزرگی بیشتر است. فریم‌ورک‌ها با دادن
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
# هر رنک `2 (n - 1) / n` برابر اندازهٔ بافر را می‌فرستد: همین که تعداد رنک‌ها از چند تا
# بیشتر شود، این مقدار به دو برابر گرادیان نزدیک می‌شود و از آن پس تقریباً به تعدادشان بستگی
# ندارد. به این معنا الگوریتم حلقوی از نظر پهنای باند بهینه است؛ اما از نظر تأخیر نه: بافر
# در `2 (n - 1)` گام دور حلقه می‌چرخد و هر گام هزینهٔ راه‌اندازی یک پیام را می‌پردازد، پس
# جملهٔ تأخیر با تعداد رنک‌ها بزرگ می‌شود و برای پیام‌های کوچک یا تعداد بسیار زیاد رنک‌ها
# غالب است. به همین دلیل NCCL در مقیاس بزرگ به الگوریتم‌های درختی یا NVLS روی می‌آورد و
# خوشه‌های بزرگ از الگوریتم‌های سلسله‌مراتبی استفاده می‌کنند (یک حلقه درون هر سرور و حلقه‌ای
# دیگر میان سرورها). اینجا رنک‌ها مقدارهایی اندکی متفاوت می‌فرستند، چون تعداد پارامترها به
# تکه‌های مساوی تقسیم نمی‌شود؛ مجموع ارسالی همهٔ رنک‌ها دقیقاً `2 (n - 1)` بافر است. در
# مقیاس یک مدل واقعی، با گرادیان‌های bf16:

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
# ## یک گام موازی‌سازی داده، در مقایسه با کتابخانه
#
# اجزا را کنار هم بگذارید: شاردکردن، محاسبهٔ `b_r g_r` هر رنک، all-reduce، و تقسیم بر اندازهٔ
# دسته. تابع `data_parallel_grads` کتابخانه همین کار را انجام می‌دهد و گزارش می‌کند چه چیزی
# فرستاده است.

# %%
result = data_parallel_grads(params, x, y, dp=DP)
np.testing.assert_allclose(flatten(result.grads), mine[0] / BATCH, rtol=1e-12, atol=1e-15)
assert result.sent_bytes == tuple(my_sent) and result.all_reduces == 1
assert result.replicas_agree  # every rank applies the very same gradient
print(f"{t('all_reduces')}: {n(result.all_reduces)}")
print(f"{t('replicas_agree')}: {t('yes') if result.replicas_agree else t('no')}")

# %% [markdown]
# ## انباشت گرادیان
#
# وقتی سهم یک رنک از دسته یک‌جا در حافظه جا نمی‌شود، رنک آن را در `K` ریزدسته پردازش می‌کند.
# روش ساده پس از هر ریزدسته یک all-reduce انجام می‌دهد. اما all-reduce یک جمع است، و جمع را
# می‌توان به تعویق انداخت: `b g` ریزدسته‌ها را به‌صورت محلی روی هم جمع بزنید و فقط یک بار در پایان
# all-reduce کنید (کاری که DDP در PyTorch با `no_sync` انجام می‌دهد). گرادیان همان است، و
# تعداد all-reduceها و بایت‌ها `K` برابر کمتر.

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
# و هر رنک برش برابری از `S` مقدار داشته باشد. بنویسید که یک رنک در هر مرحله، برحسب تعداد
# مقدارها، چه چیزی نگه می‌دارد، و سپس با کتابخانه مقایسه کنید، که آرایه‌هایی را که رنک‌های
# شبیه‌سازی‌شده‌اش پس از چند گام واقعی AdamW نگه می‌دارند *اندازه می‌گیرد*:

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
# هر مرحله درست مثل یک دستگاه آموزش می‌دهد: همان مقادیر زیان و همان وزن‌های نهایی، تا حد خطای
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
#   همچنان با کل دسته می‌خواند، در حالی که میانگین ساده نمی‌خواند.
# - بایت‌های ارسالی با `K` ریزدسته را برای چند مقدار مختلف `K` اندازه بگیرید.
# - پهنای لایهٔ پنهان مدل را طوری تغییر دهید که ZeRO-3 به پدینگ نیازی نداشته باشد.
