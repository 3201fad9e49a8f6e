"""Diagrams as inline SVG: valid XML, the page's words and digits, only palette colours,
the same string every time, and for the ring exactly the transfers the simulation made.

The expected words and numbers are written out here by hand, not read from the module's
tables, so a wrong or missing translation fails."""

import re
import warnings
import xml.etree.ElementTree as ET
from functools import cache

import numpy as np
import pytest

from distlesson.parallel.collectives import ring_all_reduce
from distlesson.render.diagrams import (
    data_parallel_diagram,
    fsdp_diagram,
    layout_3d_diagram,
    ring_allreduce_diagram,
)
from distlesson.render.svg import OKABE_ITO

DIAGRAMS = {
    "ring": ring_allreduce_diagram,
    "data_parallel": data_parallel_diagram,
    "fsdp": fsdp_diagram,
    "layout_3d": layout_3d_diagram,
}
LOCALES = ("en", "ca", "fa")
SVG = "{http://www.w3.org/2000/svg}"
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"

# Per diagram and locale, words (and formatted numbers) the drawing must show.
EXPECTED = {
    "ring": {
        "en": ["step 1", "step 6", "reduce-scatter", "all-gather", "rank 1: chunk A", "1/4"],
        "ca": ["pas 1", "pas 6", "reduce-scatter", "all-gather", "rang 1: tros A", "trossos"],
        "fa": ["گام ۱", "گام ۶", "reduce-scatter", "all-gather", "رنک ۱: تکهٔ الف", "یک‌چهارم"],
    },
    "data_parallel": {
        "en": ["GPU 1", "GPU 4", "full model", "local gradient", "all-reduce",
               "same averaged gradient on every GPU"],
        "ca": ["GPU 4", "model sencer", "gradient local", "mitjana dels 4 gradients",
               "mateix gradient mitjà a cada GPU"],
        "fa": ["GPU ۴", "مدل کامل", "گرادیان محلی", "میانگین ۴ گرادیان",
               "همان گرادیان میانگین روی همهٔ GPUها"],
    },
    "fsdp": {
        "en": ["GPU 4", "all-gather", "reduce-scatter", "forward on", "backward on", "weights",
               "optimizer states", "1/4"],
        "ca": ["GPU 4", "forward", "backward", "pesos", "estats de l'optimitzador", "1/4"],
        # the terms of the termbase; a unit fraction in words («۱/۴» reads as 1.4 in Iran)
        "fa": ["GPU ۴", "گذر رو به جلو", "گذر رو به عقب", "وزن‌ها", "حالت‌های بهینه‌ساز",
               "یک‌چهارم"],
    },
    "layout_3d": {
        "en": ["stage 1", "stage 16", "NVLink", "InfiniBand or RoCE", "tensor parallel",
               "data parallel", "8 × 16 × 128 = 16,384 GPUs"],
        "ca": ["etapa 16", "NVLink", "InfiniBand o RoCE", "paral·lelisme de tensors",
               "paral·lelisme de dades", "8 × 16 × 128 = 16.384 GPU"],
        "fa": ["مرحلهٔ ۱۶", "NVLink", "InfiniBand یا RoCE", "موازی‌سازی تنسوری", "موازی‌سازی داده",
               "۸ × ۱۶ × ۱۲۸ = ۱۶٬۳۸۴ GPU"],
    },
}


@cache
def _svg(kind: str, locale: str) -> str:
    return DIAGRAMS[kind](locale=locale)


def _texts(svg: str) -> list[str]:
    """The contents of every ``<text>`` element."""
    return ["".join(node.itertext()) for node in ET.fromstring(svg).iter(f"{SVG}text")]


def _colours(svg: str) -> set[str]:
    """Every fill, stroke or colour value, from attributes and from style properties."""
    found = set()
    for node in ET.fromstring(svg).iter():
        for key, value in node.attrib.items():
            if key in ("fill", "stroke", "color", "stop-color"):
                found.add(value)
        for value in re.findall(r"(?:fill|stroke|stop-color|color)\s*:\s*([^;]+)",
                                node.get("style", "")):
            found.add(value.strip())
    return found


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", DIAGRAMS)
def test_svg_parses_and_shows_the_locales_words(kind, locale):
    svg = _svg(kind, locale)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("class") == "dl-plot"
    shown = " ".join(_texts(svg))
    for word in EXPECTED[kind][locale]:
        assert word in shown, f"{kind}/{locale}: {word!r} not in the diagram's text"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", DIAGRAMS)
def test_digits_are_the_locales(kind, locale):
    texts = _texts(_svg(kind, locale))
    if locale == "fa":
        assert any(ch in PERSIAN_DIGITS for text in texts for ch in text)
        latin = [text for text in texts if re.search("[0-9]", text)]
        assert not latin, f"Latin digits in Persian text: {latin}"
    else:
        assert not any(ch in PERSIAN_DIGITS for text in texts for ch in text)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", DIAGRAMS)
def test_only_palette_colours_and_current_colour(kind, locale):
    svg = _svg(kind, locale)
    allowed = {c.lower() for c in OKABE_ITO} | {"currentcolor", "none"}
    colours = {c.lower() for c in _colours(svg) if not c.startswith("url(#")}
    assert colours <= allowed, f"{kind}/{locale}: colours outside the palette {colours - allowed}"
    hexes = {h.lower() for h in re.findall(r"#[0-9a-fA-F]{3,8}\b", svg)}
    assert hexes <= allowed
    assert "currentColor" in svg


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", DIAGRAMS)
def test_same_call_same_string(kind, locale):
    assert DIAGRAMS[kind](locale=locale) == DIAGRAMS[kind](locale=locale)


@pytest.mark.parametrize("kind", DIAGRAMS)
def test_referenced_and_named_ids_differ_between_locales(kind):
    """The en, ca and fa diagrams may share a page (a language switcher): the ids that are
    referenced (clip paths) or that name a drawn transfer must not collide."""
    ids = []
    for locale in LOCALES:
        svg = _svg(kind, locale)
        referenced = set(re.findall(r"url\(#([^)]+)\)", svg))
        named = set(re.findall(r'id="([a-z0-9-]+-(?:en|ca|fa)-[^"]+)"', svg))
        ids.append(referenced | named)
    assert not ids[0] & ids[1] and not ids[0] & ids[2] and not ids[1] & ids[2]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7])
def test_ring_draws_every_simulated_transfer(n):
    svg = ring_allreduce_diagram(n, locale="en")
    transfers = ring_all_reduce([np.ones(n)] * n).transfers
    assert len(transfers) == 2 * n * (n - 1)
    arrows = re.findall(r'id="ring-allreduce-en-transfer-(\d+)"', svg)
    labels = re.findall(r'id="ring-allreduce-en-chunk-(\d+)"', svg)
    assert sorted(map(int, arrows)) == sorted(map(int, labels)) == list(range(len(transfers)))
    texts = _texts(svg)
    steps = [t for t in texts if t.startswith("step ")]
    assert steps == [f"step {s}" for s in range(1, 2 * (n - 1) + 1)]


def test_ring_arrows_take_the_colour_of_their_chunk():
    svg = ring_allreduce_diagram(4, locale="en")
    transfers = ring_all_reduce([np.ones(4)] * 4).transfers
    root = ET.fromstring(svg)
    for group in root.iter(f"{SVG}g"):
        match = re.fullmatch(r"ring-allreduce-en-transfer-(\d+)", group.get("id", ""))
        if match:
            chunk = transfers[int(match[1])].chunk
            assert OKABE_ITO[chunk].lower() in ET.tostring(group, encoding="unicode").lower()


def test_ring_owner_of_each_chunk_comes_from_the_last_reduce_scatter_step():
    shown = _texts(_svg("ring", "en"))
    assert [t for t in shown if ": chunk " in t] == [
        "rank 1: chunk A", "rank 2: chunk B", "rank 3: chunk C", "rank 4: chunk D"]


def test_layout_counts_follow_the_arguments():
    shown = " ".join(_texts(layout_3d_diagram(4, 2, 3, locale="en")))
    assert "4 × 2 × 3 = 24 GPUs" in shown
    assert "One pipeline: 2 nodes of 4 GPUs, 8 GPUs" in shown
    assert "stage 2" in shown and "stage 3" not in shown
    assert "× 3 replicas" in shown


def test_fsdp_and_data_parallel_follow_n():
    assert "GPU 6" in " ".join(_texts(fsdp_diagram(6, locale="en")))
    assert "1/6" in " ".join(_texts(fsdp_diagram(6, locale="en")))
    assert "slice 3" in " ".join(_texts(data_parallel_diagram(3, locale="en")))
    assert "GPU 4" not in " ".join(_texts(data_parallel_diagram(3, locale="en")))


def test_persian_lines_are_isolated_right_to_left_and_others_are_not():
    for kind in DIAGRAMS:
        for text in _texts(_svg(kind, "fa")):
            if re.search("[\u0600-\u065f\u066e-\u06ef\u06fa-\u06ff]", text):  # letters
                assert text.startswith("\u2067") and text.endswith("\u2069"), text
        assert not any("\u2067" in t for t in _texts(_svg(kind, "en")))


def test_titles_are_in_the_locale():
    assert 'aria-label="all-reduce حلقوی میان ۴ رنک' in _svg("ring", "fa")
    assert 'aria-label="Data parallelism on 4 GPUs"' in _svg("data_parallel", "en")


def test_labels_override_the_words():
    svg = ring_allreduce_diagram(3, locale="en", labels={"step": "round {k}"})
    assert "round 4" in _texts(svg)
    svg = fsdp_diagram(locale="ca", labels={"weights": "paràmetres"})
    assert "paràmetres" in " ".join(_texts(svg))


def test_rendering_persian_raises_no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for render in DIAGRAMS.values():
            render(locale="fa")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ring_allreduce_diagram(1, locale="en"), "n=1 must be an integer from 2 to 7"),
        (lambda: ring_allreduce_diagram(8, locale="en"), "n=8 must be an integer from 2 to 7"),
        (lambda: data_parallel_diagram(9, locale="en"), "n=9 must be an integer from 2 to 5"),
        (lambda: fsdp_diagram(2.5, locale="en"), "n=2.5 must be an integer"),
        (lambda: layout_3d_diagram(0, locale="en"), "tp=0 must be an integer from 1 to 16"),
        (lambda: layout_3d_diagram(8, 16, 0, locale="en"), "dp=0 must be an integer"),
        (lambda: ring_allreduce_diagram(locale="de"), "locale='de' is not one of en, ca, fa"),
        (lambda: fsdp_diagram(locale="en", labels={"wieghts": "w"}),
         r"unknown keys \['wieghts'\]; allowed: "),
    ],
)
def test_errors_name_the_value_and_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message):
        call()
