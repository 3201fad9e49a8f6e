"""The pipeline widget's build side: the data it embeds is the library's, formatted per page."""

import re
from fractions import Fraction

import pytest

from distlesson.pages import pipeline, pipeline_widget
from distlesson.pipeline_sim import Durations, simulate
from distlesson.render.numbers import format_number, format_percent
from distlesson.schedules import build_schedule
from tests.widget_checks import DATA, LOCALES, embedded_data, tags

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
    size = len(DATA.findall(fragment)[0].encode())
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
        assert len(ops["k"]) == len(timeline.slots), where
        for column in ("s", "m", "c", "a", "z"):
            assert len(ops[column]) == len(timeline.slots), where
        assert list(zip(ops["s"], ops["k"], ops["m"], ops["c"], ops["a"], ops["z"],
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
    shapes = {}
    for locale in LOCALES:
        data = embedded(locale)
        shapes[locale] = (
            sorted(data["w"]),
            {key: sorted(entry) for key, entry in data["d"].items()},
            [(tag, {k: v for k, v in attrs.items() if k in {"id", "for", "data-in", "data-out",
                                                             "value", "data-widget"}})
             for tag, attrs in tags(pipeline_widget.pipeline_widget(locale))],
        )
        # the slots are numbers, the same in every language
        assert data["d"]["4-8-1f1b"]["o"] == embedded("en")["d"]["4-8-1f1b"]["o"]
    assert shapes["ca"] == shapes["en"]
    assert shapes["fa"] == shapes["en"]


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter_example(locale):
    found = tags(pipeline_widget.pipeline_widget(locale))
    selects = [attrs["id"] for tag, attrs in found if tag == "select"]
    labels = [attrs["for"] for tag, attrs in found if tag == "label"]
    assert len(selects) == 3 and labels == selects
    selected = [attrs["value"] for tag, attrs in found if tag == "option" and "selected" in attrs]
    assert selected == ["4", "8", "1f1b"]
    outs = {attrs["data-out"] for _, attrs in found if "data-out" in attrs}
    assert outs == {"bubble", "makespan", "peaks", "goal", "message", "timeline"}
    root = found[0]
    assert root[0] == "div" and root[1]["data-widget"] == "pipeline"


def test_persian_widget_writes_persian_digits():
    data = embedded("fa")
    for key, entry in data["d"].items():
        text = entry.get("e", "") + entry.get("b", "") + entry.get("t", "") + entry.get("p", "")
        assert not re.search(r"[0-9]", text.replace("1F1B", "").replace("ZB-H1", "")), key
    fragment = pipeline_widget.pipeline_widget("fa")
    visible = re.sub(r"<script\b.*?</script>|<[^>]+>", " ", fragment, flags=re.S)
    assert not re.search(r"[0-9]", visible.replace("1F1B", "").replace("ZB-H1", ""))
