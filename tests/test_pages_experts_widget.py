"""The expert-parallelism widget's build side: the data it embeds is the library's, worked
by hand for DeepSeek-V3's published layout, and a refused setting says why."""

import pytest

from distlesson.pages import experts_widget as ew
from tests.widget_checks import (
    LOCALES,
    check_controls,
    check_persian_digits,
    check_same_in_every_language,
    embedded_data,
    visible_text,
)


def test_the_default_is_deepseek_v3_s_published_layout():
    entry = ew.widget_data("en")["d"][ew.setting_key("deepseek-v3", 64, "none")]
    # 256 / 64 experts per GPU; 700,858,368 bytes (tests/test_expert_layout.py by hand)
    assert entry["e"] == "4" and entry["b"] == "700.9\u00a0MB" and entry["f"] == "yes"


def test_the_capacity_factor_scales_the_bytes():
    data = ew.widget_data("en")["d"]
    # Mixtral, ep 8, bf16: 117,440,512 bytes dropless; x 2 with a capacity factor of 2
    assert data[ew.setting_key("mixtral-8x7b", 8, "none")]["b"] == "117.4\u00a0MB"
    assert data[ew.setting_key("mixtral-8x7b", 8, "2.0")]["b"] == "234.9\u00a0MB"


@pytest.mark.parametrize(("model", "ep", "reason"), [
    ("mixtral-8x7b", 16, "ep must divide the 8 experts"),
    ("deepseek-v3", 256, "ep must divide the 128 GPUs of a stage"),
])
def test_refused_settings_say_why(model, ep, reason):
    entry = ew.widget_data("en")["d"][ew.setting_key(model, ep, "none")]
    assert set(entry) == {"x"} and reason in entry["x"]


def test_every_setting_in_every_language():
    keys = {ew.setting_key(m, e, c) for m in ew.MODELS for e in ew.EP for c in ew.CAPACITY}
    for locale in LOCALES:
        data = embedded_data(ew.experts_widget(locale))
        assert set(data["d"]) == keys
        # refusals agree across languages; Persian shows Persian digits
        assert {k for k, v in data["d"].items() if "x" in v} == {
            k for k, v in ew.widget_data("en")["d"].items() if "x" in v}
    persian = embedded_data(ew.experts_widget("fa"))["d"]
    assert persian[ew.setting_key("deepseek-v3", 64, "none")]["e"] == "۴"


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(ew.experts_widget)


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter(locale):
    check_controls(ew.experts_widget(locale), "experts", ew.DEFAULT,
                   {"experts", "bytes", "time", "memory", "fits"})


def test_persian_widget_writes_persian_digits():
    for entry in embedded_data(ew.experts_widget("fa"))["d"].values():
        check_persian_digits("".join(entry.values()))
    check_persian_digits(visible_text(ew.experts_widget("fa")),
                         ("DeepSeek-V3", "Mixtral 8x7B", "H800", "H100", "MoE"))
