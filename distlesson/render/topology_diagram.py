"""Two servers of a rail-optimised cluster: NVLink inside, one network port per GPU, rails.

Drawn with the diagram kit of :mod:`distlesson.render.diagram_ring` (a frameless canvas in
inches, ink that follows the page's scheme). Each server is an NVLink domain of ``gpus``
GPUs around its NVSwitch; GPU k of every server is cabled to leaf switch k, its *rail*; the
leaves meet at the spine. Every line of text is given by the page, in its language, with
its numbers already formatted: the drawing holds no figure of its own. Rail k's cables
have ids ``{name}-rail{k}-{server}``.
"""

from __future__ import annotations

from collections.abc import Mapping

from distlesson.render.diagram_ring import Canvas, check_count
from distlesson.render.svg import INK, OKABE_ITO

__all__ = ["TOPOLOGY_KEYS", "topology_diagram"]

TOPOLOGY_KEYS = ("spine", "leaf", "server", "gpu", "nvswitch", "nvlink", "port", "note")
"""The words (with numbers already in them) the page passes."""

_W, _H = 7.5, 5.2
_SERVERS = 2


def topology_diagram(gpus: int, *, locale: str, words: Mapping[str, str],
                     name: str, title: str) -> str:
    """The diagram for servers of ``gpus`` GPUs (2 to 8 drawn), as an inline SVG.

    ``words``: each of :data:`TOPOLOGY_KEYS`; ``leaf``, ``server`` and ``gpu`` hold ``{k}``
    (the number, formatted for ``locale``)."""
    check_count("gpus", gpus, 2, 8)
    missing = [k for k in TOPOLOGY_KEYS if k not in words]
    if missing:
        raise ValueError(f"words lack {', '.join(missing)}; needed: {', '.join(TOPOLOGY_KEYS)}")
    c = Canvas.new(_W, _H, locale)
    # spine
    c.box(1.0, 4.35, _W - 2.0, 0.35, fill=OKABE_ITO[3], alpha=0.25)
    c.text(_W / 2, 4.525, words["spine"], size=9)
    # leaves: one per GPU position (rail)
    margin, gap = 0.35, 0.12
    leaf_w = (_W - 2 * margin - (gpus - 1) * gap) / gpus
    leaf_x = [margin + k * (leaf_w + gap) for k in range(gpus)]
    for k, x in enumerate(leaf_x):
        c.box(x, 3.5, leaf_w, 0.32, fill=OKABE_ITO[1], alpha=0.25)
        c.text(x + leaf_w / 2, 3.66, words["leaf"].format(k=c.num(k + 1)), size=7.5)
        c.ax.plot([x + leaf_w / 2, x + leaf_w / 2], [3.82, 4.35], color=INK, linewidth=0.6)
    # servers, side by side, GPUs in a row above their NVSwitch
    server_w = (_W - 2 * margin - 0.3) / _SERVERS
    gpu_w = (server_w - 0.2 - (gpus - 1) * 0.06) / gpus
    for s in range(_SERVERS):
        x0 = margin + s * (server_w + 0.3)
        c.box(x0, 0.95, server_w, 1.45, dashed=True)
        c.text(x0 + server_w / 2, 0.8, words["server"].format(k=c.num(s + 1)), size=8.5)
        c.box(x0 + 0.1, 1.1, server_w - 0.2, 0.3, fill=OKABE_ITO[0], alpha=0.25)
        c.text(x0 + server_w / 2, 1.25, words["nvswitch"], size=8)
        for k in range(gpus):
            gx = x0 + 0.1 + k * (gpu_w + 0.06)
            c.box(gx, 1.7, gpu_w, 0.5, fill=OKABE_ITO[2], alpha=0.3)
            c.text(gx + gpu_w / 2, 1.95, words["gpu"].format(k=c.num(k + 1)), size=6.5)
            c.ax.plot([gx + gpu_w / 2] * 2, [1.4, 1.7], color=OKABE_ITO[0], linewidth=1.6)
            line, = c.ax.plot([gx + gpu_w / 2, leaf_x[k] + leaf_w / 2], [2.2, 3.5],
                              color=OKABE_ITO[1], linewidth=0.7)
            line.set_gid(f"{name}-rail{k + 1}-{s + 1}")
    c.line(0.2, words["port"], size=8.5)
    c.line(0.45, words["nvlink"], size=8.5)
    c.line(5.0, words["note"], size=8.5)
    return c.svg(name=name, title=title)
