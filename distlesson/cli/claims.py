"""``distlesson claims``: the sources' figures checked against the library."""

from __future__ import annotations

import argparse

from distlesson.claims.register import CLAIMS, claim_figures

from ._common import Result, format_figure, resolve_placeholders

__all__ = ["add", "run"]


def add(parser: argparse.ArgumentParser) -> None:
    del parser  # no options besides --json


def run(args: argparse.Namespace) -> Result:
    del args
    figures = claim_figures()
    rows = [{
        "id": c.id, "source": c.source,
        "statement": resolve_placeholders(c.statement["en"], figures),
        "stated": c.stated, "computed": c.computed_value, "unit": c.unit,
        "rel_tol": c.rel_tol, "agrees": c.agrees,
        "why": resolve_placeholders(c.why["en"], figures),
    } for c in CLAIMS]
    lines = []
    for row in rows:
        verdict = "agrees" if row["agrees"] else "DIFFERS"
        lines.append(f"{row['id']} ({row['source']}): {verdict}: stated "
                     f"{format_figure(row['stated'], row['unit'])}, computed "
                     f"{format_figure(row['computed'], row['unit'])}")
        lines.append(f"    {row['statement']}")
        lines.append(f"    {row['why']}")
    return {"claims": rows}, "\n".join(lines)
