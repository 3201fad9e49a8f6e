"""The roofline widget's build side: the data it embeds is the library's, formatted per page."""

import re
from fractions import Fraction

import pytest

from distlesson.catalog.hardware import GPUS
from distlesson.efficiency.roofline import (
    attainable_flops,
    decode_shape,
    ridge_point,
    roofline_point,
    training_shape,
)
from distlesson.pages import roofline_widget
from distlesson.render.numbers import format_number, format_percent
from tests.widget_checks import (
    LOCALES,
    check_controls,
    check_persian_digits,
    check_same_in_every_language,
    data_bytes,
    embedded_data,
    visible_text,
)

HIDDEN, TOKENS = 8192, 8192  # the chapter's width h and training micro-batch, through h -> 4h


def embedded(locale: str) -> dict:
    return embedded_data(roofline_widget.roofline_widget(locale))


def intensity(value: Fraction, locale: str) -> str:
    return format_number(float(value), locale, digits=0 if value >= 100 else 1)


def test_grid_is_every_gpu_and_batch():
    assert tuple(GPUS) == roofline_widget.GPU_KEYS
    assert roofline_widget.BATCHES == (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
    data = embedded("en")
    assert set(data["g"]) == set(GPUS)
    assert set(data["d"]) == {roofline_widget.setting_key(g, b) for g in GPUS
                              for b in roofline_widget.BATCHES}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values(locale):
    data = embedded(locale)
    assert data_bytes(roofline_widget.roofline_widget(locale)) < 50_000
    for key, gpu in GPUS.items():
        entry = data["g"][key]
        assert entry["r"] == format_number(float(ridge_point(gpu)), locale, digits=1), key
        training = roofline_point(gpu, "training", training_shape(TOKENS, HIDDEN, 4 * HIDDEN))
        assert entry["ti"] == intensity(training.intensity, locale), key
        assert entry["ts"] == _percent(float(training.share_of_peak), locale), key
        for batch in roofline_widget.BATCHES:
            point = roofline_point(gpu, "decode", decode_shape(batch, HIDDEN))
            shown = data["d"][roofline_widget.setting_key(key, batch)]
            where = f"{locale} {key} {batch}"
            assert shown["i"] == intensity(point.intensity, locale), where
            share = attainable_flops(gpu, point.intensity) / Fraction(gpu.bf16_dense_flops)
            assert shown["s"] == _percent(float(share), locale), where
            assert shown["m"] is (point.intensity < ridge_point(gpu)), where


def _percent(share: float, locale: str) -> str:
    """No decimals from 10% (a compute-bound point is 100%), one from 1%, two below."""
    digits = 0 if share >= 0.1 else 1 if share >= 0.01 else 2
    return format_percent(share, locale, digits=digits)


def test_shares_carry_no_false_precision():
    data = embedded("en")
    assert {entry["ts"] for entry in data["g"].values()} == {"100%"}  # training: compute-bound
    shares = [entry["s"] for entry in data["d"].values()]
    assert all(re.fullmatch(r"\d{2,3}%|\d\.\d%|0\.\d\d%", s) for s in shares), shares


def test_plot_coordinates_follow_the_values():
    data = embedded("en")
    for key in GPUS:
        gpu = data["g"][key]
        xs = [data["d"][roofline_widget.setting_key(key, b)]["P"][0]
              for b in roofline_widget.BATCHES]
        assert xs == sorted(xs)  # larger batches sit further right
        assert xs[-1] < gpu["T"][0]  # training further right still
        # the roof's corner is at the ridge
        corner = re.findall(r"[\d.]+ [\d.]+", gpu["R"])[1]
        assert float(corner.split()[0]) == gpu["rx"]
    for locale in ("ca", "fa"):  # coordinates are numbers, the same in every language
        assert embedded(locale)["d"]["b200/64"]["P"] == data["d"]["b200/64"]["P"]


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(roofline_widget.roofline_widget)


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter(locale):
    check_controls(roofline_widget.roofline_widget(locale), "roofline", ("h100-sxm", "1"),
                   {"ridge", "decode-intensity", "decode-share", "decode-bound",
                    "training-intensity", "training-share", "plot"})


def test_persian_widget_writes_persian_digits():
    for entry in embedded("fa")["d"].values():
        check_persian_digits(entry["i"] + entry["s"])
    names = [g.display_name for g in GPUS.values()] + ["bf16", "TFLOP"]
    check_persian_digits(visible_text(roofline_widget.roofline_widget("fa")), names)
