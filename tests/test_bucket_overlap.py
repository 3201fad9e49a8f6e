"""DDP's buckets during the backward: the two streams simulated, checked by hand."""

import pytest

from distlesson.efficiency.bucket_overlap import bucket_sizes, bucket_timeline


def test_bucket_sizes_full_then_the_remainder():
    assert bucket_sizes(10, 3) == (3, 3, 3, 1)
    assert bucket_sizes(9, 3) == (3, 3, 3)
    assert bucket_sizes(2, 3) == (2,)


def test_reductions_shorter_than_a_bucket_leave_only_the_last_exposed():
    # 4 buckets over a backward of 10: ready at 2.5, 5, 7.5, 10; each reduction takes 1
    t = bucket_timeline(10.0, (1, 1, 1, 1), lambda size: 1.0)
    network = [(i.start, i.end) for i in t.intervals if i.stream == "network"]
    assert network == [(2.5, 3.5), (5.0, 6.0), (7.5, 8.5), (10.0, 11.0)]
    assert t.exposed == pytest.approx(1.0)  # the last bucket's reduction, nothing more


def test_longer_reductions_queue_up():
    # each reduction takes 4 > 2.5: they start at 2.5, 6.5, 10.5, 14.5 and end at 18.5
    t = bucket_timeline(10.0, (1, 1, 1, 1), lambda size: 4.0)
    assert t.end == pytest.approx(18.5)
    # B t - (B - 1) c = 16 - 7.5
    assert t.exposed == pytest.approx(4 * 4.0 - 3 * 2.5)


def test_compute_follows_the_bytes_and_times_take_the_size():
    sizes = (3, 1)
    t = bucket_timeline(8.0, sizes, lambda size: size / 10)
    compute = [(i.start, i.end) for i in t.intervals if i.stream == "compute"]
    assert compute == [(0.0, 6.0), (6.0, 8.0)]
    assert t.exposed == pytest.approx(0.1)  # the last bucket: 1 byte at 10 bytes/s


@pytest.mark.parametrize(("call", "message"), [
    (lambda: bucket_sizes(0, 1), "grad_bytes=0"),
    (lambda: bucket_timeline(0, (1,), lambda s: 0), "backward=0"),
    (lambda: bucket_timeline(1, (), lambda s: 0), "sizes is empty"),
])
def test_bad_input_names_the_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()
