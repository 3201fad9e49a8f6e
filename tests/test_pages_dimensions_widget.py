"""The five dimensions widget's build side: for every one of its settings the data it embeds
is the library's (memory, traffic per dimension, the 1F1B pipeline of the step, the bubble
goal), formatted per page, and it refuses exactly the settings the library refuses.

The expected values are computed here from the library's public functions, setting by
setting, and compared with what the page's JSON gives when read as the script reads it."""

import functools
import gzip
import itertools
import json
import re
from fractions import Fraction

import pytest

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.memory.states import Layout
from distlesson.pages import dimensions_widget as dw
from distlesson.parallel.layout import Workload, analyse_layout
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate
from distlesson.render.numbers import format_number, format_percent, format_quantity
from tests.widget_checks import (
    DATA,
    LOCALES,
    check_controls,
    check_persian_digits,
    check_same_in_every_language,
    data_bytes,
    embedded_data,
    table_value,
    visible_text,
)

NAMES = ("dp", "tp", "pp", "cp", "zero", "microbatches")
VALUES = ((1, 2, 4, 8, 16, 32, 64), (1, 2, 3, 4, 8), (1, 2, 4, 8, 16), (1, 2, 3, 4, 8),
          (0, 1, 2, 3), (1, 2, 4, 8, 16, 32))
GRID = list(itertools.product(*VALUES))
MEMORY = get_gpu("h100-sxm").memory_bytes
ARCH = get_model("llama3-70b")
SEQUENCES, SEQ_LEN = 128, 8192  # the chapter's step: 128 sequences of 8192 tokens
YES = {"en": ("yes", "no"), "ca": ("sí", "no"), "fa": ("بله", "خیر")}
PARTS = ("weights", "grads", "master", "optimizer")


@functools.cache
def embedded(locale: str) -> dict:
    return embedded_data(dw.dimensions_widget(locale))


def shown(locale: str, setting: tuple) -> dict:
    data = embedded(locale)
    where = dict(zip(NAMES, setting, strict=True))
    return {name: table_value(table, data["a"], where) for name, table in data["t"].items()}


def gb(value, locale: str) -> str:
    return format_quantity(float(value), "GB", locale, digits=1)


@functools.cache
def library(dp, tp, pp, cp, zero, m):
    """The library's report on the step cut into m micro-batches per replica, or its refusal."""
    sequences = dp * m
    if SEQUENCES % sequences:
        try:
            Workload(seq_len=SEQ_LEN, micro_batch=1, global_batch=SEQUENCES).split(dp, m)
        except ValueError as error:
            return error
        raise AssertionError(f"the library cut {SEQUENCES} sequences into {dp} x {m}")
    step = Workload(seq_len=SEQ_LEN, micro_batch=SEQUENCES // sequences,
                    global_batch=SEQUENCES)
    try:
        return analyse_layout(ARCH, Layout(dp=dp, tp=tp, pp=pp, cp=cp, zero=zero), step)
    except ValueError as error:
        return error


@functools.cache
def one_f_one_b(pp: int, m: int):
    return simulate(build_schedule("1f1b", pp, m), Durations(fwd=1, bwd=2, wgrad=1))


def test_the_grid_is_the_brief():
    # tp = 3 and cp = 3 are there to be refused: 3 divides neither the 64 heads nor 8192
    assert dw.GRID.axes == tuple(zip(NAMES, VALUES, strict=True))
    assert dw.DEFAULT == (16, 1, 1, 1, 0, 8)
    # the default is the chapter's step: 128 sequences over 16 replicas, 8 micro-batches of 1
    assert library(*dw.DEFAULT).num_microbatches == 8
    assert Workload(SEQ_LEN, 1, SEQUENCES).num_microbatches(Layout(dp=16)) == 8


@pytest.mark.parametrize("locale", LOCALES)
def test_json_parses_and_stays_small(locale):
    fragment = dw.dimensions_widget(locale)
    size = data_bytes(fragment)
    # The memory bar has seven parts; the overheads follow every control, so the total and
    # they take one entry per setting of the 21,000 (Persian digits are two bytes each).
    assert size < 350_000, f"{locale}: the widget's JSON is {size} bytes"
    # what a reader downloads from a host that compresses (GitHub Pages does)
    compressed = len(gzip.compress(DATA.findall(fragment)[0].encode(), 9))
    assert compressed < 50_000, f"{locale}: {compressed} bytes compressed"
    assert embedded(locale)["a"] == {
        n: [str(v) for v in vs] for n, vs in zip(NAMES, VALUES, strict=True)}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values(locale):
    for setting in GRID:
        r, got = library(*setting), shown(locale, setting)
        where = f"{locale} {setting}"
        if isinstance(r, ValueError):
            assert got["e"], where
            continue
        dp, tp, pp, cp, _, m = setting
        assert got["e"] == "", where
        assert r.num_microbatches == m, where  # the control is the library's m
        total = r.per_gpu_bytes
        assert got["mem"] == [gb(total, locale), YES[locale][0 if total <= MEMORY else 1],
                              round(r.overheads / 1e9, 2), gb(r.overheads, locale)], where
        assert got["gpus"] == format_number(dp * tp * pp * cp, locale), where
        assert got["seq"] == format_number(SEQUENCES // (dp * m), locale), where
        states = [getattr(r.states, part) for part in PARTS]
        assert got["states"] == [[round(float(v) / 1e9, 2) for v in states],
                                 [gb(v, locale) for v in states]], where
        held = (r.activations, r.logits)
        assert got["acts"] == [[round(v / 1e9, 2) for v in held],
                               [gb(v, locale) for v in held]], where
        # the bar's parts add up to the total it is drawn against
        assert sum(states) + sum(held) + r.overheads == pytest.approx(total, rel=1e-12), where
        for dim in ("dp", "tp", "pp", "cp"):
            assert got[f"sent_{dim}"] == gb(getattr(r.communication, dim), locale), where
        run = one_f_one_b(pp, m)
        pipe = got["pipe"]
        assert pipe["b"] == format_percent(float(run.bubble_fraction), locale, digits=1), where
        assert pipe["g"] is (pp >= 2 and run.bubble_fraction < Fraction(1, 10)), where
        assert pipe["T"] == run.makespan, where


@pytest.mark.parametrize(("pp", "m"), [(p, m) for p in VALUES[2] for m in VALUES[5]])
def test_the_timeline_is_the_simulated_step(pp, m):
    """Each (stages, micro-batches) timeline, slot by slot, as the simulator placed them."""
    run = one_f_one_b(pp, m)
    setting = (1, 1, pp, 1, 0, m)  # dp = 1: every m divides the step
    ops = shown("en", setting)["pipe"]["o"]
    assert list(zip(ops["s"], ops["k"], ops["m"], ops["a"], ops["z"], strict=True)) == [
        (slot.stage, slot.op.kind, slot.op.microbatch, slot.start, slot.end)
        for slot in run.slots]
    assert "c" not in ops  # one chunk per stage: no chunk column
    for locale in ("ca", "fa"):  # the slots are numbers, the same in every language
        assert shown(locale, setting)["pipe"]["o"] == ops


def test_tables_depend_on_what_the_library_says():
    """Found on the data, not assumed: the states do not change with cp or m, the traffic of
    tp, pp and cp per step not with m (the step's tokens stay), the pipeline only with pp
    and m; the memory in total with every control."""
    keys = {name: table["k"] for name, table in embedded("en")["t"].items()}
    assert keys["states"] == ["dp", "tp", "pp", "zero"]
    assert keys["pipe"] == ["pp", "microbatches"]
    for dim in ("tp", "pp", "cp"):
        assert "microbatches" not in keys[f"sent_{dim}"], dim
    assert "microbatches" in keys["sent_dp"]  # ZeRO-2 and 3 send once per micro-batch
    assert keys["mem"] == list(NAMES)
    assert keys["seq"] == ["dp", "microbatches"]


@pytest.mark.parametrize("locale", LOCALES)
def test_refused_settings_are_the_library_refusals(locale):
    refused = {s for s in GRID if isinstance(library(*s), ValueError)}
    assert {s for s in GRID if shown(locale, s)["e"]} == refused
    kinds = {str(library(*s)).split("=")[0] for s in refused}
    assert kinds == {"tp", "cp", "dp"}  # the heads, the sequence, the step's sequences
    for setting in ((16, 3, 1, 1, 0, 8), (16, 1, 1, 3, 0, 8), (64, 1, 1, 1, 0, 4)):
        text, error = shown(locale, setting)["e"], library(*setting)
        assert isinstance(error, ValueError)
        if locale == "en":  # the library's own words
            assert text == str(error)
            continue
        for number in re.findall(r"=\s*(\d+)", str(error)):  # its numbers, in the page's digits
            assert format_number(int(number), locale) in text, (setting, text)


def test_the_goal_is_reached_only_with_two_stages_and_enough_microbatches():
    reached = {(p, m) for p in VALUES[2] for m in VALUES[5]
               if shown("en", (1, 1, p, 1, 0, m))["pipe"]["g"]}
    assert reached == {(2, 16), (2, 32), (4, 32)}
    assert not shown("en", dw.DEFAULT)["pipe"]["g"]


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(dw.dimensions_widget)


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default(locale):
    check_controls(dw.dimensions_widget(locale), "dimensions", dw.DEFAULT, {
        "memory", "fits", "gpus", "sequences", "sent_dp", "sent_tp", "sent_pp", "sent_cp",
        "bubble", "goal", "bar", "timeline", "message"})


def test_persian_widget_writes_persian_digits():
    data = embedded("fa")
    for name, table in data["t"].items():
        # the bar's lengths and the timeline's slots are numbers for the script, not text
        if name == "pipe":
            text = [u["b"] for u in table["u"]]
        elif name in ("states", "acts"):
            text = [u[1] for u in table["u"]]
        elif name == "mem":  # the total, fits, the overheads' length (a number) and text
            text = [[u[0], u[1], u[3]] for u in table["u"]]
        else:
            text = table["u"]
        check_persian_digits(json.dumps(text, ensure_ascii=False))
    check_persian_digits("".join(data["w"]["n"]) + "".join(data["w"]["ticks"].values())
                         + data["w"]["limitText"] + "".join(data["w"]["stage"]))
    check_persian_digits(visible_text(dw.dimensions_widget("fa")), ["1F1B", "Llama 3 70B"])
