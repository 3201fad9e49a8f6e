"""One colour per concept, for every drawing of it: static plots and widgets alike.

A term of the MFU breakdown, a kind of pipeline operation or a part of a GPU's memory is
drawn in several places (a matplotlib chart, a diagram, a widget's script). Each place takes
its colours from here, and the widgets receive them in their data, so that the same thing
cannot be blue in one picture and green in the next on the same page.

Colours are the Okabe-Ito palette (Okabe and Ito 2008, "Color Universal Design"), which stays
distinguishable with the common colour-vision deficiencies and is legible on white and on
Material's dark slate. Each swatch names the ink that reads on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "DIMENSIONS",
    "MEMORY_PARTS",
    "MFU_TERMS",
    "OKABE_ITO",
    "SCHEDULE_PHASES",
    "YELLOW",
    "Swatch",
    "colours",
    "lighter",
]

BLUE, ORANGE, GREEN, PINK, SKY, VERMILLION, YELLOW = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
OKABE_ITO = (BLUE, ORANGE, GREEN, PINK, SKY, VERMILLION, YELLOW)
"""The palette, in the order that generic series take it."""



def _luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of ``#RRGGBB``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@dataclass(frozen=True)
class Swatch:
    """The fill of one concept's colour and the text colour written on it."""

    fill: str
    """An Okabe-Ito colour, ``#RRGGBB``."""

    @property
    def ink(self) -> str:
        """Black or white, whichever contrasts more with the fill (WCAG 2.1 ratio)."""
        lum = _luminance(self.fill)
        return "#ffffff" if (1.05) / (lum + 0.05) > (lum + 0.05) / 0.05 else "#000000"


def _swatches(pairs: Mapping[str, str]) -> Mapping[str, Swatch]:
    return MappingProxyType({key: Swatch(fill) for key, fill in pairs.items()})


MFU_TERMS = _swatches({
    "useful": GREEN,  # the part that counts: the "good" colour
    "below_peak": SKY,
    "recompute": YELLOW,
    "bubble": ORANGE,
    "exposed_comm": BLUE,
    "data": PINK,
    "failures": VERMILLION,
})
"""The seven terms of a step's time (:data:`distlesson.efficiency.step_time.TERMS`)."""

SCHEDULE_PHASES = _swatches({"F": BLUE, "B": ORANGE, "W": GREEN})
"""Forward, backward (input gradient) and weight-gradient work in a pipeline schedule."""

MEMORY_PARTS = _swatches({
    "weights": BLUE,
    "grads": ORANGE,
    "master": GREEN,
    "optimizer": PINK,
    "activations": SKY,
    "logits": VERMILLION,
    "overheads": YELLOW,
})
"""What a GPU's memory holds: the model states (:class:`~distlesson.memory` breakdown's
fields), the activations, the output head's logits and the named overheads (CUDA context,
communication buffers, fragmentation)."""

DIMENSIONS = _swatches({"dp": SKY, "tp": BLUE, "pp": VERMILLION, "cp": GREEN, "ep": PINK})
"""The parallelism dimensions, wherever their traffic or their groups are drawn."""


def colours(palette: Mapping[str, Swatch], keys: tuple[str, ...] | list[str]) -> list[str]:
    """The fills of ``keys`` in order; a key the palette lacks is an error, not a default."""
    missing = [key for key in keys if key not in palette]
    if missing:
        raise KeyError(f"no colour for {missing}; the palette has {sorted(palette)}")
    return [palette[key].fill for key in keys]


def lighter(colour: str, white: float = 0.45) -> str:
    """``colour`` mixed with ``white`` (0..1) of white, opaque: later chunks of an
    interleaved schedule, drawn on top of hatching that must not show through."""
    if not 0 <= white <= 1:
        raise ValueError(f"white={white} must be in 0..1")
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * white):02X}" for c in rgb)
