r"""Find numbers typed into prose: every figure must come from the library.

Prose is what is left of a page once fenced code, inline code, placeholders, HTML
comments, link targets, tags and attribute lists are removed. What remains may hold
names that contain digits (fp32, H100, ZeRO-3, 1F1B, GPT-2, Llama 3 70B...), listed below
with the reason each is a name; any other digit, Latin, Persian (۰-۹) or Arabic-Indic
(٠-٩), is a typed number and fails the tests.

A formula (``$...$``, typeset by KaTeX) may hold the constants of its equation: the 2 of
``$2\,(n-1)$``, the 34 of ``$s\,b\,h\,(34 + 5\,a\,s/h)$``. What it may not hold is a
result: a number after ``=`` or ``\approx`` (``$b = 0.27$``) is a computed figure typed into
the page, and is reported like any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from distlesson.site.captions import MARK
from distlesson.site.markdown_scan import Prose, inline_code_spans, split_blocks
from distlesson.site.placeholders import PLACEHOLDER

__all__ = ["ALLOWED_NAMES", "MATHS", "TypedNumber", "typed_numbers"]

# Names, not quantities: each is how the literature spells a thing.
ALLOWED_NAMES: tuple[str, ...] = (
    r"(?:fp|FP|bf|BF|int|INT|float|bfloat|Float)(?:4|8|16|32|64)(?:Array)?",  # number formats
    r"e[45]m[23](?:fn)?",  # fp8 variants: exponent and mantissa bits
    r"(?:GB|[ABHG])(?:100|200|800)(?: SXM| PCIe| NVL(?:72)?| 80GB)?",  # A100, H100, GB200 NVL72
    r"MI300X?",  # AMD GPU
    r"ZeRO-[0-3]",  # the stages of ZeRO
    r"ZB-H[12]",  # zero-bubble schedules
    r"1F1B",  # one-forward-one-backward
    r"GPT-[234]",  # model families
    r"GPT \d+(?:\.\d+)?[BT]",  # the Megatron-LM papers' GPT models, named by their size
    r"Llama 3(?:\.1)?(?: (?:8|70|405)B)?",  # the Llama 3 herd and its sizes
    r"DeepSeek-V[23]",
    r"Mixtral 8x7B",  # Mistral's mixture of experts: eight experts of a 7B-sized model
    r"BLOOM 176B",  # BigScience's model
    r"[345]D",  # 3D, 4D and 5D parallelism
    r"8-bit",  # 8-bit Adam
    r"NVLink(?: [2-5])?",  # NVLink generations
    r"HBM[234]e?",  # high-bandwidth memory generations (H100: HBM3)
    r"PCIe(?: Gen ?[3-6]| [3-6]\.0)?(?: x16)?",  # PCIe generations and the x16 slot
    r"NDR400|HDR200",  # InfiniBand generations
    r"L[12](?= cache)",  # cache levels
    r"LL128",  # NCCL's protocol of 128-byte lines
    r"x86-64",
)
_ALLOWED = re.compile(
    r"(?<![0-9A-Za-z])(?:" + "|".join(ALLOWED_NAMES) + r")s?(?![0-9A-Za-z])")
_DIGIT = re.compile(r"[0-9۰-۹٠-٩]+")
# pymdownx.arithmatex's inline maths: $ then no space ... no space then $ (smart_dollar)
MATHS = re.compile(r"(?<![\\$])\$(?![\s$])(.+?)(?<![\s\\])\$", re.DOTALL)
_RESULT = re.compile(r"(?:=|\\approx|\\simeq|≈)\s*-?\s*([0-9۰-۹٠-٩][0-9۰-۹٠-٩.,٫٬]*)")
_NOT_PROSE = re.compile(
    r"<!--.*?-->"  # HTML comments
    r"|\]\([^)]*\)"  # link targets
    r"|<[^>]*>"  # tags and their attributes
    r"|\{[:#.][^}]*\}"  # attribute lists
    r"|^\s*\[[^\]]+\]:\s*\S+.*$"  # reference-style link definitions
    r"|^\s*(?:[*-]|\d+[.)])?\s*\[\^[^\]]+\]:?"  # footnote markers
    r"|\[\^[^\]]+\]",
    re.DOTALL | re.MULTILINE,
)


@dataclass(frozen=True)
class TypedNumber:
    line: int
    text: str  # the digits found
    context: str  # the line, for the error message

    def __str__(self) -> str:
        return f"line {self.line}: typed number {self.text!r} in: {self.context.strip()}"


def _blank(text: str, start: int, end: int) -> str:
    """Replace a span by spaces, keeping line breaks so line numbers stay right."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def typed_numbers(markdown: str) -> list[TypedNumber]:
    """Every number typed in the prose of ``markdown``, with its line."""
    found: list[TypedNumber] = []
    for block in split_blocks(markdown):
        if not isinstance(block, Prose):
            continue
        text = block.text
        for start, end in reversed(list(inline_code_spans(text))):
            text = _blank(text, start, end)
        lines = block.text.split("\n")
        for maths in reversed(list(MATHS.finditer(text))):
            for result in _RESULT.finditer(maths[1]):
                index = text.count("\n", 0, maths.start())
                found.append(TypedNumber(block.line + index, result[1], lines[index]))
            text = _blank(text, maths.start(), maths.end())
        for pattern in (PLACEHOLDER, MARK, _NOT_PROSE, _ALLOWED):
            for match in reversed(list(pattern.finditer(text))):
                text = _blank(text, match.start(), match.end())
        for match in _DIGIT.finditer(text):
            index = text.count("\n", 0, match.start())
            found.append(TypedNumber(block.line + index, match[0], lines[index]))
    return found
