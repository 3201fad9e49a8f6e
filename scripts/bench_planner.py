"""Time the planner's full search: Llama 3 405B on 16,384 H100s, seq 8192, 16e6 tokens.

Usage: ``.venv/bin/python scripts/bench_planner.py [--repeat N] [--json PATH]``.
Runs :func:`distlesson.efficiency.planner.plan` N times (each a fresh search: no cache survives
between
calls), and writes the best wall-clock seconds, the number of configs ranked and rejected,
the best config and the machine's description to ``benchmarks/planner.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from distlesson.catalog.models import get_model
from distlesson.efficiency.planner import plan
from distlesson.efficiency.step_time import Cluster

ROOT = Path(__file__).resolve().parents[1]
MODEL, GPUS, GPU, SEQ, TOKENS = "llama3-405b", 16_384, "h100-sxm", 8192, 16e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "planner.json")
    args = parser.parse_args()
    arch, cluster = get_model(MODEL), Cluster(gpu=GPU, num_gpus=GPUS)
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = plan(arch, cluster, seq_len=SEQ, tokens_per_step=TOKENS)
        times.append(time.perf_counter() - start)
    best = result.configs[0]
    print(f"{MODEL} on {GPUS:,} x {GPU}: {len(result.configs):,} configs fit, "
          f"{sum(result.rejected.values()):,} rejected; best of {args.repeat}: "
          f"{min(times):.3f} s")
    report = {
        "machine": {"platform": platform.platform(), "processor": platform.machine(),
                    "python": sys.version.split()[0], "cpu_count": os.cpu_count()},
        "case": {"model": MODEL, "gpus": GPUS, "gpu": GPU, "seq_len": SEQ,
                 "tokens_per_step": TOKENS, "repeat": args.repeat,
                 "statistic": "best of repeat, wall-clock seconds"},
        "plan_s": min(times),
        "all_s": times,
        "fitting_configs": len(result.configs),
        "rejected": result.rejected,
        "best": {"dp": best.dp, "tp": best.tp, "pp": best.pp, "cp": best.cp,
                 "zero": best.zero, "recompute": best.recompute, "schedule": best.schedule,
                 "chunks": best.chunks, "step_time": best.step_time, "mfu": best.mfu},
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.json.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
