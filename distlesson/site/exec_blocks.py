"""markdown-exec's Python blocks, served from the build cache while their code and the
library modules it imports are unchanged (:mod:`distlesson.site.build_cache`).

markdown-exec runs a ``python exec="on"`` fence through its module-level ``_run_python``;
:func:`use_cache` wraps it once per process. The key is the block's code and its options,
not its ``id`` (its place in the file), so moving a block does not run it again. Blocks
that share a ``session`` are always run: their output depends on the blocks before them.
The wrapped function is markdown-exec's internal API, pinned in ``constraints.txt``; a
test fails if it moves.
"""

from __future__ import annotations

from typing import Any

from markdown_exec._internal.formatters import python as _python

from distlesson.site.build_cache import BuildCache

__all__ = ["use_cache"]

_run_python = _python._run_python
_state: dict[str, BuildCache | None] = {"cache": None}


def _cached_run(code: str, returncode: int | None = None, session: str | None = None,
                id: str | None = None, **extra: Any) -> str:
    cache = _state["cache"]
    if cache is None or session:
        return _run_python(code, returncode=returncode, session=session, id=id, **extra)
    key = cache.key("exec", code, repr(sorted(extra.items())), code=code)
    return cache.get_or_compute("exec", key, lambda: _run_python(
        code, returncode=returncode, session=session, id=id, **extra))


def use_cache(cache: BuildCache | None) -> None:
    """Serve blocks from ``cache`` from now on (None: run every block)."""
    _state["cache"] = cache
    _python._run_python = _cached_run
