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

# %% [markdown] lang="ca"
# # Laboratori: paral·lelisme de tensors en un MLP
#
# El paral·lelisme de tensors reparteix cada matriu de pesos d'una capa entre diverses GPU, de
# manera que cap GPU no guarda ni multiplica cap matriu sencera. Fet de la manera més directa,
# necessita comunicació després de cada producte de matrius. La configuració de Megatron-LM en
# té prou amb un sol all-reduce per a tot un MLP: es parteixen les primeres matrius per
# columnes i l'última per files, i tot el que queda entremig es calcula localment.
#
# En aquest laboratori construireu aquesta configuració en numpy per a l'MLP SwiGLU de Llama 3,
# comprovareu que calcula exactament el mateix que un sol dispositiu, veureu per què l'ordre
# contrari no funcionaria i comptareu què envia. Cada pas acaba amb un `assert` que el
# contrasta amb la biblioteca `distlesson`; el lloc web executa aquest quadern cada vegada
# que es genera.

# %% [markdown] lang="fa"
# # آزمایشگاه: موازی‌سازی تنسوری در یک MLP
#
# موازی‌سازی تنسوری هر ماتریس وزن یک لایه را میان چند GPU تقسیم می‌کند، طوری که هیچ GPUای یک
# ماتریس کامل را نگه ندارد یا در آن ضرب نکند. اگر این کار ساده‌انگارانه انجام شود، پس از هر ضرب
# ماتریسی به ارتباط نیاز دارد. چیدمان Megatron-LM برای کل یک MLP فقط یک all-reduce لازم دارد:
# ماتریس‌های اول را ستونی و ماتریس آخر را سطری تقسیم کنید، و هر چه میان آن‌هاست محلی می‌ماند.
#
# در این آزمایشگاه این چیدمان را برای MLP از نوع SwiGLU در Llama 3 با numpy می‌سازید، بررسی
# می‌کنید که دقیقاً همان چیزی را حساب می‌کند که یک دستگاه حساب می‌کند، می‌بینید چرا ترتیب برعکس
# کار نمی‌کند، و آنچه را می‌فرستد می‌شمارید. هر گام با یک `assert` در برابر کتابخانهٔ
# `distlesson` تمام می‌شود؛ سایت این نوت‌بوک را در هر بار ساخت اجرا می‌کند.

# %%
LOCALE = "en"

# %%
import numpy as np
from IPython.display import Markdown, display

from distlesson.catalog.interconnects import get_interconnect
from distlesson.catalog.models import get_model
from distlesson.pages.lab_labels import label
from distlesson.parallel.collectives import ring_all_reduce, ring_bytes
from distlesson.parallel.swiglu import SwiGLUWeights, swiglu_mlp, swiglu_mlp_backward
from distlesson.parallel.tensor import (
    block_allreduce_count, megatron_mlp, megatron_mlp_backward, tp_bytes_per_layer)
from distlesson.render.numbers import format_number, format_quantity, format_scientific
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


def difference(a, b):
    #[en] Largest difference between two arrays, relative to the largest value of ``b``.
    #[ca] La diferència més gran entre dos arrays, en relació amb el valor més gran de ``b``.
    #[fa] بزرگ‌ترین اختلاف میان دو آرایه، نسبت به بزرگ‌ترین مقدار ``b``.
    return float(np.abs(a - b).max() / np.abs(b).max())


#[en] (what, relative difference) for the summary table
#[ca] (comprovació, diferència relativa) per a la taula de resum
#[fa] (بررسی، اختلاف نسبی) برای جدول خلاصه
checks = []

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# ## Un sol dispositiu
#
# L'MLP SwiGLU pren les activacions `x` d'uns quants tokens (una fila per token i `hidden`
# columnes), les multiplica per dues matrius, `W_gate` i `W_up`, combina els resultats element
# a element i torna a projectar amb `W_down`:
#
# `y = (silu(x W_gate) * (x W_up)) W_down`, amb `silu(a) = a sigmoid(a)`.
#
# Escriviu-lo i compareu-lo amb la versió de la biblioteca, que és la referència amb què es
# contrasta cada simulació en paral·lel del curs.

# %% [markdown] lang="fa"
# ## یک دستگاه
#
# MLP از نوع SwiGLU فعال‌سازی‌های `x` مربوط به چند توکن را می‌گیرد (یک سطر برای هر توکن،
# با `hidden` ستون)، آن‌ها را در دو ماتریس `W_gate` و `W_up` ضرب می‌کند، نتیجه‌ها را درایه به درایه ترکیب
# می‌کند و با `W_down` دوباره به همان پهنای ورودی برمی‌گرداند:
#
# `y = (silu(x W_gate) * (x W_up)) W_down`، با `silu(a) = a sigmoid(a)`.
#
# آن را بنویسید و با نسخهٔ کتابخانه مقایسه کنید، که همهٔ شبیه‌سازی‌های موازی این دوره با آن
# سنجیده می‌شوند.

# %%
HIDDEN, FFN, TOKENS, TP = 8, 32, 5, 4
rng = np.random.default_rng(0)
weights = SwiGLUWeights(
    #[en] (h, f)
    #[ca] (h, f)
    #[fa] (h, f)
    gate=rng.standard_normal((HIDDEN, FFN)) / np.sqrt(HIDDEN),
    #[en] (h, f)
    #[ca] (h, f)
    #[fa] (h, f)
    up=rng.standard_normal((HIDDEN, FFN)) / np.sqrt(HIDDEN),
    #[en] (f, h)
    #[ca] (f, h)
    #[fa] (f, h)
    down=rng.standard_normal((FFN, HIDDEN)) / np.sqrt(FFN),
)
#[en] (N, h)
#[ca] (N, h)
#[fa] (N, h)
x = rng.standard_normal((TOKENS, HIDDEN))


def silu(a):
    return a / (1 + np.exp(-a))


def my_mlp(x, gate, up, down):
    #[en] (N, h)
    #[ca] (N, h)
    #[fa] (N, h)
    return (silu(x @ gate) * (x @ up)) @ down


y = my_mlp(x, weights.gate, weights.up, weights.down)
checks.append(("own_vs_library", difference(y, swiglu_mlp(x, weights))))
assert checks[-1][1] < 1e-14, f"{checks[-1][1]} >= 1e-14"

# %% [markdown] lang="en"
# ## Split the first two matrices by columns
#
# Give rank `r` a block of columns of `W_gate` and the *same* block of columns of `W_up`.
# It computes its slice of `x W_gate` and of `x W_up` from the whole `x`, which every rank
# has. `silu` and the product act element by element, so the rank can apply them to its
# slice alone: no communication so far, and the slices, side by side, are the full hidden
# activation.

# %% [markdown] lang="ca"
# ## Partir les dues primeres matrius per columnes
#
# Doneu al rang `r` un bloc de columnes de `W_gate` i el *mateix* bloc de columnes de `W_up`.
# El rang calcula el seu tros de `x W_gate` i de `x W_up` a partir de la `x` sencera, que
# tenen tots els rangs. `silu` i el producte actuen element a element, de manera que el rang
# els pot aplicar només al seu tros: fins aquí no hi ha cap comunicació, i els trossos,
# col·locats l'un al costat de l'altre, formen l'activació oculta completa.

# %% [markdown] lang="fa"
# ## دو ماتریس اول را ستونی تقسیم کنید
#
# به رنک `r` بلوکی از ستون‌های `W_gate` و *همان* بلوک از ستون‌های `W_up` را بدهید. این رنک برش
# خودش از `x W_gate` و `x W_up` را از روی کل `x`، که همهٔ رنک‌ها آن را دارند، حساب می‌کند.
# `silu` و ضرب درایه به درایه عمل می‌کنند، پس رنک می‌تواند آن‌ها را فقط روی برش خودش اعمال کند:
# تا اینجا هیچ ارتباطی لازم نیست، و برش‌ها، کنار هم، همان فعال‌سازی کامل لایهٔ پنهان‌اند.

# %%
#[en] TP x (h, f/TP)
#[ca] TP x (h, f/TP)
#[fa] TP x (h, f/TP)
gate_cols = np.split(weights.gate, TP, axis=1)
#[en] TP x (h, f/TP)
#[ca] TP x (h, f/TP)
#[fa] TP x (h, f/TP)
up_cols = np.split(weights.up, TP, axis=1)
#[en] TP x (N, f/TP)
#[ca] TP x (N, f/TP)
#[fa] TP x (N, f/TP)
hidden = [silu(x @ g) * (x @ u) for g, u in zip(gate_cols, up_cols)]

#[en] (N, f)
#[ca] (N, f)
#[fa] (N, f)
full_hidden = silu(x @ weights.gate) * (x @ weights.up)
checks.append(("column_concat", difference(np.concatenate(hidden, axis=1), full_hidden)))
assert checks[-1][1] < 1e-14, f"{checks[-1][1]} >= 1e-14"

# %% [markdown] lang="en"
# ## Then split the last matrix by rows
#
# Rank `r` holds the rows of `W_down` that match its hidden columns. Its product is a
# *partial* output with every column of `y`, but only its share of the sum that a matrix
# product is. Adding the ranks' partial outputs gives `y`: that addition is the MLP's one
# all-reduce, after which every rank holds the output. Use the ring all-reduce of the data
# parallelism lab (the library's) and count its bytes.

# %% [markdown] lang="ca"
# ## Després, partir l'última matriu per files
#
# El rang `r` té les files de `W_down` que corresponen a les seves columnes ocultes. El seu
# producte és una sortida *parcial*: té totes les columnes de `y`, però només la seva
# contribució a la suma que forma un producte de matrius. Si se sumen les sortides parcials dels rangs,
# s'obté `y`: aquesta suma és l'únic all-reduce de l'MLP, i, després d'aquest, tots els rangs
# tenen la sortida. Feu servir l'all-reduce en anell del laboratori de paral·lelisme de dades
# (el de la biblioteca) i compteu-ne els bytes.

# %% [markdown] lang="fa"
# ## سپس ماتریس آخر را سطری تقسیم کنید
#
# رنک `r` سطرهایی از `W_down` را نگه می‌دارد که با ستون‌های پنهان خودش متناظرند. حاصل ضربش یک
# خروجی *جزئی* است: همهٔ ستون‌های `y` را دارد، اما ضرب ماتریسی در واقع یک جمع است و این خروجی
# فقط سهم همین رنک از آن جمع است. جمع خروجی‌های جزئی رنک‌ها `y` را می‌دهد: این جمع همان تنها all-reduce این
# MLP است، که پس از آن همهٔ رنک‌ها خروجی را در اختیار دارند. از all-reduce حلقوی آزمایشگاه
# موازی‌سازی داده (نسخهٔ کتابخانه) استفاده کنید و بایت‌هایش را بشمارید.

# %%
#[en] TP x (f/TP, h)
#[ca] TP x (f/TP, h)
#[fa] TP x (f/TP, h)
down_rows = np.split(weights.down, TP, axis=0)
#[en] TP x (N, h)
#[ca] TP x (N, h)
#[fa] TP x (N, h)
partials = [h_r @ d_r for h_r, d_r in zip(hidden, down_rows)]
reduced = ring_all_reduce(partials)
checks.append(("row_sum", max(difference(out, y) for out in reduced.outputs)))
assert checks[-1][1] < 1e-14, f"{checks[-1][1]} >= 1e-14"

# %% [markdown] lang="en"
# ## Why not the other order?
#
# Split `W_gate` and `W_up` by *rows* instead, and give each rank a slice of the columns of
# `x`. Each rank then holds a partial sum of `x W_gate`, not a slice of it; and `silu` of a
# partial sum is not a part of `silu` of the sum. The ranks would have to all-reduce
# *before* the activation, and again after `W_down`. See how wrong skipping that first
# all-reduce is:

# %% [markdown] lang="ca"
# ## Per què no a l'inrevés?
#
# Partiu ara `W_gate` i `W_up` per *files*, i doneu a cada rang un tros de les columnes de
# `x`. Aleshores, cada rang té una suma parcial de `x W_gate`, no pas un tros; i la `silu`
# d'una suma parcial no és una part de la `silu` de la suma. Els rangs haurien de fer un
# all-reduce *abans* de l'activació, i un altre després de `W_down`. Mireu fins a quin punt
# és erroni saltar-se aquest primer all-reduce:

# %% [markdown] lang="fa"
# ## چرا ترتیب برعکس نه؟
#
# این بار `W_gate` و `W_up` را *سطری* تقسیم کنید و به هر رنک برشی از ستون‌های `x` بدهید. در این
# صورت هر رنک یک مجموع جزئی از `x W_gate` دارد، نه برشی از آن؛ و `silu` یک مجموع جزئی، بخشی از
# `silu` کل مجموع نیست. رنک‌ها باید *پیش از* تابع فعال‌سازی all-reduce کنند، و بار دیگر پس از
# `W_down`. ببینید کنار گذاشتن آن all-reduce اول چقدر نتیجه را خراب می‌کند:

# %%
#[en] TP x (N, h/TP)
#[ca] TP x (N, h/TP)
#[fa] TP x (N, h/TP)
x_cols = np.split(x, TP, axis=1)
#[en] TP x (h/TP, f)
#[ca] TP x (h/TP, f)
#[fa] TP x (h/TP, f)
gate_rows = np.split(weights.gate, TP, axis=0)
up_rows = np.split(weights.up, TP, axis=0)
wrong = sum(silu(xr @ g) * (xr @ u) for xr, g, u in zip(x_cols, gate_rows, up_rows))
checks.append(("activation_on_partials", difference(wrong, full_hidden)))
assert checks[-1][1] > 0.1, f"{checks[-1][1]} <= 0.1"

table([t("check"), t("max_error")],
      [(t(what), format_scientific(value, LOCALE)) for what, value in checks], [False, True])

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# Les tres primeres files només mostren error d'arrodoniment; l'última és una resposta incorrecta.
#
# ## Contrastat amb la biblioteca
#
# La funció `megatron_mlp` de la biblioteca executa la mateixa configuració: cada rang aplica
# l'MLP d'un sol dispositiu al seu fragment dels pesos (un fragment d'un MLP és un MLP més
# petit), i després es fa un all-reduce. Compareu-ne les sortides, el nombre d'all-reduces i
# els bytes amb els vostres. Després, el backward: pel mateix argument, cada rang fa el
# backward del seu propi MLP més petit, cosa que li dona directament els gradients dels seus pesos; només
# el gradient de l'entrada és una suma parcial, i necessita l'únic all-reduce del backward.

# %% [markdown] lang="fa"
# سه سطر اول فقط خطای گردکردن ممیز شناورند؛ سطر آخر یک پاسخ نادرست است.
#
# ## در برابر کتابخانه
#
# تابع `megatron_mlp` کتابخانه همین چیدمان را اجرا می‌کند: هر رنک MLP تک‌دستگاهی را روی شارد خودش
# از وزن‌ها اعمال می‌کند (شاردی از یک MLP خودش یک MLP کوچک‌تر است)، و سپس یک all-reduce.
# خروجی‌ها، تعداد all-reduceها و بایت‌هایش را با نسخهٔ خودتان مقایسه کنید. سپس گذر رو به عقب: با
# همان استدلال، هر رنک از MLP کوچک‌تر خودش مشتق می‌گیرد و گرادیان وزن‌های خودش را مستقیماً به
# دست می‌آورد؛ فقط گرادیان ورودی یک مجموع جزئی است و به تنها all-reduce گذر رو به عقب نیاز دارد.

# %%
result = megatron_mlp(x, weights, TP)
for out in result.rank_outputs:
    #[en] every rank holds the same output
    #[ca] tots els rangs tenen la mateixa sortida
    #[fa] همهٔ رنک‌ها خروجی یکسانی دارند
    assert np.array_equal(out, result.rank_outputs[0]), (
        f"max |diff| = {np.abs(out - result.rank_outputs[0]).max()}")
    assert difference(out, y) < 1e-14, f"{difference(out, y)} >= 1e-14"
assert result.comm.all_reduces == 1 and result.comm.backward_all_reduces == 1, (
    f"{(result.comm.all_reduces, result.comm.backward_all_reduces)} != (1, 1)")
assert result.comm.sent_bytes == reduced.sent_bytes, (
    f"{result.comm.sent_bytes} != {reduced.sent_bytes}")
assert all(b == ring_bytes("all_reduce", y.nbytes, TP) for b in reduced.sent_bytes), (
    f"{reduced.sent_bytes} != {ring_bytes('all_reduce', y.nbytes, TP)}")

#[en] (N, h): some gradient arriving from above
#[ca] (N, h): un gradient qualsevol que arriba de les capes de sobre
#[fa] گرادیانی دلخواه با شکل (N, h) که از لایه‌های بالاتر می‌رسد
grad_y = rng.standard_normal(y.shape)
single = swiglu_mlp_backward(x, weights, grad_y)
shards = [SwiGLUWeights(g, u, d) for g, u, d in zip(gate_cols, up_cols, down_rows)]
#[en] each rank alone
#[ca] cada rang pel seu compte
#[fa] هر رنک به‌تنهایی
mine = [swiglu_mlp_backward(x, shard, grad_y) for shard in shards]
#[en] the backward's all-reduce
#[ca] l'all-reduce del backward
#[fa] عملیات all-reduce در گذر رو به عقب
my_input_grad = sum(m.x for m in mine)
library = megatron_mlp_backward(x, weights, grad_y, TP)
assert library.comm.all_reduces == 1, f"{library.comm.all_reduces} != 1"
for rank in range(TP):
    assert difference(library.grad_input[rank], my_input_grad) < 1e-14, (
        f"{rank=}: {difference(library.grad_input[rank], my_input_grad)} >= 1e-14")
    for name in ("gate", "up", "down"):
        library_grad = getattr(library.weight_grads[rank], name)
        my_grad = getattr(mine[rank].weights, name)
        assert np.array_equal(library_grad, my_grad), (
            f"{rank=} {name=}: max |diff| = {np.abs(library_grad - my_grad).max()}")
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

# %% [markdown] lang="en"
# ## What it costs at scale
#
# A transformer block has two such sublayers, attention (split by heads, which play the
# role of the hidden columns) and the MLP: two all-reduces in the forward, two in the
# backward. Each all-reduces the activations of a micro-batch, one value per token and
# hidden unit, in bf16. With the ring's closed form, write the bytes each GPU sends per
# layer for one micro-batch, and compare with the library's `tp_bytes_per_layer`:

# %% [markdown] lang="ca"
# ## Què costa a gran escala
#
# Un bloc de transformer té dues subcapes d'aquest tipus, l'atenció (partida per caps, que fan
# el paper de les columnes ocultes) i l'MLP: dos all-reduces al forward i dos al backward.
# Cadascun suma les activacions d'un microlot, un valor per token i per unitat oculta, en
# bf16. Amb la fórmula tancada de l'anell, escriviu els bytes que envia cada GPU per capa en
# un microlot, i compareu-los amb la funció `tp_bytes_per_layer` de la biblioteca:

# %% [markdown] lang="fa"
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
assert (count.forward, count.backward) == (2, 2), f"{(count.forward, count.backward)} != (2, 2)"
activation = SEQ * MICRO_BATCH * model.hidden_size * BF16_BYTES
rows = []
for tp in (2, 4, 8):
    mine = 4 * 2 * (tp - 1) * activation / tp
    assert mine == tp_bytes_per_layer(SEQ, MICRO_BATCH, model.hidden_size, tp), (
        f"{tp=}: {mine} != {tp_bytes_per_layer(SEQ, MICRO_BATCH, model.hidden_size, tp)}")
    rows.append((format_number(tp, LOCALE), format_quantity(mine, "MB", LOCALE),
                 format_quantity(mine * model.num_layers, "GB", LOCALE, digits=1)))
table([t("tp_degree"), t("sent_gpu_layer"), f"{t('comm_micro_batch')} ({model.display_name})"],
      rows, [True, True, True])
print(f"{t('tokens')}: {format_number(SEQ * MICRO_BATCH, LOCALE)}")
nvlink, network = get_interconnect("nvlink4"), get_interconnect("ib-ndr")
speedup = nvlink.bandwidth / network.bandwidth
print(f"{nvlink.display_name} ÷ {network.display_name}: {format_quantity(speedup, 'x', LOCALE)}")
#[en] the text below: several times
#[ca] el text de sota: diverses vegades més
#[fa] متن زیر: چند برابر
assert speedup >= 3, f"{speedup} < 3"

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# La major part d'aquests bytes són al camí crític: al forward, el producte de matrius següent
# necessita el resultat de l'all-reduce. Al backward, Megatron-LM solapa l'all-reduce del
# gradient de l'entrada amb el producte que calcula el gradient dels pesos, i els entorns d'entrenament
# ofereixen opcions per solapar més comunicació del paral·lelisme de tensors amb el càlcul
# (partint els productes en trossos), però només n'amaguen una part. Per això el paral·lelisme
# de tensors es queda dins d'un sol servidor, on
# NVLink transporta diverses vegades més bytes per segon que la xarxa entre servidors
# (l'última línia de més amunt: per GPU i per sentit, segons el catàleg d'enllaços del curs).
#
# ## Ara us toca a vosaltres
#
# - Repartiu l'MLP entre un nombre de rangs que no sigui divisor de `FFN`. Què falla, i on
#   caldria afegir el farciment?
# - Afegiu la subcapa d'atenció: partiu `W_q`, `W_k` i `W_v` per caps (columnes) i `W_o` per
#   files, amb `distlesson.parallel.tensor.megatron_attention` com a referència.
# - Com canvien els bytes per capa amb el paral·lelisme de seqüència, que substitueix cada
#   all-reduce per un reduce-scatter i un all-gather?

# %% [markdown] lang="fa"
# بیشتر این بایت‌ها روی مسیر بحرانی‌اند: در گذر رو به جلو، ضرب ماتریسی بعدی به نتیجهٔ all-reduce
# نیاز دارد. در گذر رو به عقب، Megatron-LM عملیات all-reduce گرادیان ورودی را با ضرب ماتریسی‌ای که
# گرادیان وزن‌ها را حساب می‌کند هم‌پوشان می‌کند، و چارچوب‌ها گزینه‌هایی دارند که بخش بیشتری از
# ارتباطات موازی‌سازی تنسوری را با محاسبه هم‌پوشان می‌کنند (با تکه‌تکه کردن ضرب‌ها)، اما این‌ها
# فقط بخشی از آن را پنهان می‌کنند. به همین دلیل موازی‌سازی تنسوری درون یک سرور می‌ماند، جایی
# که NVLink در هر ثانیه چند برابر شبکهٔ میان
# سرورها بایت جابه‌جا می‌کند (سطر آخر خروجی بالا: به‌ازای هر GPU و هر جهت، از فهرست پیوندهای این
# دوره).
#
# ## نوبت شما
#
# - MLP را میان تعدادی رنک تقسیم کنید که `FFN` بر آن بخش‌پذیر نباشد. چه چیزی خطا می‌دهد، و
#   پدینگ کجا باید اضافه شود؟
# - زیرلایهٔ توجه را اضافه کنید: `W_q` و `W_k` و `W_v` را بر اساس سرها (ستونی) و `W_o` را سطری
#   تقسیم کنید، و `distlesson.parallel.tensor.megatron_attention` را مرجع قرار دهید.
# - با موازی‌سازی دنباله، که هر all-reduce را با یک reduce-scatter و یک all-gather جایگزین
#   می‌کند، بایت‌های هر لایه چگونه تغییر می‌کنند؟
