"""Fit the performance model's one calibrated input again, and show what changes.

Usage: ``.venv/bin/python scripts/calibrate.py``.
For every GPU in :data:`distlesson.catalog.achieved.GEMM_EFFICIENCY`, and every older
software in :data:`distlesson.catalog.achieved.EARLIER_SOFTWARE`, fits the share of the
peak that large matrix products reach on the published run named there
(:func:`distlesson.efficiency.accuracy.calibrate`) and prints it beside the stored value.
When the model changes, ``tests/test_accuracy.py`` fails until the stored values are the
fitted ones: copy them into ``distlesson/catalog/achieved.py``.
"""

from __future__ import annotations

from distlesson.catalog.achieved import EARLIER_SOFTWARE, GEMM_EFFICIENCY
from distlesson.catalog.published_runs import PUBLISHED_RUNS
from distlesson.efficiency.accuracy import calibrate


def main() -> None:
    for name, (stored, key) in (*GEMM_EFFICIENCY.items(), *EARLIER_SOFTWARE.items()):
        fitted = calibrate(PUBLISHED_RUNS[key])
        flag = "" if abs(fitted - stored) <= 0.002 else "   <- update"
        print(f"{name:<16} fitted on {key:<22} {fitted:.3f} (stored {stored:.3f}){flag}")


if __name__ == "__main__":
    main()
