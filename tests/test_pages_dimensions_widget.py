"""The five dimensions widget's build side: the data it embeds is the library's, formatted
per page, and it refuses exactly the settings the library refuses."""

import re

import pytest

from distlesson.hardware import get_gpu
from distlesson.memory import Layout
from distlesson.models import get_model
from distlesson.pages import dimensions_widget as dw
from distlesson.pages.parallelism import STEP
from distlesson.parallel_layout import analyse_layout
from distlesson.render.numbers import format_number, format_quantity
from tests.widget_checks import DATA, LOCALES, embedded_data, tags

GRID = [(d, t, p, z) for d in dw.DPS for t in dw.TPS for p in dw.PPS for z in dw.ZEROS]
MEMORY = get_gpu("h100-sxm").memory_bytes
ARCH = get_model("llama3-70b")
YES = {"en": ("yes", "no"), "ca": ("sí", "no"), "fa": ("بله", "خیر")}


def embedded(locale: str) -> dict:
    return embedded_data(dw.dimensions_widget(locale))


def gb(value, locale: str) -> str:
    return format_quantity(float(value), "GB", locale, digits=1)


def test_the_grid_is_the_brief():
    # tp = 3 is there to be refused: it does not divide the model's 64 heads
    assert dw.DPS == (1, 2, 4, 8, 16, 32, 64) and dw.TPS == (1, 2, 3, 4, 8)
    assert dw.PPS == (1, 2, 4, 8, 16) and dw.ZEROS == (0, 1, 2, 3)
    assert STEP.seq_len == 8192 and STEP.global_batch == 128


@pytest.mark.parametrize("locale", LOCALES)
def test_json_parses_and_stays_small(locale):
    fragment = dw.dimensions_widget(locale)
    data = embedded(locale)
    assert set(data["d"]) == {dw.setting_key(*s) for s in GRID}
    assert len(DATA.findall(fragment)[0].encode()) < 400_000


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values_or_its_refusal(locale):
    data = embedded(locale)["d"]
    for d, t, p, z in GRID:
        entry = data[dw.setting_key(d, t, p, z)]
        where = f"{locale} {d} {t} {p} {z}"
        try:
            r = analyse_layout(ARCH, Layout(dp=d, tp=t, pp=p, zero=z), STEP)
        except ValueError as error:
            assert set(entry) == {"e"}, where
            if locale == "en":
                assert entry["e"] == str(error), where
            continue
        assert "e" not in entry, where
        total = r.per_gpu_bytes
        assert entry["m"] == gb(total, locale), where
        assert entry["f"] == YES[locale][0 if total <= MEMORY else 1], where
        assert entry["g"] == format_number(d * t * p, locale), where
        c = r.communication
        assert entry["c"] == [gb(c.dp, locale), gb(c.tp, locale), gb(c.pp, locale)], where
        parts = (r.states.weights, r.states.grads, r.states.master, r.states.optimizer,
                 r.activations)
        assert entry["q"] == [gb(v, locale) for v in parts], where
        assert entry["p"] == [round(float(v) / 1e9, 3) for v in parts], where


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refused_setting_names_its_reason(locale):
    with pytest.raises(ValueError) as error:
        analyse_layout(ARCH, Layout(dp=3), STEP)
    entry = dw._setting(3, 1, 1, 0, locale)
    assert set(entry) == {"e"}
    if locale == "en":
        assert entry["e"] == str(error.value)
    else:
        assert format_number(3, locale) in entry["e"]
    if locale == "fa":
        assert not re.search(r"[0-9]", entry["e"])


def test_the_three_languages_show_the_same_widget():
    shapes = {}
    for locale in LOCALES:
        data = embedded(locale)
        shapes[locale] = (
            sorted(data["w"]),
            {key: sorted(entry) for key, entry in data["d"].items()},
            [(tag, {k: v for k, v in attrs.items() if k in {"id", "for", "data-in", "data-out",
                                                             "value", "data-widget"}})
             for tag, attrs in tags(dw.dimensions_widget(locale))],
        )
    assert shapes["ca"] == shapes["en"]
    assert shapes["fa"] == shapes["en"]


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default(locale):
    found = tags(dw.dimensions_widget(locale))
    selects = [attrs["id"] for tag, attrs in found if tag == "select"]
    labels = [attrs["for"] for tag, attrs in found if tag == "label"]
    assert len(selects) == 4 and labels == selects
    selected = [attrs["value"] for tag, attrs in found if tag == "option" and "selected" in attrs]
    assert selected == [str(v) for v in dw.DEFAULT]
    outs = {attrs["data-out"] for _, attrs in found if "data-out" in attrs}
    assert outs == {"memory", "fits", "gpus", "sent_dp", "sent_tp", "sent_pp", "bar",
                    "message"}


def test_persian_widget_writes_persian_digits():
    data = embedded("fa")
    for key, entry in data["d"].items():
        text = "".join(entry.get(k, "") for k in ("m", "f", "g", "e")) + "".join(
            entry.get("c", []) + entry.get("q", []))
        assert not re.search(r"[0-9]", text), key
    assert not re.search(r"[0-9]", "".join(data["w"]["n"]) + data["w"]["limitText"])
