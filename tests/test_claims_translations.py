"""Every claim reads in the three languages, with the same figures in each."""

import pytest

from distlesson.claims.claim import placeholders
from distlesson.claims.register import CLAIMS
from distlesson.claims.translations import CLAIM_TEXTS
from distlesson.pages.claims_page import claims_table


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
@pytest.mark.parametrize("locale", ["ca", "fa"])
def test_claim_is_translated_with_the_same_figures(claim, locale):
    assert claim.id in CLAIM_TEXTS[locale], f"{claim.id} has no {locale} text"
    for field in ("statement", "why"):
        english = sorted(set(placeholders(getattr(claim, field)["en"])))
        other = sorted(set(placeholders(getattr(claim, field)[locale])))
        assert other == english, f"{claim.id}.{field}[{locale}]"
    assert CLAIM_TEXTS[locale][claim.id]["source"].strip()


def test_no_translation_names_a_claim_that_does_not_exist():
    ids = {claim.id for claim in CLAIMS}
    for locale, texts in CLAIM_TEXTS.items():
        assert set(texts) <= ids, f"{locale}: {sorted(set(texts) - ids)}"


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_register_renders_one_row_per_claim(locale):
    table = claims_table(locale)
    assert len(table.split("\n")) == 2 + len(CLAIMS)
    assert "{{" not in table
