"""The lab page: its figures by hand, and its tables from the four-rank run (once per
process, shared with the build's cache): four pipeline stages, an empty FSDP shard."""

import pytest

from distlesson.pages import engine_lab
from distlesson.site.figures import figure_registry

pytest.importorskip("torch")


def test_figures_by_hand():
    figures = {f.name: f.value for f in engine_lab.figures()}
    assert figures["engine.world_size"] == 4
    assert figures["engine.microbatches"] == 8  # the pipeline chapter's 4 x 8
    assert figures["engine.toy_params"] == 8 * 16 + 16 + 16 * 4 + 4
    assert figures["engine.payload"] == 212 * 4
    assert figures["engine.bytes_per_param"] == 4
    assert (figures["engine.min_local_ranks"], figures["engine.max_local_ranks"]) == (2, 8)
    # ring all-reduce of 212 values over 4 ranks: chunks of 53, 3 sends in each of 2 phases
    assert figures["engine.ring_sent"] == 2 * 3 * 53 * 4


def test_ring_sent_is_the_most_any_rank_sends():
    assert engine_lab.ring_sent(212, 4, 2) == 2 * 106 * 4  # one chunk in each phase
    assert engine_lab.ring_sent(212, 2, 4) == 2 * 3 * 53 * 2  # bf16: half the bytes


def test_page_figures_are_registered():
    assert figure_registry()["engine.payload"].render("en") == "848\u00a0B"


def test_four_ranks_all_checks_as_expected():
    report = engine_lab.lab_report()
    assert report.world_size == 4 and report.passed
    checks = report.by_key()
    # ZeRO-1: one tensor per rank, largest first: W1 128, W2 64, b1 16, b2 4
    assert checks["zero1.per_rank"].measured == (1024, 512, 128, 32)
    # FSDP uneven 8 -> 9 -> 5: rows 3, 3, 3, 0 and 2, 2, 1, 0
    # rank 0: 3 x 8 + 3 + 2 x 9 + 2 = 47 values; rank 2: 24 + 3 + 9 + 1 = 37; rank 3 none
    assert checks["fsdp.uneven.weights"].measured == (47 * 4, 47 * 4, 37 * 4, 0)
    assert checks["fsdp.uneven.padded"].measured == (47 * 4,) * 4
    # 1F1B: pp - s forwards before the first backward, then B0
    assert [row.split().index("B0") for row in checks["pipe.1f1b.order"].measured] == [
        4, 3, 2, 1]
    assert checks["pipe.gpipe.makespan"].measured == 33  # GPipe (8 + 3) x 3
    assert len(report.checks) == 30 and all(c.expect_equal for c in report.checks
                                            if c.key.startswith(("tp.", "pipe.")))


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables(locale):
    report = engine_lab.lab_report()
    table, notes = engine_lab.comparison_table(locale).split("\n\n", 1)
    rows = table.splitlines()
    assert len(rows) == 2 + len(report.checks)
    # every row with a note in the engine has its note, translated, under the table
    heading, items = notes.split("\n\n")
    assert heading == {"en": "Notes on the rows:", "ca": "Notes sobre les files:",
                       "fa": "یادداشت‌هایی دربارهٔ سطرها:"}[locale]
    noted = [c for c in report.checks if c.note]
    assert len(items.splitlines()) == len(noted)
    assert all(item.startswith("- ") for item in items.splitlines())
    assert ("{" not in notes) and ("`float32`" in notes)
    assert engine_lab.format_scientific(1e-5, locale) in notes
    fails = {"en": "FAILS", "ca": "FALLA", "fa": "ناموفق"}[locale]
    assert not any(fails in row for row in rows)
    orders = engine_lab.order_table(locale).splitlines()[2:]
    assert len(orders) == 2 * 4  # two schedules, four stages
    yes, no = {"en": ("yes", "no"), "ca": ("sí", "no"), "fa": ("بله", "خیر")}[locale]
    assert [row.rsplit("|", 2)[1].strip() for row in orders] == [yes] * 4 + [no] * 4
    machine = engine_lab.machine_table(locale)
    assert f"`{report.torch_version}`" in machine and "`gloo`" in machine


def test_persian_tables_carry_no_latin_digits_outside_code():
    import re

    for table in (engine_lab.comparison_table("fa"), engine_lab.order_table("fa"),
                  engine_lab.machine_table("fa")):
        text = re.sub(r"`[^`]*`|<sup>|</sup>|ZeRO-1|1F1B", " ", table)
        assert not re.findall(r"[0-9]", text), text[:200]


def test_excerpts_are_the_functions_source():
    block = engine_lab.excerpt("ddp.counting_allreduce_hook")
    assert block.startswith("```python\ndef counting_allreduce_hook(") and block.endswith("```")
    assert "bucket.buffer()" in block
    record = engine_lab.excerpt("pipeline._record")  # a pragma says nothing to a reader
    assert "stage.forward_one_chunk = forward_one_chunk\n" in record
    assert "type: ignore" not in record
    with pytest.raises(ValueError, match="no function"):
        engine_lab.excerpt("ddp.missing")


def test_the_run_starts_once_per_process_and_every_page_shares_it():
    engine_lab.start_lab_run()
    started = engine_lab._RUN
    engine_lab.start_lab_run()  # the build's early start, then each language's page
    assert engine_lab._RUN is started
    assert engine_lab.lab_report() is engine_lab.lab_report() is started.result()
