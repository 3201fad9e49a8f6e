"""Line plots on logarithmic axes, written as inline SVG in the site's style."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from distlesson.render.numbers import check_locale
from distlesson.render.svg import OKABE_ITO, STYLE, WIDTH_INCHES, to_svg

__all__ = ["loglog_lines"]

_MARKERS = ("o", "s", "^", "D", "v")
_DASHES = ("-", "--", "-.", ":", "-")


def loglog_lines(
    x: Sequence[float],
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    xlabel: str,
    ylabel: str,
    locale: str,
    tick_format: Callable[[float], str],
    name: str,
    title: str,
    ytick_format: Callable[[float], str] | None = None,
) -> str:
    """One line per series over the same x, both axes logarithmic; x ticks at the points.

    Lines differ by colour, marker and dash, so they stay apart without colour vision.
    ``ytick_format`` formats the y ticks when they are in another unit than x (default:
    ``tick_format`` for both).
    """
    check_locale(locale)
    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH_INCHES, 4.2), layout="constrained")
        for i, (label, values) in enumerate(series):
            ax.plot(x, values, label=label, color=OKABE_ITO[i % len(OKABE_ITO)],
                    marker=_MARKERS[i % len(_MARKERS)], linestyle=_DASHES[i % len(_DASHES)])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(FixedLocator(list(x)))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: tick_format(v)))
        y_format = ytick_format or tick_format
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: y_format(v)))
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.legend(frameon=False)
        return to_svg(fig, name=name, title=title, locale=locale)
