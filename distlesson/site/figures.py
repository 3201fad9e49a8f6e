"""Named figures: the numbers that prose shows, each computed by the library.

A page writes ``{{ fit.states_70b }}``; the build looks the name up here and writes the
value formatted for the page's language. Each page module in :mod:`distlesson.pages`
contributes its figures; the claims register and the bibliography contribute theirs.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Mapping

from distlesson.render.figure import Figure, Text

__all__ = ["Figure", "Text", "figure_registry", "page_modules"]

Renderable = Figure | Text

# Modules that contribute figures, in the order their pages appear. Each defines
# ``figures() -> Iterable[Figure | Text]``.
_SOURCES: tuple[str, ...] = (
    "distlesson.pages.fit",
    "distlesson.pages.parallelism",
    "distlesson.pages.parallelism_sims",
    "distlesson.pages.pipeline",
    "distlesson.pages.communication_figures",
    "distlesson.pages.experts_figures",
    "distlesson.pages.checkpointing",
    "distlesson.pages.savings",
    "distlesson.pages.fp8",
    "distlesson.pages.hardware",
    "distlesson.pages.mfu",
    "distlesson.pages.planning",
    "distlesson.pages.failures",
    "distlesson.pages.accuracy",
    "distlesson.pages.costs",
    "distlesson.pages.engine_lab",
    "distlesson.pages.exercises_widget",
    "distlesson.pages.claims_page",
    "distlesson.catalog.references",
)


def page_modules() -> tuple[str, ...]:
    return _SOURCES


@functools.cache
def figure_registry() -> Mapping[str, Renderable]:
    """Every figure by name; computed once per process (once per build, not per language)."""
    registry: dict[str, Renderable] = {}
    for module_name in _SOURCES:
        contribute: Callable[[], Iterable[Renderable]] = importlib.import_module(
            module_name).figures
        for figure in contribute():
            if figure.name in registry:
                raise ValueError(f"figure {figure.name!r} is defined twice ({module_name})")
            registry[figure.name] = figure
    return registry
