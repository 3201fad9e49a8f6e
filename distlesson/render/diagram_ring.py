"""The ring all-reduce drawn from its simulation, and the drawing kit all diagrams share.

:func:`ring_allreduce_diagram` runs :func:`~distlesson.parallel.collectives.ring_all_reduce` on
small
arrays and draws its logged :class:`~distlesson.parallel.collectives.Transfer` list: one panel per
round, the ranks on a ring, one arrow per piece sent, coloured and lettered by chunk. Nothing
in the drawing comes from a formula; the tests check that it shows every transfer.

The kit (:class:`Canvas`, :func:`words`, :func:`check_count`) is used by the diagrams in
:mod:`distlesson.render.diagrams` too: a frameless axes measured in inches, one ``<text>``
per line so the browser anchors each, lines and text in :data:`~distlesson.render.svg.INK`
(``currentColor`` in the SVG), fills in Okabe-Ito colours at low opacity, so a diagram reads
in light and dark mode. Persian lines are wrapped in a right-to-left embedding so Latin names
inside them (NVLink, all-gather) fall in place, while the drawing keeps time and rank order
left to right in every language.
"""

from __future__ import annotations

import math
import textwrap
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Patch, Rectangle

from distlesson.parallel.collectives import Transfer, ring_all_reduce
from distlesson.render.bidi import isolate
from distlesson.render.numbers import check_locale, format_number
from distlesson.render.svg import INK, OKABE_ITO, STYLE, text_points, to_svg

__all__ = ["RING_WORDS", "Canvas", "check_count", "ring_allreduce_diagram", "unit_fraction",
           "words"]

_LINE = 1.3 / 72  # inches of line height per point of font size


def words(table: Mapping[str, Mapping[str, str]], locale: str,
          labels: Mapping[str, str] | None) -> dict[str, str]:
    """The words of ``table`` in ``locale``, overridden by ``labels`` (keys must exist)."""
    check_locale(locale)
    chosen = {key: texts[locale] for key, texts in table.items()}
    unknown = sorted(set(labels or {}) - set(chosen))
    if unknown:
        raise ValueError(f"labels has unknown keys {unknown}; allowed: {sorted(chosen)}")
    return chosen | dict(labels or {})


def check_count(name: str, value: int, low: int, high: int) -> None:
    """ValueError unless ``value`` is an int in ``low .. high`` (what a figure can show)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name}={value!r} must be an integer from {low} to {high} "
                         "for the diagram to stay readable")


@dataclass
class Canvas:
    """An axes measured in inches from the figure's lower left corner, with no frame."""

    fig: plt.Figure
    locale: str
    width: float

    @classmethod
    def new(cls, width: float, height: float, locale: str) -> Canvas:
        check_locale(locale)
        fig = plt.figure(figsize=(width, height))
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width)
        ax.set_ylim(0, height)
        ax.set_axis_off()
        # an invisible frame: the SVG keeps the whole canvas, since matplotlib measures
        # Persian text in a font without Arabic glyphs and would crop it too tight
        ax.add_patch(Rectangle((0, 0), width, height, facecolor="none", edgecolor="none"))
        return cls(fig, locale, width)

    @property
    def rtl(self) -> bool:
        """Whether the page reads right to left: its paragraphs start at the right."""
        return self.locale == "fa"

    @property
    def ax(self) -> plt.Axes:
        return self.fig.axes[0]

    def along(self, x: float, w: float = 0.0) -> float:
        """The left edge of a thing ``w`` wide placed ``x`` from where the page's lines start:
        a sequence (steps, ranks, GPUs) reads from the right on a right-to-left page."""
        return self.width - x - w if self.rtl else x

    def num(self, value: float) -> str:
        return format_number(value, self.locale)

    def text(self, x: float, y: float, text: str, *, size: float = 10, ha: str = "center",
             gid: str | None = None, **kwargs) -> None:
        """One ``<text>`` per line (so the browser anchors each), the block centred on y; a
        line wider than the canvas is wrapped, since a wider SVG would be scaled down whole."""
        lines = [part for line in text.split("\n") for part in self._fit(line, size)]
        top = y + (len(lines) - 1) * size * _LINE / 2
        for i, line in enumerate(lines):
            item = self.ax.text(x, top - i * size * _LINE, self.bidi(line), ha=ha,
                                va="center", fontsize=size, rotation_mode="anchor", **kwargs)
            if gid:
                item.set_gid(gid if len(lines) == 1 else f"{gid}-{i}")

    def _fit(self, line: str, size: float) -> list[str]:
        """``line`` in as many lines as it needs to fit the canvas's width."""
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
            inches = text_points(self.fig, line, size) / 72
        room = self.width - 0.3
        if inches <= room:
            return [line]
        return textwrap.wrap(line, max(12, int(len(line) * room / inches)))

    def line(self, y: float, text: str, *, margin: float = 0.05, **kwargs) -> None:
        """A line of prose starting where the page's lines start: left, or right for fa."""
        x, ha = (self.width - margin, "right") if self.rtl else (margin, "left")
        self.text(x, y, text, ha=ha, **kwargs)

    def bidi(self, line: str) -> str:
        """A Persian line inside a right-to-left isolate; other lines as they are."""
        return isolate(line, self.locale)

    def box(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
            alpha: float = 0.3, dashed: bool = False, round_: float = 0.04) -> None:
        """A box with its lower left corner at (x, y), outlined in ink (dashed: a place
        left empty); ``fill`` an Okabe-Ito colour, drawn at opacity ``alpha``."""
        face = to_rgba(fill, alpha) if fill else "none"
        self.ax.add_patch(FancyBboxPatch(
            (x, y), w, h, boxstyle=f"round,pad=0,rounding_size={round_}", facecolor=face,
            edgecolor=INK, linewidth=0.5 if dashed else 0.8,
            linestyle=(0, (2, 2)) if dashed else "-"))

    def arrow(self, start: tuple[float, float], end: tuple[float, float], *,
              colour: str = INK, rad: float = 0.0, width: float = 1.0,
              shrink: float = 0.0, gid: str | None = None) -> None:
        """An arrow from ``start`` to ``end``, bent by ``rad`` (see arc3), in inches."""
        arrow = FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=7 + 2 * width,
                                connectionstyle=f"arc3,rad={rad}", color=colour,
                                linewidth=width, shrinkA=shrink, shrinkB=shrink)
        if gid:
            arrow.set_gid(gid)
        self.ax.add_patch(arrow)

    def legend(self, x: float, y: float, items: list[tuple[str, str | None]]) -> None:
        """A one-row legend centred at (x, y): (label, Okabe-Ito colour or None=dashed),
        read in the page's direction (for fa the first item is on the right)."""
        items = items[::-1] if self.rtl else items
        handles = [Patch(facecolor=to_rgba(colour, 0.75), edgecolor=INK, linewidth=0.6)
                   if colour else Patch(facecolor="none", edgecolor=INK, linewidth=0.5,
                                        linestyle=(0, (2, 2)))
                   for _, colour in items]
        self.ax.legend(handles, [self.bidi(label) for label, _ in items], loc="center",
                       ncols=len(items), fontsize=10, markerfirst=not self.rtl,
                       bbox_to_anchor=(x, y), bbox_transform=self.ax.transData,
                       handlelength=1.4, columnspacing=1.6)

    def svg(self, *, name: str, title: str) -> str:
        with warnings.catch_warnings():
            # text is kept as text and shaped by the browser; matplotlib's font only sizes it
            warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
            return to_svg(self.fig, name=name, title=title, locale=self.locale)


RING_WORDS: dict[str, dict[str, str]] = {
    "title": {"en": "Ring all-reduce over {n} ranks: which chunk each rank sends at each step",
              "ca": "All-reduce en anell amb {n} rangs: quin tros envia cada rang a cada pas",
              "fa": "all-reduce حلقوی میان {n} رنک: هر رنک در هر گام کدام تکه را می‌فرستد"},
    "step": {"en": "step {k}", "ca": "pas {k}", "fa": "گام {k}"},
    "rank": {"en": "rank {k}", "ca": "rang {k}", "fa": "رنک {k}"},
    "chunk": {"en": "chunk {c}", "ca": "tros {c}", "fa": "تکهٔ {c}"},
    "letters": {"en": "A B C D E F G", "ca": "A B C D E F G", "fa": "الف ب ج د ه و ز"},
    "reduce_scatter": {"en": "reduce-scatter", "ca": "reduce-scatter", "fa": "reduce-scatter"},
    "rs_desc": {
        "en": "each rank adds the chunk it receives to its own copy and passes the sum on",
        "ca": "cada rang suma el tros que rep a la seva còpia i passa la suma al següent",
        "fa": "هر رنک تکه‌ای را که می‌رسد با نسخهٔ خودش جمع می‌زند و حاصل را جلو می‌فرستد"},
    "owns": {"en": "After the reduce-scatter, each rank holds one chunk summed over all ranks:",
             "ca": "Després del reduce-scatter, cada rang té un tros sumat de tots els rangs:",
             "fa": "پس از reduce-scatter، هر رنک یک تکه دارد که از همهٔ رنک‌ها جمع زده شده:"},
    "all_gather": {"en": "all-gather", "ca": "all-gather", "fa": "all-gather"},
    "ag_desc": {
        "en": "each rank passes the summed chunks on until every rank has all of them",
        "ca": "cada rang passa els trossos sumats al següent fins que tots els rangs els tenen",
        "fa": "هر رنک تکه‌های جمع‌زده را جلو می‌فرستد تا همهٔ رنک‌ها همه را داشته باشند"},
    "note": {"en": "Circles are ranks; each arrow carries one chunk, {frac} of the buffer. "
                   "Each rank sends {k} chunks in all.",
             "ca": "Els cercles són rangs; cada fletxa porta un tros, {frac} del buffer. "
                   "Cada rang envia {k} trossos en total.",
             "fa": "دایره‌ها رنک‌ها هستند؛ هر پیکان یک تکه، یعنی {frac} از بافر، را می‌برد. "
                   "هر رنک روی هم {k} تکه می‌فرستد."},
}
"""The ring diagram's words; ``{k}``, ``{n}``, ``{c}``, ``{frac}`` are filled in."""

# Persian names a unit fraction in words: «۱/۴» reads as 1.4 to an Iranian reader, who
# writes decimals with a slash
_PERSIAN_PARTS = {2: "یک‌دوم", 3: "یک‌سوم", 4: "یک‌چهارم", 5: "یک‌پنجم", 6: "یک‌ششم",
                  7: "یک‌هفتم", 8: "یک‌هشتم", 9: "یک‌نهم", 10: "یک‌دهم"}


def unit_fraction(part: Fraction, c: Canvas) -> str:
    """A fraction of the buffer or the layer as the canvas's language writes it."""
    if c.locale == "fa" and part.numerator == 1 and part.denominator in _PERSIAN_PARTS:
        return _PERSIAN_PARTS[part.denominator]
    return f"{c.num(part.numerator)}/{c.num(part.denominator)}"

_NODE = 0.14  # radius of a rank's circle, inches


def ring_allreduce_diagram(n: int = 4, *, locale: str,
                           labels: Mapping[str, str] | None = None) -> str:
    """Who sends which chunk in a ring all-reduce over ``n`` ranks, from a simulated run.

    Panels left to right, one per round: the n - 1 reduce-scatter rounds, then which rank
    owns which summed chunk, then the n - 1 all-gather rounds. Each transfer is an arrow
    with id ``ring-allreduce-{locale}-transfer-{i}`` and a chunk label with id
    ``...-chunk-{i}``, so the SVG shows exactly the 2 n (n - 1) pieces the simulation sent.
    """
    check_count("n", n, 2, len(OKABE_ITO))
    w = words(RING_WORDS, locale, labels)
    inputs = [np.full(n, float(r + 1)) for r in range(n)]  # n x (n,): one element per chunk
    transfers = ring_all_reduce(inputs).transfers
    letters = w["letters"].split()
    name = f"ring-allreduce-{locale}"
    cols = min(n - 1, 3)
    rows = math.ceil((n - 1) / cols)
    radius = 0.42 + 0.05 * n
    panel_w, panel_h = 2 * radius + 0.8, 2 * radius + 0.75
    width = cols * panel_w
    height = 2 * (0.55 + rows * panel_h) + 0.85 + 0.4
    with matplotlib.rc_context(STYLE):
        c = Canvas.new(width, height, locale)
        y = height
        for phase, desc in (("reduce_scatter", "rs_desc"), ("all_gather", "ag_desc")):
            c.line(y - 0.15, w[phase], size=10.5, weight="bold")
            c.line(y - 0.4, w[desc], size=10)
            y -= 0.55
            first = 0 if phase == "reduce_scatter" else n - 1
            for s in range(n - 1):
                row, col = divmod(s, cols)
                centre = (c.along(col * panel_w, panel_w) + panel_w / 2,
                          y - row * panel_h - panel_h / 2 - 0.1)
                c.text(centre[0], centre[1] + radius + 0.35,
                       w["step"].format(k=c.num(first + s + 1)), size=10)
                _ring_panel(c, centre, radius, n, first + s, transfers, letters, name)
            y -= rows * panel_h
            if phase == "reduce_scatter":
                _owners(c, w, y, width, n, transfers, letters)
                y -= 0.85
        chunk = Fraction(transfers[0].nbytes, inputs[0].nbytes)
        per_rank = sum(t.src == 0 for t in transfers)
        c.line(y - 0.2, w["note"].format(frac=unit_fraction(chunk, c), k=c.num(per_rank)), size=10)
        return c.svg(name=name, title=w["title"].format(n=c.num(n)))


def _ring_panel(c: Canvas, centre: tuple[float, float], radius: float, n: int, step: int,
                transfers: tuple[Transfer, ...], letters: list[str], name: str) -> None:
    """The ranks on a circle (rank 1 on top, clockwise) and the transfers of ``step``."""

    def at(angle: float, r: float) -> tuple[float, float]:
        return centre[0] + r * math.cos(angle), centre[1] + r * math.sin(angle)

    angles = [math.pi / 2 - 2 * math.pi * r / n for r in range(n)]
    for r, angle in enumerate(angles):
        c.ax.add_patch(Circle(at(angle, radius), _NODE, facecolor="none", edgecolor=INK,
                              linewidth=0.9))
        c.text(*at(angle, radius), c.num(r + 1), size=10)
    bend = 0.3  # arcs bulge outwards by this fraction of their chord
    label_r = radius * (math.cos(math.pi / n) + bend * math.sin(math.pi / n)) + 0.17
    for i, t in enumerate(transfers):
        if t.step != step:
            continue
        colour = OKABE_ITO[t.chunk]
        c.arrow(at(angles[t.src], radius), at(angles[t.dst], radius), colour=colour,
                rad=-bend, width=1.4, shrink=_NODE * 72 + 1, gid=f"{name}-transfer-{i}")
        c.text(*at(angles[t.src] - math.pi / n, label_r), letters[t.chunk], size=10,
               gid=f"{name}-chunk-{i}", bbox={"boxstyle": "round,pad=0.2",
                                             "facecolor": to_rgba(colour, 0.35),
                                             "edgecolor": "none"})


def _owners(c: Canvas, w: Mapping[str, str], y: float, width: float, n: int,
            transfers: tuple[Transfer, ...], letters: list[str]) -> None:
    """The chunk each rank holds complete after the reduce-scatter: where its last hop went."""
    last = max(t.step for t in transfers if t.phase == "reduce-scatter")
    owner = {t.chunk: t.dst for t in transfers if t.step == last}
    c.line(y - 0.12, w["owns"], size=10)
    box_w = min(1.45, width / n - 0.1)
    two_lines = n > 4
    for chunk, rank in sorted(owner.items(), key=lambda item: item[1]):
        x = c.along(0.05 + rank * (box_w + 0.1), box_w)
        c.box(x, y - 0.72, box_w, 0.4, fill=OKABE_ITO[chunk], alpha=0.35)
        who = w["rank"].format(k=c.num(rank + 1))
        what = w["chunk"].format(c=letters[chunk])
        c.text(x + box_w / 2, y - 0.52, f"{who}\n{what}" if two_lines else f"{who}: {what}",
               size=10)
