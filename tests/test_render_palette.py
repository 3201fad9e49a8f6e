"""One colour per concept: the static plots and the widgets draw the same thing alike."""

import re
from pathlib import Path

import pytest

from distlesson.efficiency.step_time import TERMS
from distlesson.pages import (
    dimensions_widget,
    mfu,
    mfu_widget,
    optimizer_widget,
    pipeline,
    pipeline_widget,
)
from distlesson.render.diagrams import fsdp_diagram
from distlesson.render.palette import (
    MEMORY_PARTS,
    MFU_TERMS,
    OKABE_ITO,
    SCHEDULE_PHASES,
    Swatch,
    colours,
    lighter,
)

ASSETS = Path(__file__).resolve().parents[1] / "docs" / "assets"
LOCALES = ("en", "ca", "fa")


def _legend(svg: str) -> list[tuple[str, str]]:
    """(label, fill) of each entry of a matplotlib legend, in the order drawn."""
    start = svg.index('<g id="legend_1">')
    legend = svg[start:]
    fills = re.findall(r'style="fill: ?(#[0-9a-fA-F]{6})', legend)
    texts = [re.sub("[\u2066-\u2069]", "", t)
             for t in re.findall(r"<text\b[^>]*>([^<]*)</text>", legend)]
    return list(zip(texts, [f.lower() for f in fills], strict=False))


def _contrast(a: str, b: str) -> float:
    def lum(colour: str) -> float:
        out = []
        for i in (1, 3, 5):
            c = int(colour[i:i + 2], 16) / 255
            out.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("locale", LOCALES)
def test_mfu_chart_and_widget_colour_each_term_alike(locale):
    chart = dict(_legend(mfu.step_bar(locale)))
    data = mfu_widget.widget_data(locale)["w"]
    widget = dict(zip(data["terms"], (c.lower() for c in data["colours"]), strict=True))
    assert len(widget) == len(TERMS) == len(chart)
    assert chart == widget
    # the legend under the widget's bar, written at build, says the same
    html = mfu_widget.mfu_widget(locale)
    swatches = re.findall(r'data-legend="([a-z_]+)"><span class="dl-swatch" '
                          r'style="background:(#[0-9A-Fa-f]{6})"', html)
    assert dict(swatches) == {t: MFU_TERMS[t].fill for t in TERMS}


def test_every_term_has_its_own_colour():
    for palette in (MFU_TERMS, SCHEDULE_PHASES, MEMORY_PARTS):
        fills = [s.fill for s in palette.values()]
        assert len(set(fills)) == len(fills)
        assert set(fills) <= set(OKABE_ITO)


def test_gantt_and_timeline_widgets_colour_f_b_w_alike():
    timeline_colours = pipeline_widget.widget_data("en")["w"]["phase"]["fill"]
    assert timeline_colours == dimensions_widget.widget_data("en")["w"]["phase"]["fill"]
    assert timeline_colours == {"F": "#0072B2", "B": "#E69F00", "W": "#009E73"}
    svg = pipeline.gantt("zb-h1", "en")  # the only static chart with all three kinds
    fills = {f.upper() for f in re.findall(r"fill: ?(#[0-9a-fA-F]{6})", svg)}
    assert fills - {"#FFFFFF", "#000000"} == set(timeline_colours.values())  # less the inks


def test_memory_parts_alike_in_the_fsdp_diagram_and_the_widgets():
    expected = {"weights": "#0072b2", "grads": "#e69f00", "optimizer": "#cc79a7"}
    for widget in (dimensions_widget, optimizer_widget):
        data = widget.widget_data("en")["w"]
        by_part = dict(zip(widget.PARTS, (c.lower() for c in data["colours"]), strict=True))
        assert {k: by_part[k] for k in expected} == expected
    svg = fsdp_diagram(locale="en").lower()
    for colour in expected.values():
        assert colour in svg
    assert "#d55e00" not in svg  # gradients used to be vermillion here, orange elsewhere


def test_widget_scripts_carry_no_colours_of_their_own():
    for script in ASSETS.glob("*.js"):
        text = script.read_text(encoding="utf-8").lower()
        for colour in OKABE_ITO:
            assert colour.lower() not in text, f"{script.name} hard-codes {colour}"


def test_ink_reads_on_its_fill():
    for palette in (MFU_TERMS, SCHEDULE_PHASES, MEMORY_PARTS):
        for swatch in palette.values():
            assert _contrast(swatch.fill, swatch.ink) >= 4.5, swatch
    assert Swatch("#0072B2").ink == "#ffffff" and Swatch("#F0E442").ink == "#000000"


def test_lighter_mixes_with_white():
    assert lighter("#000000", 0.5) == "#808080"
    assert lighter("#FFFFFF") == "#FFFFFF"
    assert lighter("#0072B2", 0) == "#0072B2"
    with pytest.raises(ValueError, match="white=2"):
        lighter("#000000", 2)


def test_unknown_key_is_an_error():
    with pytest.raises(KeyError, match="no colour for"):
        colours(MFU_TERMS, ["useful", "idle"])


def test_gantt_labels_read_on_every_box():
    from distlesson.render.gantt import box_fill
    for kind in SCHEDULE_PHASES:
        for chunks in range(1, 9):
            for chunk in range(chunks):
                fill = box_fill(kind, chunk, chunks)
                assert _contrast(fill.fill, fill.ink) >= 4.5, (kind, chunk, chunks, fill)
    # the forward's blue takes white ink (4.95:1, against 4.24:1 for black), the first
    # chunk unlightened; the last of eight chunks is half white and takes black
    assert box_fill("F", 0, 1).ink == "#ffffff"
    assert box_fill("F", 7, 8).fill == lighter(SCHEDULE_PHASES["F"].fill, 0.5)
    assert box_fill("F", 7, 8).ink == "#000000"


def test_the_gantt_chart_writes_white_on_forward_boxes():
    svg = pipeline.gantt("1f1b", "en")
    assert re.search(r"fill: ?#ffffff", svg)
