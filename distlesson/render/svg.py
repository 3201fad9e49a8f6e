"""Plots as inline SVG: text kept as text, ink that follows the page's light or dark scheme.

Text stays ``<text>`` (``svg.fonttype: none``) so the browser shapes Persian labels and
uses the page's font. Everything drawn in :data:`INK` (axes, ticks, labels) is rewritten
to ``currentColor``, so the plot takes the colour of the text around it in both schemes;
data colours come from :mod:`distlesson.render.palette` (Okabe-Ito), one colour per concept.

Sizes: a plot is at most 7.5 inches (540 pt) wide and is drawn at the text column's width,
which is at least 690 px on a 1280 px screen, so one point shows as at least 1.28 px; no text
is smaller than :data:`MIN_TEXT_POINTS`, 10 pt, that is 12.8 px. On a phone the stylesheet
keeps a plot at least 28rem (560 px) wide inside its figure, which scrolls sideways, instead
of shrinking its text to 6 px.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter

from distlesson.render.bidi import isolate
from distlesson.render.numbers import check_locale
from distlesson.render.palette import OKABE_ITO

__all__ = ["INK", "MIN_TEXT_POINTS", "OKABE_ITO", "STYLE", "legend_above", "stacked_barh",
           "to_svg"]

INK = "#123456"  # a sentinel colour, replaced by currentColor in the SVG
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
    svg = re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"',
                 rf'<svg \1role="img" aria-label="{_escape(title)}" class="dl-plot"', svg,
                 count=1)
    return re.sub(r"\n\s*", "\n", svg)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def legend_above(ax: plt.Axes, ncols: int, handles: Sequence | None = None) -> None:
    """The key right above the axes it explains, read in rows in the series' order
    (matplotlib fills a legend column by column: the entries are put in that order)."""
    if handles is None:
        handles, _ = ax.get_legend_handles_labels()
    order = [i for j in range(ncols) for i in range(j, len(handles), ncols)]
    ax.legend(handles=[handles[i] for i in order], loc="lower left", bbox_to_anchor=(0, 1.01),
              ncols=ncols, borderaxespad=0, handlelength=1.2, columnspacing=1.2)


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
        fig, ax = plt.subplots(figsize=(7.5, 0.55 * len(categories) + 1.4))
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
        legend_above(ax, min(len(stacks), 4))
        return to_svg(fig, name=name, title=title, locale=locale)
