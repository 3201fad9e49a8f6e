"""The all-reduce widget's build side: the data it embeds is the alpha-beta model's,
formatted per page."""

import gzip
import re

import pytest

from distlesson.pages import communication_widget as cw
from distlesson.parallel.alpha_beta import group_collective
from distlesson.render.numbers import format_percent
from tests.widget_checks import (
    LOCALES,
    check_controls,
    check_persian_digits,
    check_same_in_every_language,
    data_bytes,
    embedded_data,
    visible_text,
)

SIZES = tuple(2**k for k in range(3, 35, 2))
RANKS = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
PER_NODE = (1, 2, 4, 8)


def embedded(locale: str) -> dict:
    return embedded_data(cw.communication_widget(locale))


def library(size: int, ranks: int, per_node: int):
    """The model called directly: H100 servers (NVLink 4), InfiniBand NDR between them."""
    return group_collective("all-reduce", size, ranks, min(ranks, per_node), intra="nvlink4",
                            inter="ib-ndr")


def test_grid():
    assert (cw.SIZES, cw.RANKS, cw.PER_NODE) == (SIZES, RANKS, PER_NODE)
    assert set(embedded("en")["d"]) == {f"{s}-{n}-{k}" for s in SIZES for n in RANKS
                                        for k in PER_NODE}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_shows_the_library_values(locale):
    data = embedded(locale)
    for size in SIZES:
        for ranks in RANKS:
            for per_node in PER_NODE:
                c = library(size, ranks, per_node)
                entry = data["d"][cw.setting_key(size, ranks, per_node)]
                where = f"{locale} {size}-{ranks}-{per_node}"
                assert entry["l"] == format_percent(c.latency / c.time, locale, digits=1), where
                assert entry["d"] == (0 if c.latency > c.transfer else 1), where
                assert sum(entry["W"]) == pytest.approx(cw.WIDTH, abs=0.02), where
                assert entry["W"][0] == pytest.approx(cw.WIDTH * c.latency / c.time,
                                                      abs=0.01), where


def test_the_two_regimes_appear():
    data = embedded("en")["d"]
    assert data["8-1024-1"]["d"] == 0  # 8 bytes over 1,024 servers: latency
    assert data[f"{2**33}-8-8"]["d"] == 1  # 8 GiB in one server: bandwidth
    assert data["8-1024-1"]["a"] == "tree" and data[f"{2**33}-8-8"]["a"] == "ring"
    # a GPU count below the node size is one node with that many GPUs
    assert data["8-2-8"] == data["8-2-2"]


def test_default_is_the_chapters_case():
    c = library(2**27, 8, 8)
    entry = embedded("en")["d"][cw.setting_key(*cw.DEFAULT)]
    # 128 MiB on one server, Simple ring: 8.4 + 14 x 3.4 = 56 us, 1.75 x 2^27 B / 370 GB/s
    time = 56e-6 + 1.75 * 2**27 / 370e9
    assert c.time == pytest.approx(time, rel=1e-12)
    assert entry["t"] == f"{time * 1e6:.1f}\u00a0µs"  # 690.8 µs: under a millisecond
    assert entry["b"] == f"{c.busbw / 1e9:.1f}\u00a0GB/s"
    assert entry["g"] == f"{c.algbw / 1e9:.1f}\u00a0GB/s"


def test_the_three_languages_show_the_same_widget():
    check_same_in_every_language(cw.communication_widget)
    for locale in ("ca", "fa"):
        assert embedded(locale)["d"]["8-2-1"]["W"] == embedded("en")["d"]["8-2-1"]["W"]
    # Persian writes its units in words («۴۵۰ گیگابایت بر ثانیه», the termbase's units), two
    # bytes a letter: its JSON is about twice the English one, and compresses to about as much
    fragment = cw.communication_widget("fa")
    assert data_bytes(fragment) < 150_000
    script = re.search(r"<script[^>]*>(.*?)</script>", fragment, re.S).group(1)
    assert len(gzip.compress(script.encode(), 9)) < 16_000  # what a reader downloads


@pytest.mark.parametrize("locale", LOCALES)
def test_controls_are_labelled_and_default_to_the_chapter(locale):
    check_controls(cw.communication_widget(locale), "communication", cw.DEFAULT,
                   {"time", "algbw", "busbw", "algorithm", "latency", "dominant", "bar"})


def test_persian_widget_writes_persian_digits():
    for entry in embedded("fa")["d"].values():
        check_persian_digits(entry["t"] + entry["g"] + entry["b"] + entry["l"])
    check_persian_digits(visible_text(cw.communication_widget("fa")))
