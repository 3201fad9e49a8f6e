"""The shape of a page's prose: per section, its headings, paragraphs, lists, tables and
admonitions, so that a translation that drops or merges a part of the text is caught.

Figures, code and widgets have their own parity check (:mod:`distlesson.site.parity`); this
one compares the text around them. A section is what follows a ``##`` heading (the part
before the first one is the page's opening). Blocks are separated by blank lines; fenced
code is skipped. A deliberate difference is declared where it is made, inside the section
of the translation: ``<!-- parity: <reason> -->`` exempts that section.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

__all__ = ["EXEMPT", "Section", "compare_structure", "structure"]

EXEMPT = re.compile(r"<!--\s*parity:\s*(?P<reason>[^>]+?)\s*-->")
_FENCE = re.compile(r"^\s*(```|~~~)")
_ITEM = re.compile(r"^([-*]|\d+\.) ")


@dataclass(frozen=True)
class Section:
    """One section's parts: what a translation must keep."""

    line: int
    """1-based line of the section's heading (1 for the opening)."""
    counts: tuple[tuple[str, int], ...]
    """(kind, count) for heading, paragraph, list, item, table, admonition."""
    exempt: str | None
    """The declared reason for a deliberate difference, if any."""


def _kind(block: list[str]) -> str:
    first = block[0].lstrip()
    if _ITEM.match(first):
        return "list"
    if first.startswith("|"):
        return "table"
    if first.startswith(("!!!", "???")):
        return "admonition"
    return "paragraph"


def structure(text: str) -> list[Section]:
    """The page's sections, in order (see the module docstring)."""
    sections: list[Section] = []
    counts: Counter[str] = Counter()
    start, exempt, block, fenced = 1, None, [], False

    def flush() -> None:
        nonlocal block
        if block:
            kind = _kind(block)
            counts[kind] += 1
            if kind == "list":
                counts["item"] += sum(1 for line in block if _ITEM.match(line))
        block = []

    def close() -> None:
        flush()
        sections.append(Section(start, tuple(sorted(counts.items())), exempt))

    for number, line in enumerate(text.split("\n"), 1):
        if _FENCE.match(line):
            if not fenced:
                flush()
            fenced = not fenced
            continue
        if fenced:
            continue
        if found := EXEMPT.search(line):
            exempt = found.group("reason")
            continue
        if line.startswith("## "):
            close()
            counts, start, exempt = Counter(), number, None
        elif line.startswith("#"):
            flush()
            counts["heading"] += 1
        elif not line.strip():
            flush()
        else:
            block.append(line)
    close()
    return sections


def compare_structure(english: str, translation: str, *, where: str) -> list[str]:
    """What the translation lacks or adds against the English, section by section."""
    ours, theirs = structure(english), structure(translation)
    if len(ours) != len(theirs):
        return [f"{where}: {len(theirs)} sections (## headings) against {len(ours)} in English"]
    problems = []
    for mine, other in zip(ours, theirs, strict=True):
        if other.exempt or mine.counts == other.counts:
            continue
        wanted, got = dict(mine.counts), dict(other.counts)
        diff = ", ".join(f"{kind} {got.get(kind, 0)} against {wanted.get(kind, 0)}"
                         for kind in sorted(set(wanted) | set(got))
                         if got.get(kind, 0) != wanted.get(kind, 0))
        problems.append(f"{where}:{other.line}: section differs from the English "
                        f"(line {mine.line}): {diff}")
    return problems
