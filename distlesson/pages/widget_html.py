"""The HTML every interactive widget is made of: its labelled ``<select>`` controls, its
``<output>`` fields, the legend swatches, the embedded JSON its script reads and the frame
around them. ``docs/assets/widget-core.js`` reads what these write; one widget per page,
so the ids of a widget's controls start with ``dl-`` and its name."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping
from typing import Any

from distlesson.render.bidi import RTL_LOCALES, isolate  # noqa: F401 (re-exported)
from distlesson.render.palette import SCHEDULE_PHASES, Swatch, lighter


def widget_id(name: str) -> str:
    """The id of widget ``name``: its controls' ids start with it."""
    return f"dl-{name}"


def data_json(data: dict[str, Any]) -> str:
    """Compact JSON that cannot close the script element it sits in."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("</", "<\\/")


def data_script(data: dict[str, Any]) -> str:
    """The script element that carries the widget's data."""
    return f'<script type="application/json" class="dl-widget-data">{data_json(data)}</script>'


def select(widget: str, name: str, label: str, options: list[tuple[str, str]],
           selected: str) -> str:
    """A labelled ``<select data-in=name>`` of (value, text) options."""
    items = "".join(
        f'<option value="{html.escape(value)}"{" selected" if value == selected else ""}>'
        f"{html.escape(text)}</option>" for value, text in options)
    wid = widget_id(widget)
    return (f'<div class="dl-widget-field"><label for="{wid}-{name}">{html.escape(label)}'
            f'</label><select id="{wid}-{name}" data-in="{name}">{items}</select></div>')


def output(widget: str, inputs: Iterable[str], name: str, label: str, value: str,
           extra: str = "") -> str:
    """A labelled ``<output data-out=name>`` that the controls ``inputs`` change."""
    wid = widget_id(widget)
    fed_by = " ".join(f"{wid}-{control}" for control in inputs)
    return (f'<div class="dl-widget-output"><dt>{html.escape(label)}</dt><dd>'
            f'<output data-out="{name}" for="{fed_by}"{extra}>'
            f"{html.escape(value)}</output></dd></div>")


def swatch_legend(items: Iterable[tuple[str, str, str]]) -> str:
    """Legend entries ``<li data-legend=key>`` from (key, colour, text)."""
    return "".join(
        f'<li data-legend="{key}"><span class="dl-swatch" style="background:{colour}" '
        f'aria-hidden="true"></span>{html.escape(text)}</li>' for key, colour, text in items)


def palette_words(palette: Mapping[str, Swatch], keys: Iterable[str]) -> dict[str, list[str]]:
    """The fills and inks of ``keys`` for a widget's data: the script colours the parts with
    the palette the static plots use (:mod:`distlesson.render.palette`), never its own."""
    swatches = [palette[key] for key in keys]
    return {"colours": [s.fill for s in swatches], "inks": [s.ink for s in swatches]}


def phase_words() -> dict[str, dict[str, str]]:
    """The colours of the timeline's operations (F, B, W): fill, fill of later chunks, ink."""
    return {"fill": {k: s.fill for k, s in SCHEDULE_PHASES.items()},
            "light": {k: lighter(s.fill) for k, s in SCHEDULE_PHASES.items()},
            "ink": {k: s.ink for k, s in SCHEDULE_PHASES.items()}}


def bar_svg(label: str) -> str:
    """The empty SVG that the script draws a stacked bar in."""
    return (f'<div class="dl-widget-scroll">'
            f'<svg data-out="bar" class="dl-widget-timeline" direction="ltr" role="img" '
            f'aria-label="{html.escape(label)}" '
            f'xmlns="http://www.w3.org/2000/svg"></svg></div>')


def timeline_svg(label: str) -> str:
    """The empty SVG that widget-core.js draws a pipeline's timeline in."""
    return (f'<div class="dl-widget-scroll">'
            f'<svg data-out="timeline" class="dl-widget-timeline" direction="ltr" role="img" '
            f'aria-label="{html.escape(label)}" '
            f'xmlns="http://www.w3.org/2000/svg"></svg></div>')


def timeline_legend(kinds: dict[str, str]) -> str:
    """The timeline's legend: one swatch per kind of operation (F, B, W) and the idle one."""
    def swatch(kind: str) -> str:  # the idle swatch is hatched in CSS, the others coloured
        fill = SCHEDULE_PHASES.get(kind)
        return f' style="background:{fill.fill}"' if fill else ""

    items = "".join(
        f'<li data-legend="{kind}"><span class="dl-swatch" data-kind="{kind}"{swatch(kind)} '
        f'aria-hidden="true"></span>{html.escape(text)}</li>' for kind, text in kinds.items())
    return f'<ul class="dl-widget-legend">{items}</ul>'


MESSAGE = '<p class="dl-widget-message" data-out="message" role="status" hidden></p>'
"""Where the script shows why the library refused a setting."""


def widget(name: str, locale: str, label: str, controls: str, outputs: str, body: str,
           data: dict[str, Any]) -> str:
    """The whole widget: its frame, controls, outputs, the rest of its body, its data."""
    return (
        f'<div class="dl-widget" data-widget="{name}" data-locale="{locale}" '
        f'id="{widget_id(name)}" role="group" aria-label="{html.escape(label)}">'
        f'<div class="dl-widget-controls">{controls}</div>'
        f'<dl class="dl-widget-outputs" aria-live="polite">{outputs}</dl>'
        f"{body}{data_script(data)}</div>"
    )
