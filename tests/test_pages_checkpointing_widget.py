"""The checkpointing widget's build side: the data it embeds is the library's counts,
formatted per page."""

import dataclasses

import pytest

from distlesson.catalog.models import get_model
from distlesson.pages import checkpointing_widget
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.transformer import attention_scalars, peak_scalars
from tests.widget_checks import (
    LOCALES,
    check_controls,
    check_persian_digits,
    check_same_in_every_language,
    data_bytes,
    embedded_data,
    visible_text,
)

LAYERS = (2, 4, 8, 16, 32)
SEQ_LENS = (16, 32, 64, 128, 256, 512, 1024)


def embedded(locale: str) -> dict:
    return embedded_data(checkpointing_widget.checkpointing_widget(locale))


def library(layers: int, seq_len: int) -> tuple[int, int, int]:
    arch = dataclasses.replace(get_model("course-tiny"), num_layers=layers)
    return (peak_scalars(arch, batch_size=1, seq_len=seq_len, mode="none").peak,
            peak_scalars(arch, batch_size=1, seq_len=seq_len, mode="full").peak,
            attention_scalars(arch, seq_len=seq_len, batch_size=1))


def test_grid():
    assert checkpointing_widget.LAYERS == LAYERS and checkpointing_widget.SEQ_LENS == SEQ_LENS
    assert set(embedded("en")["d"]) == {checkpointing_widget.setting_key(n, s)
                                        for n in LAYERS for s in SEQ_LENS}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values(locale):
    data = embedded(locale)["d"]
    for layers in LAYERS:
        for seq_len in SEQ_LENS:
            none, full, attention = library(layers, seq_len)
            entry = data[checkpointing_widget.setting_key(layers, seq_len)]
            where = f"{locale} {layers}-{seq_len}"
            assert entry["n"] == format_number(none, locale), where
            assert entry["f"] == format_number(full, locale), where
            assert entry["r"] == format_quantity(none / full, "x", locale, digits=1), where
            assert entry["a"] == format_percent(attention / none, locale, digits=1), where
            assert entry["W"][0] >= entry["W"][1] > 0, where  # the bars: without is longer


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(checkpointing_widget.checkpointing_widget)
    for locale in ("ca", "fa"):  # the bars' lengths are numbers, the same in every language
        assert embedded(locale)["d"]["8-256"]["W"] == embedded("en")["d"]["8-256"]["W"]
    assert data_bytes(checkpointing_widget.checkpointing_widget("fa")) < 50_000


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter(locale):
    check_controls(checkpointing_widget.checkpointing_widget(locale), "checkpointing",
                   (get_model("course-tiny").num_layers, 128),
                   {"none", "full", "reduction", "attention", "bars"})


def test_persian_widget_writes_persian_digits():
    for entry in embedded("fa")["d"].values():
        check_persian_digits(entry["n"] + entry["f"] + entry["r"] + entry["a"])
    check_persian_digits(visible_text(checkpointing_widget.checkpointing_widget("fa")), ["L²"])
