"""The pipeline widget's build side: the data it embeds is the library's, formatted per page."""

from fractions import Fraction

import pytest

from distlesson.pages import pipeline, pipeline_widget
from distlesson.pipeline.schedules import build_schedule
from distlesson.pipeline.simulator import Durations, simulate
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

DURATIONS = Durations(1, 2, 1)  # the chapter's: forward 1, backward 2 (of which W 1)
GRID = [(p, m, name) for p in pipeline_widget.STAGES for m in pipeline_widget.MICROBATCHES
        for name in pipeline_widget.SCHEDULES]


def embedded(locale: str) -> dict:
    return embedded_data(pipeline_widget.pipeline_widget(locale))


def run(p: int, m: int, name: str):
    chunks = pipeline.CHUNKS if name == "interleaved" else 1
    return simulate(build_schedule(name, p, m, chunks), DURATIONS)


def valid(p: int, m: int, name: str) -> bool:
    return name != "interleaved" or m % p == 0


@pytest.mark.parametrize("locale", LOCALES)
def test_json_parses_and_stays_small(locale):
    fragment = pipeline_widget.pipeline_widget(locale)
    data = embedded(locale)
    assert set(data["d"]) == {pipeline_widget.setting_key(*s) for s in GRID}
    size = data_bytes(fragment)
    assert size < 400_000, f"{locale}: the widget's JSON is {size} bytes"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values(locale):
    data = embedded(locale)["d"]
    for p, m, name in GRID:
        entry = data[pipeline_widget.setting_key(p, m, name)]
        if not valid(p, m, name):
            continue
        timeline = run(p, m, name)
        where = f"{locale} {p}-{m}-{name}"
        assert entry["b"] == format_percent(float(timeline.bubble_fraction), locale,
                                            digits=1), where
        span = timeline.makespan
        assert entry["t"] == format_number(float(span), locale,
                                           digits=0 if span == int(span) else 1), where
        assert entry["p"] == pipeline._peaks(timeline, locale), where
        assert entry["g"] is (p >= 2 and timeline.bubble_fraction < Fraction(1, 10)), where
        assert entry["T"] == float(span), where
        ops = entry["o"]
        # the chunk column only where a stage has several chunks
        assert ("c" in ops) is (name == "interleaved"), where
        chunks = ops.get("c", [0] * len(timeline.slots))
        assert list(zip(ops["s"], ops["k"], ops["m"], chunks, ops["a"], ops["z"],
                        strict=True)) == [
            (slot.stage, slot.op.kind, slot.op.microbatch, slot.op.chunk, float(slot.start),
             float(slot.end)) for slot in timeline.slots], where


@pytest.mark.parametrize("locale", LOCALES)
def test_invalid_settings_are_the_interleaved_ones_that_do_not_divide(locale):
    data = embedded(locale)["d"]
    invalid = {key for key, entry in data.items() if "e" in entry}
    expected = {pipeline_widget.setting_key(p, m, name) for p, m, name in GRID
                if name == "interleaved" and m % p != 0}
    assert invalid == expected
    for key in invalid:
        assert set(data[key]) == {"e"} and data[key]["e"]
        p, m, _ = key.split("-", 2)
        for count in (p, m):  # the message names both counts, in the page's digits
            assert format_number(int(count), locale) in data[key]["e"]


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(pipeline_widget.pipeline_widget)
    for locale in ("ca", "fa"):  # the slots are numbers, the same in every language
        assert embedded(locale)["d"]["4-8-1f1b"]["o"] == embedded("en")["d"]["4-8-1f1b"]["o"]


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter_example(locale):
    check_controls(pipeline_widget.pipeline_widget(locale), "pipeline", ("4", "8", "1f1b"),
                   {"bubble", "makespan", "peaks", "goal", "message", "timeline"})


def test_persian_widget_writes_persian_digits():
    names = ("1F1B", "ZB-H1")
    for entry in embedded("fa")["d"].values():
        check_persian_digits(entry.get("e", "") + entry.get("b", "") + entry.get("t", "")
                             + entry.get("p", ""), names)
    check_persian_digits(visible_text(pipeline_widget.pipeline_widget("fa")), names)
