"""A lab written once: ``labs/NAME.py`` holds the code once and the prose in every language.

The source is a jupytext percent notebook that runs as it is (in English). Three rules make
it one notebook per language:

- a markdown cell carries its language in its header, ``# %% [markdown] lang="ca"``; each
  place in the lab has one such cell per language, next to one another;
- code cells (``# %%``) are shared; their comments are written once per language, as
  consecutive full-line comments tagged ``#[en]``, ``#[ca]``, ``#[fa]`` (at the code's
  indentation); an untagged comment or a comment after code is refused, since it could not
  be translated;
- the line ``LOCALE = "en"`` is set to the notebook's language.

:func:`render_lab` writes the notebook of one language; :func:`write_labs` writes them all
to ``docs/labs/NAME.LOCALE.py`` (git ignores them), where mkdocs-jupyter runs them and
readers download them: each stands alone, its prose and its comments in its own language.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LabSourceError", "check_lab_source", "render_lab", "write_labs"]

_CELL = re.compile(r"^# %%(?P<rest>.*)$")
_MARKDOWN = re.compile(r'^ \[markdown\](?: lang="(?P<lang>[a-z]{2})")?\s*$')
_TAGGED = re.compile(r"^(?P<indent>\s*)#\[(?P<lang>[a-z]{2})\](?: (?P<text>.*))?$")
_LOCALE_LINE = re.compile(r"""^LOCALE\s*=\s*["'][a-z]{2}["']\s*$""", re.MULTILINE)


class LabSourceError(ValueError):
    """A lab source that breaks one of the rules; the message names the file and the line."""


@dataclass(frozen=True)
class _Cell:
    line: int
    """1-based line of the cell's header in the source."""
    lang: str | None
    """The language of a markdown cell; None for a code cell."""
    markdown: bool
    lines: tuple[str, ...]
    """The header and the body, as in the source."""


def _split(text: str, where: str) -> tuple[list[str], list[_Cell]]:
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if _CELL.match(line)]
    if not starts:
        raise LabSourceError(f"{where}: no cell (a line starting with '# %%')")
    cells = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        rest = _CELL.match(lines[start]).group("rest")
        markdown = _MARKDOWN.match(rest)
        if rest.strip() and not markdown:
            raise LabSourceError(f"{where}:{start + 1}: a cell header is '# %%' or "
                                 f"'# %% [markdown] lang=\"xx\"', not '# %%{rest}'")
        cells.append(_Cell(start + 1, markdown.group("lang") if markdown else None,
                           markdown is not None, tuple(lines[start:end])))
    return lines[:starts[0]], cells


def _comments(code: str, first_line: int, where: str) -> list[tuple[int, str, bool]]:
    """(source line, comment text, alone on its line) for every comment of a code cell."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                alone = not token.line[: token.start[1]].strip()
                found.append((first_line + token.start[0] - 1, token.string, alone))
    except (tokenize.TokenError, IndentationError, SyntaxError) as error:
        raise LabSourceError(f"{where}:{first_line}: code cell does not parse: {error}") from None
    return found


def check_lab_source(text: str, locales: Sequence[str], *, where: str) -> None:
    """Raise :class:`LabSourceError` at the first line that breaks the rules above."""
    _, cells = _split(text, where)
    wanted = list(locales)
    i = 0
    while i < len(cells):
        cell = cells[i]
        if not cell.markdown:
            _check_code(cell, wanted, where)
            i += 1
            continue
        group = [c.lang for c in cells[i:i + len(wanted)]]
        if group != wanted:
            raise LabSourceError(f"{where}:{cell.line}: markdown cells come in groups of one "
                                 f"per language, in the order {wanted}; found {group}")
        i += len(wanted)
    if sum(1 for c in cells if not c.markdown
           for line in c.lines if _LOCALE_LINE.match(line)) != 1:
        raise LabSourceError(f'{where}: exactly one line LOCALE = "en" must set the language')


def _check_code(cell: _Cell, locales: list[str], where: str) -> None:
    body = "\n".join(cell.lines[1:])
    group: list[str] = []
    last = None
    for line, comment, alone in _comments(body, cell.line + 1, where):
        tagged = _TAGGED.match(comment)
        if not alone or not tagged:
            raise LabSourceError(
                f"{where}:{line}: a comment in a code cell is a full line tagged with its "
                f"language (#[en] ..., then #[ca] ..., #[fa] ...); found {comment!r}")
        lang = tagged.group("lang")
        ends = group == locales and lang == locales[0]  # the next comment starts at once
        if last is not None and (line != last + 1 or ends):
            _close_group(group, locales, where, last)
            group = []
        if not group or group[-1] != lang:
            group.append(lang)
        last = line
    if group:
        _close_group(group, locales, where, last)


def _close_group(group: list[str], locales: list[str], where: str, line: int | None) -> None:
    if group != locales:
        raise LabSourceError(f"{where}:{line}: a comment is written once per language, in the "
                             f"order {locales}; this one has {group}")


def render_lab(text: str, locale: str, locales: Sequence[str], *, where: str = "lab") -> str:
    """The notebook of ``locale``: its markdown cells, every code cell with the comments of
    ``locale`` and ``LOCALE = "<locale>"``."""
    if locale not in locales:
        raise LabSourceError(f"{where}: locale={locale!r}; allowed: {', '.join(locales)}")
    check_lab_source(text, locales, where=where)
    head, cells = _split(text, where)
    out = list(head)
    for cell in cells:
        if cell.markdown:
            if cell.lang == locale:
                out += ["# %% [markdown]", *cell.lines[1:]]
            continue
        for line in cell.lines:
            tagged = _TAGGED.match(line)
            if tagged is None:
                out.append(_LOCALE_LINE.sub(f'LOCALE = "{locale}"', line))
            elif tagged.group("lang") == locale:
                text_ = tagged.group("text")
                out.append(f"{tagged.group('indent')}#" + (f" {text_}" if text_ else ""))
    return "\n".join(out)


def write_labs(sources: Path, target: Path, locales: Sequence[str]) -> list[Path]:
    """Write ``target/NAME.LOCALE.py`` for every ``sources/NAME.py`` and locale; return the
    files written. A file whose text is unchanged is not touched (``mkdocs serve`` watches
    ``target``); a notebook whose source is gone is removed. No ``sources`` folder: nothing
    to do."""
    if not sources.is_dir():
        return []
    target.mkdir(parents=True, exist_ok=True)
    written, wanted = [], set()
    for source in sorted(sources.glob("*.py")):
        text = source.read_text(encoding="utf-8")
        for locale in locales:
            path = target / f"{source.stem}.{locale}.py"
            wanted.add(path.name)
            notebook = render_lab(text, locale, locales, where=f"{sources.name}/{source.name}")
            if not path.exists() or path.read_text(encoding="utf-8") != notebook:
                # written whole or not at all: a second build started at the same moment
                # (scripts/test runs two) may be reading it
                partial = path.with_name(f".{path.name}.{os.getpid()}.part")
                partial.write_text(notebook, encoding="utf-8")
                os.replace(partial, path)
                written.append(path)
    for stale in target.glob("*.*.py"):
        if stale.name not in wanted:
            stale.unlink()
    return written
