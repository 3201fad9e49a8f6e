"""The hardware chapter: its figures derived by hand, its tables and plot in each locale."""

import pytest

from distlesson.catalog.hardware import GPUS
from distlesson.catalog.interconnects import INTERCONNECTS
from distlesson.pages import hardware
from distlesson.pages.hardware_labels import LABELS, POINT_NAMES

H = 8192
LOCALES = ("en", "ca", "fa")


def value(name):
    return {f.name: f for f in hardware.figures()}[name].value


@pytest.mark.parametrize(("name", "expected"), [
    ("hw.ridge_h100", 989e12 / 3.35e12),  # 295.2 FLOP/byte
    ("hw.ridge_a100_80gb", 312e12 / 2.039e12),  # 153.0
    ("hw.ridge_b200", 2.25e15 / 8e12),  # 281.25: below the H100's
    ("hw.decode_b1_intensity", H / (H + 2)),  # 2h^2 / (2h^2 + 2h + 2h)
    ("hw.decode_b1_share", H / (H + 2) * 3.35e12 / 989e12),  # 0.34 %
    ("hw.decode_b1_below_ridge", 989e12 / 3.35e12 / (H / (H + 2))),  # 295.3
    ("hw.decode_b64_intensity", 64 * H / (H + 128)),  # 63.0
    ("hw.training_intensity", 4 * H / 9),  # 8192 tokens, h -> 4h: 3,640.9
    ("hw.training_share", 1),
    ("hw.batch_at_ridge", 319),  # R h / (h - 2R) = 318.2, rounded up
    ("hw.memory_min", 80e9),
    ("hw.memory_max", 192e9),  # MI300X
    ("hw.hbm_max", 8e12),  # B200
    ("hw.link_nvlink4_time", 1e9 / 450e9),  # 2.22 ms for one GB
    ("hw.link_ib_ndr_time", 1e9 / 50e9),  # 20 ms
])
def test_figures_by_hand(name, expected):
    assert value(name) == pytest.approx(expected, rel=1e-12)


def test_figure_names_are_unique_and_in_the_chapter():
    names = [f.name for f in hardware.figures()]
    assert len(names) == len(set(names))
    assert all(name.startswith("hw.") for name in names)
    for figure in hardware.figures():
        for locale in LOCALES:
            assert figure.render(locale)


def test_decode_is_one_flop_per_byte_in_print():
    # the Catalan chapter's "1,0 FLOP/byte", "0,34 %" and "3.641 FLOP/byte"
    figures = {f.name: f for f in hardware.figures()}
    assert figures["hw.decode_b1_intensity"].render("ca") == "1,0"
    assert figures["hw.decode_b1_share"].render("ca") == "0,34\u00a0%"
    assert figures["hw.training_intensity"].render("ca") == "3.641"
    assert figures["hw.ridge_h100"].render("fa") == "۲۹۵٫۲"


@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_table(locale):
    lines = hardware.catalog_table(locale).splitlines()
    assert len(lines) == 2 + len(GPUS)
    assert LABELS["ridge"][locale] in lines[0]
    a100 = next(line for line in lines if "A100" in line)
    assert LABELS["no_fp8"][locale] in a100  # Ampere has no fp8
    b200 = next(line for line in lines if "B200" in line)
    assert {"en": "2,250", "ca": "2.250", "fa": "۲٬۲۵۰"}[locale] in b200
    assert "NVLink 5" in b200


@pytest.mark.parametrize("locale", LOCALES)
def test_points_table(locale):
    lines = hardware.points_table(locale).splitlines()
    assert len(lines) == 2 + 4  # decode at 1 and 64, training, decode at the ridge
    share = {"en": "0.34%", "ca": "0,34\u00a0%", "fa": "۰٫۳۴٪"}[locale]
    assert share in lines[2]
    batch = {"en": "319", "ca": "319", "fa": "۳۱۹"}[locale]
    assert batch in lines[5]
    assert LABELS["compute_bound"][locale] in lines[4]


@pytest.mark.parametrize("locale", LOCALES)
def test_links_table(locale):
    lines = hardware.links_table(locale).splitlines()
    assert len(lines) == 2 + len(INTERCONNECTS)
    assert "NVLink 5" in lines[2]  # fastest first
    ib = next(line for line in lines if "InfiniBand" in line)
    assert {"en": "20.00", "ca": "20,00", "fa": "۲۰٫۰۰"}[locale] in ib


@pytest.mark.parametrize("locale", LOCALES)
def test_plot_carries_its_labels(locale):
    svg = hardware.roofline_plot(locale)
    assert svg.startswith("<svg") and "currentColor" in svg
    for key in ("xlabel", "ylabel"):
        assert LABELS[key][locale] in svg
    assert f'aria-label="{LABELS["title"][locale]}"' in svg
    one = {"en": "1", "ca": "1", "fa": "۱"}[locale]
    assert POINT_NAMES["decode"][locale].format(b=one) in svg
    comma = "، " if locale == "fa" else ", "  # the Persian comma in a Persian legend
    assert f"H100 SXM{comma}H800 SXM" in svg  # one roof, two GPUs
    for gpu in GPUS.values():
        assert gpu.display_name in svg
    ridge = {"en": "295", "ca": "295", "fa": "۲۹۵"}[locale]
    assert LABELS["corner"][locale].format(gpu="H100 SXM", la_gpu="l'H100 SXM", x=ridge) in svg
