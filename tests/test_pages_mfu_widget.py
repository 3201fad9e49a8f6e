"""The MFU widget's build side: the data it embeds is the library's, formatted per page."""

import math
from dataclasses import replace

import pytest

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.efficiency.step_time import TERMS, estimate_step
from distlesson.pages import mfu, mfu_widget
from distlesson.render.numbers import format_number, format_percent, format_quantity
from tests.widget_checks import (
    LOCALES,
    check_controls,
    check_persian_digits,
    check_same_in_every_language,
    data_bytes,
    embedded_data,
    visible_text,
)

GRID = [(k, m, s, r) for k in mfu_widget.EFFICIENCIES for m in mfu_widget.MICROBATCHES
        for s in mfu_widget.SCHEDULES for r in mfu_widget.RECOMPUTE]
MEMORY = get_gpu("h100-sxm").memory_bytes


def embedded(locale: str) -> dict:
    return embedded_data(mfu_widget.mfu_widget(locale))


def workload(m: int, recompute: str):
    """The chapter's workload with m micro-batches of one sequence per pipeline."""
    return replace(mfu.WORKLOAD, global_batch=m * mfu.LAYOUT.dp, recompute=recompute)


def estimate(k: float, m: int, schedule: str, recompute: str):
    inputs = replace(mfu.INPUTS, kernel_efficiency=k, schedule=schedule,
                     chunks=mfu.CHUNKS if schedule == "interleaved" else 1)
    return estimate_step(get_model(mfu.MODEL), mfu.LAYOUT, workload(m, recompute), mfu.CLUSTER,
                         inputs)


def seconds(value: float, locale: str) -> str:
    return format_quantity(value, "s", locale, digits=2)


@pytest.mark.parametrize("locale", LOCALES)
def test_json_parses_and_stays_small(locale):
    fragment = mfu_widget.mfu_widget(locale)
    assert set(embedded(locale)["d"]) == {mfu_widget.setting_key(*s) for s in GRID}
    assert data_bytes(fragment) < 150_000


def test_the_default_is_the_chapter_step():
    entry = embedded("en")["d"][mfu_widget.setting_key(*mfu_widget.DEFAULT)]
    b = mfu.llama405_step().breakdown
    assert entry["m"] == format_percent(b.mfu, "en", digits=1)
    assert entry["p"] == [getattr(b, t) for t in TERMS]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values(locale):
    data = embedded(locale)["d"]
    for k, m, schedule, recompute in GRID:
        entry = data[mfu_widget.setting_key(k, m, schedule, recompute)]
        where = f"{locale} {k} {m} {schedule} {recompute}"
        if schedule == "interleaved" and m % mfu.LAYOUT.pp:  # Megatron-LM's rule
            assert set(entry) == {"e"}, where
            assert format_number(m, locale) in entry["e"], where
            continue
        step = estimate(k, m, schedule, recompute)
        b = step.breakdown
        words = mfu_widget._WORDS["memory_over" if step.per_gpu_bytes > MEMORY
                                  else "memory_value"][locale]
        assert entry["g"] == words.format(
            need=format_quantity(step.per_gpu_bytes, "GB", locale, digits=1),
            have=format_quantity(MEMORY, "GB", locale, digits=1)), where
        assert entry["m"] == format_percent(b.mfu, locale, digits=1), where
        assert entry["t"] == seconds(b.total, locale), where
        assert entry["p"] == [getattr(b, t) for t in TERMS], where
        assert math.isclose(sum(entry["p"]), b.total), where
        assert entry["q"] == [seconds(getattr(b, t), locale) for t in TERMS], where
        term = b.ranked()[0][0]
        assert entry["l"].startswith(mfu._TERMS[term][locale]), where
        assert format_percent(b.shares()[term], locale, digits=1) in entry["l"], where


def test_some_settings_are_refused_and_memory_over_the_gpu_is_flagged():
    data = embedded("en")["d"]
    refused = [key for key, entry in data.items() if "e" in entry]
    assert refused and all("multiple" in data[key]["e"] for key in refused)
    over = [entry for entry in data.values() if entry.get("g", "").endswith(": over")]
    full = [k for k in data if k.endswith("|full") and "g" in data[k]]
    assert over and not any(data[k]["g"].endswith(": over") for k in full)


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(mfu_widget.mfu_widget)


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter_scenario(locale):
    default = (str(mfu_widget.CALIBRATED), "16", "interleaved", "none")
    check_controls(mfu_widget.mfu_widget(locale), "mfu", default,
                   {"mfu", "step", "largest", "memory", "message", "bar"})
    assert mfu.INPUTS.schedule == "interleaved" and mfu.WORKLOAD.recompute == "none"
    assert mfu.WORKLOAD.num_microbatches(mfu.LAYOUT) == 16  # Llama 3: 16 sequences per DP


def test_persian_widget_writes_persian_digits():
    for entry in embedded("fa")["d"].values():
        check_persian_digits(entry.get("e", "") + entry.get("m", "") + entry.get("t", "")
                             + entry.get("l", ""), ["1F1B"])
    check_persian_digits(visible_text(mfu_widget.mfu_widget("fa")), ["1F1B"])
