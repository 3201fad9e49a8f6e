"""Predicted against measured: a scatter with the line of perfect agreement and a band."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter

from distlesson.render.numbers import check_locale
from distlesson.render.svg import OKABE_ITO, STYLE, to_svg

__all__ = ["agreement_scatter"]

_MARKERS = ("o", "s", "^", "D", "v")


def agreement_scatter(groups: Sequence[tuple[str, Sequence[tuple[float, float]]]], *,
                      band: float, xlabel: str, ylabel: str, band_label: str, locale: str,
                      tick_format: Callable[[float], str], name: str, title: str) -> str:
    """One marker per (measured, predicted) point, a colour and shape per group; the diagonal
    and a shaded band of +-``band`` (relative) around it."""
    check_locale(locale)
    values = [v for _, points in groups for point in points for v in point]
    low, high = 0.9 * min(values), 1.05 * max(values)
    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 5.2), layout="constrained")
        line = [low, high]
        ax.fill_between(line, [v * (1 - band) for v in line], [v * (1 + band) for v in line],
                        color="#888888", alpha=0.18, linewidth=0, label=band_label)
        ax.plot(line, line, color="#888888", linewidth=1)
        for i, (label, points) in enumerate(groups):
            ax.scatter([m for m, _ in points], [p for _, p in points], label=label,
                       color=OKABE_ITO[i % len(OKABE_ITO)], marker=_MARKERS[i % len(_MARKERS)],
                       s=36, zorder=3)
        ax.set_xlim(low, high)
        ax.set_ylim(low, high)
        ax.set_aspect("equal")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(FuncFormatter(lambda v, _: tick_format(v)))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.legend(loc="upper left")
        return to_svg(fig, name=name, title=title, locale=locale)
