"""The chapters that end with exercises of their own, by name: one registry for the pages,
the exercises widget and the tests.

The exercises themselves are built where their chapter's library is imported
(:mod:`distlesson.exercises`, :mod:`distlesson.exercises_experts`); this module only names
them, so that neither of those imports the other.
"""

from __future__ import annotations

from distlesson.catalog.lookup import lookup
from distlesson.exercises import (
    Exercise,
    communication_exercises,
    failures_exercises,
    fp8_exercises,
)
from distlesson.exercises_experts import expert_exercises

__all__ = ["CHAPTERS", "chapter_exercises"]

_BUILDERS = {"communication": communication_exercises, "experts": expert_exercises,
             "failures": failures_exercises, "saving-memory": fp8_exercises}
CHAPTERS = tuple(_BUILDERS)
"""The chapters with exercises of their own: "Communication and the network", "Mixture of
experts", "Months on a cluster" and the FP8 section of "Saving memory"."""


def chapter_exercises(chapter: str = "communication") -> tuple[Exercise, ...]:
    """A chapter's own exercises, shown on its page; ValueError naming the allowed ones."""
    return lookup(_BUILDERS, chapter, what="chapter")()
