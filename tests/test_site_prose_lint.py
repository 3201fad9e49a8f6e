"""No number is typed into prose, in any script; the lint itself catches planted numbers."""

import pytest

from distlesson.site.prose_lint import typed_numbers
from tests.pages import all_page_files


@pytest.mark.parametrize("path", all_page_files(), ids=lambda p: p.name)
def test_no_typed_number_in_prose(path):
    found = typed_numbers(path.read_text(encoding="utf-8"))
    assert not found, f"docs/{path.name}:\n" + "\n".join(str(t) for t in found)


@pytest.mark.parametrize(
    ("planted", "digits"),
    [
        ("A model of 70 billion parameters.", "70"),
        ("Un model de 1.120 GB.", "1"),  # Catalan separators split it; the first run counts
        ("مدل ۷۰ میلیارد پارامتری.", "۷۰"),  # Persian digits
        ("حدود ٦٤ گیگابایت", "٦٤"),  # Arabic-Indic digits
        ("It saves 25%, not 50%.", "25"),
        ("A bubble of 3/11.", "3"),
        ("An H100s' 80 GB.", "80"),  # a name next to a number does not hide it
    ],
)
def test_lint_catches_a_planted_number(planted, digits):
    found = typed_numbers(f"# Title\n\nSome prose.\n{planted}\n")
    assert found, f"the lint missed a number in {planted!r}"
    assert found[0].text == digits
    assert found[0].line == 4


@pytest.mark.parametrize(
    "allowed",
    [
        "Weights in bf16, master in fp32, fp8 e4m3 and e5m2.",
        "ZeRO-3 on H100 and A100 GPUs; MI300X too.",
        "The 1F1B schedule and ZB-H1; GPT-2 and Llama 3 70B; Llama 3.1.",
        "Figures {{ fit.states_70b }} come from the library.",
        "Code like `x = 16` and [a link](https://arxiv.org/abs/1910.02054).",
        "```python\nx = 3\n```",
        '<span data-value="3">a tag</span> and <!-- a comment 12 -->',
        "3D parallelism, 8-bit Adam, NVLink 4.",
    ],
)
def test_lint_allows_names_code_and_placeholders(allowed):
    assert typed_numbers(allowed) == []
