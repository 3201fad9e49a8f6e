"""Lab page "the real engine": torch.distributed measured against the library.

The tables run the lab's checks (:mod:`distlesson.engine`) once per build process, on
:data:`WORLD_SIZE` Gloo ranks of the build machine, and show every measured value beside
the library's. The figures that the prose quotes are the lab's inputs (sizes, counts), so
that building the figure registry needs neither torch nor a run; what the run measures
(bytes, orders, times) appears only in the tables, formatted for each language.
"""

from __future__ import annotations

import ast
import concurrent.futures
import importlib.util
import threading
from fractions import Fraction
from pathlib import Path

import numpy as np

from distlesson.engine import GROUPS, WORLD_SIZES, Check, EngineReport, run_checks
from distlesson.engine.config import (
    ACCUMULATION,
    EXAMPLES_PER_RANK,
    TOY_SHAPE,
    num_microbatches,
)
from distlesson.memory.states import model_states
from distlesson.pages.engine_lab_labels import CHECKS, LABELS, NOTE_OF, NOTES
from distlesson.pages.engine_lab_labels import GROUPS as GROUP_NAMES
from distlesson.pages.engine_listings import localise_listing
from distlesson.parallel.collectives import ring_all_reduce
from distlesson.parallel.toy_mlp import init_mlp
from distlesson.pipeline.schedules import build_schedule
from distlesson.render.figure import Figure
from distlesson.render.measured import measured
from distlesson.render.numbers import format_number, format_quantity, format_scientific
from distlesson.render.tables import Table, markdown_table

__all__ = ["WORLD_SIZE", "comparison_table", "excerpt", "figures", "lab_report",
           "machine_table", "order_table", "ring_sent", "start_lab_run"]

WORLD_SIZE = 4
"""Ranks of the run shown on the page: four pipeline stages, the pipeline chapter's
example (with its eight microbatches), and an FSDP shard left empty by ``torch.chunk``."""
_ORDERS = (("1f1b", "pipe.1f1b.order", "1F1B"), ("gpipe", "pipe.gpipe.order", "GPipe"))


_RUN: concurrent.futures.Future[EngineReport] | None = None
_RUN_LOCK = threading.Lock()


def start_lab_run(niceness: int = 0) -> None:
    """Start the run in a background thread, once per process. A cold build starts it early
    (:meth:`distlesson.site.plugin.DistlessonPlugin.on_files`), its ranks at a lower CPU
    priority (``niceness``): they are processes of their own, so the build renders the
    pages before the lab's while they work on the core the build leaves idle, instead of
    waiting for them when it reaches the lab."""
    global _RUN
    with _RUN_LOCK:
        if _RUN is None:
            executor = concurrent.futures.ThreadPoolExecutor(1, "engine-lab")
            _RUN = executor.submit(run_checks, WORLD_SIZE, niceness=niceness)
            executor.shutdown(wait=False)


def lab_report() -> EngineReport:
    """The run behind the tables: once per process, shared by the three languages."""
    start_lab_run()
    assert _RUN is not None
    return _RUN.result()


def _t(key: str, locale: str) -> str:
    return LABELS[key][locale]


def _scalar(value: float | int, unit: str, locale: str) -> str:
    if unit == "bytes":
        return format_quantity(float(value), "B", locale)
    if unit == "abs_error":
        return format_number(0, locale) if value == 0 else format_scientific(value, locale)
    if unit == "ratio":
        return format_quantity(float(value), "x", locale, digits=0 if value == int(value) else 2)
    return format_number(float(value), locale, digits=0 if value == int(value) else 2)


def _collectives(value: str, locale: str) -> str:
    """``all_reduce x 2`` as ```all_reduce` × ۲``: the kind as code, the count per locale."""
    if not value:
        return _t("none", locale)
    kinds = (part.rsplit(" x ", 1) for part in value.split(", "))
    return ", ".join(f"`{name}` × {format_number(int(count), locale)}" for name, count in kinds)


def _cell(value: object, unit: str, locale: str) -> str:
    if unit == "ops":
        return _t("per_stage", locale)
    if unit == "collectives":
        return _collectives(str(value), locale)
    if isinstance(value, tuple):
        return " / ".join(_scalar(v, unit, locale) for v in value)  # one value per rank
    return _scalar(value, unit, locale)  # type: ignore[arg-type]


def _agreement(check: Check, locale: str) -> str:
    if not check.agrees:
        verdict = _t("predicted", locale)
    elif check.tolerance is None:
        verdict = _t("exact", locale)
    else:
        verdict = _t("within", locale).format(tol=format_scientific(check.tolerance, locale))
    return verdict if check.passed else f"**{_t('fails', locale)}**: {verdict}"


def comparison_table(locale: str) -> str:
    """Every check of the run: what torch measured, what the library computes, agreement;
    then, under the table, the note of every row that has one (why the values agree or
    differ, and what the tolerance allows)."""
    k = format_number(ACCUMULATION, locale)
    checks = lab_report().checks
    rows = tuple((CHECKS[c.key][locale].format(k=k), _cell(c.measured, c.unit, locale),
                  _cell(c.library, c.unit, locale), _agreement(c, locale)) for c in checks)
    headers = tuple(_t(key, locale) for key in ("check", "torch", "library", "agreement"))
    table = markdown_table(Table(headers, rows, (False, True, True, False)), locale)
    notes = [f"- {CHECKS[c.key][locale].format(k=k)}: {_note(c, locale)}"
             for c in checks if c.key in NOTE_OF]
    return "\n".join([table, "", _t("notes", locale), "", *notes]) if notes else table


def _note(check: Check, locale: str) -> str:
    """The row's note in ``locale``, its tolerance formatted for it."""
    tol = format_scientific(check.tolerance, locale) if check.tolerance is not None else ""
    return NOTES[NOTE_OF[check.key]][locale].format(tol=tol)


def order_table(locale: str) -> str:
    """Per schedule and stage, the order torch ran and the library's own table, as code
    (for GPipe, not the check's prediction: the table itself, backwards last to first)."""
    checks = lab_report().by_key()
    rows = []
    for schedule, key, name in _ORDERS:
        check = checks[key]
        pp = len(check.measured)
        table = build_schedule(schedule, pp, num_microbatches(pp))  # the library's own
        ops = (" ".join(f"{op.kind}{op.microbatch}" for op in row) for row in table.stages)
        for stage, (mine, theirs) in enumerate(zip(check.measured, ops, strict=True)):
            rows.append((name, format_number(stage, locale), f"`{mine}`", f"`{theirs}`",
                         _t("yes" if mine == theirs else "no", locale)))
    headers = tuple(_t(key, locale) for key in ("schedule", "stage", "torch_order",
                                                "library_order", "same"))
    return markdown_table(Table(headers, tuple(rows), (False, True, False, False, False)),
                          locale)


def machine_table(locale: str) -> str:
    """Where and how fast the run went: measured at build, different on every machine."""
    report = lab_report()
    expected = sum(c.passed for c in report.checks)

    def seconds(value: float) -> str:  # a wall time of this build: marked as measured
        return measured(format_quantity(value, "s", locale, digits=2 if value < 1 else 1))

    rows = [(_t("torch_version", locale), f"`{report.torch_version}`"),
            (_t("backend", locale), f"`{report.backend}`"),
            (_t("device", locale), f"`{report.device}`"),
            (_t("world_size", locale), format_number(report.world_size, locale)),
            (_t("cpus", locale), measured(format_number(report.cpu_count, locale))),
            (_t("as_expected", locale), _t("of", locale).format(
                a=format_number(expected, locale), b=format_number(len(report.checks), locale))),
            (_t("wall", locale), seconds(report.wall_seconds))]
    rows += [(_t("group_time", locale).format(group=GROUP_NAMES[g][locale]),
              seconds(report.check_seconds[g])) for g in GROUPS if g in report.check_seconds]
    headers = (_t("item", locale), _t("value", locale))
    return markdown_table(Table(headers, tuple(rows), (False, True)), locale)


def excerpt(qualified: str, locale: str = "en") -> str:
    """A function of the lab's code as a Markdown code block: ``"ddp.counting_allreduce_hook"``
    is the function ``counting_allreduce_hook`` of ``distlesson/engine/ddp.py``. Read from
    the file (not imported), so that showing code needs no torch; its comments and
    docstring in ``locale`` (:mod:`distlesson.pages.engine_listings`)."""
    module, name = qualified.split(".")
    # found by its module's name, so that the build cache knows this reads distlesson.engine
    source = Path(importlib.util.find_spec(f"distlesson.engine.{module}").origin).read_text(
        encoding="utf-8")
    lines = source.splitlines()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            body = "\n".join(lines[node.lineno - 1:node.end_lineno])  # with its comments
            return f"```python\n{localise_listing(body, locale)}\n```"
    raise ValueError(f"no function {name!r} in distlesson/engine/{module}.py")


def ring_sent(elements: int, itemsize: int, n: int) -> int:
    """Bytes each rank sends in the library's ring all-reduce of one bucket of ``elements``
    values over ``n`` ranks (the most any rank sends), summed from its transfer log."""
    sent = [0] * n
    zeros = [np.zeros(elements, np.dtype(f"f{itemsize}")) for _ in range(n)]  # sizes only
    for transfer in ring_all_reduce(zeros).transfers:
        sent[transfer.src] += transfer.nbytes
    return max(sent)


def figures() -> list[Figure]:
    """The lab's inputs, quoted in the prose (no run needed)."""
    params = init_mlp(*TOY_SHAPE).num_params
    payload = model_states(params, optimizer="adamw", precision="fp32").grads
    itemsize = payload // params  # the toy model fits in DDP's first bucket: one bucket
    return [
        Figure("engine.world_size", WORLD_SIZE, doc="ranks of the run on the page"),
        Figure("engine.microbatches", num_microbatches(WORLD_SIZE)),
        Figure("engine.accumulation", ACCUMULATION, doc="micro-steps per optimizer step"),
        Figure("engine.examples_per_rank", EXAMPLES_PER_RANK),
        Figure("engine.toy_params", params, doc="parameters of the toy MLP"),
        Figure("engine.payload", payload, "B", doc="fp32 gradient bytes of the toy MLP"),
        Figure("engine.bytes_per_param", float(Fraction(payload, params)), "B"),
        Figure("engine.ring_sent", ring_sent(params, itemsize, WORLD_SIZE), "B",
               doc="bytes each rank sends in the library's ring all-reduce of the payload "
               "(derived, not measured)"),
        Figure("engine.min_local_ranks", WORLD_SIZES.start),
        Figure("engine.max_local_ranks", WORLD_SIZES.stop - 1),
        Figure("engine.groups", len(GROUPS)),
    ]
