"""The lab's listings on the Catalan and Persian pages: the same code, every comment and
docstring in the page's language (no English left), no translation left unused."""

import ast
import re
from pathlib import Path

import pytest

from distlesson.pages import engine_lab
from distlesson.pages.engine_listings import COMMENTS, listing_texts, localise_listing

DOCS = Path(__file__).resolve().parent.parent / "docs"
_CALL = re.compile(r'engine_lab\.excerpt\("([a-z_.]+)", locale="([a-z]+)"\)')


def _shown() -> dict[str, set[tuple[str, str]]]:
    """locale -> the (function, locale asked) of every listing its lab page prints."""
    return {locale: set(_CALL.findall((DOCS / f"lab-engine.{locale}.md").read_text("utf-8")))
            for locale in ("en", "ca", "fa")}


def _english(qualified: str) -> str:
    return engine_lab.excerpt(qualified).removeprefix("```python\n").removesuffix("\n```")


def test_each_page_asks_for_its_own_language():
    shown = _shown()
    functions = {name for name, _ in shown["en"]}
    assert len(functions) == 3  # DDP's hook, the tensor-parallel pass, the pipeline recorder
    for locale in ("en", "ca", "fa"):
        assert shown[locale] == {(name, locale) for name in functions}


@pytest.mark.parametrize("locale", ["ca", "fa"])
def test_every_comment_is_translated_and_the_code_is_unchanged(locale):
    for name, _ in _shown()["en"]:
        english = _english(name)
        local = engine_lab.excerpt(name, locale).removeprefix("```python\n").removesuffix(
            "\n```")
        for text in listing_texts(english):
            assert text in COMMENTS and COMMENTS[text][locale], (name, text)
            assert text not in " ".join(local.split()), (name, text)  # no English left
        # the code is the same: equal syntax trees once docstrings are set aside
        assert _code(local) == _code(english), name
        assert local.count("\n") >= english.count("\n")  # no line of code lost


def _code(source: str) -> str:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and ast.get_docstring(node) is not None:
            node.body = node.body[1:]
    return ast.dump(tree)


def test_no_translation_is_left_unused():
    used = {text for name, _ in _shown()["en"] for text in listing_texts(_english(name))}
    assert set(COMMENTS) == used


def test_shape_comments_and_pragmas():
    source = ('def f(x):\n    """Double it."""\n    y = 2 * x  # (N, h)\n'
              '    return y  # type: ignore[return-value]\n')
    assert listing_texts(source) == ["Double it."]  # a shape reads the same everywhere
    assert "type: ignore" not in localise_listing(source, "en")
    with pytest.raises(ValueError, match=r"'Double it\.' has no ca text"):
        localise_listing(source, "ca")


def test_persian_comments_read_right_to_left_inside_the_code():
    """Each Persian line sits in a right-to-left isolate (U+2067 ... U+2069), so that its
    words keep their order between the code's left-to-right tokens."""
    for name, _ in _shown()["fa"]:
        for line in engine_lab.excerpt(name, "fa").splitlines():
            persian = re.search(r"[\u0600-\u06ff]", line)
            if persian:
                start, end = line.index("\u2067"), line.index("\u2069")
                assert start < persian.start() < end, (name, line)
        assert "\u2067" not in engine_lab.excerpt(name, "ca")  # only where it is needed
