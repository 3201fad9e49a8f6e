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
# La primera cel·la fixa la llengua en què s'imprimeixen els números: `en`, `ca` o `fa`.

# %%
LOCALE = "ca"

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
# ## Els bytes d'un valor
#
# La mida d'un format es dedueix dels seus bits: un signe, un exponent i una mantissa. numpy
# coneix fp32; bf16 ve de `ml_dtypes`, el paquet que JAX fa servir per a aquest format. La
# biblioteca dedueix les mateixes mides a partir de les disposicions de bits que té desades,
# de manera que les dues fonts són independents.

# %%
FORMAT_BYTES = {
    "fp32": np.dtype(np.float32).itemsize,
    "bf16": np.dtype(ml_dtypes.bfloat16).itemsize,
}
for name, size in FORMAT_BYTES.items():
    print(f"{name}: {format_quantity(size, 'bytes', LOCALE)}")

assert FORMAT_BYTES["fp32"] == FP32.bytes and FORMAT_BYTES["bf16"] == BF16.bytes

# %% [markdown]
# ## Bytes per paràmetre
#
# L'entrenament guarda quatre coses per a cada paràmetre:
#
# - els **pesos**, que llegeixen les passades endavant i enrere;
# - els **gradients** d'aquests pesos;
# - en precisió mixta, una **còpia mestra** dels pesos en fp32, que és la que actualitza
#   l'optimitzador (bf16 té massa pocs bits de mantissa per absorbir actualitzacions petites);
# - els **estats de l'optimitzador**: AdamW guarda dos moments, `m` i `v`, en fp32; SGD amb
#   momentum i Lion en guarden un.
#
# Una recepta indica en quin format es guarda cadascuna d'aquestes peces. Escriviu la suma per
# a les quatre receptes que fa servir el curs: tot en fp32, precisió mixta amb còpia mestra,
# precisió mixta sense còpia mestra i la configuració per defecte de Megatron-LM, amb els
# gradients en fp32.

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
# La biblioteca respon la mateixa pregunta amb `bytes_per_param`, que retorna un desglossament
# (en fraccions exactes, no en floats). Compareu-ne tots els camps, per a cada recepta i cada
# optimitzador:

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
# Adam de vuit bits és l'excepció: cada moment es guarda en codis d'un byte més una escala
# fp32 per cada bloc de valors, de manera que el seu cost per paràmetre depèn de com es
# reparteixen els paràmetres en blocs. La mida del bloc és una dada d'entrada de la
# biblioteca, amb la seva font; la fórmula és cosa vostra:

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
# ## Els estats d'un model real, i les GPU per contenir-los
#
# El catàleg recull arquitectures publicades, i la biblioteca en compta els paràmetres tensor
# per tensor. Multipliqueu-los pels bytes per paràmetre i dividiu el resultat per la memòria
# d'una GPU, arrodonint cap amunt: és el mínim de GPU que, posant la memòria en comú, poden
# contenir els estats. Posar la memòria en comú és justament el que fan ZeRO-3 i FSDP, de
# manera que la mateixa divisió dona també els estats per GPU amb ZeRO-3.

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
# Contenir els estats només és el punt de partida: les activacions, els buffers temporals i
# la fragmentació també necessiten espai, i per això els entrenaments reals fan servir més
# GPU que les de l'última columna.
#
# Ara repartiu els estats de Llama 3 70B entre `DP` GPU amb cada etapa de ZeRO. La primera
# etapa particiona els estats de l'optimitzador (i la còpia mestra) entre els rangs de
# paral·lelisme de dades; la segona, també els gradients; i la tercera, a més, els pesos:

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
# ## Què estalvia la precisió mixta
#
# Passar de fp32 a bf16 redueix a la meitat els bytes dels pesos i dels gradients, i és
# temptador esperar que la memòria també es redueixi a la meitat. Compareu els totals de les
# receptes:

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
# L'estalvi queda molt lluny de la meitat. Els dos moments d'AdamW es mantenen en fp32 sigui
# quina sigui la recepta, i per si sols ja representen la part dels bytes de l'entrenament en
# fp32 que s'ha imprès més amunt. Reduir a la meitat els pesos i els gradients només afecta la
# resta; i, a més, la recepta habitual hi afegeix una còpia mestra en fp32, que es menja tot
# el que s'havia estalviat. Sense còpia mestra, l'estalvi és el de l'última fila de la taula,
# a canvi d'unes actualitzacions massa petites perquè bf16 les pugui representar (el capítol
# [Estalviar memòria](../../saving-memory/) mostra com s'esvaeixen). La precisió mixta val la
# pena per la velocitat i per les activacions, no per la memòria dels estats del model: els
# tensor cores executen bf16 diverses vegades més de pressa que l'fp32 pur (tot i que només
# unes dues vegades més que en el seu mode `TF32`), i bf16 redueix a la meitat la memòria de
# les activacions i els bytes que envien el paral·lelisme de tensors i el de pipeline, que
# també són activacions.
#
# La mateixa comparació en forma de gràfic, dibuixat amb l'eina de gràfics de la biblioteca:

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
# ## Ara us toca a vosaltres
#
# - Substituïu AdamW per SGD amb momentum a la taula de models: quantes GPU necessita ara
#   Llama 3 405B? Quin estat hi domina?
# - Afegiu una recepta que guardi els moments d'AdamW en bf16. Què estalvia, i per què els
#   professionals dubten a fer-la servir?
# - Trobeu l'etapa de ZeRO més baixa i el nombre més petit de rangs de paral·lelisme de dades
#   amb què els estats de Llama 3 70B caben en una GPU del catàleg.
