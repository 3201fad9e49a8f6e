"""Time the pipeline simulator on a large case: 64 stages x 1024 microbatches.

Usage: ``.venv/bin/python scripts/bench_pipeline.py [--repeat N] [--json PATH]``.
For each schedule (interleaved with 2 chunks per stage) it builds the schedule once, then
times :func:`distlesson.pipeline.simulator.simulate` with the default durations, best of N runs,
and writes the wall-clock seconds with the machine's description to
``benchmarks/pipeline.json``. The simulator is meant to be linear in the number of ops.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from distlesson.pipeline.schedules import SCHEDULES, build_schedule
from distlesson.pipeline.simulator import simulate

ROOT = Path(__file__).resolve().parents[1]
PP, NUM_MICROBATCHES, CHUNKS = 64, 1024, 2


def _best_of(repeat: int, name: str) -> tuple[float, int, str]:
    """(best seconds, number of ops, exact bubble) of simulating schedule ``name``."""
    schedule = build_schedule(name, PP, NUM_MICROBATCHES, CHUNKS if name == "interleaved" else 1)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        timeline = simulate(schedule)
        times.append(time.perf_counter() - start)
    ops = sum(len(row) for row in schedule.stages)
    return min(times), ops, str(timeline.bubble_fraction)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "pipeline.json")
    args = parser.parse_args()
    results = {}
    for name in SCHEDULES:
        seconds, ops, bubble = _best_of(args.repeat, name)
        results[name] = {"simulate_s": seconds, "ops": ops, "bubble_fraction": bubble}
        print(f"{name:<12} {ops:>8,} ops  {seconds:6.3f} s  "
              f"{seconds / ops * 1e6:5.2f} us/op  bubble {bubble}")
    report = {
        "machine": {"platform": platform.platform(), "processor": platform.machine(),
                    "python": sys.version.split()[0], "cpu_count": os.cpu_count()},
        "case": {"pp": PP, "num_microbatches": NUM_MICROBATCHES,
                 "interleaved_chunks": CHUNKS, "durations": "fwd=1 bwd=2 wgrad=1",
                 "repeat": args.repeat, "statistic": "best of repeat, wall-clock seconds"},
        "schedules": results,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.json.resolve().relative_to(ROOT)}")


if __name__ == "__main__":
    main()
