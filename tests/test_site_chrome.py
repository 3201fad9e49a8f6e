"""The chrome's pieces without a build: interface strings per language, Unicode heading ids
for the labs, one search index and sitemap per language, a 404 page per language."""

import json
from types import SimpleNamespace

from distlesson.site.chrome import localise_chrome, split_search_index, write_404_pages
from distlesson.site.lab_headings import unicode_heading_ids


def test_interface_strings_follow_the_page_language():
    html = '<a class="headerlink" href="#x" title="Permanent link">¶</a>'
    assert 'title="پیوند ثابت"' in localise_chrome(html, "fa")
    assert 'title="Enllaç permanent"' in localise_chrome(html, "ca")
    assert localise_chrome(html, "en") == html


def test_the_persian_theme_strings_follow_the_site():
    # Material's Persian search box and its config JSON (escaped by Jinja's tojson)
    html = ('<input aria-label="جستجو" placeholder="جستجو">'
            + '"search.result.one": ' + json.dumps("1 سند یافت شد") + ', '
            + '"clipboard.copy": ' + json.dumps("کپی کردن"))
    out = localise_chrome(html, "fa")
    assert 'aria-label="جست‌وجو"' in out and "جستجو" not in out
    assert json.loads(out.split('"search.result.one": ')[1].split(",")[0]) == "۱ سند یافت شد"
    assert json.loads(out.split('"clipboard.copy": ')[1]) == "رونوشت در حافظهٔ موقت"


def _link(title, children=()):
    return SimpleNamespace(id="_1", title=title, children=list(children))


def test_persian_headings_get_ids_that_the_toc_links_to():
    html = ('<h1 id="">آزمایشگاه<a class="anchor-link" href="#">¶</a></h1>'
            '<h2 id="">بایت‌های یک مقدار<a class="anchor-link" href="#">¶</a></h2>'
            '<h2 id="zero">ZeRO<a class="anchor-link" href="#zero">¶</a></h2>'
            '<h2 id="zero">ZeRO<a class="anchor-link" href="#zero">¶</a></h2>')
    toc = [_link("بایت‌های یک مقدار"), _link("ZeRO"), _link("ZeRO")]  # the h1 left out
    out = unicode_heading_ids(html, toc)
    assert 'id=""' not in out and 'href="#"' not in out
    assert '<h2 id="بایتهای-یک-مقدار">' in out  # Persian letters kept
    assert 'id="zero"' in out and 'id="zero_1"' in out  # duplicates made unique
    assert [link.id for link in toc] == ["بایتهای-یک-مقدار", "zero", "zero_1"]


def test_each_language_gets_its_own_search_index_and_sitemap(tmp_path):
    (tmp_path / "search").mkdir()
    docs = [{"location": loc, "title": loc, "text": ""}
            for loc in ("", "pipeline/", "ca/", "ca/pipeline/", "fa/pipeline/#x")]
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(
        {"config": {"lang": ["en"], "pipeline": ["stopWordFilter"]}, "docs": docs}))
    urls = "".join(f"<url><loc>http://h/{p}</loc></url>" for p in ("", "ca/", "fa/x/"))
    (tmp_path / "sitemap.xml").write_text(f"<?xml?>\n<urlset>{urls}</urlset>")
    counts = split_search_index(tmp_path, ["en", "ca", "fa"], "en")
    assert counts == {"en": 2, "ca": 2, "fa": 1}
    fa = json.loads((tmp_path / "fa" / "search" / "search_index.json").read_text())
    assert [d["location"] for d in fa["docs"]] == ["pipeline/#x"]  # relative to /fa/
    assert fa["config"]["pipeline"] == []  # no English stop words on Persian text
    assert "ca/" not in (tmp_path / "fa" / "sitemap.xml").read_text()
    assert "http://h/ca/" in (tmp_path / "ca" / "sitemap.xml").read_text()


def test_the_search_indexes_hold_formulas_as_plain_text(tmp_path):
    (tmp_path / "search").mkdir()
    docs = [{"location": "ca/p/", "title": r"La bombolla \(\frac{p-1}{m}\)",
             "text": r"és \(\frac{p-1}{m}\) del pas"}]
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(
        {"config": {"lang": ["en"], "pipeline": []}, "docs": docs}))
    split_search_index(tmp_path, ["en", "ca"], "en")
    ca = json.loads((tmp_path / "ca" / "search" / "search_index.json").read_text())
    assert ca["docs"][0]["title"] == "La bombolla (p-1)/m"
    assert ca["docs"][0]["text"] == "és (p-1)/m del pas"


def test_the_root_404_page_is_the_default_language(tmp_path):
    (tmp_path / "404.html").write_text("fa, written last")
    write_404_pages(tmp_path, {"en": "en", "ca": "ca", "fa": "fa"}, "en")
    assert (tmp_path / "404.html").read_text() == "en"
    assert (tmp_path / "fa" / "404.html").read_text() == "fa"
