"""The checkpointing widget's build side: the data it embeds is the library's counts,
formatted per page."""

import dataclasses
import re

import pytest

from distlesson.models import get_model
from distlesson.pages import checkpointing_widget
from distlesson.render.numbers import format_number, format_percent, format_quantity
from distlesson.transformer import attention_scalars, peak_scalars
from tests.widget_checks import LOCALES, embedded_data, tags

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
    shapes = {}
    for locale in LOCALES:
        shapes[locale] = [
            (tag, {k: v for k, v in attrs.items()
                   if k in {"id", "for", "data-in", "data-out", "value", "data-widget",
                            "data-bar"}})
            for tag, attrs in tags(checkpointing_widget.checkpointing_widget(locale))]
        assert embedded(locale)["d"]["8-256"]["W"] == embedded("en")["d"]["8-256"]["W"]
    assert shapes["ca"] == shapes["en"] and shapes["fa"] == shapes["en"]


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter(locale):
    found = tags(checkpointing_widget.checkpointing_widget(locale))
    selects = [attrs["id"] for tag, attrs in found if tag == "select"]
    labels = [attrs["for"] for tag, attrs in found if tag == "label"]
    assert len(selects) == 2 and labels == selects
    selected = [attrs["value"] for tag, attrs in found if tag == "option" and "selected" in attrs]
    assert selected == [str(get_model("course-tiny").num_layers), "128"]
    outs = {attrs["data-out"] for _, attrs in found if "data-out" in attrs}
    assert outs == {"none", "full", "reduction", "attention", "bars"}
    assert found[0][1]["data-widget"] == "checkpointing"


def test_persian_widget_writes_persian_digits():
    for entry in embedded("fa")["d"].values():
        assert not re.search(r"[0-9]", entry["n"] + entry["f"] + entry["r"] + entry["a"])
    fragment = checkpointing_widget.checkpointing_widget("fa")
    visible = re.sub(r"<script\b.*?</script>|<[^>]+>", " ", fragment, flags=re.S)
    assert not re.search(r"[0-9]", visible.replace("L²", ""))
