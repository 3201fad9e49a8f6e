"""A roofline plot: one roof per machine on log-log axes, and labelled points on them.

Generic: it draws the polylines and points it is given (the caller computes them, for
instance with :func:`distlesson.efficiency.roofline.roofline_polyline`), so any machine or kernel
fits.
The highlighted roof is drawn bold; the others thin and dashed, in the Okabe-Ito palette so
that they stay apart without colour vision. Text is in :data:`~distlesson.render.svg.INK`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter

from distlesson.render.numbers import check_locale
from distlesson.render.svg import (
    INK,
    MIN_TEXT_POINTS,
    OKABE_ITO,
    STYLE,
    WIDTH_INCHES,
    to_svg,
)

__all__ = ["Roof", "RoofPoint", "roofline_svg"]

_LEADER = {"arrowstyle": "-", "color": INK, "linewidth": 0.6, "shrinkA": 2, "shrinkB": 5}
"""A thin line from a label placed away from its point to the point."""
_DASHES = ("--", "-.", ":", (0, (5, 1, 1, 1)), (0, (1, 1)))


@dataclass(frozen=True)
class Roof:
    """One machine's roofline, as the corners of a polyline (x = FLOP/byte, y = throughput)."""

    label: str
    """Legend entry."""
    corners: tuple[tuple[float, float], ...]
    """(intensity, attainable) pairs in increasing intensity; both positive."""
    bold: bool = False
    """The roof the plot is about (drawn thick, first colour)."""


@dataclass(frozen=True)
class RoofPoint:
    """A kernel placed on a roof, labelled beside its marker."""

    label: str
    x: float
    y: float


def roofline_svg(
    roofs: Sequence[Roof],
    points: Sequence[RoofPoint],
    *,
    xlabel: str,
    ylabel: str,
    locale: str,
    tick_format: Callable[[float], str],
    name: str,
    title: str,
    corner_label: str | None = None,
) -> str:
    """The roofs and points on log-log axes, as an inline SVG.

    ``corner_label``, if given, is written at the ridge (the corner) of the bold roof.
    """
    check_locale(locale)
    xs = [x for roof in roofs for x, _ in roof.corners] + [p.x for p in points]
    if not xs or min(xs) <= 0 or any(y <= 0 for roof in roofs for _, y in roof.corners):
        raise ValueError("a roofline plot needs positive intensities and throughputs")
    middle = math.sqrt(min(xs) * max(xs))  # the geometric middle of the log x axis
    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH_INCHES, 4.6), layout="constrained")
        thin = 0
        for roof in roofs:
            x, y = zip(*roof.corners, strict=True)
            if roof.bold:
                ax.plot(x, y, color=OKABE_ITO[0], linewidth=3, label=roof.label, zorder=3)
                if corner_label is not None and len(roof.corners) > 2:
                    cx, cy = roof.corners[1]
                    ax.plot([cx], [cy], marker="D", markersize=7, markerfacecolor="none",
                            color=OKABE_ITO[0], zorder=4, linestyle="none")
                    # in the empty top-left corner, pointing at the ridge: the roofs of the
                    # other GPUs crowd everything near it
                    ax.annotate(corner_label, (cx, cy), xytext=(0.03, 0.97),
                                textcoords="axes fraction", ha="left", va="top",
                                fontsize=MIN_TEXT_POINTS, color=INK,
                                arrowprops=_LEADER)
                continue
            thin += 1
            ax.plot(x, y, color=OKABE_ITO[thin % len(OKABE_ITO)], linewidth=1.2,
                    linestyle=_DASHES[(thin - 1) % len(_DASHES)], label=roof.label, zorder=2)
        for point in points:
            ax.plot([point.x], [point.y], marker="o", markersize=7, color=INK, zorder=4,
                    linestyle="none")
            # under the roofs, where no line runs: just below the flat part (other GPUs'
            # roofs run just above it), or down and right of the slope with a leader
            if point.x > middle:
                ax.annotate(point.label, (point.x, point.y), xytext=(-8, -6),
                            textcoords="offset points", ha="right", va="top",
                            fontsize=MIN_TEXT_POINTS, color=INK)
            else:
                ax.annotate(point.label, (point.x, point.y), xytext=(22, -22),
                            textcoords="offset points", ha="left", va="top",
                            fontsize=MIN_TEXT_POINTS, color=INK, arrowprops=_LEADER)
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(FuncFormatter(lambda v, _: tick_format(v)))
            axis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.legend(loc="lower right")
        return to_svg(fig, name=name, title=title, locale=locale)
