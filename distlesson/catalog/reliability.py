"""What a published run reports about failures and checkpoint storage (inputs, with sources).

Llama 3 (Grattafiori et al. 2024, "The Llama 3 Herd of Models", section 3.3.4 and Table 5):
in a 54-day snapshot of pre-training on 16,384 H100s, 466 job interruptions, 47 planned
(firmware and configuration changes, dataset updates) and 419 unexpected, by root cause.
Section 3.3.1: checkpoints are written to Tectonic, Meta's distributed file system, with
240 PB on 7,500 SSD servers, 2 TB/s sustained and 7 TB/s peak throughput.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LLAMA3_CAUSES", "LLAMA3_INTERRUPTIONS", "LLAMA3_MANUAL_INTERVENTIONS",
           "LLAMA3_SHARD_BYTES", "TECTONIC", "FailureCause", "InterruptionSnapshot", "Storage"]

_TABLE5 = "Grattafiori et al. 2024, The Llama 3 Herd of Models, section 3.3.4, Table 5"


@dataclass(frozen=True)
class FailureCause:
    """One row of a table of root causes of interruptions."""

    key: str
    """A short name for the row (labels per language live with the page)."""
    category: str
    """The table's own category: GPU, Host, Network, Dependency, Unknown, maintenance."""
    count: int
    """Interruptions with this root cause."""
    stated_share: float
    """The share the table prints (a fraction): an input, checked against count / total."""


@dataclass(frozen=True)
class InterruptionSnapshot:
    """Interruptions of one training job over a stretch of days."""

    gpus: int
    days: float
    total: int
    """All interruptions, planned and not."""
    unexpected: int
    source: str

    @property
    def planned(self) -> int:
        return self.total - self.unexpected


LLAMA3_INTERRUPTIONS = InterruptionSnapshot(gpus=16_384, days=54, total=466, unexpected=419,
                                            source=_TABLE5)
"""Llama 3 405B's pre-training snapshot: 466 interruptions in 54 days, 419 unexpected."""
LLAMA3_MANUAL_INTERVENTIONS = 3
"""Section 3.3.4: significant manual intervention was needed only three times; automation
handled the rest."""
LLAMA3_SHARD_BYTES = (1e6, 4e9)
"""Section 3.3.1: each GPU's checkpointed model state ranges from 1 MB to 4 GB."""

LLAMA3_CAUSES: tuple[FailureCause, ...] = tuple(FailureCause(*row) for row in (
    ("faulty_gpu", "GPU", 148, 0.301),
    ("gpu_hbm3", "GPU", 72, 0.172),
    ("software_bug", "Dependency", 54, 0.129),
    ("network", "Network", 35, 0.084),
    ("host_maintenance", "Unplanned maintenance", 32, 0.076),
    ("gpu_sram", "GPU", 19, 0.045),
    ("gpu_system_processor", "GPU", 17, 0.041),
    ("nic", "Host", 7, 0.017),
    ("nccl_watchdog", "Unknown", 7, 0.017),
    ("silent_data_corruption", "GPU", 6, 0.014),
    ("gpu_thermal", "GPU", 6, 0.014),
    ("ssd", "Host", 3, 0.007),
    ("power_supply", "Host", 3, 0.007),
    ("server_chassis", "Host", 2, 0.005),
    ("io_expansion_board", "Host", 2, 0.005),
    ("dependency", "Dependency", 2, 0.005),
    ("cpu", "Host", 2, 0.005),
    ("system_memory", "Host", 2, 0.005),
))
"""Table 5's 18 root causes of the 419 unexpected interruptions, with the shares it prints.
The counts add up to 419 and every share but the first is count / 419 rounded to 0.1 %;
the first row prints 30.1 % for 148 interruptions, which are 35.3 % of 419 (the text's
"GPU issues ... 58.7 %" adds the printed shares of the six GPU rows, so it inherits the
slip; the counts give 64.0 %)."""


@dataclass(frozen=True)
class Storage:
    """A file system that checkpoints are written to."""

    name: str
    capacity: float
    """Bytes."""
    sustained: float
    """Bytes per second the system sustains."""
    peak: float
    """Bytes per second at peak."""
    source: str


TECTONIC = Storage("Tectonic", capacity=240e15, sustained=2e12, peak=7e12,
                   source="Grattafiori et al. 2024, The Llama 3 Herd of Models, section 3.3.1 "
                          "(\"240 PB of storage out of 7,500 servers equipped with SSDs, and "
                          "supports a sustainable throughput of 2 TB/s and a peak throughput "
                          "of 7 TB/s\")")
"""Meta's storage for Llama 3's checkpoints."""
