"""The termbase (``termbase.toml``): one term per concept and language, and the variants a
page of that language may not use.

:func:`load` reads the concepts; :func:`forbidden_variants` finds the forbidden variants in a
text; :func:`visible_text` turns a built page into the text a reader sees or hears (prose,
tables, SVG text, labels and titles, widget messages), without code or the titles of cited
works; :func:`notebook_text` does the same for a notebook (its markdown cells and its
comments). The tests run them over the built site, the notebooks and the label dictionaries
(tests/test_site_termbase.py).
"""

from __future__ import annotations

import functools
import html
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Concept", "Variant", "forbidden_variants", "load", "notebook_text", "visible_text"]

TERMBASE = Path(__file__).with_name("termbase.toml")
LANGUAGES = ("ca", "fa")  # the languages whose variants are checked; English is the source
# a pattern may not begin or end inside a word; after a Persian word a zero-width non-joiner
# and a suffix may follow (رتبه‌ها), so only letters and digits close a match on the right
_BEFORE = r"(?<![^\W_])"
_AFTER = r"(?![^\W_])"


@dataclass(frozen=True)
class Concept:
    id: str
    en: str
    ca: str
    fa: str
    note: str
    forbidden: dict[str, tuple[re.Pattern[str], ...]]
    glossary: dict[str, str] | None
    """The concept's headword in docs/glossary.LOCALE.md, per language, if it has a row."""


@dataclass(frozen=True)
class Variant:
    concept: str
    found: str
    context: str

    def __str__(self) -> str:
        return f"{self.concept}: {self.found!r} in «{self.context}»"


def _compile(pattern: str, where: str) -> re.Pattern[str]:
    try:
        if pattern.startswith("~"):  # digits and signs: no word boundaries
            return re.compile(pattern[1:])
        return re.compile(_BEFORE + "(?:" + pattern + ")" + _AFTER)
    except re.error as error:
        raise ValueError(f"{where}: pattern {pattern!r} is not a regular expression: "
                         f"{error}") from error


def parse(text: str, where: str = "termbase") -> tuple[Concept, ...]:
    data = tomllib.loads(text)
    concepts = []
    seen: set[str] = set()
    for entry in data.get("concept", []):
        cid = entry.get("id")
        missing = [k for k in ("id", "en", "ca", "fa", "note") if not entry.get(k)]
        if missing:
            raise ValueError(f"{where}: concept {cid!r} lacks {', '.join(missing)}")
        if cid in seen:
            raise ValueError(f"{where}: concept {cid!r} appears twice")
        seen.add(cid)
        forbidden = {lang: tuple(_compile(p, f"{where}: {cid}")
                                 for p in entry.get(f"{lang}_forbidden", ()))
                     for lang in LANGUAGES}
        concepts.append(Concept(cid, entry["en"], entry["ca"], entry["fa"], entry["note"],
                                forbidden, entry.get("glossary")))
    return tuple(concepts)


@functools.cache
def load() -> tuple[Concept, ...]:
    return parse(TERMBASE.read_text(encoding="utf-8"), str(TERMBASE.name))


def forbidden_variants(text: str, locale: str,
                       concepts: tuple[Concept, ...] | None = None) -> list[Variant]:
    """Every forbidden variant of ``locale`` in ``text``, with a little context."""
    found = []
    for concept in load() if concepts is None else concepts:
        for pattern in concept.forbidden.get(locale, ()):
            for match in pattern.finditer(text):
                start, end = max(0, match.start() - 40), min(len(text), match.end() + 40)
                context = " ".join(text[start:end].split())
                found.append(Variant(concept.id, match.group(0), context))
    return found


_CODE = re.compile(
    r"<(?P<tag>pre|code|style|kbd|samp)\b.*?</(?P=tag)>"
    r'|<span class="arithmatex">.*?</span>'  # formulas: read as code, left to right
    r'|<div class="clipboard-copy-txt"[^>]*>.*?</div>'  # a lab cell's code, for its copy button
    r'|<div class="(?:highlight|jp-InputArea)[^"]*"[^>]*>.*?</div>',
    re.S,
)
# a cited work's title (the link text of a reference to another site) is in its own language
_EXTERNAL_LINK = re.compile(r'<a\b[^>]*href="https?://[^"]*"[^>]*>.*?</a>', re.S)
_SCRIPT = re.compile(r"<script\b(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)
_ATTRIBUTE = re.compile(r'\b(?:aria-label|title|alt|placeholder|data-[\w-]+)="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")
# inline elements join the text around them ("(<em>offload</em>)"); the others separate it
_INLINE = re.compile(r"</?(?:a|em|strong|b|i|span|sup|sub|abbr|mark|small|q)\b[^>]*>")


_IDENTIFIER = re.compile(r"[a-z0-9_.:#/-]*")  # a key or an id in a widget's data, never shown


def _json_strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [] if _IDENTIFIER.fullmatch(value) else [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _json_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _json_strings(v)]
    return []


def _data_text(raw: str) -> list[str]:
    """The strings of a JSON value (a widget's data), or the raw text if it is not JSON."""
    try:
        return _json_strings(json.loads(raw))
    except ValueError:
        return [raw]


def visible_text(page: str) -> str:
    """The text of a built page's article a reader meets, with code taken out.

    Prose, table cells, SVG ``<text>``, the values of ``aria-label``, ``title``, ``alt`` and
    ``data-*`` attributes, and the strings of the JSON a widget reads (its labels and
    messages); not code, formulas or scripts that are programs.
    """
    if "<article" in page:
        page = page[page.index("<article"):page.rindex("</article>")]
    parts: list[str] = []
    for script in _SCRIPT.finditer(page):
        if "json" in script.group("attrs"):
            parts += _data_text(html.unescape(script.group("body")))
    page = _SCRIPT.sub(" ", page)
    page = _CODE.sub(" ", page)
    page = _EXTERNAL_LINK.sub(" ", page)
    for value in _ATTRIBUTE.findall(page):
        value = html.unescape(value)
        if value[:1] in "{[":
            parts += _data_text(value)
        elif not _IDENTIFIER.fullmatch(value):
            parts.append(value)
    parts.append(_TAG.sub(" ", _INLINE.sub("", page)))
    text = html.unescape("\n".join(parts))
    return re.sub(r"[ \t]+", " ", text)


def notebook_text(source: str) -> str:
    """A jupytext percent notebook's prose: its markdown cells and its code's comments."""
    lines = []
    markdown = False
    for line in source.split("\n"):
        if line.startswith("# %%"):
            markdown = "[markdown]" in line
            continue
        stripped = line.strip()
        if markdown:
            lines.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
        elif stripped.startswith("#"):
            lines.append(stripped.lstrip("#").strip())
        elif '"""' in stripped:  # a docstring's line
            lines.append(stripped.replace('"""', " "))
    text = "\n".join(lines)
    return re.sub(r"`[^`\n]*`", " ", text)  # inline code is code
