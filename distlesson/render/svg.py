"""Plots as inline SVG: text kept as text, ink that follows the page's light or dark scheme.

Text stays ``<text>`` (``svg.fonttype: none``) so the browser shapes Persian labels and
uses the page's font. Everything drawn in :data:`INK` (axes, ticks, labels) is rewritten
to ``currentColor``, so the plot takes the colour of the text around it in both schemes;
data colours come from :mod:`distlesson.render.palette` (Okabe-Ito), one colour per concept.

Sizes: a chart is :data:`WIDTH_INCHES` wide (490 pt; about 505 pt with its margin), laid out
with matplotlib's constrained layout so that its labels stay inside that width, and shown at
most at its natural size (1 pt = 4/3 px) and otherwise at the text column's width. At
1280 px that column is 688 px (616 px for a lab's output), so one point shows as at least
1.22 px and no text, at least :data:`MIN_TEXT_POINTS` = 10 pt, is under 12 px. On a phone the
stylesheet keeps a plot at least 28rem (560 px) wide inside its figure, which scrolls
sideways, instead of shrinking its text to 6 px.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Callable, Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter

from distlesson.render.bidi import RTL_LOCALES, isolate
from distlesson.render.numbers import check_locale
from distlesson.render.palette import OKABE_ITO

__all__ = [
    "INK",
    "MIN_TEXT_POINTS",
    "OKABE_ITO",
    "STYLE",
    "WIDTH_INCHES",
    "legend_above",
    "legend_columns",
    "stacked_barh",
    "text_points",
    "to_svg",
]

INK = "#123456"  # a sentinel colour, replaced by currentColor in the SVG
WIDTH_INCHES = 6.8
"""The width of every chart drawn with matplotlib."""
MIN_TEXT_POINTS = 10
"""The smallest text in a plot, in points: 12.8 px in the text column at 1280 px."""
STYLE = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 11,
    "legend.fontsize": MIN_TEXT_POINTS + 1,
    "xtick.labelsize": MIN_TEXT_POINTS + 1,
    "ytick.labelsize": MIN_TEXT_POINTS + 1,
    "text.color": INK,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
}


def to_svg(fig: plt.Figure, *, name: str, title: str, locale: str = "en") -> str:
    """The figure as an inline ``<svg>`` element; ``name`` keeps ids unique on a page.

    On a right-to-left page (``locale``), every text that mixes Persian with Latin words
    goes in a right-to-left isolate (:func:`distlesson.render.bidi.isolate`): the plot itself
    lays out left to right, and without it «گیگابایت در هر GPU» would read «GPU گیگابایت در هر».
    """
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": name}):
        fig.savefig(buffer, format="svg", transparent=True, bbox_inches="tight",
                    metadata={"Date": None, "Creator": None})
    plt.close(fig)
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and doctype: the SVG goes inline
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.DOTALL)
    svg = svg.replace(INK, "currentColor")
    svg = re.sub(r"(<text\b[^>]*>)([^<]*)(</text>)",
                 lambda m: m[1] + isolate(m[2], locale) + m[3], svg)
    # text takes the page's font (its Persian stack on Persian pages), not matplotlib's list
    svg = re.sub(r"font-family: [^;\"]*", "font-family: inherit", svg)
    # never wider than its natural size (a point is 4/3 px): a narrow plot is not blown up
    natural = float(re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+)', svg)[1]) * 4 / 3
    svg = re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"',
                 rf'<svg \1role="img" aria-label="{_escape(title)}" class="dl-plot" '
                 rf'style="max-width: {natural:.0f}px"', svg, count=1)
    return re.sub(r"\n\s*", "\n", svg)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


_ENTRY_EMS = 1.2 + 0.8 + 1.2  # a legend entry's handle, its gap to the text, the column gap


def legend_columns(widths: Sequence[float], width_points: float, most: int,
                   font_points: float = MIN_TEXT_POINTS + 1) -> int:
    """The most columns, up to ``most``, in which a legend whose labels are ``widths``
    points wide, laid out in rows, fits ``width_points``: a wider legend would widen the
    SVG, and the browser would then scale the whole plot, text included, down to the
    column."""
    for ncols in range(min(most, len(widths)), 1, -1):
        columns = [widths[j::ncols] for j in range(ncols)]
        needed = sum(max(column) + _ENTRY_EMS * font_points for column in columns)
        if needed <= width_points:
            return ncols
    return 1


def text_points(fig: plt.Figure, text: str, size: float) -> float:
    """The width of ``text`` at ``size`` points as matplotlib lays it out, in points."""
    renderer = fig.canvas.get_renderer()
    width, _, _ = renderer.get_text_width_height_descent(text, FontProperties(size=size),
                                                         ismath=False)
    return width * 72 / fig.dpi


def legend_above(ax: plt.Axes, most: int, handles: Sequence | None = None, *,
                 locale: str = "en") -> None:
    """The key right above the axes it explains, read in rows in the series' order
    (matplotlib fills a legend column by column: the entries are put in that order), in as
    many columns as fit the figure's width. On a right-to-left page the rows read from the
    right, each swatch on the right of its words."""
    if handles is None:
        handles, _ = ax.get_legend_handles_labels()
    handles = list(handles)
    size = STYLE["legend.fontsize"]
    with warnings.catch_warnings():  # Persian glyphs are measured in a Latin font: a warning
        warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
        widths = [text_points(ax.figure, h.get_label(), size) for h in handles]
    ncols = legend_columns(widths, ax.figure.get_figwidth() * 72 - 12, most, size)
    rtl = locale in RTL_LOCALES
    if rtl:  # fill the last row with blanks on its left, then mirror every row
        handles += [Patch(visible=False, label="")] * (-len(handles) % ncols)
        handles = [h for row in range(0, len(handles), ncols)
                   for h in handles[row:row + ncols][::-1]]
    order = [i for j in range(ncols) for i in range(j, len(handles), ncols)]
    # a figure legend "outside" the axes: the constrained layout makes room for it above them
    ax.figure.legend(handles=[handles[i] for i in order],
                     loc="outside upper right" if rtl else "outside upper left",
                     ncols=ncols, handlelength=1.2, columnspacing=1.2, markerfirst=not rtl)


def stacked_barh(
    categories: Sequence[str],
    stacks: Sequence[tuple[str, Sequence[float]]],
    *,
    xlabel: str,
    locale: str,
    tick_format: Callable[[float], str],
    name: str,
    title: str,
    colors: Sequence[str] = OKABE_ITO,
    total_format: Callable[[float], str] | None = None,
) -> str:
    """Horizontal stacked bars, one per category (top to bottom in the given order).

    With ``total_format``, each bar's total is written at its end, so that a bar too short
    to see on a shared linear scale still shows its value.
    """
    check_locale(locale)
    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH_INCHES, 0.55 * len(categories) + 1.4),
                               layout="constrained")
        positions = list(range(len(categories)))[::-1]
        left = [0.0] * len(categories)
        for (label, values), color in zip(stacks, colors, strict=False):
            ax.barh(positions, values, left=left, color=color, label=label, height=0.6)
            left = [a + b for a, b in zip(left, values, strict=True)]
        if total_format is not None:
            for y, total in zip(positions, left, strict=True):
                ax.annotate(total_format(total), (total, y), xytext=(4, 0),
                            textcoords="offset points", va="center", fontsize=MIN_TEXT_POINTS)
            ax.set_xlim(0, max(left) * 1.15)
        ax.set_yticks(positions, categories)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: tick_format(x)))
        ax.set_xlabel(xlabel)
        legend_above(ax, min(len(stacks), 4), locale=locale)
        return to_svg(fig, name=name, title=title, locale=locale)
