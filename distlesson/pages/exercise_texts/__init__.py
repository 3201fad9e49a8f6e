"""The exercises' texts, one module per language: a plain mapping a translator can edit
without reading the code. ``TEXTS[exercise_id]`` holds ``title`` and ``question``, and for
each part ``PART_ID`` (the prompt) and ``PART_ID.answer`` (the model answer), in Markdown.
Texts carry no digits: numbers come through ``{{ name }}`` placeholders, the same in every
language (tests/test_pages_exercises_widget.py checks both)."""

from __future__ import annotations

from collections.abc import Mapping

from distlesson.pages.exercise_texts import ca, en, fa

__all__ = ["TEXTS"]

TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "en": en.TEXTS, "ca": ca.TEXTS, "fa": fa.TEXTS}
"""By locale, then exercise id, then key."""
