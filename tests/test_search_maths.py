"""Formulas in the search index read as plain text (distlesson.site.search_maths)."""

from __future__ import annotations

import pytest

from distlesson.site.search_maths import plain_maths


@pytest.mark.parametrize(("latex", "plain"), [
    # the communication chapter's alpha-beta formula, macro by macro, its subscript as T₀
    (r"as \(T = T_0 + \text{steps} \times \alpha + \text{bus bytes} / \beta\): α",
     "as T = T₀ + steps × α + bus bytes / β: α"),
    (r"\(x_{12}\) and \(y_10\)", "x_12 and y_10"),  # only a single digit has a sign
    # the pipeline chapter's bubble: a fraction of sums takes parentheses, of numbers none
    (r"\(\frac{p-1}{m+p-1} < \frac{1}{10}\)", "(p-1)/(m+p-1) < 1/10"),
    (r"\(m/\sqrt{v}\)", "m/√v"),
    (r"\(\mathit{algbw} = S / T\)", "algbw = S / T"),
    (r"\[ \frac{p-1}{v\,m+p-1} \]", "(p-1)/(v m+p-1)"),  # a thin space is a space
    (r"\(10^{24}\)", "10^24"),
    (r"\(\frac{\sqrt{v}}{m}\)", "(√v)/m"),  # inner group first, then the fraction
    ("no maths: $2.00, C:\\temp", "no maths: $2.00, C:\\temp"),
])
def test_formulas_become_plain_text(latex, plain):
    assert plain_maths(latex) == plain


def test_two_formulas_in_one_text_each_become_text():
    assert plain_maths(r"\(\alpha\) and \(\beta\)") == "α and β"
