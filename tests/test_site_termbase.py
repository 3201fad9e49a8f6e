"""One term per concept: no Catalan or Persian page, label, SVG text, widget message or
notebook uses a variant the termbase (distlesson/site/termbase.toml) forbids; the glossary
pages' headwords are the termbase's; the check finds a variant planted in each kind of text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from distlesson.site import termbase
from distlesson.site.lab_sources import render_lab
from tests.pages import DOCS, LOCALES, ROOT, nav_labs, nav_pages

SITE = ROOT / "site"
LANGUAGES = termbase.LANGUAGES


def _built(page: str, locale: str) -> str:
    folder = "" if page == "index" else f"{page}/"
    path = SITE / locale / folder / "index.html"
    if not path.exists():
        pytest.skip(f"site/ is not built ({path.relative_to(ROOT)} missing): mkdocs build")
    return path.read_text(encoding="utf-8")


def _report(found: list[termbase.Variant]) -> str:
    return "\n".join(str(v) for v in found[:30])


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("page", nav_pages() + nav_labs())
def test_built_page_uses_no_forbidden_variant(page, locale):
    found = termbase.forbidden_variants(termbase.visible_text(_built(page, locale)), locale)
    assert not found, f"{locale}/{page}:\n{_report(found)}"


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("page", nav_pages() + nav_labs())
def test_site_chrome_shows_no_english_interface_string(page, locale):
    """Around the article: header, navigation, footer (Material's and the site's own)."""
    html = _built(page, locale)
    chrome = html[:html.index("<article")] + html[html.rindex("</article>"):]
    interface = tuple(c for c in termbase.load() if c.id == "interface")
    found = termbase.forbidden_variants(termbase.visible_text(chrome), locale, interface)
    assert not found, f"{locale}/{page}:\n{_report(found)}"


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("lab", sorted(p.stem for p in (ROOT / "labs").glob("*.py")))
def test_notebook_uses_no_forbidden_variant(lab, locale):
    """The notebook readers download: its markdown cells and its code's comments."""
    source = (ROOT / "labs" / f"{lab}.py").read_text(encoding="utf-8")
    notebook = render_lab(source, locale, LOCALES, where=f"labs/{lab}.py")
    found = termbase.forbidden_variants(termbase.notebook_text(notebook), locale)
    assert not found, f"labs/{lab}.py ({locale}):\n{_report(found)}"


def _labels(path: Path) -> dict[str, list[tuple[int, str]]]:
    """The strings a module gives per language: dictionary values under the keys "ca" and
    "fa" (the label dictionaries), and every string of the exercise texts' LOCALE module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, list[tuple[int, str]]] = {lang: [] for lang in LANGUAGES}
    whole = path.parent.name in ("exercise_texts", "translations") and path.stem in LANGUAGES
    keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys}
    for node in ast.walk(tree):
        if (whole and isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in keys):
            found[path.stem].append((node.lineno, node.value))
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value in LANGUAGES
                        and isinstance(value, ast.Constant) and isinstance(value.value, str)):
                    found[key.value].append((value.lineno, value.value))
    return found


_MODULES = sorted(p for p in (ROOT / "distlesson").rglob("*.py"))
_CODE_SPAN = re.compile(r"`[^`]*`|\{\{[^}]*\}\}")  # code, and placeholders


@pytest.mark.parametrize("path", _MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_label_dictionaries_use_no_forbidden_variant(path):
    """Labels reach pages, SVG text and widgets; a label no page shows yet is checked too."""
    bad = []
    for locale, strings in _labels(path).items():
        for line, text in strings:
            for variant in termbase.forbidden_variants(_CODE_SPAN.sub(" ", text), locale):
                bad.append(f"line {line} ({locale}) {variant}")
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad[:30])


# ----------------------------------------------------------------- the glossary


def _glossary_headwords(locale: str) -> list[str]:
    rows = (DOCS / f"glossary.{locale}.md").read_text(encoding="utf-8").splitlines()
    cells = [r.split("|")[1].strip() for r in rows if r.startswith("|")]
    return [c for c in cells[2:] if c]  # after the header and its rule


@pytest.mark.parametrize("locale", LOCALES)
def test_glossary_headwords_are_the_termbase(locale):
    """Each glossary row is a concept of the termbase, with the same words, and each
    concept that names a glossary row has one."""
    expected = [c.glossary[locale] for c in termbase.load() if c.glossary]
    assert sorted(_glossary_headwords(locale)) == sorted(expected)


def test_every_concept_has_its_three_languages_and_a_note():
    concepts = termbase.load()
    assert len({c.id for c in concepts}) == len(concepts)
    for concept in concepts:
        assert concept.en and concept.ca and concept.fa and len(concept.note) > 20, concept.id


# ----------------------------------------------------------------- the check can fail


@pytest.mark.parametrize(("locale", "text", "concept"), [
    ("ca", "<p>Durant la passada endavant es desen les activacions.</p>", "forward"),
    ("ca", "<p>El checkpointing redueix la memòria.</p>", "activation-recomputation"),
    ("ca", "<h2>Prova-ho</h2>", "address"),
    ("ca", "<td>Dels FLOPs: FLOPs del model</td>", "flop"),
    ("ca", "<p>segons comproven els tests</p>", "tests"),
    ("ca", "<p>la memòria de la H100</p>", "gpu-article"),
    ("ca", '<svg><text x="1">Decode (lot: 1)</text></svg>', "decode"),
    ("ca", '<div class="dl-widget" data-words="{&quot;m&quot;: &quot;Assolit en un giny'
           '&quot;}"></div>', "widget"),
    ("ca", '<script type="application/json">{"msg": "el giny del pipeline"}</script>',
     "widget"),
    ("ca", "<p>és a dir 1,03125\u00a0B per valor</p>", "byte"),  # the 2026-12 review
    ("ca", "<td>1.024 B / 512 B</td>", "byte"),
    # the 2026-12 native review: bus bandwidth is not a bus's width
    ("ca", "<h2>L'amplada de bus: llegir nccl-tests</h2>", "bus-bandwidth"),
    ("ca", "<td>Amplada de l'algorisme (algbw)</td>", "bus-bandwidth"),
    ("ca", "<p>Lion guarda un sol momentum en fp32</p>", "momentum"),
    ("ca", "<p>Un model de frontera en fa centenars de milers</p>", "catalan-calques"),
    ("ca", "<p>la primera fila imprimeix 30,1 %; les parts impreses</p>", "catalan-calques"),
    ("ca", "<p>En una instantània de 54 dies del preentrenament</p>", "catalan-calques"),
    ("ca", "<p>desa punts de control la meitat de sovint</p>", "catalan-calques"),
    ("fa", "<p>هر رتبه تکه‌ای را جمع می‌زند</p>", "rank"),
    ("fa", "<p>all-reduce در پیش‌رو</p>", "forward"),
    ("fa", "<td>شدت محاسباتی (FLOP بر بایت)</td>", "arithmetic-intensity"),
    ("fa", "<p>بازمحاسبهٔ گزینشی</p>", "selective-recomputation"),
    ("fa", "<p>هسته‌های تانسوری</p>", "tensor-core"),
    ("fa", "<p>ارتباطات ۴٫۵× بیشتر است</p>", "times"),
    ("fa", "<td>۲٫۰۰ $</td>", "dollar"),
    ("fa", "<td>۴۵۰\u00a0GB/s</td>", "units"),
    ("fa", '<svg><text>TFLOP/s دست‌یافتنی</text></svg>', "units"),
    # the Persian review of 2026-12-02
    ("fa", "<td>زمان (µs)</td>", "units"),
    ("fa", "<p>هر GB یک میلیارد بایت است</p>", "units"),
    ("fa", "<p>بر FLOP/sی که GPUها حفظ می‌کنند</p>", "units"),
    ("fa", "<p>این دو تا حد گردکردن با هم می‌خوانند</p>", "match"),
    ("fa", "<p>چرا یک سطر می‌خواند یا نمی‌خواند</p>", "match"),
    ("fa", "<p>هر دو با کاتالوگ می‌خوانند</p>", "match"),
    ("fa", "<p>مدل کارایی این درس</p>", "course"),
    ("fa", "<button>پاسخم را مقایسه کردم: علامت انجام‌شده بزن</button>", "address"),
    ("fa", "<p>باکت‌های گرادیان</p>", "bucket"),
    ("fa", "<p>توجه با پرسش‌های گروهی</p>", "query"),
    ("fa", "<p>۴۵۰ گیگابایت بر ثانیه یک‌جهتهٔ NVLink</p>", "one-way"),
    ("fa", "<p>با هسته‌های ادغام‌شده</p>", "kernel"),
    ("fa", "<p>موازی‌سازی تنسوری یا خبره‌ها</p>", "expert-parallelism"),
    ("fa", "<p>ورودی خودش را تکثیر می‌کند</p>", "replicate"),
    ("fa", "<p>ردّ اجرای خود شما</p>", "trace"),
    ("fa", "<p>مقیاس‌دهی تابع زیان (loss scaling)</p>", "loss-scaling"),
    ("fa", "<p>فصلی به زبان کاتالانی</p>", "source-chapters"),
    ("fa", "<p>این‌جا</p>", "here"),
    ("fa", "<p>دو all-reduceِ گذر رو به جلو</p>", "latin-ezafe"),
    ("fa", '<svg><text>Korthikanti et al. (A100)</text></svg>', "latin-ezafe"),
    # the native review of the experts, failures and communication chapters
    ("fa", "<h2>گفته‌های منابع، محک‌خورده</h2>", "claims-heading"),
    ("fa", "<p>درخت ممکن است بیش از ظرفیت مشترک باشد</p>", "oversubscription"),
    ("fa", "<td>میان پادها با اشتراک بیش از ظرفیت، ۷ برابر</td>", "oversubscription"),
    ("fa", "<h2>دو رژیم: تأخیر و پهنای باند</h2>", "regime"),
    ("fa", "<p>یک مدل مرزی صدها هزار گام را طی می‌کند</p>", "frontier-model"),
    ("fa", '<svg><text>بازهٔ یانگ</text></svg>', "young-daly"),
    ("fa", "<p>بازهٔ دالی ۲۵۰ ثانیه است</p>", "young-daly"),
    ("fa", "<p>یک زیان را با زیانی دیگر معاوضه می‌کند</p>", "cost"),
    ("fa", "<p>با پاییدن زیان و نُرم گرادیان‌ها</p>", "monitoring"),
])
def test_check_finds_a_planted_variant(locale, text, concept):
    found = termbase.forbidden_variants(termbase.visible_text(f"<article>{text}</article>"),
                                        locale)
    assert concept in {v.concept for v in found}, (text, found)


@pytest.mark.parametrize(("locale", "text"), [
    ("ca", "<p>El forward i el backward; el recàlcul (activation checkpointing).</p>"),
    ("ca", "<p>ZeRO-Offload i la descàrrega (offload) a la CPU; l'H100 i l'A100.</p>"),
    ("ca", "<pre><code>loss.backward()  # the tests</code></pre>"),
    ("ca", '<p>Model FLOPs Utilization; <span class="arithmatex">\\(tests\\)</span></p>'),
    ("ca", "<p>nuclis de CPU; 4,5×; 2,00 $</p>"),
    ("ca", "<p>Llama 3 70B i 8B; 848 bytes; 80 GB; 12 GB/s; 2 MiB; la fase B3</p>"),
    ("ca", "<p>el programa imprimeix la taula; la transferència és instantània</p>"),
    ("ca", "<p>L'amplada de banda de bus (busbw) i l'amplada de banda de l'algorisme; "
           "SGD amb moment; <code>momentum=0.9</code></p>"),
    ("fa", "<p>یک مدل پیشرو (frontier) و رتبهٔ پایین LoRA، رتبه‌بندی چیدمان‌ها</p>"),
    ("fa", "<p>۸ × H100 و ۱ × ۱۰<sup>۳</sup>؛ ۴٫۵ برابر؛ ۲٫۰۰ دلار؛ ۸۰ گیگابایت</p>"),
    ("fa", "<p>۹۸۹ TFLOP بر ثانیه و ۲۹۵ FLOP بر بایت</p>"),
    ("fa", "<p>یک رک GB200 NVL72؛ ۸ MiB؛ کرنل هر بایت را می‌خواند؛ درس فارسی؛ جمع بزنید و"
           " جمع بزند؛ سطل (bucket)؛ کوئری‌های گروهی؛ یک‌سویه؛ تکرارشده (replicated)</p>"),
    ("fa", "<h2>ادعاهای منابع، بررسی‌شده</h2><p>درخت فرااشتراکی؛ مدل‌های پیشرو؛ بازهٔ Young؛"
           " میانگین زمان؛ تابع زیان؛ هزینهٔ توقف؛ پایش زیان؛ دو حالت</p>"),
])
def test_check_leaves_the_chosen_terms_alone(locale, text):
    found = termbase.forbidden_variants(termbase.visible_text(f"<article>{text}</article>"),
                                        locale)
    assert not found, found


def test_notebook_text_reads_markdown_and_comments_not_code():
    source = ('# %% [markdown]\n# Durant la passada endavant...\n\n# %%\n'
              '#[ca] el giny\nx = forward(tests)\n')
    found = {v.concept for v in termbase.forbidden_variants(termbase.notebook_text(source), "ca")}
    assert found == {"forward", "widget"}


def test_a_bad_pattern_is_named():
    with pytest.raises(ValueError, match=r"bad.*not a regular expression"):
        termbase.parse('[[concept]]\nid = "bad"\nen = "a"\nca = "b"\nfa = "c"\n'
                       'note = "a note long enough"\nca_forbidden = ["(unclosed"]\n')
