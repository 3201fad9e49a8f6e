"""The accuracy chapter: its table is the library's predictions, its prose stays true."""

import pytest

from distlesson.efficiency.accuracy import predictions
from distlesson.pages import accuracy as page


def figure(name):
    return {f.name: f for f in page.figures()}[name].value


def test_counts_and_extremes():
    errors = {p.run.key: p.error for p in predictions()}
    assert figure("acc.rows") == len(errors)
    assert figure("acc.within") == sum(abs(e) <= 0.10 for e in errors.values())
    # the prose names where the extremes fall: BLOOM over, then the small Megatron models;
    # the 175B run under
    assert max(errors, key=errors.get) == "bloom-176b"
    assert errors["bloom-176b"] == pytest.approx(figure("acc.largest_over"))
    megatron = {k: e for k, e in errors.items() if k.startswith(("narayanan", "korthikanti"))}
    # "small models": the worst is one of at most 22 billion parameters
    assert max(megatron, key=megatron.get) in ("narayanan-1.7b", "narayanan-3.6b",
                                               "narayanan-7.5b", "narayanan-18.4b",
                                               "korthikanti-22b-mfu", "korthikanti-22b-hfu")
    assert max(megatron.values()) == pytest.approx(figure("acc.megatron_over"))
    assert min(errors, key=errors.get).startswith("korthikanti-175b")


def test_bloom_measured_is_its_log_over_the_a100_peak():
    # 149.77 TFLOP/s in BigScience's log line, over the A100's dense bf16 peak of 312 TFLOP/s
    assert figure("acc.bloom_measured") == pytest.approx(149.77 / 312)
    # four 100 Gb/s Omni-Path links per node of eight GPUs: 6.25 GB/s per GPU each way
    assert figure("acc.bloom_link") == pytest.approx(6.25e9)


def test_the_prose_says_memory_is_pessimistic_only_while_it_is():
    assert figure("acc.l3_16k_memory") > figure("acc.gpu_memory")


def test_the_causal_count_is_lower_at_long_context():
    assert figure("acc.l3_cp_full_count") > figure("acc.l3_cp_predicted")


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_and_plot(locale):
    rows = page.runs_table(locale).splitlines()
    assert len(rows) == 2 + len(predictions())
    assert sum("(" in row.split("|")[-2] for row in rows[2:]) == 2  # the two fitted rows
    terms = page.terms_table("l3_16k", locale).splitlines()
    assert len(terms) == 2 + 5
    svg = page.scatter(locale)
    assert svg.startswith("<svg") and svg.count("<path") > 10
