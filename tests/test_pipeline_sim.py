"""The simulator against timelines worked out by hand, its errors, its speed, and the Gantt."""

import re
import time
from fractions import Fraction
from itertools import pairwise

import pytest

from distlesson.pipeline.schedules import (
    SCHEDULES,
    Op,
    Schedule,
    build_schedule,
    gpipe,
    interleaved_1f1b,
    one_f_one_b,
    zb_h1,
)
from distlesson.pipeline.simulator import Durations, Slot, simulate
from distlesson.render.gantt import LABEL_KEYS, gantt_svg
from distlesson.render.svg import OKABE_ITO


def test_durations_validate():
    assert Durations() == Durations(1, 2, 1)
    with pytest.raises(ValueError, match=r"fwd=0\.5 must be exact"):
        Durations(fwd=0.5)
    with pytest.raises(ValueError, match="fwd=0 and bwd=2 must be > 0"):
        Durations(fwd=0)
    with pytest.raises(ValueError, match="wgrad=3 must be between 0 and bwd=2"):
        Durations(wgrad=3)
    with pytest.raises(ValueError, match="bwd=True must be exact"):
        Durations(bwd=True)


def test_op_times():
    d = Durations(fwd=1, bwd=3, wgrad=1)
    assert d.op_time("B") == 3
    assert d.op_time("B", split_backward=True) == 2
    assert d.op_time("W", split_backward=True) == 1
    assert d.op_time("F", chunks=2) == Fraction(1, 2)
    with pytest.raises(ValueError, match="kind='W'"):
        d.op_time("W")


def test_one_f_one_b_p2_m2_by_hand():
    # fwd 1, bwd 2. Stage 1 (last, no warmup): F0 [1,2] after stage 0's F0; B0 [2,4];
    # F1 needs stage 0's F1 (ends 2) and the stage (free at 4): [4,5]; B1 [5,7].
    # Stage 0 (one warmup F): F0 [0,1], F1 [1,2], B0 waits for stage 1's B0: [4,6],
    # B1 for stage 1's B1: [7,9]. Makespan 9 = (m + p - 1)(1 + 2).
    timeline = simulate(one_f_one_b(2, 2))
    assert timeline.slots == (
        Slot(0, Op("F", 0), 0, 1), Slot(0, Op("F", 1), 1, 2),
        Slot(0, Op("B", 0), 4, 6), Slot(0, Op("B", 1), 7, 9),
        Slot(1, Op("F", 0), 1, 2), Slot(1, Op("B", 0), 2, 4),
        Slot(1, Op("F", 1), 4, 5), Slot(1, Op("B", 1), 5, 7),
    )
    assert timeline.makespan == 9 and timeline.busy == (6, 6) and timeline.idle == (3, 3)
    assert timeline.bubble_fraction == Fraction(1, 3)


def test_one_f_one_b_p4_m8():
    # (m + p - 1)(fwd + bwd) = 11 x 3 = 33; each stage computes 8 x 3 = 24 and idles 9;
    # idle share 4 x 9 / (4 x 33) = 3/11. Stage s holds its p - s - 1 warmup forwards plus
    # the steady state's one: 4, 3, 2, 1.
    timeline = simulate(one_f_one_b(4, 8))
    assert timeline.makespan == 33
    assert timeline.idle == (9, 9, 9, 9)
    assert timeline.bubble_fraction == Fraction(3, 11)
    assert timeline.peak_activations == (4, 3, 2, 1)


def test_gpipe_p4_m8_same_time_more_memory():
    # forwards reach the last stage's end at (m + p - 1) x 1 = 11; then m backwards there
    # and p - 1 more on the way back: 11 + (8 + 3) x 2 = 33. Every stage holds all 8.
    timeline = simulate(gpipe(4, 8))
    assert timeline.makespan == 33 and timeline.bubble_fraction == Fraction(3, 11)
    assert timeline.peak_activations == (8, 8, 8, 8)


def test_gpipe_backward_order_does_not_matter():
    forward_order = tuple(tuple(Op(k, i) for k in "FB" for i in range(8)) for _ in range(4))
    mine = simulate(Schedule("gpipe, backwards in order", 4, 8, 1, False, forward_order))
    assert mine.makespan == simulate(gpipe(4, 8)).makespan == 33


def test_one_microbatch():
    # one microbatch: 4 forwards and 4 backwards in a chain, 4 x 3 = 12; each stage works 3
    timeline = simulate(one_f_one_b(4, 1))
    assert timeline.makespan == 12 and timeline.bubble_fraction == Fraction(3, 4)


def test_sixteen_microbatches():
    # (16 + 3) x 3 = 57; idle 57 - 48 = 9 per stage: 9/57 = 3/19
    assert simulate(one_f_one_b(4, 16)).bubble_fraction == Fraction(3, 19)


def test_interleaved_p2_m2_v2_by_hand():
    # chunk ops take half: F 1/2, B 1. Virtual stages: chunk 0 on stages 0, 1 are 0, 1;
    # chunk 1 on stages 0, 1 are 2, 3. Stage 0: F0.0 [0,.5] F1.0 [.5,1] F0.1 [1,1.5]
    # F1.1 [1.5,2] B0.1 [3,4] B1.1 [4.5,5.5] B0.0 [5.5,6.5] B1.0 [6.5,7.5]. Stage 1:
    # F0.0 [.5,1] F1.0 [1,1.5] F0.1 [1.5,2] B0.1 [2,3] F1.1 [3,3.5] B1.1 [3.5,4.5]
    # B0.0 [4.5,5.5] B1.0 [5.5,6.5]. Makespan 15/2, each stage busy 6: idle 3/2 each,
    # 3/15 = 1/5 = (p - 1) / (v m + p - 1).
    timeline = simulate(interleaved_1f1b(2, 2, 2))
    half = Fraction(1, 2)
    assert [(s.start, s.end) for s in timeline.slots if s.stage == 0] == [
        (0, half), (half, 1), (1, 3 * half), (3 * half, 2), (3, 4), (9 * half, 11 * half),
        (11 * half, 13 * half), (13 * half, 15 * half)]
    assert timeline.makespan == Fraction(15, 2) and timeline.bubble_fraction == Fraction(1, 5)
    # stage 0 holds 4 chunk-microbatches (2 microbatches' worth), stage 1 at most 3 (3/2)
    assert timeline.peak_activations == (2, Fraction(3, 2))


def test_zb_h1_third_of_1f1b_bubble():
    # F = B = W = 1 (bwd = 2). Stage 0 runs F0..F3 by time 4; B0 leaves the last stage at
    # 5 and reaches stage 0 at [7, 8]: 3 idle units; from then the stage never waits.
    # Makespan 3 + 8 x 3 = 27: p - 1 = 3 idle per stage, a third of 1F1B's 3 (p - 1) = 9.
    zb, ofob = simulate(zb_h1(4, 8)), simulate(one_f_one_b(4, 8))
    assert zb.makespan == 27 and zb.idle == (3, 3, 3, 3) and ofob.idle == (9, 9, 9, 9)
    assert zb.bubble_fraction == Fraction(1, 9)
    assert zb.peak_activations == (4, 4, 4, 4)  # held until W: p on every stage


@pytest.mark.parametrize("name", list(SCHEDULES))
@pytest.mark.parametrize(("pp", "m"), [(1, 3), (3, 2), (4, 4), (5, 10)])
def test_slots_respect_order_and_dependencies(name, pp, m):
    chunks = 2 if name == "interleaved" else 1
    m = m * pp if name == "interleaved" else m
    d = Durations(fwd=Fraction(2, 3), bwd=Fraction(7, 5), wgrad=Fraction(1, 2))
    timeline = simulate(build_schedule(name, pp, m, chunks), d)
    end = {}
    for slot in timeline.slots:
        end[(slot.op.kind, slot.op.microbatch, slot.op.chunk * pp + slot.stage)] = slot.end
        assert slot.end - slot.start == d.op_time(
            slot.op.kind, chunks=chunks, split_backward=name == "zb-h1")
    last = chunks * pp - 1
    for slot in timeline.slots:
        kind, i, k = slot.op.kind, slot.op.microbatch, slot.op.chunk * pp + slot.stage
        need = {"F": ("F", i, k - 1), "B": ("B", i, k + 1) if k < last else ("F", i, k),
                "W": ("B", i, k)}[kind]
        assert slot.start >= end.get(need, 0)
    for s in range(pp):
        mine = [slot for slot in timeline.slots if slot.stage == s]
        assert all(a.end <= b.start for a, b in pairwise(mine))
        assert sum(slot.end - slot.start for slot in mine) == timeline.busy[s]
    assert max(slot.end for slot in timeline.slots) == timeline.makespan


def _one_f_one_b_rows(pp, m):
    return [list(row) for row in one_f_one_b(pp, m).stages]


def _schedule(rows, *, split=False):
    return Schedule("hand-made", len(rows), 2, 1, split, tuple(tuple(r) for r in rows))


def test_missing_op():
    rows = _one_f_one_b_rows(2, 2)
    rows[1].remove(Op("B", 1))
    with pytest.raises(ValueError, match="stage 1: op B of microbatch 1 is missing"):
        simulate(_schedule(rows))


def test_duplicate_op():
    rows = _one_f_one_b_rows(2, 2)
    rows[0][-1] = Op("B", 0)
    with pytest.raises(ValueError, match="stage 0: op B of microbatch 0 is listed twice"):
        simulate(_schedule(rows))


def test_unexpected_op():
    rows = _one_f_one_b_rows(2, 2)
    rows[0].append(Op("W", 0))
    with pytest.raises(ValueError, match="stage 0: unexpected op W of microbatch 0; "
                                         "allowed kinds F, B"):
        simulate(_schedule(rows))


def test_op_before_its_dependency_on_the_same_stage():
    rows = [list(row) for row in zb_h1(2, 2).stages]
    rows[0].remove(Op("W", 1))
    rows[0].insert(0, Op("W", 1))
    with pytest.raises(ValueError, match="stage 0: op W of microbatch 1 is listed before "
                                         "B of microbatch 1 on stage 0, which it needs"):
        simulate(_schedule(rows, split=True))
    rows = _one_f_one_b_rows(2, 2)
    rows[1] = [Op("B", 0), Op("F", 0), Op("F", 1), Op("B", 1)]  # last stage: B0 before F0
    with pytest.raises(ValueError, match="stage 1: op B of microbatch 0 is listed before F"):
        simulate(_schedule(rows))


def test_deadlock():
    # stage 0 waits with B0 for stage 1's B0, which waits with F0 for stage 0's F0
    rows = [[Op("B", 0), Op("F", 0), Op("F", 1), Op("B", 1)],
            [Op("F", 0), Op("B", 0), Op("F", 1), Op("B", 1)]]
    with pytest.raises(ValueError, match="deadlock: no stage can proceed; stage 0 waits "
                                         "with op B of microbatch 0 for B of microbatch 0 "
                                         "on stage 1"):
        simulate(_schedule(rows))


def test_large_interleaved_is_fast():
    schedule = build_schedule("interleaved", 64, 1024, 2)  # 262,144 ops
    start = time.process_time()  # this process's CPU: other processes on the machine
    timeline = simulate(schedule)  # (a parallel test run, a build) do not count
    assert time.process_time() - start < 2.0  # a bound for a 2-core machine, not a timing
    assert timeline.bubble_fraction == Fraction(63, 2 * 1024 + 63)


LABELS = {"stage": "stage", "time": "time", "forward": "forward", "backward": "backward",
          "wgrad": "weight gradient", "idle": "idle"}


def test_gantt_one_box_per_op_legend_and_palette():
    timeline = simulate(zb_h1(4, 8))
    svg = gantt_svg(timeline, name="zb", title="ZB-H1, 4 stages", labels=LABELS)
    assert svg.startswith("<svg") and 'aria-label="ZB-H1, 4 stages"' in svg
    assert len(re.findall(r'id="zb-op\d+"', svg)) == 4 * 8 * 3
    # idle: stage 0 once (3 units mid-way), stages 1 and 2 twice, stage 3 once (at start)
    assert len(re.findall(r'id="zb-idle\d+"', svg)) == 6
    for word in ("forward", "backward", "weight gradient", "idle", "stage 1", "stage 4"):
        assert word in svg
    colours = {c.lower() for c in re.findall(r"#[0-9A-Fa-f]{6}\b", svg)}
    # the palette's fills, and the black or white ink each box's label takes on its fill
    assert colours <= {c.lower() for c in OKABE_ITO} | {"#ffffff", "#000000"}
    assert "#ffffff" in colours  # the forward's blue takes white ink
    assert svg == gantt_svg(timeline, name="zb", title="ZB-H1, 4 stages", labels=LABELS)


def test_gantt_persian_digits_and_no_wgrad_legend_without_split():
    labels = {"stage": "مرحله", "time": "زمان", "forward": "رو به جلو", "backward": "رو به عقب",
              "wgrad": "گرادیان وزن", "idle": "بیکار"}
    svg = gantt_svg(simulate(one_f_one_b(4, 8)), name="fa", title="1F1B", labels=labels,
                    locale="fa")
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    rli, pdi = "\u2067", "\u2069"  # Persian words in a right-to-left isolate, numbers bare
    # a stage and its number are joined by the ezafe: «مرحلهٔ ۱»
    assert {f"{rli}{w}{pdi}" for w in ("مرحلهٔ ۱", "مرحلهٔ ۴", "زمان", "رو به جلو", "بیکار")} \
        | {"۱۲"} <= set(texts)
    assert "گرادیان وزن" not in svg  # no W boxes, no W legend entry
    assert not any(re.search("[0-9]", text) for text in texts)  # Persian digits only
    assert texts.count("۸") >= 8  # microbatch 8's boxes are numbered


def test_gantt_labels_checked():
    with pytest.raises(ValueError, match="labels lack idle"):
        gantt_svg(simulate(gpipe(2, 2)), name="g", title="t",
                  labels={k: k for k in LABEL_KEYS if k != "idle"})
