"""The labs in the built site: each an HTML page in each language (not a download), run at
build with outputs formatted for its language, its source offered for download, and the
language switcher pointing at the same lab in the other languages.

The expected outputs are derived here from the catalog's inputs (published parameter
counts, a GPU's memory, a model's width) with the formulas written out, and formatted with
the page's locale: they do not call the functions the labs check.
"""

import html as html_lib
import math
import re
from fractions import Fraction
from pathlib import Path
from urllib.parse import urljoin

import pytest

from distlesson.catalog.hardware import get_gpu
from distlesson.catalog.models import get_model
from distlesson.render.numbers import format_number, format_percent, format_quantity
from tests.pages import LOCALES, lab_names, lab_path
from tests.test_site_built import site  # noqa: F401  (the fixture: builds site/ if missing)

LABS = lab_names()


def _page(root: Path, name: str, locale: str) -> Path:
    return root / ("" if locale == "en" else locale) / name / "index.html"


def _article(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[text.index("<article"):text.index("</article>")]


def _output_tables(article: str) -> list[list[str]]:
    """Every row of every table the notebook printed, as the text of its cells."""
    rows = []
    for table in re.findall(r"<table>(.*?)</table>", article, re.DOTALL):
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL):
            cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.DOTALL)
            rows.append([html_lib.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
    return rows


@pytest.mark.parametrize("name", LABS)
@pytest.mark.parametrize("locale", LOCALES)
def test_lab_is_an_html_page_with_outputs(site, name, locale):  # noqa: F811
    path = _page(site, name, locale)
    assert path.exists(), f"no page {path.relative_to(site)}"
    text = path.read_text(encoding="utf-8")
    assert f'<html lang="{locale}"' in text
    assert ('<body dir="rtl"' in text) == (locale == "fa")
    article = _article(path)
    assert 'class="jupyter-wrapper"' in article
    assert article.count("jp-OutputArea-output") >= 3, "the notebook was not executed"
    assert "application/vnd.jupyter.stderr" not in article and "Traceback" not in article
    # the notebook is not also served as a file in place of the page (i18n's static copy)
    stem = name.rsplit("/", 1)[-1]
    prefix = site / ("" if locale == "en" else locale)
    assert not (prefix / f"{name}.py").exists() and not (prefix / f"{name}.{locale}.py").exists()
    assert not (prefix / name.rsplit("/", 1)[0] / f"{stem}.{locale}.py").exists()


@pytest.mark.parametrize("name", LABS)
@pytest.mark.parametrize("locale", LOCALES)
def test_lab_links_resolve(site, name, locale):  # noqa: F811
    path = _page(site, name, locale)
    article = _article(path)
    source = lab_path(name, locale)
    download = re.findall(r'<a href="([^"]+)" download', article)
    assert download == [source.name]
    assert (path.parent / source.name).read_bytes() == source.read_bytes()
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', article)
    assert len(sheets) == 2 and all((path.parent / s).resolve().is_file() for s in sheets)
    for href in re.findall(r'<a href="(\.\.?/[^"#]*)"', article):  # links in markdown cells
        assert (path.parent / href / "index.html").resolve().is_file(), href


@pytest.mark.parametrize("name", LABS)
@pytest.mark.parametrize("locale", LOCALES)
def test_language_switcher_opens_the_same_lab(site, name, locale):  # noqa: F811
    path = _page(site, name, locale)
    text = path.read_text(encoding="utf-8")
    links = dict((lang, href) for href, lang in re.findall(
        r'<a href="([^"]+)" hreflang="([a-z]{2})" class="md-select__link"', text))
    assert sorted(links) == sorted(LOCALES)
    base = "http://site/" + str(path.parent.relative_to(site)) + "/"
    for other, href in links.items():
        target = urljoin(base, href).removeprefix("http://site/").rstrip("/")
        assert site / target / "index.html" == _page(site, name, other), (other, href)


def test_sitemap_lists_each_lab_with_its_languages(site):  # noqa: F811
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    root = min(locs, key=len)  # the home page: site_url
    for name in LABS:
        for locale in LOCALES:
            url = f"{root}{'' if locale == 'en' else locale + '/'}{name}/"
            assert url in locs
            assert f'hreflang="{locale}" href="{url}"' in sitemap


def _gb(value, locale, digits=0):
    return format_quantity(value, "GB", locale, digits=digits)


MIXED_ADAMW = 2 + 2 + 4 + 4 + 4  # bf16 weights and grads; fp32 master copy, m and v
FP32_ADAMW = 4 + 4 + 4 + 4  # fp32 weights, grads, m and v; the weights are the master


@pytest.mark.parametrize("locale", LOCALES)
def test_memory_lab_shows_the_states_of_llama3_70b(site, locale):  # noqa: F811
    rows = _output_tables(_article(_page(site, "labs/memory", locale)))
    model, gpu = get_model("llama3-70b"), get_gpu("h100-sxm")
    params = model.published_params  # read from the released weights, not counted
    states = MIXED_ADAMW * params
    assert [model.display_name, format_quantity(params, "B params", locale, digits=1),
            _gb(states, locale), format_number(math.ceil(states / gpu.memory_bytes), locale)
            ] in rows
    saving = 1 - Fraction(MIXED_ADAMW - 4, FP32_ADAMW)  # without the master copy
    assert any(row[-3:] == [format_number(MIXED_ADAMW - 4, locale),
                            _gb((MIXED_ADAMW - 4) * params, locale),
                            format_percent(float(saving), locale)] for row in rows)


@pytest.mark.parametrize("locale", LOCALES)
def test_data_parallel_lab_shows_the_ring_all_reduce_at_scale(site, locale):  # noqa: F811
    rows = _output_tables(_article(_page(site, "labs/data-parallel", locale)))
    grads = 2 * get_model("llama3-70b").published_params  # bf16 gradients
    ranks = 8
    sent = 2 * (ranks - 1) * grads / ranks
    assert [format_number(ranks, locale), _gb(sent, locale, 1),
            format_number(sent / grads, locale, digits=3)] in rows


@pytest.mark.parametrize("locale", LOCALES)
def test_tensor_parallel_lab_shows_bytes_per_layer(site, locale):  # noqa: F811
    rows = _output_tables(_article(_page(site, "labs/tensor-parallel", locale)))
    model = get_model("llama3-70b")
    tp, seq = 8, 8192
    per_layer = 4 * 2 * (tp - 1) / tp * seq * model.hidden_size * 2  # 4 bf16 all-reduces
    assert [format_number(tp, locale), format_quantity(per_layer, "MB", locale),
            _gb(per_layer * model.num_layers, locale, 1)] in rows


@pytest.mark.parametrize("locale", LOCALES)
def test_pipeline_lab_shows_bubble_and_activations(site, locale):  # noqa: F811
    rows = _output_tables(_article(_page(site, "labs/pipeline", locale)))
    p, m, fwd, bwd = 4, 8, 1, 2
    step = (m + p - 1) * (fwd + bwd)  # fill and drain around the microbatches' work
    idle = step - m * (fwd + bwd)

    def n(x):
        return format_number(x, locale)

    def pct(x):
        return format_percent(float(x), locale, digits=1)

    bubble = pct(Fraction(idle, step))
    assert ["GPipe", n(step), n(idle), bubble, " | ".join([n(m)] * p)] in rows
    assert ["1F1B", n(step), n(idle), bubble, " | ".join(n(p - s) for s in range(p))] in rows
    m = 16
    assert [n(m), pct(Fraction(p - 1, m + p - 1)), pct(Fraction(p - 1, m + p - 1)),
            pct(Fraction(p - 1, m))] in rows
