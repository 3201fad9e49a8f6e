"""The interconnect catalog: unidirectional bytes per second, derived from the datasheets."""

import pytest

from distlesson.interconnects import INTERCONNECTS, Interconnect, get_interconnect


def test_conversions_from_the_datasheets():
    assert get_interconnect("nvlink4").bandwidth == 900e9 / 2  # bidirectional sum halved
    assert get_interconnect("nvlink3").bandwidth == 600e9 / 2
    assert get_interconnect("ib-ndr").bandwidth == 400e9 / 8  # bits to bytes


def test_every_entry_has_a_source_and_scope():
    for link in INTERCONNECTS.values():
        assert link.source and link.date[:2] == "20"
        assert link.scope in ("node", "cluster")


def test_errors():
    with pytest.raises(ValueError, match="interconnect='nvlink9' is not known; allowed: nvlink4"):
        get_interconnect("nvlink9")
    with pytest.raises(ValueError, match="bandwidth=0 must be positive"):
        Interconnect("x", "x", 0, "node", "s", "2024-01")
