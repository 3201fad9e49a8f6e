"""What a page shows, independent of its language: figures, tables and plots, doctests, widgets.

The three versions of a page must show the same things; their prose differs, their
signature does not. An exec block differs between languages only by its ``locale="xx"``
argument and its translated ``tabs`` labels, which are normalised away here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from distlesson.site.captions import MARK
from distlesson.site.markdown_scan import Fence, split_blocks
from distlesson.site.placeholders import placeholders_in

__all__ = ["PageSignature", "exec_blocks", "page_signature"]

_LOCALE_ARG = re.compile(r"""locale\s*=\s*["']([a-z]{2})["']""")
# an inline comment on a doctest's input line: written in the page's language, so it is no
# part of what the page shows in every language (the code and its pinned output are)
_DOCTEST_COMMENT = re.compile(r"^((?:>>>|\.\.\.) .*?)\s{2,}#.*$", re.MULTILINE)
_WIDGET = re.compile(r"""data-widget\s*=\s*["']([^"']+)["']""")
_EXEC = re.compile(r"""\bexec\s*=\s*["']?(on|true|1)\b""")


def exec_blocks(markdown: str) -> list[Fence]:
    """The code blocks that markdown-exec runs at build."""
    return [b for b in split_blocks(markdown) if isinstance(b, Fence) and _EXEC.search(b.info)]


@dataclass(frozen=True)
class PageSignature:
    figures: frozenset[str]
    exec_code: tuple[str, ...]  # the code of each exec block, locale normalised
    doctests: tuple[str, ...]  # each doctest fence, as written but for its inline comments
    widgets: tuple[str, ...]
    captions: tuple[str, ...]  # the captioned figures' names, in page order
    references: frozenset[str]  # the figures the prose refers to
    locales_in_code: frozenset[str]  # the locales that exec blocks ask for

    def differences(self, other: PageSignature) -> list[str]:
        """What ``other`` shows that this page does not, or shows differently."""
        out = []
        for field in ("figures", "exec_code", "doctests", "widgets", "captions", "references"):
            mine, theirs = getattr(self, field), getattr(other, field)
            if mine != theirs:
                if isinstance(mine, frozenset):
                    detail = (f"missing {sorted(mine - theirs)}, extra {sorted(theirs - mine)}")
                else:
                    detail = f"{len(mine)} vs {len(theirs)} (or different content)"
                out.append(f"{field} differ: {detail}")
        return out


def page_signature(markdown: str) -> PageSignature:
    blocks = split_blocks(markdown)
    fences = [b for b in blocks if isinstance(b, Fence)]
    runs = exec_blocks(markdown)
    return PageSignature(
        figures=frozenset(name for name, _ in placeholders_in(markdown)),
        exec_code=tuple(_LOCALE_ARG.sub('locale="xx"', b.body) for b in runs),
        doctests=tuple(_DOCTEST_COMMENT.sub(r"\1", b.body) for b in fences if b.is_doctest),
        widgets=tuple(_WIDGET.findall(markdown)),
        captions=tuple(m[2] for m in MARK.finditer(markdown) if m[1] == "caption"),
        references=frozenset(m[2] for m in MARK.finditer(markdown) if m[1] == "fig"),
        locales_in_code=frozenset(m for b in runs for m in _LOCALE_ARG.findall(b.body)),
    )
