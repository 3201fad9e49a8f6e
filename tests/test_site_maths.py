"""Formulas are mathematics, not code: written as ``$...$`` (pymdownx.arithmatex) and
typeset by the KaTeX shipped with the site; the prose lint lets a formula keep the constants
of its equation and still catches a result typed after ``=``."""

import re

import pytest

from distlesson.site.markdown_scan import Prose, inline_code_spans, split_blocks
from distlesson.site.prose_lint import MATHS, typed_numbers
from tests.pages import ROOT, all_page_files

# an operator between operands inside inline code: a formula set as code
_FORMULA_AS_CODE = re.compile(r"[\w)] ?[−×/+<>√] ?[\w(√]|\w \(")


@pytest.mark.parametrize("path", all_page_files(), ids=lambda p: p.name)
def test_no_formula_is_written_as_inline_code(path):
    spans = [block.text[s:e] for block in split_blocks(path.read_text(encoding="utf-8"))
             if isinstance(block, Prose) for s, e in inline_code_spans(block.text)]
    formulas = [span for span in spans if _FORMULA_AS_CODE.search(span.strip("`"))
                and "(" not in span.strip("`")[-2:]  # a call such as no_sync() is code
                and "{{" not in span]
    assert not formulas, f"docs/{path.name}: formulas as code: {formulas}"


def test_the_chapters_carry_formulas_in_every_language():
    counts = {locale: sum(len(MATHS.findall(p.read_text(encoding="utf-8")))
                          for p in all_page_files() if p.name.endswith(f".{locale}.md"))
              for locale in ("en", "ca", "fa")}
    assert min(counts.values()) >= 30, counts
    assert max(counts.values()) - min(counts.values()) <= 3, counts  # the same formulas


@pytest.mark.parametrize("formula", [r"$2\,(n-1)$", r"$s\,b\,h\,(34 + 5\,a\,s/h)$",
                                     r"$\frac{p-1}{m+p-1} < \frac{1}{10}$", r"$2^{-9}$"])
def test_a_formula_keeps_its_constants(formula):
    assert typed_numbers(f"Prose with {formula} in it.\n") == []


@pytest.mark.parametrize(("formula", "digits"), [(r"$b = 0.27$", "0.27"),
                                                 (r"$t \approx 12$", "12"),
                                                 ("$b=۰٫۲۷$", "۰٫۲۷")])
def test_a_result_typed_into_a_formula_is_caught(formula, digits):
    found = typed_numbers(f"# Title\n\nThe bubble {formula} here.\n")
    assert [t.text for t in found] == [digits]
    assert found[0].line == 3


def test_katex_and_vazirmatn_ship_with_their_licences():
    vendor = ROOT / "docs" / "assets" / "vendor"
    assert "MIT" in (vendor / "katex" / "LICENSE.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE" in (vendor / "vazirmatn" / "OFL.txt").read_text(
        encoding="utf-8").upper()
    css = (vendor / "katex" / "katex.min.css").read_text(encoding="utf-8")
    fonts = set(re.findall(r"url\((fonts/[^)]+)\)", css))
    assert fonts and all((vendor / "katex" / f).exists() for f in fonts)
