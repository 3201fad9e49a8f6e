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
# # آزمایشگاه: ماشین‌حساب حافظه
#
# فقط برای اینکه مدلی را در طول آموزش *نگه داریم* چند GPU لازم است؟ در این آزمایشگاه پاسخ را
# خودتان با چند خط پایتون به دست می‌آورید و بعد هر گام را با کتابخانهٔ `distlesson`، که اعداد
# این درس را محاسبه می‌کند، محک می‌زنید. برنامهٔ کار:
#
# - تعداد بایت‌های یک مقدار در هر قالب ممیز شناور؛
# - بایت‌هایی که آموزش به‌ازای هر پارامتر نگه می‌دارد، برای یک روش دقت (precision recipe) و
#   یک بهینه‌ساز؛
# - حالت‌های مدل یک معماری واقعی، و تعداد GPUهایی که برای نگه‌داشتنشان لازم است؛
# - مقایسه‌ای که تقریباً همه در آن اشتباه می‌کنند: دقت مختلط واقعاً چقدر صرفه‌جویی می‌کند.
#
# هر گام با یک `assert` تمام می‌شود که بررسی می‌کند نتیجهٔ شما با نتیجهٔ کتابخانه برابر است.
# سایت این نوت‌بوک را در هر بار ساخت اجرا می‌کند، پس اگر کتابخانه روزی از آنچه اینجا به دست
# آورده‌اید فاصله بگیرد، ساخت شکست می‌خورد. فقط *حالت‌های مدل* شمرده می‌شوند (وزن‌ها، گرادیان‌ها،
# نسخهٔ اصلی و حالت بهینه‌ساز): فعال‌سازی‌ها جدا از این‌ها حافظه می‌گیرند و موضوع فصل دیگری‌اند.
#
# نخستین سلول زبانِ اعدادی را که چاپ می‌شوند تعیین می‌کند: `en`، `ca` یا `fa`.

# %%
LOCALE = "fa"

# %%
from fractions import Fraction
import math

import ml_dtypes
import numpy as np
from IPython.display import HTML, Markdown, display

from distlesson.catalog.hardware import get_gpu
from distlesson.memory.states import (
    Layout, bytes_per_param, min_gpus, model_states, per_gpu_states, saving_against_fp32)
from distlesson.catalog.models import get_model
from distlesson.pages.lab_labels import OPTIMIZER_NAMES, PRESET_NAMES, label
from distlesson.memory.precision import BF16, FP32
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.render.svg import stacked_barh
from distlesson.render.tables import Table, markdown_table


def t(key):
    """The word for ``key`` in the notebook's language (the course's own labels)."""
    return label(key, LOCALE)


def table(headers, rows, numeric):
    """Show a table of already formatted cells."""
    display(Markdown(markdown_table(Table(tuple(headers), tuple(map(tuple, rows)),
                                          tuple(numeric)), LOCALE)))


# %% [markdown]
# ## بایت‌های یک مقدار
#
# اندازهٔ هر قالب از بیت‌هایش به دست می‌آید: یک بیت علامت، چند بیت نما و چند بیت مانتیس. numpy
# قالب fp32 را می‌شناسد؛ bf16 از `ml_dtypes` می‌آید، بسته‌ای که JAX برای همین قالب به کار می‌برد.
# کتابخانه همین اندازه‌ها را از روی چیدمان بیت‌هایی که خودش نگه می‌دارد به دست می‌آورد، پس این
# دو منبع از هم مستقل‌اند.

# %%
FORMAT_BYTES = {
    "fp32": np.dtype(np.float32).itemsize,
    "bf16": np.dtype(ml_dtypes.bfloat16).itemsize,
}
for name, size in FORMAT_BYTES.items():
    print(f"{name}: {format_quantity(size, 'bytes', LOCALE)}")

assert FORMAT_BYTES["fp32"] == FP32.bytes and FORMAT_BYTES["bf16"] == BF16.bytes

# %% [markdown]
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
# بنویسید که در این درس به کار می‌روند: همه‌چیز در fp32، دقت مختلط با نسخهٔ اصلی، دقت مختلط
# بدون آن، و پیش‌فرض Megatron-LM با گرادیان‌های fp32.

# %%
B = FORMAT_BYTES
RECIPES = {  # weights, gradients, master copy (None: no copy), optimizer state
    "fp32": (B["fp32"], B["fp32"], None, B["fp32"]),
    "mixed": (B["bf16"], B["bf16"], B["fp32"], B["fp32"]),
    "mixed-no-master": (B["bf16"], B["bf16"], None, B["fp32"]),
    "mixed-fp32-grads": (B["bf16"], B["fp32"], B["fp32"], B["fp32"]),
}
MOMENTS = {"adamw": 2, "sgd": 1, "lion": 1}  # state buffers the size of the weights


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

# %% [markdown]
# کتابخانه به همین پرسش با `bytes_per_param` پاسخ می‌دهد که ریز اجزا را برمی‌گرداند (به‌صورت
# کسرهای دقیق، نه اعداد ممیز شناور). همهٔ فیلدها را برای همهٔ روش‌ها و بهینه‌سازها مقایسه کنید:

# %%
ANY_COUNT = 1_000_000  # bytes per parameter do not depend on the count for these optimizers
for recipe in RECIPES:
    for optimizer in MOMENTS:
        library = bytes_per_param(ANY_COUNT, optimizer=optimizer, precision=recipe)
        assert my_bytes_per_param(recipe, optimizer) == {
            "weights": library.weights, "grads": library.grads,
            "master": library.master, "optimizer": library.optimizer}, (recipe, optimizer)
print(f"{t('bpp')}: {t('same_as_library')}")

# %% [markdown]
# Adam هشت‌بیتی با بقیه فرق دارد: هر گشتاور به‌صورت کدهای یک‌بایتی ذخیره می‌شود، به‌علاوهٔ یک
# ضریب مقیاس fp32 برای هر بلوک از مقادیر، پس هزینه‌اش به‌ازای هر پارامتر به این بستگی دارد که
# تعداد پارامترها چگونه به بلوک‌ها تقسیم شود. اندازهٔ بلوک یکی از ورودی‌های کتابخانه است و منبعش
# هم کنارش ثبت شده؛ فرمول را شما می‌نویسید:

# %%
from distlesson.memory.optimizers import get_optimizer

BLOCK = get_optimizer("adam8bit").block_size


def my_adam8bit_bytes(count):
    one_moment = count * 1 + math.ceil(count / BLOCK) * B["fp32"]  # codes + scales
    return 2 * one_moment


rows = []
for count in (BLOCK, BLOCK + 1):
    library = model_states(count, optimizer="adam8bit", precision="mixed").optimizer
    assert my_adam8bit_bytes(count) == library
    rows.append((format_number(count, LOCALE),
                 format_number(float(Fraction(library, count)), LOCALE, digits=4)))
table([t("params"), f"{OPTIMIZER_NAMES['adam8bit'][LOCALE]}: {t('bpp')}"], rows,
      [True, True])

# %% [markdown]
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
    return -(-total // GPU_BYTES)  # ceiling division, in integers: no float residue


rows = []
for key in MODELS:
    model = get_model(key)
    total = my_states(model.num_params)
    gpus = my_min_gpus(total)
    library = model_states(model, optimizer="adamw", precision="mixed")
    assert total == library.total
    assert gpus == min_gpus(library.total, GPU.memory_bytes)
    rows.append((model.display_name, format_quantity(model.num_params, "B params", LOCALE, digits=1),
                 format_quantity(total, "GB", LOCALE), format_number(gpus, LOCALE)))
table([t("model"), t("params"), t("total"),
       t("gpus80").format(gb=format_quantity(GPU_BYTES, "GB", LOCALE))],
      rows, [False, True, True, True])

# %% [markdown]
# نگه‌داشتن حالت‌ها تازه حداقلِ کار است: فعال‌سازی‌ها، بافرهای موقت و تکه‌تکه‌شدن حافظه
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
    """Bytes per parameter that one rank holds, per state, at ZeRO ``stage``."""
    shard = {"weights": 3, "grads": 2, "master": 1, "optimizer": 1}  # sharded from this stage
    return {name: Fraction(value, dp if stage >= shard[name] else 1)
            for name, value in bpp.items()}


rows = []
for stage in range(4):
    mine = {name: v * model.num_params
            for name, v in my_zero(my_bytes_per_param("mixed", "adamw"), DP, stage).items()}
    library = per_gpu_states(states, Layout(dp=DP, zero=stage))
    assert mine == {name: getattr(library, name) for name in mine}
    total = sum(mine.values())
    rows.append((f"ZeRO-{stage}", *(format_quantity(v, "GB", LOCALE) for v in mine.values()),
                 format_quantity(total, "GB", LOCALE), t("yes" if total <= GPU_BYTES else "no")))
table([t("zero_stage"), t("weights"), t("grads"), t("master"), t("optimizer"), t("total"),
       t("fits").format(gb=format_quantity(GPU_BYTES, "GB", LOCALE))],
      rows, [False] + [True] * 5 + [False])

# %% [markdown]
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
    assert saving == saving_against_fp32(model, precision=recipe, optimizer="adamw")
    rows.append((PRESET_NAMES[recipe][LOCALE], format_number(per, LOCALE),
                 format_quantity(per * model.num_params, "GB", LOCALE),
                 format_percent(float(saving), LOCALE)))
table([t("preset"), t("bpp"), t("states_of").format(model=model.display_name), t("saving")],
      rows, [False, True, True, True])

adam_share = Fraction(my_bytes_per_param("fp32", "adamw")["optimizer"], fp32)
print(f"{t('adam_share')}: {format_percent(float(adam_share), LOCALE)}")
# what the text below says: far from half, and the master copy takes back all bf16 saved
assert all(s < Fraction(1, 2) for s in savings.values()) and savings["mixed"] == 0

# %% [markdown]
# صرفه‌جویی با نصف فاصلهٔ زیادی دارد. دو گشتاور AdamW در هر روشی در fp32 می‌مانند و به‌تنهایی
# همان سهمی از بایت‌های آموزش fp32 را می‌گیرند که بالا چاپ شد. نصف‌کردن وزن‌ها و گرادیان‌ها فقط
# به بقیه دست می‌زند؛ و روش معمول بعد از آن یک نسخهٔ اصلی fp32 اضافه می‌کند که هر چه را این
# نصف‌کردن صرفه‌جویی کرده بود پس می‌گیرد. بدون نسخهٔ اصلی، صرفه‌جویی همان است که در سطر آخر
# جدول آمده، به بهای به‌روزرسانی‌هایی که برای نمایش در bf16 بیش از حد کوچک‌اند (فصل
# [صرفه‌جویی در حافظه](../../saving-memory/) نشان می‌دهد که چطور ناپدید می‌شوند). دقت مختلط به خاطر
# سرعت و فعال‌سازی‌ها می‌ارزد، نه به خاطر حافظهٔ حالت‌های مدل: هسته‌های تنسوری bf16 را چند برابر
# سریع‌تر از fp32 معمولی اجرا می‌کنند (هرچند فقط حدود دو برابر سریع‌تر از حالت `TF32` خودشان)، و
# bf16 حافظهٔ فعال‌سازی‌ها و بایت‌هایی را که موازی‌سازی تنسوری و موازی‌سازی خط لوله می‌فرستند
# نصف می‌کند؛ این بایت‌ها هم فعال‌سازی‌اند.
#
# همین مقایسه به‌صورت نمودار، که تابع کمکی رسم نمودار کتابخانه آن را کشیده است:

# %%
recipes = ("fp32", "mixed", "mixed-no-master", "mixed-fp32-grads")
per = [my_bytes_per_param(r, "adamw") for r in recipes]
display(HTML(stacked_barh(
    [PRESET_NAMES[r][LOCALE] for r in recipes],
    [(t(part), [float(p[part]) for p in per]) for part in ("weights", "grads", "master",
                                                           "optimizer")],
    xlabel=t("bpp"), locale=LOCALE,
    tick_format=lambda x: format_number(x, LOCALE, digits=0 if x == int(x) else 1),
    total_format=lambda x: format_number(x, LOCALE),
    name=f"lab-memory-{LOCALE}", title=t("bpp"))))

# %% [markdown]
# ## نوبت شما
#
# - در جدول مدل‌ها، AdamW را با SGD با تکانه جایگزین کنید: حالا Llama 3 405B به چند GPU نیاز
#   دارد؟ کدام حالت بیشترین سهم را دارد؟
# - روشی اضافه کنید که گشتاورهای AdamW را در bf16 نگه دارد. چقدر صرفه‌جویی می‌کند، و چرا کسانی که
#   در عمل مدل آموزش می‌دهند در به کار بردنش تردید دارند؟
# - کوچک‌ترین مرحلهٔ ZeRO و کمترین تعداد رنک‌های موازی‌سازی داده را پیدا کنید که با آن‌ها
#   حالت‌های Llama 3 70B روی یک GPU از فهرست جا می‌شوند.
