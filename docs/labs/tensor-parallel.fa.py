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
# # آزمایشگاه: موازی‌سازی تنسوری در یک MLP
#
# موازی‌سازی تنسوری هر ماتریس وزن یک لایه را میان چند GPU تقسیم می‌کند، طوری که هیچ GPUای یک
# ماتریس کامل را نگه ندارد یا در آن ضرب نکند. اگر این کار ساده‌انگارانه انجام شود، پس از هر ضرب
# ماتریسی به ارتباط نیاز دارد. چینش Megatron-LM برای کل یک MLP فقط یک all-reduce لازم دارد:
# ماتریس‌های اول را ستونی و ماتریس آخر را سطری تقسیم کنید، و هر چه میان آن‌هاست محلی می‌ماند.
#
# در این آزمایشگاه این چینش را برای MLP از نوع SwiGLU در Llama 3 با numpy می‌سازید، بررسی
# می‌کنید که دقیقاً همان چیزی را حساب می‌کند که یک دستگاه حساب می‌کند، می‌بینید چرا ترتیب برعکس
# کار نمی‌کند، و آنچه را می‌فرستد می‌شمارید. هر گام با یک `assert` در برابر کتابخانهٔ
# `distlesson` تمام می‌شود؛ سایت این نوت‌بوک را در هر بار ساخت اجرا می‌کند.

# %%
LOCALE = "fa"

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
# ## یک دستگاه
#
# MLP از نوع SwiGLU فعال‌سازی‌های `x` چند توکن را می‌گیرد (یک سطر برای هر توکن، با `hidden`
# ستون)، آن‌ها را در دو ماتریس `W_gate` و `W_up` ضرب می‌کند، نتیجه‌ها را درایه به درایه ترکیب
# می‌کند و با `W_down` دوباره به همان پهنای ورودی برمی‌گرداند:
#
# `y = (silu(x W_gate) * (x W_up)) W_down`، با `silu(a) = a sigmoid(a)`.
#
# آن را بنویسید و با نسخهٔ کتابخانه مقایسه کنید، که همهٔ شبیه‌سازی‌های موازی این درس با آن
# سنجیده می‌شوند.

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
# ## دو ماتریس اول را ستونی تقسیم کنید
#
# به رنک `r` بلوکی از ستون‌های `W_gate` و *همان* بلوک از ستون‌های `W_up` را بدهید. این رنک برش
# خودش از `x W_gate` و `x W_up` را از روی کل `x`، که همهٔ رنک‌ها آن را دارند، حساب می‌کند.
# `silu` و ضرب درایه به درایه عمل می‌کنند، پس رنک می‌تواند آن‌ها را فقط روی برش خودش اعمال کند:
# تا اینجا هیچ ارتباطی لازم نیست، و برش‌ها، کنار هم، همان فعال‌سازی کامل لایهٔ پنهان‌اند.

# %%
gate_cols = np.split(weights.gate, TP, axis=1)  # TP x (h, f/TP)
up_cols = np.split(weights.up, TP, axis=1)  # TP x (h, f/TP)
hidden = [silu(x @ g) * (x @ u) for g, u in zip(gate_cols, up_cols)]  # TP x (N, f/TP)

full_hidden = silu(x @ weights.gate) * (x @ weights.up)  # (N, f)
checks.append(("column_concat", difference(np.concatenate(hidden, axis=1), full_hidden)))
assert checks[-1][1] < 1e-14

# %% [markdown]
# ## سپس ماتریس آخر را سطری تقسیم کنید
#
# رنک `r` سطرهایی از `W_down` را نگه می‌دارد که با ستون‌های پنهان خودش متناظرند. حاصل ضربش یک
# خروجی *جزئی* است: همهٔ ستون‌های `y` را دارد، اما ضرب ماتریسی در واقع یک جمع است و این خروجی
# فقط سهم همین رنک از آن جمع است. جمع خروجی‌های جزئی رنک‌ها `y` را می‌دهد: این جمع همان تنها all-reduce این
# MLP است، که پس از آن همهٔ رنک‌ها خروجی را در اختیار دارند. از all-reduce حلقوی آزمایشگاه
# موازی‌سازی داده (نسخهٔ کتابخانه) استفاده کنید و بایت‌هایش را بشمارید.

# %%
down_rows = np.split(weights.down, TP, axis=0)  # TP x (f/TP, h)
partials = [h_r @ d_r for h_r, d_r in zip(hidden, down_rows)]  # TP x (N, h)
reduced = ring_all_reduce(partials)
checks.append(("row_sum", max(difference(out, y) for out in reduced.outputs)))
assert checks[-1][1] < 1e-14

# %% [markdown]
# ## چرا ترتیب برعکس نه؟
#
# این بار `W_gate` و `W_up` را *سطری* تقسیم کنید و به هر رنک برشی از ستون‌های `x` بدهید. در این
# صورت هر رنک یک مجموع جزئی از `x W_gate` دارد، نه برشی از آن؛ و `silu` یک مجموع جزئی، بخشی از
# `silu` کل مجموع نیست. رنک‌ها باید *پیش از* تابع فعال‌سازی all-reduce کنند، و بار دیگر پس از
# `W_down`. ببینید کنار گذاشتن آن all-reduce اول چقدر نتیجه را خراب می‌کند:

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
# سه سطر اول فقط خطای گردکردن ممیز شناورند؛ سطر آخر یک پاسخ نادرست است.
#
# ## در برابر کتابخانه
#
# تابع `megatron_mlp` کتابخانه همین چینش را اجرا می‌کند: هر رنک MLP تک‌دستگاهی را روی شارد خودش
# از وزن‌ها اعمال می‌کند (شاردی از یک MLP خودش یک MLP کوچک‌تر است)، و سپس یک all-reduce.
# خروجی‌ها، تعداد all-reduceها و بایت‌هایش را با نسخهٔ خودتان مقایسه کنید. سپس گذر رو به عقب: با
# همان استدلال، هر رنک از MLP کوچک‌تر خودش مشتق می‌گیرد و گرادیان وزن‌های خودش را مستقیماً به
# دست می‌آورد؛ فقط گرادیان ورودی یک مجموع جزئی است و به تنها all-reduce گذر رو به عقب نیاز دارد.

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
# ## هزینه‌اش در مقیاس بزرگ
#
# هر بلوک ترنسفورمر دو زیرلایه از این دست دارد: توجه (که بر اساس سرها تقسیم می‌شود و سرها در آن
# نقش ستون‌های پنهان را دارند) و MLP؛ یعنی دو all-reduce در گذر رو به جلو و دو تا در گذر رو به
# عقب. هر کدام فعال‌سازی‌های یک ریزدسته را all-reduce می‌کند، یک مقدار برای هر توکن و هر واحد
# پنهان، در bf16. با فرمول بستهٔ all-reduce حلقوی، بایت‌هایی را که هر GPU در هر لایه برای یک
# ریزدسته می‌فرستد بنویسید و با `tp_bytes_per_layer` کتابخانه مقایسه کنید:

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
# بیشتر این بایت‌ها روی مسیر بحرانی‌اند: در گذر رو به جلو، ضرب ماتریسی بعدی به نتیجهٔ all-reduce
# نیاز دارد. در گذر رو به عقب، Megatron-LM all-reduce گرادیان ورودی را با ضرب ماتریسی‌ای که
# گرادیان وزن‌ها را حساب می‌کند هم‌پوشان می‌کند، و چارچوب‌ها گزینه‌هایی دارند که بخش بیشتری از
# ارتباطات موازی‌سازی تنسوری را با محاسبه هم‌پوشان می‌کنند (با تکه‌تکه کردن ضرب‌ها)، اما این‌ها
# فقط بخشی از آن را پنهان می‌کنند. به همین دلیل موازی‌سازی تنسوری درون یک سرور می‌ماند، جایی
# که NVLink در هر ثانیه چند برابر شبکهٔ میان
# سرورها بایت جابه‌جا می‌کند (سطر آخر خروجی بالا: به‌ازای هر GPU و هر جهت، از فهرست پیوندهای این
# درس).
#
# ## نوبت شما
#
# - MLP را میان تعدادی رنک تقسیم کنید که `FFN` بر آن بخش‌پذیر نباشد. چه چیزی خطا می‌دهد، و
#   پدینگ کجا باید اضافه شود؟
# - زیرلایهٔ توجه را اضافه کنید: `W_q`، `W_k` و `W_v` را بر اساس سرها (ستونی) و `W_o` را سطری
#   تقسیم کنید، و `distlesson.parallel.tensor.megatron_attention` را مرجع قرار دهید.
# - با موازی‌سازی دنباله، که هر all-reduce را با یک reduce-scatter و یک all-gather جایگزین
#   می‌کند، بایت‌های هر لایه چگونه تغییر می‌کنند؟
