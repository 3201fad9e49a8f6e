"""The optimizer memory widget's build side: the data it embeds is the library's, formatted
per page."""

from fractions import Fraction

import pytest

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.memory.states import bytes_per_param, min_gpus, model_states
from distlesson.pages import optimizer_widget
from distlesson.render.numbers import format_number, format_quantity
from tests.widget_checks import (
    LOCALES,
    check_controls,
    check_persian_digits,
    check_same_in_every_language,
    data_bytes,
    embedded_data,
    visible_text,
)

GRID = [(o, p, m) for o in optimizer_widget.OPTIMIZERS for p in optimizer_widget.PRESETS
        for m in optimizer_widget.MODELS]
MEMORY = get_gpu("h100-sxm").memory_bytes  # the chapter's 80 GB GPU


def embedded(locale: str) -> dict:
    return embedded_data(optimizer_widget.optimizer_widget(locale))


def bpp_text(value, locale: str) -> str:
    exact = Fraction(value)
    return format_number(float(exact), locale, digits=0 if exact.denominator == 1 else 2)


def test_the_grid_is_the_chapter_optimizers_presets_and_models():
    assert set(optimizer_widget.OPTIMIZERS) >= {"adamw", "adam8bit", "adafactor", "lion"}
    assert set(optimizer_widget.PRESETS) == {"mixed", "fp32", "mixed-no-master",
                                             "mixed-fp32-grads"}
    assert "llama3-405b" in optimizer_widget.MODELS


@pytest.mark.parametrize("locale", LOCALES)
def test_json_parses_and_stays_small(locale):
    fragment = optimizer_widget.optimizer_widget(locale)
    data = embedded(locale)
    assert set(data["d"]) == {optimizer_widget.setting_key(*s) for s in GRID}
    assert data_bytes(fragment) < 100_000


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values(locale):
    data = embedded(locale)["d"]
    for o, p, m in GRID:
        entry = data[optimizer_widget.setting_key(o, p, m)]
        arch = get_model(m)
        per = bytes_per_param(arch, optimizer=o, precision=p)
        states = model_states(arch, optimizer=o, precision=p).total
        where = f"{locale} {o} {p} {m}"
        assert entry["b"] == bpp_text(per.total, locale), where
        assert entry["s"] == format_quantity(float(states), "GB", locale, digits=1), where
        assert entry["g"] == format_number(min_gpus(states, MEMORY), locale), where
        parts = (per.weights, per.grads, per.master, per.optimizer)
        assert entry["p"] == [float(v) for v in parts], where
        assert entry["q"] == [bpp_text(v, locale) for v in parts], where


def test_the_default_is_the_chapter_case():
    entry = embedded("en")["d"][optimizer_widget.setting_key("adamw", "mixed", "llama3-70b")]
    assert entry["b"] == "16" and entry["p"] == [2.0, 2.0, 4.0, 8.0]


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(optimizer_widget.optimizer_widget)
    for locale in ("ca", "fa"):  # the bars' lengths are numbers, the same in every language
        assert [e["p"] for e in embedded(locale)["d"].values()] == [
            e["p"] for e in embedded("en")["d"].values()]


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter_case(locale):
    check_controls(optimizer_widget.optimizer_widget(locale), "optimizer",
                   optimizer_widget.DEFAULT, {"bpp", "states", "gpus", "bar"})


def test_persian_widget_writes_persian_digits():
    data = embedded("fa")
    for entry in data["d"].values():
        check_persian_digits(entry["b"] + entry["s"] + entry["g"] + "".join(entry["q"]))
    check_persian_digits("".join(data["w"]["n"]))
    # the names of the formats (bf16, fp32) are names, not numbers
    check_persian_digits(visible_text(optimizer_widget.optimizer_widget("fa"), options=False),
                         ["bf16", "fp32"])
