"""The claims register of the chapter "Months on a cluster": what the Catalan chapter says
about failures, checked against Llama 3's published interruptions."""

from __future__ import annotations

from distlesson.catalog.reliability import LLAMA3_CAUSES, LLAMA3_INTERRUPTIONS
from distlesson.claims.claim import Claim, Figure

__all__ = ["HARDWARE_CATEGORIES", "failures_claims", "hardware_per_day"]

HARDWARE_CATEGORIES = ("GPU", "Host", "Network")
"""Table 5's categories that are hardware (not software, maintenance or unknown)."""


def hardware_per_day() -> float:
    """Llama 3's unexpected interruptions with a hardware root cause, per day."""
    count = sum(c.count for c in LLAMA3_CAUSES if c.category in HARDWARE_CATEGORIES)
    return count / LLAMA3_INTERRUPTIONS.days


def failures_claims() -> list[Claim]:
    return [
        Claim(
            id="ca_failures_daily", source="ca §4", unit="count", stated=1,
            relation="at_least", chapter="failures", computed=hardware_per_day,
            statement={"en": "On thousands of GPUs for weeks, hardware failures are daily "
                       "events."},
            why={"en": "Llama 3's {{ claim.ca_failures_daily.gpus }} GPUs saw "
                 "{{ claim.ca_failures_daily.hardware }} interruptions with a GPU, host or "
                 "network root cause in {{ claim.ca_failures_daily.days }} days: "
                 "{{ claim.ca_failures_daily.computed }} a day. Daily, and more: several "
                 "times a day."},
            extras=(
                Figure("gpus", lambda: LLAMA3_INTERRUPTIONS.gpus, "count"),
                Figure("days", lambda: LLAMA3_INTERRUPTIONS.days, "count"),
                Figure("hardware", lambda: hardware_per_day() * LLAMA3_INTERRUPTIONS.days,
                       "count"),
            ),
        ),
    ]
