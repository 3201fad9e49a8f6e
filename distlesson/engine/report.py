"""What a run of the lab returns: each measured quantity beside the library's value.

Pure Python, no torch: the command line, the page and the tests read these results, and
a results file written by the ranks can be loaded without importing torch.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "GROUPS",
    "INSTALL_HINT",
    "Check",
    "EngineReport",
    "GroupResult",
    "TorchMissingError",
    "Value",
    "require_torch",
]

Scalar = int | float | str
Value = Scalar | tuple[Scalar, ...]
"""A measured or library value: a number, a text (an op order), or one per rank/stage."""

GROUPS: tuple[str, ...] = ("ddp", "zero1", "fsdp", "tp", "pipeline")
"""The groups of checks, in the order they run: DistributedDataParallel, ZeRO-1
(ZeroRedundancyOptimizer), ZeRO-3 (FSDP2), tensor parallelism (DTensor), pipelining."""

INSTALL_HINT = ("torch is not installed: install the labs extra with "
                "pip install 'distlesson[labs]' (CPU only: add --extra-index-url "
                "https://download.pytorch.org/whl/cpu)")


class TorchMissingError(ImportError):
    """The lab needs torch, an optional extra (``labs``) of distlesson."""


def require_torch() -> None:
    """Raise :class:`TorchMissingError` (one line, how to install) unless torch imports."""
    if importlib.util.find_spec("torch") is None:
        raise TorchMissingError(INSTALL_HINT)


def _close(measured: Scalar, library: Scalar, tolerance: float | None) -> bool:
    if tolerance is None or isinstance(measured, str) or isinstance(library, str):
        return measured == library
    return math.isfinite(measured) and abs(measured - library) <= tolerance


@dataclass(frozen=True)
class Check:
    """One comparison: a quantity torch measured, and what the library computes for it."""

    key: str
    """A stable name, ``group.what`` (``ddp.payload``); the page labels rows by it."""
    label: str
    """What is compared, in English, for the command line."""
    unit: str
    """``bytes``, ``count``, ``ratio``, ``time`` (in forward times of the library's
    simulator), ``abs_error`` (a largest absolute difference, compared with 0) or ``ops``
    (an order of operations, as text)."""
    measured: Value
    """From torch: read from tensors, hooks, counters or the order the ops ran in."""
    library: Value
    """Computed by distlesson for the same configuration (never typed in)."""
    tolerance: float | None = None
    """None: equal exactly. A number: ``|measured - library| <= tolerance`` element by
    element (floats; the reason is in ``note``)."""
    expect_equal: bool = True
    """False for a contrast row: a difference the library predicts and ``note`` explains
    (the memory model's even split against an engine that cuts whole tensors)."""
    note: str = ""
    """Why the values agree or differ, and what tolerance means here."""

    def __post_init__(self) -> None:
        for name in ("measured", "library"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        both = (self.measured, self.library)
        if isinstance(both[0], tuple) != isinstance(both[1], tuple):
            raise ValueError(f"check {self.key}: measured {self.measured!r} and library "
                             f"{self.library!r} must both be tuples or both scalars")
        if self.tolerance is not None and not self.tolerance >= 0:
            raise ValueError(f"check {self.key}: tolerance={self.tolerance!r} must be >= 0")

    @property
    def agrees(self) -> bool:
        """The values are equal (within ``tolerance``), element by element."""
        if isinstance(self.measured, tuple) and isinstance(self.library, tuple):
            return len(self.measured) == len(self.library) and all(
                _close(m, c, self.tolerance) for m, c in zip(self.measured, self.library,
                                                             strict=True))
        return _close(self.measured, self.library, self.tolerance)  # type: ignore[arg-type]

    @property
    def passed(self) -> bool:
        """Agrees where agreement is expected; differs where the library predicts it."""
        return self.agrees == self.expect_equal

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: tuples become lists; ``agrees`` and ``passed`` are included."""
        def plain(value: Value) -> Any:
            return list(value) if isinstance(value, tuple) else value

        return {"key": self.key, "label": self.label, "unit": self.unit,
                "measured": plain(self.measured), "library": plain(self.library),
                "tolerance": self.tolerance, "expect_equal": self.expect_equal,
                "agrees": self.agrees, "passed": self.passed, "note": self.note}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Check:
        """The inverse of :meth:`as_dict` (``agrees`` and ``passed`` are recomputed)."""
        return cls(**{k: data[k] for k in ("key", "label", "unit", "measured", "library",
                                           "tolerance", "expect_equal", "note")})


@dataclass(frozen=True)
class GroupResult:
    """What one group of checks returns on rank 0 (empty on the other ranks)."""

    checks: tuple[Check, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class EngineReport:
    """One run of the lab: the machine it ran on, how long it took, every check."""

    torch_version: str
    """``torch.__version__`` of the ranks."""
    backend: str
    """The process group's backend: ``gloo`` (CPU) or ``nccl`` (GPUs)."""
    device: str
    """``cpu`` or ``cuda``."""
    world_size: int
    """Number of ranks (processes)."""
    cpu_count: int
    """CPUs of the machine that ran rank 0 (``os.cpu_count()``)."""
    wall_seconds: float
    """Wall time of the whole run as the caller saw it: starting the processes, importing
    torch, every check, tearing down (under torchrun, from joining the process group).
    Measured; it varies from run to run."""
    check_seconds: Mapping[str, float]
    """Per group of checks, the wall time rank 0 spent in it (measured)."""
    checks: tuple[Check, ...]
    """Every comparison, in the order the groups ran."""
    notes: tuple[str, ...] = field(default_factory=tuple)
    """Explanations that concern the run as a whole."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "checks", tuple(self.checks))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "check_seconds", dict(self.check_seconds))

    @property
    def passed(self) -> bool:
        """Every check agrees where it should and differs only where it should."""
        return all(c.passed for c in self.checks)

    def by_key(self) -> dict[str, Check]:
        """The checks by their key."""
        return {c.key: c for c in self.checks}

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, sizes in bytes and times in seconds."""
        return {"torch_version": self.torch_version, "backend": self.backend,
                "device": self.device, "world_size": self.world_size,
                "cpu_count": self.cpu_count, "wall_seconds": self.wall_seconds,
                "check_seconds": dict(self.check_seconds), "passed": self.passed,
                "checks": [c.as_dict() for c in self.checks], "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EngineReport:
        """The inverse of :meth:`as_dict`."""
        return cls(torch_version=data["torch_version"], backend=data["backend"],
                   device=data["device"], world_size=data["world_size"],
                   cpu_count=data["cpu_count"], wall_seconds=data["wall_seconds"],
                   check_seconds=data["check_seconds"],
                   checks=tuple(Check.from_dict(c) for c in data["checks"]),
                   notes=tuple(data.get("notes", ())))
