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
