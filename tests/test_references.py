"""The bibliography: keys unique, citations formatted per locale."""

from distlesson.catalog.references import REFERENCES, figures


def test_keys_are_unique_and_every_form_is_a_figure():
    keys = [ref.key for ref in REFERENCES]
    assert len(keys) == len(set(keys))
    names = {figure.name for figure in figures()}
    for key in keys:
        assert {f"cite.{key}", f"citep.{key}", f"ref.{key}"} <= names


def test_citation_forms():
    zero = next(ref for ref in REFERENCES if ref.key == "zero")
    texts = {figure.name: figure for figure in figures()}
    assert texts["cite.zero"].render("en") == "Rajbhandari et al. (2020)"
    assert texts["citep.zero"].render("ca") == "Rajbhandari et al., 2020"
    assert texts["citep.zero"].render("fa") == "Rajbhandari و همکاران، ۲۰۲۰"
    assert zero.url in texts["ref.zero"].render("en")


def test_two_papers_never_share_a_citation():
    # Narayanan et al. wrote PipeDream-Flush (ICML 2021) and Megatron-LM's interleaved
    # schedule (SC21): "2021a" and "2021b", in every language
    texts = {figure.name: figure for figure in figures()}
    for locale in ("en", "ca", "fa"):
        shown = [texts[f"cite.{ref.key}"].render(locale) for ref in REFERENCES]
        assert len(shown) == len(set(shown)), locale
    assert texts["citep.pipedream_flush"].render("en") == "Narayanan et al., 2021a"
    assert texts["cite.narayanan"].render("ca") == "Narayanan et al. (2021b)"
    assert texts["citep.narayanan"].render("fa") == "Narayanan و همکاران، ۲۰۲۱ب"
    assert texts["cite.pipedream_flush"].render("fa") == "Narayanan و همکاران (۲۰۲۱الف)"


def test_a_paper_by_two_authors_names_both():
    # Patarasuk and Yuan (2009), Loshchilov and Hutter (2019), Shazeer and Stern (2018),
    # Milakov and Gimelshein (2018): two authors each, so no "et al." / «و همکاران»
    texts = {figure.name: figure for figure in figures()}
    assert texts["cite.ring_allreduce"].render("fa") == "Patarasuk و Yuan (۲۰۰۹)"
    assert texts["cite.adamw"].render("en") == "Loshchilov and Hutter (2019)"
    assert texts["citep.adafactor"].render("ca") == "Shazeer i Stern, 2018"
    assert texts["cite.online_softmax"].render("fa") == "Milakov و Gimelshein (۲۰۱۸)"


def test_a_venue_that_describes_the_source_reads_in_catalan():
    """The Catalan review found «PyTorch documentation» on the Catalan reading list: a venue
    that describes a source is translated; English and Persian keep it, and so does a name."""
    entries = {reference.key: reference.entry() for reference in REFERENCES}
    assert entries["fsdp2"]["ca"].endswith(". Documentació de PyTorch.")
    assert entries["fsdp2"]["en"].endswith(". PyTorch documentation.")
    assert entries["fsdp2"]["fa"].endswith(". PyTorch documentation.")
    assert entries["pipedream"]["ca"].endswith(". SOSP 2019.")


def test_two_authors_are_not_several():
    import pytest

    from distlesson.catalog.references import Reference
    with pytest.raises(ValueError, match="two authors"):
        Reference("x", "A", True, "T", "V", 2000, "u", second="B")


def test_a_team_that_signs_with_a_comma_takes_the_persian_comma_in_persian():
    """Meta's Llama 3 report is signed «Llama Team, AI @ Meta»: a Persian citation of it shows
    no Latin comma, the other languages keep the signature as it is."""
    texts = {figure.name: figure for figure in figures()}
    assert texts["citep.llama3"].render("fa") == "Llama Team، AI @ Meta، ۲۰۲۴"
    assert texts["citep.llama3"].render("en") == "Llama Team, AI @ Meta, 2024"
