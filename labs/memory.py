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

# %% [markdown] lang="ca"
# # Laboratori: la calculadora de memòria
#
# Quantes GPU calen només per *contenir* un model mentre s'entrena? En aquest laboratori
# construireu la resposta vosaltres mateixos, en unes quantes línies de Python, i després
# contrastareu cada pas amb la biblioteca `distlesson`, que és la que calcula les xifres del
# curs. El pla:
#
# - els bytes d'un valor en cada format de coma flotant;
# - els bytes que l'entrenament guarda per paràmetre, segons la recepta de precisió i
#   l'optimitzador;
# - els estats del model d'una arquitectura real, i les GPU que calen per contenir-los;
# - la comparació en què tothom s'equivoca: quant estalvia de debò la precisió mixta.
#
# Cada pas acaba amb un `assert` que comprova que el vostre resultat és igual al de la
# biblioteca. El lloc web executa aquest quadern cada vegada que es genera, de manera que, si
# algun dia la biblioteca s'aparta del que heu deduït aquí, la generació falla. Només es
# compten els *estats del model* (pesos, gradients, còpia mestra i estats de l'optimitzador):
# les activacions s'hi afegeixen i són el tema d'un altre capítol.
#
# La primera cel·la fixa la llengua en què s'imprimeixen les xifres: `en`, `ca` o `fa`.

# %% [markdown] lang="fa"
# # آزمایشگاه: ماشین‌حساب حافظه
#
# فقط برای اینکه مدلی را در طول آموزش *نگه داریم* چند GPU لازم است؟ در این آزمایشگاه پاسخ را
# خودتان با چند خط پایتون به دست می‌آورید و بعد هر گام را با کتابخانهٔ `distlesson`، که اعداد
# این دوره را محاسبه می‌کند، محک می‌زنید. برنامهٔ کار:
#
# - تعداد بایت‌های یک مقدار در هر قالب ممیز شناور؛
# - بایت‌هایی که آموزش به‌ازای هر پارامتر نگه می‌دارد، برای یک روش دقت (precision recipe) و
#   یک بهینه‌ساز؛
# - حالت‌های مدل یک معماری واقعی، و تعداد GPUهایی که برای نگه‌داشتنشان لازم است؛
# - مقایسه‌ای که تقریباً همه در آن اشتباه می‌کنند: دقت مختلط واقعاً چقدر صرفه‌جویی می‌کند.
#
# هر گام با یک `assert` تمام می‌شود که بررسی می‌کند نتیجهٔ شما با نتیجهٔ کتابخانه برابر است.
# سایت این نوت‌بوک را در هر بار ساخت اجرا می‌کند، پس اگر کتابخانه روزی از آنچه اینجا به دست
# آورده‌اید فاصله بگیرد، ساخت سایت با خطا متوقف می‌شود. فقط *حالت‌های مدل* شمرده می‌شوند (وزن‌ها، گرادیان‌ها،
# نسخهٔ اصلی و حالت بهینه‌ساز): فعال‌سازی‌ها جدا از این‌ها حافظه می‌گیرند و موضوع فصل دیگری‌اند.
#
# نخستین سلول زبانِ اعدادی را که چاپ می‌شوند تعیین می‌کند: `en`، `ca` یا `fa`.

# %%
LOCALE = "en"

# %%
import math
from fractions import Fraction

import ml_dtypes
import numpy as np
from IPython.display import HTML, Markdown, display

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.memory.precision import BF16, FP32
from distlesson.memory.states import (
    Layout, bytes_per_param, min_gpus, model_states, per_gpu_states, saving_against_fp32)
from distlesson.pages.lab_labels import OPTIMIZER_NAMES, PRESET_NAMES, label
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.svg import stacked_barh
from distlesson.render.tables import Table, markdown_table
from distlesson.site.captions import NotebookFigures


def t(key):
    #[en] The word for ``key`` in the notebook's language (the course's own labels).
    #[ca] La paraula per a ``key`` en la llengua del quadern (les etiquetes del mateix curs).
    #[fa] واژهٔ ``key`` به زبان نوت‌بوک (از برچسب‌های خود این دوره).
    return label(key, LOCALE)


def table(headers, rows, numeric):
    #[en] Show a table of already formatted cells.
    #[ca] Mostra una taula de cel·les ja formatades.
    #[fa] جدولی را نمایش می‌دهد که خانه‌هایش از پیش قالب‌بندی شده‌اند.
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


# %% [markdown] lang="en"
# ## The bytes of a value
#
# A format's size follows from its bits: a sign, an exponent and a mantissa. numpy knows
# fp32; bf16 comes from `ml_dtypes`, the package JAX uses for it. The library derives the
# same sizes from the bit layouts it stores, so the two sources are independent.

# %% [markdown] lang="ca"
# ## Els bytes d'un valor
#
# La mida d'un format es dedueix dels seus bits: un signe, un exponent i una mantissa. numpy
# coneix fp32; bf16 ve de `ml_dtypes`, el paquet que JAX fa servir per a aquest format. La
# biblioteca dedueix les mateixes mides a partir de les estructures de bits que té desades,
# de manera que les dues fonts són independents.

# %% [markdown] lang="fa"
# ## بایت‌های یک مقدار
#
# اندازهٔ هر قالب از بیت‌هایش به دست می‌آید: یک بیت علامت، چند بیت نما و چند بیت مانتیس. numpy
# قالب fp32 را می‌شناسد؛ bf16 از `ml_dtypes` می‌آید، بسته‌ای که JAX برای همین قالب به کار می‌برد.
# کتابخانه همین اندازه‌ها را از روی ساختار بیتی قالب‌هایی که خودش نگه می‌دارد به دست می‌آورد، پس این
# دو منبع از هم مستقل‌اند.

# %%
FORMAT_BYTES = {
    "fp32": np.dtype(np.float32).itemsize,
    "bf16": np.dtype(ml_dtypes.bfloat16).itemsize,
}
for name, size in FORMAT_BYTES.items():
    print(f"{name}: {format_quantity(size, 'bytes', LOCALE)}")

assert FORMAT_BYTES["fp32"] == FP32.bytes and FORMAT_BYTES["bf16"] == BF16.bytes, (
    f"{(FORMAT_BYTES['fp32'], FORMAT_BYTES['bf16'])} != {(FP32.bytes, BF16.bytes)}")

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# ## Bytes per paràmetre
#
# L'entrenament guarda quatre coses per a cada paràmetre:
#
# - els **pesos**, que llegeixen el forward i el backward;
# - els **gradients** d'aquests pesos;
# - en precisió mixta, una **còpia mestra** dels pesos en fp32, que és la que actualitza
#   l'optimitzador (bf16 té massa pocs bits de mantissa per absorbir actualitzacions petites);
# - els **estats de l'optimitzador**: AdamW guarda dos moments, `m` i `v`, en fp32; SGD amb
#   moment i Lion en guarden un.
#
# Una recepta indica en quin format es guarda cadascuna d'aquestes peces. Escriviu la suma per
# a les quatre receptes que fa servir el curs: tot en fp32, precisió mixta amb còpia mestra,
# precisió mixta sense còpia mestra i la configuració per defecte de Megatron-LM, amb els
# gradients en fp32.

# %% [markdown] lang="fa"
# ## بایت به‌ازای هر پارامتر
#
# آموزش برای هر پارامتر چهار چیز نگه می‌دارد:
#
# - **وزن‌هایی** که گذرهای رو به جلو و رو به عقب می‌خوانند؛
# - **گرادیان‌های** همین وزن‌ها؛
# - در دقت مختلط، یک **نسخهٔ اصلی** از وزن‌ها در fp32 که بهینه‌ساز آن را به‌روز می‌کند (bf16
#   بیت‌های مانتیس کافی برای جذب به‌روزرسانی‌های کوچک ندارد)؛
# - **حالت بهینه‌ساز**: AdamW دو گشتاور، `m` و `v`، را در fp32 نگه می‌دارد؛ SGD با تکانه و
#   Lion فقط یکی.
#
# هر روش مشخص می‌کند که هر کدام از این‌ها در چه قالبی نگه داشته شود. مجموع را برای چهار روشی
# بنویسید که در این دوره به کار می‌روند: همه‌چیز در fp32، دقت مختلط با نسخهٔ اصلی، دقت مختلط
# بدون آن، و پیش‌فرض Megatron-LM با گرادیان‌های fp32.

# %%
B = FORMAT_BYTES
#[en] weights, gradients, master copy (None: no copy), optimizer state
#[ca] pesos, gradients, còpia mestra (None: sense còpia), estats de l'optimitzador
#[fa] وزن‌ها، گرادیان‌ها، نسخهٔ اصلی (None: بدون نسخهٔ اصلی)، حالت بهینه‌ساز
RECIPES = {
    "fp32": (B["fp32"], B["fp32"], None, B["fp32"]),
    "mixed": (B["bf16"], B["bf16"], B["fp32"], B["fp32"]),
    "mixed-no-master": (B["bf16"], B["bf16"], None, B["fp32"]),
    "mixed-fp32-grads": (B["bf16"], B["fp32"], B["fp32"], B["fp32"]),
}
#[en] state buffers the size of the weights
#[ca] buffers d'estat de la mida dels pesos
#[fa] بافرهای حالت هم‌اندازهٔ وزن‌ها
MOMENTS = {"adamw": 2, "sgd": 1, "lion": 1}


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

# %% [markdown] lang="en"
# The library answers the same question with `bytes_per_param`, which returns a breakdown
# (exact fractions, not floats). Compare every field, for every recipe and optimizer:

# %% [markdown] lang="ca"
# La biblioteca respon la mateixa pregunta amb `bytes_per_param`, que retorna un desglossament
# (en fraccions exactes, no en coma flotant). Compareu-ne tots els camps, per a cada recepta i cada
# optimitzador:

# %% [markdown] lang="fa"
# کتابخانه به همین پرسش با `bytes_per_param` پاسخ می‌دهد که ریز اجزا را برمی‌گرداند (به‌صورت
# کسرهای دقیق، نه اعداد ممیز شناور). همهٔ فیلدها را برای همهٔ روش‌ها و بهینه‌سازها مقایسه کنید:

# %%
#[en] bytes per parameter do not depend on the count for these optimizers
#[ca] amb aquests optimitzadors, els bytes per paràmetre no depenen del nombre de paràmetres
#[fa] برای این بهینه‌سازها، بایت به‌ازای هر پارامتر به تعداد پارامترها بستگی ندارد
ANY_COUNT = 1_000_000
for recipe in RECIPES:
    for optimizer in MOMENTS:
        library = bytes_per_param(ANY_COUNT, optimizer=optimizer, precision=recipe)
        assert my_bytes_per_param(recipe, optimizer) == {
            "weights": library.weights, "grads": library.grads,
            "master": library.master, "optimizer": library.optimizer}, (recipe, optimizer)
print(f"{t('bpp')}: {t('same_as_library')}")

# %% [markdown] lang="en"
# 8-bit Adam is the odd one out: each moment is stored as one-byte codes plus one fp32 scale
# for every block of values, so its cost per parameter depends on how the count divides
# into blocks. The block size is an input of the library, with its source; the formula is
# yours:

# %% [markdown] lang="ca"
# Adam de vuit bits és l'excepció: cada moment es guarda en codis d'un byte més una escala
# fp32 per cada bloc de valors, de manera que el seu cost per paràmetre depèn de com es
# reparteixen els paràmetres en blocs. La mida del bloc és una dada d'entrada de la
# biblioteca, amb la seva font; la fórmula és cosa vostra:

# %% [markdown] lang="fa"
# Adam هشت‌بیتی با بقیه فرق دارد: هر گشتاور به‌صورت کدهای یک‌بایتی ذخیره می‌شود، به‌علاوهٔ یک
# ضریب مقیاس fp32 برای هر بلوک از مقادیر، پس هزینه‌اش به‌ازای هر پارامتر به این بستگی دارد که
# تعداد پارامترها چگونه به بلوک‌ها تقسیم شود. اندازهٔ بلوک یکی از ورودی‌های کتابخانه است و منبعش
# هم کنارش ثبت شده؛ فرمول را شما می‌نویسید:

# %%
from distlesson.memory.optimizers import get_optimizer

BLOCK = get_optimizer("adam8bit").block_size


def my_adam8bit_bytes(count):
    #[en] codes + scales
    #[ca] codis + escales
    #[fa] کدها + ضریب‌های مقیاس
    one_moment = count * 1 + math.ceil(count / BLOCK) * B["fp32"]
    return 2 * one_moment


rows = []
for count in (BLOCK, BLOCK + 1):
    library = model_states(count, optimizer="adam8bit", precision="mixed").optimizer
    assert my_adam8bit_bytes(count) == library, (
        f"{count=}: {my_adam8bit_bytes(count)} != {library}")
    rows.append((format_number(count, LOCALE),
                 format_number(float(Fraction(library, count)), LOCALE, digits=4)))
table([t("params"), f"{t('bpp')} ({OPTIMIZER_NAMES['adam8bit'][LOCALE]})"], rows,
      [True, True])

# %% [markdown] lang="en"
# ## The states of a real model, and the GPUs to hold them
#
# The catalog holds published architectures; the library counts their parameters tensor by
# tensor. Multiply by the bytes per parameter and divide by the memory of one GPU, rounding
# up: that is the fewest GPUs whose memory, pooled, holds the states. Pooling is what
# ZeRO-3 and FSDP do, so the same division also gives the states per GPU under ZeRO-3.

# %% [markdown] lang="ca"
# ## Els estats d'un model real, i les GPU per contenir-los
#
# El catàleg recull arquitectures publicades, i la biblioteca en compta els paràmetres tensor
# per tensor. Multipliqueu-los pels bytes per paràmetre i dividiu el resultat per la memòria
# d'una GPU, arrodonint per excés: és el mínim de GPU que, posant la memòria en comú, poden
# contenir els estats. Posar la memòria en comú és justament el que fan ZeRO-3 i FSDP, de
# manera que la mateixa divisió dona també els estats per GPU amb ZeRO-3.

# %% [markdown] lang="fa"
# ## حالت‌های یک مدل واقعی، و GPUهایی که آن‌ها را نگه می‌دارند
#
# فهرست مدل‌های کتابخانه معماری‌های منتشرشده را در خود دارد و کتابخانه پارامترهایشان را تنسور به
# تنسور می‌شمارد. این تعداد را در بایت به‌ازای هر پارامتر ضرب کنید، حاصل را بر حافظهٔ یک GPU
# تقسیم کنید و به بالا گرد کنید: این کمترین تعداد GPUهایی است که حافظهٔ روی‌هم‌رفته‌شان حالت‌ها را
# در خود جا می‌دهد. روی هم گذاشتن حافظه‌ها دقیقاً کاری است که ZeRO-3 و FSDP انجام می‌دهند، پس
# همین تقسیم، حالت‌های هر GPU در ZeRO-3 را هم به دست می‌دهد.

# %%
MODELS = ("llama3-8b", "llama3-70b", "llama3-405b")
GPU = get_gpu("h100-sxm")
GPU_BYTES = int(GPU.memory_bytes)


def my_states(count, recipe="mixed", optimizer="adamw"):
    return count * sum(my_bytes_per_param(recipe, optimizer).values())


def my_min_gpus(total):
    #[en] ceiling division, in integers: no float residue
    #[ca] divisió arrodonida per excés, amb enters: sense residus de coma flotant
    #[fa] تقسیم با گردکردن به بالا، با اعداد صحیح: بی هیچ خطای ممیز شناور
    return -(-total // GPU_BYTES)


rows = []
for key in MODELS:
    model = get_model(key)
    total = my_states(model.num_params)
    gpus = my_min_gpus(total)
    library = model_states(model, optimizer="adamw", precision="mixed")
    assert total == library.total, f"{key=}: {total} != {library.total}"
    assert gpus == min_gpus(library.total, GPU.memory_bytes), (
        f"{key=}: {gpus} != {min_gpus(library.total, GPU.memory_bytes)}")
    rows.append((model.display_name, format_quantity(model.num_params, "B params", LOCALE, digits=1),
                 format_quantity(total, "GB", LOCALE), format_number(gpus, LOCALE)))
table([t("model"), t("params"), t("total"),
       t("gpus80").format(gb=format_quantity(GPU_BYTES, "GB", LOCALE))],
      rows, [False, True, True, True])

# %% [markdown] lang="en"
# Holding the states is only the floor: activations, temporary buffers and fragmentation
# need room too, so real jobs use more GPUs than the last column.
#
# Now split the states of Llama 3 70B over `DP` GPUs with each ZeRO stage. Stage one shards
# the optimizer state (and the master copy) over the data-parallel ranks, stage two the
# gradients too, stage three the weights as well:

# %% [markdown] lang="ca"
# Contenir els estats només és el punt de partida: les activacions, els buffers temporals i
# la fragmentació també necessiten espai, i per això els entrenaments reals fan servir més
# GPU que les de l'última columna.
#
# Ara repartiu els estats de Llama 3 70B entre `DP` GPU amb cada etapa de ZeRO. La primera
# etapa particiona els estats de l'optimitzador (i la còpia mestra) entre els rangs de
# paral·lelisme de dades; la segona, també els gradients; i la tercera, a més, els pesos:

# %% [markdown] lang="fa"
# نگه‌داشتن حالت‌ها تازه حداقلِ کار است: فعال‌سازی‌ها، بافرهای موقت و چندپارگی حافظه
# (fragmentation) هم جا می‌خواهند، پس اجراهای واقعی به GPUهایی بیش از عدد ستون آخر نیاز دارند.
#
# حالا حالت‌های Llama 3 70B را با هر یک از مرحله‌های ZeRO میان `DP` GPU تقسیم کنید. مرحلهٔ اول
# حالت بهینه‌ساز (و نسخهٔ اصلی) را میان رنک‌های موازی‌سازی داده شارد می‌کند، مرحلهٔ دوم گرادیان‌ها
# را هم، و مرحلهٔ سوم وزن‌ها را هم:

# %%
model = get_model("llama3-70b")
states = model_states(model, optimizer="adamw", precision="mixed")
DP = 8


def my_zero(bpp, dp, stage):
    #[en] Bytes per parameter that one rank holds, per state, at ZeRO ``stage``.
    #[ca] Bytes per paràmetre que guarda un rang, per a cada estat, a l'etapa ``stage`` de ZeRO.
    #[fa] بایت‌هایی که یک رنک به‌ازای هر پارامتر، برای هر حالت، در مرحلهٔ ``stage`` از ZeRO
    #[fa] نگه می‌دارد.
    #[en] the stage from which each state is sharded
    #[ca] l'etapa a partir de la qual es particiona cada estat
    #[fa] مرحله‌ای که هر حالت از آن به بعد شارد می‌شود
    shard = {"weights": 3, "grads": 2, "master": 1, "optimizer": 1}
    return {name: Fraction(value, dp if stage >= shard[name] else 1)
            for name, value in bpp.items()}


rows = []
for stage in range(4):
    mine = {name: v * model.num_params
            for name, v in my_zero(my_bytes_per_param("mixed", "adamw"), DP, stage).items()}
    library = per_gpu_states(states, Layout(dp=DP, zero=stage))
    library_bytes = {name: getattr(library, name) for name in mine}
    assert mine == library_bytes, f"{stage=}: {mine} != {library_bytes}"
    total = sum(mine.values())
    rows.append((f"ZeRO-{stage}", *(format_quantity(v, "GB", LOCALE) for v in mine.values()),
                 format_quantity(total, "GB", LOCALE), t("yes" if total <= GPU_BYTES else "no")))
table([t("zero_stage"), t("weights"), t("grads"), t("master"), t("optimizer"), t("total"),
       t("fits").format(gb=format_quantity(GPU_BYTES, "GB", LOCALE))],
      rows, [False] + [True] * 5 + [False])

# %% [markdown] lang="en"
# ## What mixed precision saves
#
# Moving from fp32 to bf16 halves the bytes of the weights and of the gradients, so it is
# tempting to expect half the memory. Compare the totals of the recipes:

# %% [markdown] lang="ca"
# ## Què estalvia la precisió mixta
#
# Passar d'fp32 a bf16 redueix a la meitat els bytes dels pesos i dels gradients, i és
# temptador esperar que la memòria també es redueixi a la meitat. Compareu els totals de les
# receptes:

# %% [markdown] lang="fa"
# ## دقت مختلط چقدر صرفه‌جویی می‌کند
#
# رفتن از fp32 به bf16 بایت‌های وزن‌ها و گرادیان‌ها را نصف می‌کند، پس وسوسه‌انگیز است که انتظار
# داشته باشیم حافظه هم نصف شود. مجموع روش‌ها را با هم مقایسه کنید:

# %%
fp32 = sum(my_bytes_per_param("fp32", "adamw").values())
rows, savings = [], {}
for recipe in ("fp32", "mixed", "mixed-no-master"):
    per = sum(my_bytes_per_param(recipe, "adamw").values())
    saving = savings[recipe] = 1 - Fraction(per, fp32)
    assert saving == saving_against_fp32(model, precision=recipe, optimizer="adamw"), (
        f"{recipe=}: {saving} != "
        f"{saving_against_fp32(model, precision=recipe, optimizer='adamw')}")
    rows.append((PRESET_NAMES[recipe][LOCALE], format_number(per, LOCALE),
                 format_quantity(per * model.num_params, "GB", LOCALE),
                 format_percent(float(saving), LOCALE)))
table([t("preset"), t("bpp"), t("states_of").format(model=model.display_name), t("saving")],
      rows, [False, True, True, True])

adam_share = Fraction(my_bytes_per_param("fp32", "adamw")["optimizer"], fp32)
print(f"{t('adam_share')}: {format_percent(float(adam_share), LOCALE)}")
#[en] what the text below says: far from half, and the master copy takes back all bf16 saved
#[ca] el que diu el text de sota: l'estalvi queda lluny de la meitat, i la còpia mestra es
#[ca] menja tot el que estalvia bf16
#[fa] آنچه متن زیر می‌گوید: صرفه‌جویی با نصف فاصلهٔ زیادی دارد، و نسخهٔ اصلی هر چه را bf16
#[fa] صرفه‌جویی کرده بود پس می‌گیرد
assert all(s < Fraction(1, 2) for s in savings.values()) and savings["mixed"] == 0, (
    f"max {max(savings.values())} >= 1/2 or {savings['mixed']} != 0")

# %% [markdown] lang="en"
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

# %% [markdown] lang="ca"
# L'estalvi queda molt lluny de la meitat. Els dos moments d'AdamW es mantenen en fp32 sigui
# quina sigui la recepta, i per si sols ja representen la part dels bytes de l'entrenament en
# fp32 que s'ha imprès més amunt. Reduir a la meitat els pesos i els gradients només afecta la
# resta; i, a més, la recepta habitual hi afegeix una còpia mestra en fp32, que es menja tot
# el que s'havia estalviat. Sense còpia mestra, l'estalvi és el de l'última fila de la taula,
# a costa de perdre les actualitzacions massa petites perquè bf16 les pugui representar
# (el capítol [Estalviar memòria](../../saving-memory/) mostra com s'esvaeixen). La precisió mixta val la
# pena per la velocitat i per les activacions, no per la memòria dels estats del model: els
# tensor cores executen bf16 diverses vegades més de pressa que l'fp32 pur (tot i que només
# unes dues vegades més que en el seu mode `TF32`), i bf16 redueix a la meitat la memòria de
# les activacions i els bytes que envien el paral·lelisme de tensors i el de pipeline, que
# també són activacions.
#
# La mateixa comparació en forma de gràfic, dibuixat amb l'eina de gràfics de la biblioteca:

# %% [markdown] lang="fa"
# صرفه‌جویی با نصف فاصلهٔ زیادی دارد. دو گشتاور AdamW در هر روشی در fp32 می‌مانند و به‌تنهایی
# همان سهمی از بایت‌های آموزش fp32 را می‌گیرند که بالا چاپ شد. نصف‌کردن وزن‌ها و گرادیان‌ها فقط
# به بقیه دست می‌زند؛ و روش معمول بعد از آن یک نسخهٔ اصلی fp32 اضافه می‌کند که هر چه را این
# نصف‌کردن صرفه‌جویی کرده بود پس می‌گیرد. بدون نسخهٔ اصلی، صرفه‌جویی همان است که در سطر آخر
# جدول آمده، به بهای به‌روزرسانی‌هایی که برای نمایش در bf16 بیش از حد کوچک‌اند (فصل
# «[صرفه‌جویی در حافظه](../../saving-memory/)» نشان می‌دهد که چطور ناپدید می‌شوند). دقت مختلط به خاطر
# سرعت و فعال‌سازی‌ها می‌ارزد، نه به خاطر حافظهٔ حالت‌های مدل: هسته‌های تنسوری bf16 را چند برابر
# سریع‌تر از fp32 معمولی اجرا می‌کنند (هرچند فقط حدود دو برابر سریع‌تر از حالت `TF32` خودشان)، و
# bf16 حافظهٔ فعال‌سازی‌ها و بایت‌هایی را که موازی‌سازی تنسوری و موازی‌سازی خط لوله می‌فرستند
# نصف می‌کند؛ این بایت‌ها هم فعال‌سازی‌اند.
#
# همین مقایسه به‌صورت نمودار، که تابع کمکی رسم نمودار کتابخانه آن را کشیده است:

# %%
recipes = ("fp32", "mixed", "mixed-no-master", "mixed-fp32-grads")
per = [my_bytes_per_param(r, "adamw") for r in recipes]
figures = NotebookFigures(LOCALE)
display(HTML(figures.figure(stacked_barh(
    [PRESET_NAMES[r][LOCALE] for r in recipes],
    [(t(part), [float(p[part]) for p in per]) for part in ("weights", "grads", "master",
                                                           "optimizer")],
    xlabel=t("bpp"), locale=LOCALE,
    tick_format=lambda x: format_number(x, LOCALE, digits=0 if x == int(x) else 1),
    total_format=lambda x: format_number(x, LOCALE),
    name=f"lab-memory-{LOCALE}", title=t("bpp")),
    name="lab-recipes", caption=t("fig_recipes"))))

# %% [markdown] lang="en"
# ## Your turn
#
# - Replace AdamW by SGD with momentum in the model table: how many GPUs does Llama 3 405B need
#   now? Which state dominates?
# - Add a recipe that keeps AdamW's moments in bf16. What does it save, and why do
#   practitioners hesitate to use it?
# - Find the smallest ZeRO stage and the smallest number of data-parallel ranks at which
#   Llama 3 70B's states fit on one GPU of the catalog.

# %% [markdown] lang="ca"
# ## Ara us toca a vosaltres
#
# - Substituïu AdamW per SGD amb moment a la taula de models: quantes GPU necessita ara
#   Llama 3 405B? Quin estat hi domina?
# - Afegiu una recepta que guardi els moments d'AdamW en bf16. Què estalvia, i per què els
#   professionals dubten a fer-la servir?
# - Trobeu l'etapa de ZeRO més baixa i el nombre més petit de rangs de paral·lelisme de dades
#   amb què els estats de Llama 3 70B caben en una GPU del catàleg.

# %% [markdown] lang="fa"
# ## نوبت شما
#
# - در جدول مدل‌ها، AdamW را با SGD با تکانه جایگزین کنید: حالا Llama 3 405B به چند GPU نیاز
#   دارد؟ کدام حالت بیشترین سهم را دارد؟
# - روشی اضافه کنید که گشتاورهای AdamW را در bf16 نگه دارد. چقدر صرفه‌جویی می‌کند، و چرا کسانی که
#   در عمل مدل آموزش می‌دهند در به کار بردنش تردید دارند؟
# - کوچک‌ترین مرحلهٔ ZeRO و کمترین تعداد رنک‌های موازی‌سازی داده را پیدا کنید که با آن‌ها
#   حالت‌های Llama 3 70B روی یک GPU از فهرست جا می‌شوند.
