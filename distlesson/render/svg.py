"""Plots as inline SVG: text kept as text, ink that follows the page's light or dark scheme.

Text stays ``<text>`` (``svg.fonttype: none``) so the browser shapes Persian labels and
uses the page's font. Everything drawn in :data:`INK` (axes, ticks, labels) is rewritten
to ``currentColor``, so the plot takes the colour of the text around it in both schemes;
data colours are the Okabe-Ito palette, distinguishable with colour-blindness and legible
on white and on Material's dark slate.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter

from distlesson.render.numbers import check_locale

__all__ = ["INK", "OKABE_ITO", "STYLE", "stacked_barh", "to_svg"]

INK = "#123456"  # a sentinel colour, replaced by currentColor in the SVG
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
STYLE = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 11,
    "text.color": INK,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
}


def to_svg(fig: plt.Figure, *, name: str, title: str) -> str:
    """The figure as an inline ``<svg>`` element; ``name`` keeps ids unique on a page."""
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": name}):
        fig.savefig(buffer, format="svg", transparent=True, bbox_inches="tight",
                    metadata={"Date": None, "Creator": None})
    plt.close(fig)
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and doctype: the SVG goes inline
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.DOTALL)
    svg = svg.replace(INK, "currentColor")
    # text takes the page's font (its Persian stack on Persian pages), not matplotlib's list
    svg = re.sub(r"font-family: [^;\"]*", "font-family: inherit", svg)
    svg = re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"',
                 rf'<svg \1role="img" aria-label="{_escape(title)}" class="dl-plot"', svg,
                 count=1)
    return re.sub(r"\n\s*", "\n", svg)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


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
                            textcoords="offset points", va="center", fontsize=9)
            ax.set_xlim(0, max(left) * 1.15)
        ax.set_yticks(positions, categories)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: tick_format(x)))
        ax.set_xlabel(xlabel)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25 - 0.3 / len(categories)),
                  ncols=min(len(stacks), 4))
        return to_svg(fig, name=name, title=title)
