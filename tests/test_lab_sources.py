"""A lab written once: one source per lab, one notebook per language generated from it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from distlesson.site.lab_sources import (
    LabSourceError,
    check_lab_source,
    render_lab,
    write_labs,
)
from distlesson.site.plugin import DistlessonPlugin
from tests.pages import DOCS, LOCALES, ROOT, lab_names, lab_path

LANGS = ("en", "ca", "fa")
HEAD = "# ---\n# jupyter:\n#   kernelspec:\n#     name: python3\n# ---\n"
SOURCE = HEAD + """
# %% [markdown] lang="en"
# # Title

# %% [markdown] lang="ca"
# # Títol

# %% [markdown] lang="fa"
# # عنوان

# %%
LOCALE = "en"

# %%
def double(x):
    #[en] twice x
    #[ca] el doble de x
    #[fa] دو برابر x
    return 2 * x


#[en] first line
#[en] second line
#[ca] primera línia
#[ca] segona línia
#[fa] خط اول
#[fa] خط دوم
#[en] next comment
#[ca] comentari següent
#[fa] توضیح بعدی
print(double(LOCALE))
"""

# Written by hand from the rules: the cell of the language, its comments untagged, LOCALE set.
EXPECTED_CA = HEAD + """
# %% [markdown]
# # Títol

# %%
LOCALE = "ca"

# %%
def double(x):
    # el doble de x
    return 2 * x


# primera línia
# segona línia
# comentari següent
print(double(LOCALE))
"""


def test_render_keeps_the_language_s_prose_and_comments_only():
    assert render_lab(SOURCE, "ca", LANGS) == EXPECTED_CA


def test_each_language_differs_only_in_prose_comments_and_locale():
    fa = render_lab(SOURCE, "fa", LANGS)
    assert "# عنوان" in fa and "    # دو برابر x" in fa and 'LOCALE = "fa"' in fa
    assert "Títol" not in fa and "#[" not in fa
    code = {lang: [line for line in render_lab(SOURCE, lang, LANGS).splitlines()
                   if line and not line.lstrip().startswith("#") and "LOCALE =" not in line]
            for lang in LANGS}
    assert code["en"] == code["ca"] == code["fa"]


@pytest.mark.parametrize(("change", "message"), [
    (("    #[en] twice x\n", "    # twice x\n"), r"lab:21: .*found '# twice x'"),
    (("    return 2 * x\n", "    return 2 * x  #[en] two\n"), r"lab:24: .*found '#\[en\] two'"),
    (("    #[fa] دو برابر x\n", ""), r"lab:22: .*has \['en', 'ca'\]"),
    (("#[ca] comentari següent\n", ""), r"has \['en', 'fa'\]"),
    (('# %% [markdown] lang="ca"\n# # Títol\n', ""), r"lab:7: .*found \['en', 'fa', None\]"),
    (('LOCALE = "en"\n', "LOCAL = 1\n"), r"exactly one line LOCALE"),
    (('LOCALE = "en"\n', 'LOCALE = "en"\nLOCALE = "ca"\n'), r"exactly one line LOCALE"),
    (("# %%\nLOCALE", "# %% [raw]\nLOCALE"), r"lab:16: a cell header is"),
])
def test_a_broken_source_is_refused_with_its_line(change, message):
    old, new = change
    assert old in SOURCE
    with pytest.raises(LabSourceError, match=message):
        check_lab_source(SOURCE.replace(old, new, 1), LANGS, where="lab")


def test_an_unknown_locale_is_refused():
    with pytest.raises(LabSourceError, match=r"locale='de'; allowed: en, ca, fa"):
        render_lab(SOURCE, "de", LANGS)


def test_write_labs_writes_changed_notebooks_only_and_removes_orphans(tmp_path):
    sources, target = tmp_path / "labs", tmp_path / "docs" / "labs"
    assert write_labs(sources, target, LANGS) == []  # no sources: nothing, not an error
    sources.mkdir()
    (sources / "probe.py").write_text(SOURCE, encoding="utf-8")
    written = write_labs(sources, target, LANGS)
    assert sorted(p.name for p in written) == ["probe.ca.py", "probe.en.py", "probe.fa.py"]
    assert (target / "probe.ca.py").read_text(encoding="utf-8") == EXPECTED_CA
    assert write_labs(sources, target, LANGS) == []  # unchanged: serve sees no new event
    (target / "gone.en.py").write_text("# %%\n", encoding="utf-8")
    write_labs(sources, target, LANGS)
    assert not (target / "gone.en.py").exists()


def test_the_plugin_writes_the_notebooks_before_the_files_are_collected(tmp_path):
    (tmp_path / "labs").mkdir()
    (tmp_path / "labs" / "probe.py").write_text(SOURCE, encoding="utf-8")
    languages = [SimpleNamespace(locale=locale) for locale in LANGS]
    i18n = SimpleNamespace(config=SimpleNamespace(languages=languages))
    config = SimpleNamespace(plugins={"i18n": i18n}, docs_dir=str(tmp_path / "docs"),
                             config_file_path=str(tmp_path / "mkdocs.yml"), nav=[],
                             repo_url=None)
    DistlessonPlugin().on_config(config)
    assert (tmp_path / "docs" / "labs" / "probe.en.py").exists()
    (tmp_path / "labs" / "probe.py").write_text(SOURCE.replace("#[ca] el doble de x\n", ""),
                                               encoding="utf-8")
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match=r"labs/probe\.py:22: "):
        DistlessonPlugin().on_config(config)


@pytest.mark.parametrize("name", lab_names())
def test_every_lab_source_follows_the_rules_and_its_notebooks_are_current(name):
    source = ROOT / f"{name}.py"
    text = source.read_text(encoding="utf-8")
    check_lab_source(text, LOCALES, where=str(source))
    for locale in LOCALES:
        assert lab_path(name, locale).read_text(encoding="utf-8") == render_lab(
            text, locale, LOCALES), f"{lab_path(name, locale)} is stale"


def test_generated_notebooks_are_not_tracked():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8")
    assert "/docs/labs/*.py" in ignored.splitlines()
    assert (DOCS / "labs").is_dir()
