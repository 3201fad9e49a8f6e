"""Compute and network streams side by side: what overlaps and what the step waits for.

One panel per case, two rows each (the backward's buckets on the compute stream, their
reductions on the network stream), time from left to right in every language. Drawn with
matplotlib through :func:`distlesson.render.svg.to_svg`: text stays text, ink follows the
page's scheme; compute in the first Okabe-Ito colour, network in the second, the exposed
tail hatched. Box ``j`` of panel ``p`` has id ``{name}-p{p}-{stream}{j}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import FuncFormatter, MaxNLocator

from distlesson.efficiency.bucket_overlap import BucketTimeline
from distlesson.render.numbers import check_locale, format_number
from distlesson.render.svg import INK, OKABE_ITO, STYLE, to_svg

__all__ = ["LABEL_KEYS", "streams_svg"]

LABEL_KEYS = ("compute", "network", "time", "exposed")
"""The words a page passes in ``labels``, in its own language."""

_COLOURS = {"compute": OKABE_ITO[0], "network": OKABE_ITO[1]}
_ROWS = {"compute": 1.0, "network": 0.0}
_HEIGHT = 0.6


def streams_svg(panels: Sequence[tuple[str, BucketTimeline]], *, name: str, title: str,
                labels: Mapping[str, str], locale: str, unit: float = 1e-3) -> str:
    """Each (panel title, timeline) as two rows of boxes on a shared time axis, in ``unit``
    seconds (milliseconds by default), the ticks formatted for ``locale``."""
    check_locale(locale)
    missing = [key for key in LABEL_KEYS if key not in labels]
    if missing:
        raise ValueError(f"labels lack {', '.join(missing)}; needed: {', '.join(LABEL_KEYS)}")
    if not panels:
        raise ValueError("panels is empty: draw at least one timeline")
    longest = max(t.end for _, t in panels) / unit
    with matplotlib.rc_context(STYLE):
        fig, axes = plt.subplots(len(panels), 1, figsize=(7.5, 1.35 * len(panels) + 0.6),
                                 sharex=True, squeeze=False)
        for p, (ax, (panel_title, timeline)) in enumerate(zip(axes[:, 0], panels,
                                                              strict=True)):
            counts = {"compute": 0, "network": 0}
            for box in timeline.intervals:
                y = _ROWS[box.stream]
                rect = Rectangle((box.start / unit, y - _HEIGHT / 2),
                                 (box.end - box.start) / unit, _HEIGHT,
                                 facecolor=_COLOURS[box.stream], edgecolor=INK,
                                 linewidth=0.4, alpha=0.85)
                rect.set_gid(f"{name}-p{p}-{box.stream}{counts[box.stream]}")
                counts[box.stream] += 1
                ax.add_patch(rect)
            if timeline.exposed > 0:
                tail = Rectangle((timeline.backward / unit, -0.5), timeline.exposed / unit,
                                 2.0, facecolor="none", edgecolor=INK, hatch="///",
                                 linewidth=0, alpha=0.35)
                tail.set_gid(f"{name}-p{p}-exposed")
                ax.add_patch(tail)
            ax.set_xlim(0, longest * 1.02)
            ax.set_ylim(-0.55, 1.55)
            ax.set_yticks([1.0, 0.0], [labels["compute"], labels["network"]])
            ax.set_title(panel_title, fontsize=10, loc="left")
        bottom = axes[-1, 0]
        bottom.xaxis.set_major_locator(MaxNLocator(nbins=8))
        bottom.xaxis.set_major_formatter(FuncFormatter(
            lambda v, _: format_number(v, locale, digits=0 if v == round(v) else 1)))
        bottom.set_xlabel(labels["time"])
        handles = [Patch(facecolor=_COLOURS[k], edgecolor=INK, label=labels[k])
                   for k in ("compute", "network")]
        handles.append(Patch(facecolor="none", edgecolor=INK, hatch="///",
                             label=labels["exposed"]))
        fig.legend(handles=handles, loc="upper center", ncols=3, frameon=False,
                   bbox_to_anchor=(0.5, 1.0 + 0.12 / len(panels)))
        fig.tight_layout()
        return to_svg(fig, name=name, title=title, locale=locale)
