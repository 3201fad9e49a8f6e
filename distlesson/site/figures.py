"""Named figures: the numbers that prose shows, each computed by the library.

A page writes ``{{ fit.states_70b }}``; the build looks the name up here and writes the
value formatted for the page's language. Each page module in :mod:`distlesson.pages`
contributes its figures; the claims register and the bibliography contribute theirs.

While a build cache is in use (:func:`use_cache`), each module's figures are stored under the
sources of the library modules it can run: after an edit, only the modules that can run the
edited code compute their figures again.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping

from distlesson.render.figure import Figure, Text
from distlesson.site.build_cache import BuildCache

__all__ = ["Figure", "Text", "figure_registry", "figures_key", "page_modules", "use_cache"]

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


_state: dict[str, BuildCache | None] = {"cache": None}


def page_modules() -> tuple[str, ...]:
    return _SOURCES


def use_cache(cache: BuildCache | None) -> None:
    """Read and store each module's figures in ``cache`` from now on (None: compute them)."""
    _state["cache"] = cache
    figure_registry.cache_clear()


def figures_key(cache: BuildCache, module_name: str) -> str:
    """The key of ``module_name``'s figures in ``cache``."""
    return cache.key("figures", module_name, modules=[module_name])


def _contributed(module_name: str) -> tuple[Renderable, ...]:
    def compute() -> tuple[Renderable, ...]:
        return tuple(importlib.import_module(module_name).figures())

    cache = _state["cache"]
    if cache is None:
        return compute()
    return cache.get_or_compute("figures", figures_key(cache, module_name), compute)


@functools.cache
def figure_registry() -> Mapping[str, Renderable]:
    """Every figure by name; computed once per process (once per build, not per language)."""
    registry: dict[str, Renderable] = {}
    for module_name in _SOURCES:
        for figure in _contributed(module_name):
            if figure.name in registry:
                raise ValueError(f"figure {figure.name!r} is defined twice ({module_name})")
            registry[figure.name] = figure
    return registry
