"""The first chapter's further claims: the bytes of an fp32 master weight, and the size of
the Catalan chapter's own small model.

Like :mod:`distlesson.claims.register`, each claim keeps the source's number as a typed input and
computes the same quantity with the library. Assembled into the register there.
"""

from __future__ import annotations

import dataclasses

from distlesson.catalog.models import get_model
from distlesson.claims.claim import Claim, Figure
from distlesson.memory.precision import FP32

__all__ = ["CA_BLOCKS", "fit_claims", "tiny_decoder_params"]

CA_BLOCKS = 4
"""Blocks of the Catalan chapter's checkpointing model: its checkpoints hold
"4 x 128 x 32" scalars, one input of L = 128 tokens of width 32 per block (§3)."""
CA_SECTION_THREE_PARAMS = 53_536  # §3: "Model de 53.536 paràmetres"


def tiny_decoder_params(blocks: int) -> int:
    """Parameters of the course's tiny decoder (the Catalan chapter's architecture: width 32,
    four heads, SwiGLU of 88, a tied vocabulary of 96) with ``blocks`` blocks."""
    return dataclasses.replace(get_model("course-tiny"), num_layers=blocks).num_params


def fit_claims() -> list[Claim]:
    """The claims, in the order of the chapter."""
    return [
        Claim(
            id="fa_master_weight_bytes", source="fa: mixed precision training",
            unit="bytes_per_param", stated=32, computed=lambda: FP32.bytes,
            statement={"en": "The optimizer keeps master weights in FP32, "
                       "{{ claim.fa_master_weight_bytes.stated }} each, for precise "
                       "updates."},
            why={"en": "The number in FP32 counts bits: the format has "
                 "{{ claim.fa_master_weight_bytes.bits }} bits, so a master weight takes "
                 "{{ claim.fa_master_weight_bytes.computed }}, which is what the lesson's own "
                 "memory tables count. A slip of bits for bytes."},
            extras=(Figure("bits", lambda: FP32.bits, "count"),),
        ),
        Claim(
            id="ca_model_size", source="ca §1 (the column counted from the project's arrays)",
            unit="count", stated=28_832, computed=lambda: tiny_decoder_params(CA_BLOCKS),
            statement={"en": "The project's model has {{ claim.ca_model_size.stated }} "
                       "parameters, whose four arrays of eight-byte floats the chapter "
                       "counts."},
            why={"en": "The chapter counts its own model twice. Its section on checkpointing "
                 "says {{ claim.ca_model_size.section_three }}, and the library, counting the "
                 "same decoder with the {{ claim.ca_model_size.blocks }} blocks that section "
                 "uses, finds {{ claim.ca_model_size.computed }}. The first section's figure "
                 "fits no whole number of blocks: with two the library counts "
                 "{{ claim.ca_model_size.two_blocks }}. The two sections do not describe "
                 "the same model, and the chapter does not say so."},
            extras=(
                Figure("section_three", lambda: CA_SECTION_THREE_PARAMS, "count"),
                Figure("blocks", lambda: CA_BLOCKS, "count"),
                Figure("two_blocks", lambda: tiny_decoder_params(2), "count"),
            ),
        ),
    ]
