"""Time the planner's full search: Llama 3 405B on Meta's 16,384 H100s (the planning chapter's
405B case: its batch, link and precision).

Usage: ``.venv/bin/python scripts/bench_planner.py [--repeat N] [--json PATH]``.
Runs :func:`distlesson.efficiency.planner.plan` N times, each in a fresh Python process so
that no cache survives between searches (imports are not timed), and writes the best
wall-clock seconds, the number of configs ranked and rejected, the best config and the
machine's description to ``benchmarks/planner.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SEARCH = """
import json, time
from distlesson.catalog.models import get_model
from distlesson.efficiency.planner import plan
from distlesson.pages.planning import CASES, INPUTS, _cluster
case = CASES["405b"]
start = time.perf_counter()
result = plan(get_model(case.model), _cluster(case), seq_len=case.seq_len,
              tokens_per_step=case.tokens_per_step, inputs=INPUTS, precision=case.precision)
seconds = time.perf_counter() - start
best = result.configs[0]
print(json.dumps({"seconds": seconds, "fitting": len(result.configs),
                  "rejected": result.rejected, "case": vars(case),
                  "best": {"dp": best.dp, "tp": best.tp, "pp": best.pp, "cp": best.cp,
                           "zero": best.zero, "recompute": best.recompute,
                           "schedule": best.schedule, "chunks": best.chunks,
                           "step_time": best.step_time, "mfu": best.mfu}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "planner.json")
    args = parser.parse_args()
    runs = [json.loads(subprocess.run([sys.executable, "-c", _SEARCH], check=True,
                                      capture_output=True, text=True, cwd=ROOT).stdout)
            for _ in range(args.repeat)]
    times = [run["seconds"] for run in runs]
    last = runs[-1]
    print(f"Llama 3 405B on {last['case']['gpus']:,} H100: {last['fitting']:,} configs fit, "
          f"{sum(last['rejected'].values()):,} rejected; best of {args.repeat}: "
          f"{min(times):.3f} s")
    report = {
        "machine": {"platform": platform.platform(), "processor": platform.machine(),
                    "python": sys.version.split()[0], "cpu_count": os.cpu_count()},
        "case": {**last["case"], "repeat": args.repeat,
                 "statistic": "best of repeat, wall-clock seconds, a fresh process each"},
        "plan_s": min(times),
        "all_s": times,
        "fitting_configs": last["fitting"],
        "rejected": last["rejected"],
        "best": last["best"],
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.json.resolve().relative_to(ROOT)}")


if __name__ == "__main__":
    main()
