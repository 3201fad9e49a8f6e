"""The library's own texts in Catalan and Persian; English is written beside the code.

One module per language, each a plain mapping a translator can edit without reading the
code: ``CLAIMS[claim_id] = {"source": ..., "statement": ..., "why": ...}``. Texts carry no
digits; values appear through the same ``{{ claim.<id>.<figure> }}`` placeholders as the
English text.
"""

from __future__ import annotations

from collections.abc import Mapping

from distlesson.claims.translations import ca, fa

__all__ = ["CLAIM_TEXTS"]

CLAIM_TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {"ca": ca.CLAIMS, "fa": fa.CLAIMS}
