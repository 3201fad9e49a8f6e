"""The topology catalog: NVLink domains and fabrics, their figures against their sources."""

import pytest

from distlesson.catalog.topology import DOMAINS, FABRICS, get_domain, get_fabric


def test_nvlink_domains_by_hand():
    hgx, nvl72 = get_domain("hgx-h100"), get_domain("gb200-nvl72")
    assert hgx.gpus == 8 and hgx.bandwidth == 900e9 / 2  # "900 GB/s", both directions
    assert nvl72.gpus == 72 and nvl72.bandwidth == 1.8e12 / 2
    # NVIDIA's "130 TB/s" for the rack: 72 GPUs x 1.8 TB/s, both directions, rounded
    assert 72 * 2 * nvl72.bandwidth == pytest.approx(130e12, rel=0.01)


def test_fabrics_one_port_per_gpu_and_oversubscription():
    superpod, llama = get_fabric("superpod-h100"), get_fabric("llama3-roce")
    assert superpod.rail_optimised and superpod.oversubscription == 1
    assert superpod.bandwidth(10**5) == 400e9 / 8  # non-blocking: the port at any size
    assert llama.full_bisection_gpus == 16 * 192  # 16 GPUs a rack, 192 racks a pod
    assert llama.bandwidth(3072) == 50e9
    assert llama.bandwidth(3073) == pytest.approx(50e9 / 7)  # across pods: 1:7


def test_every_entry_has_a_source():
    for entry in (*DOMAINS.values(), *FABRICS.values()):
        assert len(entry.source) > 40, entry.key


def test_unknown_keys_name_the_allowed_ones():
    with pytest.raises(ValueError, match="fabric='x' is not known; allowed: superpod-h100"):
        get_fabric("x")
    with pytest.raises(ValueError, match="hgx-h100, gb200-nvl72"):
        get_domain("nvl8")
