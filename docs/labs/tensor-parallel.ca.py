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
# # Laboratori: paral·lelisme de tensors en un MLP
#
# El paral·lelisme de tensors reparteix cada matriu de pesos d'una capa entre diverses GPU, de
# manera que cap GPU no guarda ni multiplica cap matriu sencera. Fet de manera ingènua,
# necessita comunicació després de cada producte de matrius. La disposició de Megatron-LM en
# té prou amb un sol all-reduce per a tot un MLP: es parteixen les primeres matrius per
# columnes i l'última per files, i tot el que queda entremig es calcula localment.
#
# En aquest laboratori construireu aquesta disposició en numpy per a l'MLP SwiGLU de Llama 3,
# comprovareu que calcula exactament el mateix que un sol dispositiu, veureu per què l'ordre
# contrari no funcionaria i comptareu què envia. Cada pas acaba amb un `assert` que el
# contrasta amb la biblioteca `distlesson`; el lloc web executa aquest quadern cada vegada
# que es genera.

# %%
LOCALE = "ca"

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
# ## Partir les dues primeres matrius per columnes
#
# Doneu al rang `r` un bloc de columnes de `W_gate` i el *mateix* bloc de columnes de `W_up`.
# El rang calcula el seu tros de `x W_gate` i de `x W_up` a partir de la `x` sencera, que
# tenen tots els rangs. `silu` i el producte actuen element a element, de manera que el rang
# els pot aplicar només al seu tros: fins aquí no hi ha cap comunicació, i els trossos,
# col·locats l'un al costat de l'altre, formen l'activació oculta completa.

# %%
gate_cols = np.split(weights.gate, TP, axis=1)  # TP x (h, f/TP)
up_cols = np.split(weights.up, TP, axis=1)  # TP x (h, f/TP)
hidden = [silu(x @ g) * (x @ u) for g, u in zip(gate_cols, up_cols)]  # TP x (N, f/TP)

full_hidden = silu(x @ weights.gate) * (x @ weights.up)  # (N, f)
checks.append(("column_concat", difference(np.concatenate(hidden, axis=1), full_hidden)))
assert checks[-1][1] < 1e-14

# %% [markdown]
# ## Després, partir l'última matriu per files
#
# El rang `r` té les files de `W_down` que corresponen a les seves columnes ocultes. El seu
# producte és una sortida *parcial*: té totes les columnes de `y`, però només la seva
# contribució a la suma que forma un producte de matrius. Si se sumen les sortides parcials dels rangs,
# s'obté `y`: aquesta suma és l'únic all-reduce de l'MLP, i, després d'aquest, tots els rangs
# tenen la sortida. Feu servir l'all-reduce en anell del laboratori de paral·lelisme de dades
# (el de la biblioteca) i compteu-ne els bytes.

# %%
down_rows = np.split(weights.down, TP, axis=0)  # TP x (f/TP, h)
partials = [h_r @ d_r for h_r, d_r in zip(hidden, down_rows)]  # TP x (N, h)
reduced = ring_all_reduce(partials)
checks.append(("row_sum", max(difference(out, y) for out in reduced.outputs)))
assert checks[-1][1] < 1e-14

# %% [markdown]
# ## Per què no a l'inrevés?
#
# Partiu ara `W_gate` i `W_up` per *files*, i doneu a cada rang un tros de les columnes de
# `x`. Aleshores, cada rang té una suma parcial de `x W_gate`, no pas un tros; i la `silu`
# d'una suma parcial no és una part de la `silu` de la suma. Els rangs haurien de fer un
# all-reduce *abans* de l'activació, i un altre després de `W_down`. Mireu fins a quin punt
# és erroni saltar-se aquest primer all-reduce:

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
# Les tres primeres files només mostren error d'arrodoniment; l'última és una resposta incorrecta.
#
# ## Contrastat amb la biblioteca
#
# La funció `megatron_mlp` de la biblioteca executa la mateixa disposició: cada rang aplica
# l'MLP d'un sol dispositiu al seu fragment dels pesos (un fragment d'un MLP és un MLP més
# petit), i després es fa un all-reduce. Compareu-ne les sortides, el nombre d'all-reduces i
# els bytes amb els vostres. Després, el backward: pel mateix argument, cada rang deriva el
# seu propi MLP més petit, cosa que li dona directament els gradients dels seus pesos; només
# el gradient de l'entrada és una suma parcial, i necessita l'únic all-reduce del backward.

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
# ## Què costa a gran escala
#
# Un bloc de transformer té dues subcapes d'aquest tipus, l'atenció (partida per caps, que fan
# el paper de les columnes ocultes) i l'MLP: dos all-reduces al forward i dos al backward.
# Cadascun suma les activacions d'un microlot, un valor per token i per unitat oculta, en
# bf16. Amb la fórmula tancada de l'anell, escriviu els bytes que envia cada GPU per capa en
# un microlot, i compareu-los amb la funció `tp_bytes_per_layer` de la biblioteca:

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
# La major part d'aquests bytes són al camí crític: al forward, el producte de matrius següent
# necessita el resultat de l'all-reduce. Al backward, Megatron-LM solapa l'all-reduce del
# gradient de l'entrada amb el producte que calcula el gradient dels pesos, i els frameworks
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
