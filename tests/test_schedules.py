"""Schedules as data: the tables of operations, checked against rows written out by hand."""

import pytest

from distlesson.pipeline.schedules import (
    SCHEDULES,
    Op,
    Schedule,
    build_schedule,
    check_schedule_args,
    gpipe,
    interleaved_1f1b,
    one_f_one_b,
    zb_h1,
)


def row(schedule: Schedule, stage: int) -> str:
    """A stage's ops as text: F3 is the forward of microbatch 3, F3.1 of its chunk 1."""
    chunks = schedule.chunks > 1
    return " ".join(f"{op.kind}{op.microbatch}" + (f".{op.chunk}" if chunks else "")
                    for op in schedule.stages[stage])


def test_names():
    assert list(SCHEDULES) == ["gpipe", "1f1b", "interleaved", "zb-h1"]


def test_op_validates():
    assert str(Op("F", 3)) == "F of microbatch 3"
    assert str(Op("B", 2, 1)) == "B of microbatch 2 chunk 1"
    with pytest.raises(ValueError, match="kind='X' is not one of F, B, W"):
        Op("X", 0)
    with pytest.raises(ValueError, match="microbatch=-1 must be an integer >= 0"):
        Op("F", -1)
    with pytest.raises(ValueError, match="chunk=True"):
        Op("F", 0, True)


def test_gpipe_all_forwards_then_backwards_last_first():
    schedule = gpipe(2, 3)
    assert row(schedule, 0) == row(schedule, 1) == "F0 F1 F2 B2 B1 B0"
    assert not schedule.split_backward and schedule.chunks == 1


def test_one_f_one_b_rows_p4_m8():
    schedule = one_f_one_b(4, 8)
    # stage 0: warmup p - 0 - 1 = 3 forwards, then 5 (F, B) pairs, then 3 cooldown Bs
    assert row(schedule, 0) == ("F0 F1 F2 " "F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 " "B5 B6 B7")
    # stage 2: one warmup forward, 7 pairs, one cooldown backward
    assert row(schedule, 2) == "F0 F1 B0 F2 B1 F3 B2 F4 B3 F5 B4 F6 B5 F7 B6 B7"
    # the last stage has no warmup: F and B alternate from the start
    assert row(schedule, 3) == " ".join(f"F{i} B{i}" for i in range(8))


def test_one_f_one_b_fewer_microbatches_than_stages():
    schedule = one_f_one_b(4, 2)
    # stage 0 and 1 would warm up with 3 and 2 forwards; only 2 exist: all F, then all B
    assert row(schedule, 0) == row(schedule, 1) == "F0 F1 B0 B1"
    assert row(schedule, 2) == "F0 F1 B0 B1"  # 1 warmup F, the pair (F1, B0), then B1
    assert row(schedule, 3) == "F0 B0 F1 B1"


@pytest.mark.parametrize("pp", range(1, 9))
@pytest.mark.parametrize("m", range(1, 12))
def test_one_f_one_b_warmup(pp, m):
    schedule = one_f_one_b(pp, m)
    for s in range(pp):
        kinds = [op.kind for op in schedule.stages[s]]
        # forwards before the first backward: the warmup min(p - s - 1, m), plus the first
        # steady forward when there is a steady state
        assert kinds.index("B") == min(pp - s, m)


def test_interleaved_rows_p2_m2_v2():
    schedule = interleaved_1f1b(2, 2, 2)
    # virtual microbatches k = 0..3 in one group of pp * v = 4: forwards take chunk k // 2
    # and microbatch k % 2, backwards chunk 1 - k // 2. Stage 0 warms up with
    # 2 (2 - 0 - 1) + (2 - 1) 2 = 4 = v m: every forward first. Stage 1 warms up with 2.
    assert row(schedule, 0) == "F0.0 F1.0 F0.1 F1.1 B0.1 B1.1 B0.0 B1.0"
    assert row(schedule, 1) == "F0.0 F1.0 F0.1 B0.1 F1.1 B1.1 B0.0 B1.0"


def test_interleaved_groups_of_pp_microbatches():
    schedule = interleaved_1f1b(2, 4, 2)
    forwards = [f"F{op.microbatch}.{op.chunk}" for op in schedule.stages[0] if op.kind == "F"]
    assert forwards == ["F0.0", "F1.0", "F0.1", "F1.1", "F2.0", "F3.0", "F2.1", "F3.1"]


def test_interleaved_needs_multiple_of_pp():
    with pytest.raises(ValueError, match="num_microbatches=6 must be a multiple of pp=4"):
        interleaved_1f1b(4, 6, 2)


def test_zb_h1_rows_p4_m8():
    schedule = zb_h1(4, 8)
    assert schedule.split_backward
    # stage s at step x runs F[x], B[x - (p - 1 - s)], W[x - (p - 1)] where they exist.
    # stage 0: B and W of the same microbatch back to back (no deferred W)
    assert row(schedule, 0) == ("F0 F1 F2 " + " ".join(f"F{x} B{x - 3} W{x - 3}"
                                                       for x in range(3, 8))
                                + " B5 W5 B6 W6 B7 W7")
    # stage 1: 2 warmup forwards, 1 (F, B) pair whose W waits, triples, then the drain
    assert row(schedule, 1) == ("F0 F1 " "F2 B0 " "F3 B1 W0 F4 B2 W1 F5 B3 W2 F6 B4 W3 "
                                "F7 B5 W4 " "B6 W5 B7 W6 " "W7")
    # the last stage: 3 (F, B) pairs before its first W, and 3 Ws at the end
    assert row(schedule, 3).startswith("F0 B0 F1 B1 F2 B2 F3 B3 W0 F4 B4 W1")
    assert row(schedule, 3).endswith("B7 W4 W5 W6 W7")


@pytest.mark.parametrize("name", list(SCHEDULES))
@pytest.mark.parametrize("pp", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("m", [1, 2, 5, 12])
def test_every_op_once_per_stage(name, pp, m):
    chunks = 2 if name == "interleaved" else 1
    if name == "interleaved" and m % pp:
        m *= pp
    schedule = build_schedule(name, pp, m, chunks)
    kinds = "FBW" if name == "zb-h1" else "FB"
    expected = {Op(k, i, c) for k in kinds for i in range(m) for c in range(chunks)}
    for ops in schedule.stages:
        assert len(ops) == len(expected) and set(ops) == expected


def test_build_schedule_errors():
    with pytest.raises(ValueError, match="schedule='pipedream' is not one of gpipe, 1f1b, "
                                         "interleaved, zb-h1"):
        build_schedule("pipedream", 4, 8)
    with pytest.raises(ValueError, match="pp=0 must be a positive integer"):
        build_schedule("1f1b", 0, 8)
    with pytest.raises(ValueError, match=r"num_microbatches=2\.5 must be a positive integer"):
        build_schedule("1f1b", 4, 2.5)
    with pytest.raises(ValueError, match="pp=True must be a positive integer"):
        build_schedule("gpipe", True, 8)
    with pytest.raises(ValueError, match="chunks=2 is only for the 'interleaved' schedule"):
        build_schedule("zb-h1", 4, 8, 2)
    with pytest.raises(ValueError, match="chunks=1 must be >= 2 for the interleaved"):
        build_schedule("interleaved", 4, 8)
    with pytest.raises(ValueError, match="num_microbatches=6 must be a multiple of pp=4"):
        check_schedule_args("interleaved", 4, 6, 2)


def test_schedule_needs_one_row_per_stage():
    with pytest.raises(ValueError, match="1 stage rows for pp=2"):
        Schedule("mine", 2, 1, 1, False, ((Op("F", 0), Op("B", 0)),))
