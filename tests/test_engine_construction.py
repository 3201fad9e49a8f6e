"""How the lab builds its checks, without starting ranks: each helper that turns what torch
did into a compared value, fed a wrong value, makes its check fail."""

import numpy as np
import pytest

from distlesson.engine.config import GRAD_TOLERANCE
from distlesson.engine.report import Check
from distlesson.pages import engine_lab
from distlesson.pages.engine_lab_labels import CHECKS, NOTE_OF, NOTES

pytest.importorskip("torch")

from distlesson.engine import pipeline, tensor, zero  # after the skip: needs torch


def _moment_check(per_rank, grads) -> Check:
    return Check("zero1.moment", "", "abs_error", zero._moment_error(per_rank, grads), 0.0,
                 GRAD_TOLERANCE)


def test_zero1_moment_catches_a_sum_over_ranks_and_a_missing_tensor():
    grads = [np.full((2, 3), 0.25), np.full(3, -0.5)]
    right = [{0: grads[0] + 1e-7}, {1: grads[1]}]
    assert _moment_check(right, grads).passed
    summed = [{0: 2 * grads[0]}, {1: 2 * grads[1]}]  # two ranks summed, not averaged
    assert not _moment_check(summed, grads).passed
    assert not _moment_check([{0: grads[0]}, {}], grads).passed  # tensor 1 nowhere
    assert not _moment_check([{0: grads[0], 1: grads[1]}, {1: grads[1]}], grads).passed


def test_tp_collectives_compare_kind_and_count():
    library = tensor._kinds({"all_reduce": 1})
    assert library == "all_reduce x 1"
    assert Check("tp.x", "", "collectives", tensor._kinds({"all_reduce": 1}), library).passed
    for wrong in ({"all_reduce": 2}, {"all_gather_into_tensor": 1},
                  {"all_reduce": 1, "all_gather_into_tensor": 1}, {}):
        assert not Check("tp.x", "", "collectives", tensor._kinds(wrong), library).passed
    # the naive plan is predicted at one all-reduce per column-parallel consumer of x
    naive = tensor._kinds({"all_reduce": len(tensor.COLUMN_PARALLEL) * 1})
    assert naive == "all_reduce x 2"
    assert not Check("tp.n", "", "collectives", tensor._kinds({"all_reduce": 1}), naive).passed


def test_gpipe_prediction_puts_the_backwards_in_microbatch_order():
    table = (("F0", "F1", "F2", "B2", "B1", "B0"), ("F0", "F1", "F2", "B2", "B1", "B0"))
    predicted = pipeline._rows(pipeline._in_microbatch_order(table))
    assert predicted == ("F0 F1 F2 B0 B1 B2",) * 2
    assert Check("pipe.gpipe.order", "", "ops", predicted, predicted).passed
    # torch running the library's reverse order, or interleaving, would fail the check
    for wrong in (pipeline._rows(table), ("F0 B0 F1 B1 F2 B2",) * 2):
        assert not Check("pipe.gpipe.order", "", "ops", wrong, predicted).passed
    # 1F1B's rows keep their interleaving: only the backwards' order changes
    assert pipeline._in_microbatch_order((("F0", "F1", "B0", "F2", "B1", "B2"),)) == (
        ("F0", "F1", "B0", "F2", "B1", "B2"),)


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_collectives_cell_and_notes_per_locale(locale):
    cell = engine_lab._collectives("all_gather_into_tensor x 1, all_reduce x 2", locale)
    assert cell == (f"`all_gather_into_tensor` × {engine_lab.format_number(1, locale)}, "
                    f"`all_reduce` × {engine_lab.format_number(2, locale)}")
    assert engine_lab._collectives("", locale) == {"en": "none", "ca": "cap",
                                                   "fa": "هیچ\u200cکدام"}[locale]
    note = Check("ddp.grad", "", "abs_error", 0.0, 0.0, 1e-5, note="why")
    assert engine_lab.format_scientific(1e-5, locale) in engine_lab._note(note, locale)


def test_every_noted_check_has_a_label_and_a_note_in_every_locale():
    assert set(NOTE_OF) <= set(CHECKS) and set(NOTE_OF.values()) == set(NOTES)
    for text in (*CHECKS.values(), *NOTES.values()):
        assert set(text) == {"en", "ca", "fa"}
