"""The lab's code listings in the page's language: comments and docstrings translated.

The engine's source keeps its English comments; a Catalan or Persian page shows the same
code with each comment and docstring taken from :data:`COMMENTS`, so that a reader does not
meet English in the middle of the page; a Persian comment sits in a right-to-left isolate,
so that it reads in its own order inside the left-to-right code. Tool pragmas
(``# type: ignore[...]``) say nothing to a reader and are dropped in every language. A
comment that is only a shape, ``# (N, h)``, reads the same everywhere.
tests/test_pages_engine_listings.py checks that every comment of every listing the pages
show has its translation, and that no translation is left over.
"""

from __future__ import annotations

import io
import re
import tokenize

from distlesson.render.bidi import isolate
from distlesson.render.numbers import check_locale

__all__ = ["COMMENTS", "PRAGMA", "SHAPE", "listing_texts", "localise_listing"]

PRAGMA = re.compile(r"\s*#\s*type:\s*ignore\[[\w\-, ]+\]")
SHAPE = re.compile(r"\([\w, ]+\)")  # a shape comment, "(N, h)": the same in every language

# English comment or docstring (whitespace collapsed) -> its Catalan and Persian texts.
# Code names stay as written; terms as the pages and the termbase write them (cubell, سطل).
COMMENTS: dict[str, dict[str, str]] = {
    # ddp.counting_allreduce_hook
    "Record the bucket's size, then do what DDP does without a hook: divide the flat "
    "gradients of the bucket by the world size, then all-reduce them (``allreduce_hook`` "
    "divides first, so that the sum does not overflow in low precision).": {
        "ca": "Anota la mida del cubell i després fa el que fa DDP sense hook: divideix els\n"
              "gradients plans del cubell pel nombre de rangs i en fa l'all-reduce\n"
              "(``allreduce_hook`` divideix abans de sumar perquè la suma no desbordi en\n"
              "precisió baixa).",
        "fa": "اندازهٔ سطل را ثبت می‌کند و سپس همان کاری را می‌کند که DDP بدون هوک می‌کند:\n"
              "گرادیان‌های تخت سطل را بر تعداد رنک‌ها تقسیم می‌کند و all-reduce می‌کند\n"
              "(``allreduce_hook`` پیش از جمع تقسیم می‌کند تا جمع در دقت پایین سرریز نکند).",
    },
    "this bucket's gradients, one flat tensor": {
        "ca": "els gradients d'aquest cubell, en un sol tensor pla",
        "fa": "گرادیان‌های این سطل، در یک تنسور تخت",
    },
    # tensor._parallel_pass
    "(forward collectives, backward collectives, output, input gradient) of one pass.": {
        "ca": "(col·lectives del forward, col·lectives del backward, sortida, gradient de\n"
              "l'entrada) d'una passada.",
        "fa": "(عملیات جمعی گذر رو به جلو، عملیات جمعی گذر رو به عقب، خروجی، گرادیان\n"
              "ورودی) در یک گذر.",
    },
    "the f operator: replicate the input once, for gate and up together": {
        "ca": "l'operador f: replica l'entrada un sol cop, per a gate i up",
        "fa": "عملگر f: ورودی یک بار برای gate و up با هم تکرار می‌شود",
    },
    "(N, h), every rank the whole sum (RowwiseParallel)": {
        "ca": "(N, h), tota la suma a cada rang (RowwiseParallel)",
        "fa": "(N, h)، کل مجموع در هر رنک (RowwiseParallel)",
    },
    # pipeline._record
    "Wrap the stage's two compute calls so that each appends ``F3`` or ``B3`` to ``log`` "
    "(kind and microbatch) when the schedule runs it.": {
        "ca": "Embolcalla les dues crides de càlcul de l'etapa perquè cadascuna afegeixi\n"
              "``F3`` o ``B3`` (tipus i microlot) a ``log`` quan la planificació l'executa.",
        "fa": "دو فراخوانی محاسبهٔ مرحله را می‌پوشاند تا هر کدام، وقتی زمان‌بندی اجرایش\n"
              "می‌کند، ``F3`` یا ``B3`` (نوع و ریزدسته) را به ``log`` بیفزاید.",
    },
}


def _key(text: str) -> str:
    return " ".join(text.split())


def listing_texts(source: str) -> list[str]:
    """The comments (without ``#`` and pragmas) and docstrings of ``source`` that a reader
    reads, whitespace collapsed: what :data:`COMMENTS` must translate."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and not PRAGMA.fullmatch(token.string):
            found.append(_key(token.string.lstrip("#")))
        elif token.type == tokenize.STRING and token.string.startswith('"""'):
            found.append(_key(token.string.strip('"')))
    return [text for text in found if not SHAPE.fullmatch(text)]


def _translate(text: str, locale: str) -> str:
    key = _key(text)
    if SHAPE.fullmatch(key):
        return text.strip()
    try:
        lines = COMMENTS[key][locale].split("\n")
    except KeyError:
        raise ValueError(f"listing comment {key!r} has no {locale} text in "
                         "distlesson/pages/engine_listings.py") from None
    return "\n".join(isolate(line, locale) for line in lines)


def localise_listing(source: str, locale: str) -> str:
    """``source`` with its pragmas dropped and, for ``ca`` and ``fa``, each comment and
    docstring in that language; English listings keep their words."""
    check_locale(locale)
    lines = [PRAGMA.sub("", line) for line in source.splitlines()]
    if locale == "en":
        return "\n".join(lines)
    text = "\n".join(lines)
    edits: list[tuple[int, int, str]] = []  # (start, end, new) as offsets into text
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        start = starts[token.start[0] - 1] + token.start[1]
        end = starts[token.end[0] - 1] + token.end[1]
        if token.type == tokenize.COMMENT:
            edits.append((start, end, "# " + _translate(token.string.lstrip("#"), locale)))
        elif token.type == tokenize.STRING and token.string.startswith('"""'):
            indent = " " * token.start[1]
            body = _translate(token.string.strip('"'), locale).replace("\n", "\n" + indent)
            edits.append((start, end, f'"""{body}"""'))
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    return text
