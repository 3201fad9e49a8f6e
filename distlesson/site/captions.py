"""Numbered figures with captions, and references to them by name.

A page captions a plot or a diagram with a paragraph right after the code block that draws
it, starting with ``{{ caption:NAME }}``; the prose refers to it with ``{{ fig:NAME }}``.
The build numbers the captions per page in order, writes "Figure 3." / "Figura 3." /
«شکل ۳.» before each caption and "Figure 3" / "figura 3" / «شکل ۳» (a link) for each
reference, so no number is typed and a reordered page renumbers itself. An unknown name, a
name captioned twice or a caption that follows no figure fails the build with page and line.

Two steps, because the figure is HTML only after markdown-exec ran:
:func:`number_figures` (Markdown) puts a marker before the block and numbers the caption;
:func:`wrap_figures` (HTML) turns the block and its caption into ``<figure id="fig-NAME">``
with a ``<figcaption>``.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass

from distlesson.render.numbers import check_locale, format_number
from distlesson.site.markdown_scan import Fence, Prose, split_blocks

__all__ = ["MARK", "FigureError", "NotebookFigures", "captioned", "figure_html", "figure_label",
           "figure_ref", "number_figures", "wrap_figures"]

MARK = re.compile(r"\{\{\s*(caption|fig):([a-z][a-z0-9-]*)\s*\}\}")
"""A caption's or a reference's marker in a page's Markdown."""
_CAPTION = re.compile(r"\A\s*\{\{\s*caption:([a-z][a-z0-9-]*)\s*\}\}[ \t]*")
_EXEC = re.compile(r"""\bexec\s*=\s*["']?(on|true|1)\b""")

# (before a caption, in a sentence): Catalan writes "la figura 3" in running text
_WORDS = {"en": ("Figure", "Figure"), "ca": ("Figura", "figura"), "fa": ("شکل", "شکل")}


class FigureError(ValueError):
    """A caption or a reference the build cannot resolve."""


@dataclass(frozen=True)
class Captioned:
    """A figure's caption: its name, its number on the page, its line in the source."""

    name: str
    number: int
    line: int


def figure_label(number: int, locale: str) -> str:
    """What stands before a caption: ``Figure 3.``, ``Figura 3.``, ``شکل ۳.``."""
    return f"{_WORDS[check_locale(locale)][0]}\u00a0{format_number(number, locale)}."


def figure_ref(number: int, locale: str) -> str:
    """A reference in running text: ``Figure 3``, ``figura 3``, ``شکل ۳``."""
    return f"{_WORDS[check_locale(locale)][1]}\u00a0{format_number(number, locale)}"


def _figure_before(blocks: list[Fence | Prose], i: int) -> bool:
    """Whether block i follows, across blank lines only, a code block that draws."""
    return i > 0 and isinstance(blocks[i - 1], Fence) and bool(_EXEC.search(blocks[i - 1].info))


def captioned(markdown: str, *, where: str = "<page>") -> list[Captioned]:
    """The page's captions in order, numbered from 1; a misplaced or repeated one fails."""
    blocks = split_blocks(markdown)
    found: list[Captioned] = []
    for i, block in enumerate(blocks):
        if not isinstance(block, Prose):
            continue
        start = _CAPTION.match(block.text)
        for match in MARK.finditer(block.text):
            if match[1] != "caption":
                continue
            line = block.line + block.text.count("\n", 0, match.start())
            if start is None or match.start() >= start.end():  # not what opens the block
                raise FigureError(f"{where}:{line}: {{{{ caption:{match[2]} }}}} must begin "
                                  "the paragraph right after the code block that draws it")
            if not _figure_before(blocks, i):
                raise FigureError(f"{where}:{line}: {{{{ caption:{match[2]} }}}} follows no "
                                  "figure: put it right after an exec code block")
            if any(c.name == match[2] for c in found):
                raise FigureError(f"{where}:{line}: figure {match[2]!r} is captioned twice")
            found.append(Captioned(match[2], len(found) + 1, line))
    return found


def number_figures(markdown: str, locale: str, *, where: str = "<page>") -> str:
    """The page with each caption numbered and marked, and each reference a link."""
    figures = {c.name: c for c in captioned(markdown, where=where)}
    blocks = split_blocks(markdown)
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Fence):
            out.append(block.raw)
            continue
        text = block.text
        start = _CAPTION.match(text)
        if start is not None:
            name = start[1]
            caption, blank, rest = text[start.end():].partition("\n\n")
            label = html_lib.escape(figure_label(figures[name].number, locale))
            # the code block above gets its opening marker; the caption closes the figure
            out[-1] = f"<!-- dl-figure:{name} -->\n\n{out[-1]}"
            text = (f'\n<span class="dl-figure-label">{label}</span> {caption}\n\n'
                    f"<!-- /dl-figure:{name} -->{blank}{rest}")
        out.append(_references(text, figures, locale, where=where, first_line=block.line))
    return "\n".join(out)


def _references(text: str, figures: dict[str, Captioned], locale: str, *, where: str,
                first_line: int) -> str:
    def link(match: re.Match[str]) -> str:
        if match[1] == "caption":
            return match[0]
        if match[2] not in figures:
            line = first_line + text.count("\n", 0, match.start())
            known = ", ".join(sorted(figures)) or "none"
            raise FigureError(f"{where}:{line}: no figure {match[2]!r} on this page "
                              f"(captioned: {known})")
        return f"[{figure_ref(figures[match[2]].number, locale)}](#fig-{match[2]})"

    return MARK.sub(link, text)


def figure_html(body: str, *, name: str, label: str, caption_html: str) -> str:
    """A figure: ``body`` (an SVG) and its caption, after its label."""
    return (f'<figure class="dl-figure" id="fig-{name}"><div class="dl-figure-body">'
            f'{body.strip()}</div><figcaption>'
            f'<span class="dl-figure-label">{html_lib.escape(label)}</span> {caption_html}'
            "</figcaption></figure>")


class NotebookFigures:
    """Numbers a notebook's figures in the order it shows them: a lab has no Markdown pass
    to do it, so its code cells call :meth:`figure` with each plot and its caption."""

    def __init__(self, locale: str) -> None:
        self.locale = check_locale(locale)
        self.shown = 0

    def figure(self, svg: str, *, name: str, caption: str) -> str:
        self.shown += 1
        return figure_html(svg, name=name, label=figure_label(self.shown, self.locale),
                           caption_html=html_lib.escape(caption))


_WRAP = re.compile(
    r"<!-- dl-figure:(?P<name>[a-z0-9-]+) -->(?P<body>.*?)"
    r'<p><span class="dl-figure-label">(?P<label>[^<]*)</span> (?P<caption>.*?)</p>\s*'
    r"<!-- /dl-figure:(?P=name) -->",
    re.DOTALL)


def wrap_figures(html: str, *, where: str = "<page>") -> str:
    """Each marked figure as ``<figure id="fig-NAME">`` with its ``<figcaption>``."""
    wrapped = _WRAP.sub(lambda m: figure_html(m["body"], name=m["name"],
                                              label=html_lib.unescape(m["label"]),
                                              caption_html=m["caption"]), html)
    left = re.search(r"<!-- /?dl-figure:([a-z0-9-]+) -->", wrapped)
    if left:
        raise FigureError(f"{where}: figure {left[1]!r} could not be wrapped: its caption must "
                          "be a plain paragraph right after the code block")
    return wrapped
