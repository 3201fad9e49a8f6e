"""The interconnect catalog: unidirectional bytes per second, derived from the datasheets."""

import pytest

from distlesson.catalog.interconnects import INTERCONNECTS, Interconnect, get_interconnect


def test_conversions_from_the_datasheets():
    assert get_interconnect("nvlink4").bandwidth == 900e9 / 2  # bidirectional sum halved
    assert get_interconnect("nvlink3").bandwidth == 600e9 / 2
    assert get_interconnect("ib-ndr").bandwidth == 400e9 / 8  # bits to bytes


def test_newer_links_by_hand():
    # NVLink 5: 1.8 TB/s per GPU, both directions summed -> 900 GB/s each way
    assert get_interconnect("nvlink5").bandwidth == 900e9
    # H800: 400 GB/s both directions -> 200 GB/s each way
    assert get_interconnect("nvlink4-h800").bandwidth == 200e9
    # MI300X: 7 links x 128 GB/s (both directions) = 896 GB/s; each way 7 x 64 = 448 GB/s
    assert get_interconnect("infinity-fabric").bandwidth == 7 * 128e9 / 2 == 448e9
    # one link: 16 lanes x 32 Gb/s / 8 bits = 64 GB/s each way, half of its 128 GB/s
    assert 16 * 32e9 / 8 == 128e9 / 2


def test_every_entry_has_a_source_and_scope():
    for link in INTERCONNECTS.values():
        assert link.source and link.date[:2] == "20"
        assert link.scope in ("node", "cluster")
        assert link.key == next(k for k, v in INTERCONNECTS.items() if v is link)


def test_errors():
    with pytest.raises(ValueError, match="interconnect='nvlink9' is not known; allowed: nvlink4"):
        get_interconnect("nvlink9")
    with pytest.raises(ValueError, match="bandwidth=0 must be positive"):
        Interconnect("x", "x", 0, "node", "s", "2024-01")
