"""Every page exists in the three languages, and the three show the same things."""

import pytest

from distlesson.site.parity import page_signature
from tests.pages import LOCALES, nav_pages, page_names, page_path


def test_nav_lists_every_page_once():
    nav = nav_pages()
    assert sorted(nav) == page_names()
    assert len(nav) == len(set(nav))


@pytest.mark.parametrize("name", page_names())
def test_page_exists_in_every_language(name):
    missing = [locale for locale in LOCALES if not page_path(name, locale).exists()]
    assert not missing, f"docs/{name}: no version in {missing}"


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("locale", ["ca", "fa"])
def test_translation_shows_what_english_shows(name, locale):
    english = page_signature(page_path(name, "en").read_text(encoding="utf-8"))
    other = page_signature(page_path(name, locale).read_text(encoding="utf-8"))
    differences = english.differences(other)
    assert not differences, f"docs/{name}.{locale}.md against English: {differences}"


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("locale", LOCALES)
def test_code_blocks_render_in_their_page_language(name, locale):
    signature = page_signature(page_path(name, locale).read_text(encoding="utf-8"))
    assert signature.locales_in_code <= {locale}, (
        f"docs/{name}.{locale}.md asks for locales {sorted(signature.locales_in_code)}")


def _doctest_page(lines: str) -> str:
    return f"# Page\n\n```pycon\n{lines}\n```\n"


def test_doctest_comments_are_the_pages_language_but_the_code_is_shared():
    english = page_signature(_doctest_page(">>> 2 * 3  # six\n6"))
    catalan = page_signature(_doctest_page(">>> 2 * 3  # sis\n6"))
    assert english.differences(catalan) == []
    for changed in (">>> 2 * 4  # sis\n8", ">>> 2 * 3  # sis\n7", ">>> 2 * 3\n6\n>>> 1\n1"):
        assert english.differences(page_signature(_doctest_page(changed))), changed
