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

# %%
LOCALE = "ca"

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
# ## El model i un lot
#
# El model és el petit MLP de dues capes de la biblioteca, escrit en numpy i amb la passada
# enrere feta a mà (`distlesson.parallel.toy_mlp`). La seva pèrdua és la meitat de l'error quadràtic
# sumat sobre les sortides, i se'n fa la mitjana sobre els exemples. La mida del model aquí
# no importa: el que importa és que la pèrdua és una *mitjana sobre els exemples del lot*.
# La mida del lot s'ha triat expressament perquè no es pugui repartir a parts iguals entre
# els rangs.

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
# ## Fragments
#
# Doneu a cada rang una porció contigua del lot. Quan el lot no es divideix exactament, els
# primers rangs s'enduen un exemple més, tal com fa `numpy.array_split`.

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
# ## El gradient en què s'han de posar d'acord tots els rangs
#
# Cada rang calcula el gradient mitjà `g_r` dels seus `b_r` exemples. La combinació més immediata
# és la mitjana dels `g_r`, que és el que s'obté quan es divideix pel nombre de rangs la suma
# que surt d'un all-reduce. Només és correcta quan tots els rangs tenen el mateix nombre
# d'exemples. La combinació correcta pondera cada rang pels seus exemples:
# `sum_r b_r g_r / B`. Compareu totes dues amb el gradient del lot sencer:

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
# La suma ponderada només difereix del lot sencer en l'arrodoniment de coma flotant (les
# sumes es fan en un altre ordre); l'error de la mitjana simple és uns quants ordres de
# magnitud més gran. Els frameworks eviten el problema donant a tots els rangs el mateix
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
# ## Un pas de paral·lelisme de dades, contrastat amb la biblioteca
#
# Ajunteu les peces: repartiu el lot en fragments, calculeu el `b_r g_r` de cada rang, feu
# l'all-reduce i dividiu pel lot. La funció `data_parallel_grads` de la biblioteca fa el
# mateix i informa del que ha enviat.

# %%
result = data_parallel_grads(params, x, y, dp=DP)
np.testing.assert_allclose(flatten(result.grads), mine[0] / BATCH, rtol=1e-12, atol=1e-15)
assert result.sent_bytes == tuple(my_sent) and result.all_reduces == 1
assert result.replicas_agree  # every rank applies the very same gradient
print(f"{t('all_reduces')}: {n(result.all_reduces)}")
print(f"{t('replicas_agree')}: {t('yes') if result.replicas_agree else t('no')}")

# %% [markdown]
# ## Acumulació de gradients
#
# Quan la part del lot que correspon a un rang no li cap a la memòria de cop, el rang la
# processa en `K` microlots. La manera ingènua és fer un all-reduce després de cada microlot.
# Però l'all-reduce és una suma, i les sumes poden esperar: sumeu localment els `b g` dels
# microlots i feu un sol all-reduce al final (és el `no_sync` del DDP de PyTorch). El gradient
# és el mateix, amb `K` vegades menys all-reduces i menys bytes.

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
# Totes les etapes entrenen igual que un sol dispositiu: les mateixes pèrdues i els mateixos
# pesos finals, llevat de l'arrodoniment de coma flotant. El que canvia és què guarda cada
# rang i què envia. ZeRO-1 i ZeRO-2 envien tant com el paral·lelisme de dades simple (un
# reduce-scatter més un all-gather costen el mateix que un all-reduce; aquí el farciment hi
# afegeix una mica); ZeRO-3 envia la meitat més, per la segona reunió dels pesos. El total per
# rang de ZeRO-3 és la còpia completa dividida pel nombre de rangs, més el farciment. El
# laboratori de memòria aplica aquestes mateixes etapes a Llama 3 70B.
#
# ## Ara us toca a vosaltres
#
# - Doneu lots desiguals als rangs a `data_parallel_grads` i comproveu que la combinació
#   ponderada continua coincidint amb el lot sencer, mentre que la mitjana simple no.
# - Mesureu els bytes enviats amb `K` microlots per a diversos valors de `K`.
# - Canvieu l'amplada de la capa oculta del model perquè ZeRO-3 no necessiti farciment.
