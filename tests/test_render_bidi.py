"""Persian in plots: mixed labels isolated right to left, negative numbers kept left to right,
and the diagrams' sequences (steps, ranks, GPUs) read from the right on Persian pages."""

import re

import matplotlib.pyplot as plt
import pytest

from distlesson.pages import (
    accuracy,
    checkpointing,
    communication,
    failures,
    fit,
    hardware,
    mfu,
    parallelism,
    pipeline,
)
from distlesson.render.bidi import isolate, isolate_ltr
from distlesson.render.diagrams import (
    data_parallel_diagram,
    layout_3d_diagram,
    ring_allreduce_diagram,
)
from distlesson.render.numbers import format_number, format_percent, format_scientific
from distlesson.render.svg import STYLE, to_svg

LRI, RLI, PDI = "\u2066", "\u2067", "\u2069"
PERSIAN_LETTER = re.compile("[\u0620-\u064a\u067e\u0686\u0698\u06a9\u06af\u06cc]")
TEXT = re.compile(r'<text\b[^>]*\bx="([-0-9.]+)"[^>]*>([^<]*)</text>')

CHARTS = {
    "optimizers": fit.optimizer_plot,
    "strategy memory": parallelism.memory_plot,
    "step bar": mfu.step_bar,
    "roofline": lambda locale: hardware.roofline_plot(locale=locale),
    "log-log": checkpointing.scaling_plot,
    "scatter": accuracy.scatter,
    "gantt": lambda locale: pipeline.gantt("zb-h1", locale),
    # these two drew their Persian labels bare once: to_svg was called without the locale
    "goodput": failures.goodput_plot,
    "bucket timeline": communication.overlap_timeline,
}


def _texts(svg: str) -> list[tuple[float, str]]:
    return [(float(x), text) for x, text in TEXT.findall(svg)]


def test_isolate_wraps_persian_labels_only_on_persian_pages():
    assert isolate("گیگابایت در هر GPU", "fa") == f"{RLI}گیگابایت در هر GPU{PDI}"
    assert isolate("GB per GPU", "fa") == "GB per GPU"  # nothing to reorder
    assert isolate("۱۲۳", "fa") == "۱۲۳"  # digits alone keep their order
    assert isolate("گیگابایت", "en") == "گیگابایت"
    once = isolate("زمان", "fa")
    assert isolate(once, "fa") == once


def test_negative_persian_numbers_keep_the_sign_on_the_left():
    assert format_number(-12.5, "fa", digits=1) == f"{LRI}\u2212۱۲٫۵{PDI}"
    assert format_percent(-0.125, "fa", digits=1) == f"{LRI}\u2212۱۲٫۵٪{PDI}"
    assert format_percent(0.125, "fa", digits=1) == "۱۲٫۵٪"  # positive: nothing added
    assert format_number(-12.5, "en", digits=1) == "\u221212.5"
    assert format_number(-1234, "ca") == "\u22121.234"
    assert isolate_ltr(isolate_ltr("x")) == f"{LRI}x{PDI}"


def test_a_persian_power_of_ten_reads_left_to_right():
    # 1e-5 = 1.0 x 10^-5; in Persian digits ۱٫۰ × ۱۰^−۵, the whole of it isolated left to right
    # (a negative mantissa's own isolate nests inside), English and Catalan as they were
    sup = "<sup>\u2212۵</sup>"
    assert format_scientific(1e-5, "fa") == f"{LRI}۱٫۰\u00a0×\u00a0۱۰{sup}{PDI}"
    assert format_scientific(-1e-5, "fa") == f"{LRI}{LRI}\u2212۱٫۰{PDI}\u00a0×\u00a0۱۰{sup}{PDI}"
    assert format_scientific(1e-5, "en") == "1.0\u00a0×\u00a010<sup>\u22125</sup>"
    assert format_scientific(1e-5, "ca") == "1,0\u00a0×\u00a010<sup>\u22125</sup>"


@pytest.mark.parametrize("chart", CHARTS)
def test_persian_chart_labels_are_isolated(chart):
    texts = [t for _, t in _texts(CHARTS[chart]("fa"))]
    persian = [t for t in texts if PERSIAN_LETTER.search(t)]
    assert persian, f"{chart}: no Persian label drawn"
    bare = [t for t in persian if not (t.startswith(RLI) and t.endswith(PDI))]
    assert not bare, f"{chart}: Persian labels without an isolate: {bare}"
    english = [t for _, t in _texts(CHARTS[chart]("en"))]
    assert not any(RLI in t or LRI in t for t in english)


def test_the_optimizer_chart_reads_as_the_review_asked():
    texts = [t for _, t in _texts(fit.optimizer_plot("fa"))]
    assert f"{RLI}Adam هشت‌بیتی{PDI}" in texts
    assert f"{RLI}SGD با تکانه{PDI}" in texts


def test_a_negative_number_in_a_persian_plot_stays_left_to_right():
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots()
        ax.set_xticks([-1, 0, 1], [format_number(v, "fa") for v in (-1, 0, 1)])
        svg = to_svg(fig, name="neg", title="t", locale="fa")
    assert f"{LRI}\u2212۱{PDI}" in [t for _, t in _texts(svg)]


def _x_of(svg: str, label: str) -> float:
    found = [x for x, text in _texts(svg) if text.strip(RLI + PDI) == label]
    assert len(found) == 1, (label, found)
    return found[0]


def test_ring_steps_and_ranks_read_right_to_left_in_persian():
    en, fa = ring_allreduce_diagram(locale="en"), ring_allreduce_diagram(locale="fa")
    assert _x_of(en, "step 1") < _x_of(en, "step 2") < _x_of(en, "step 3")
    assert _x_of(fa, "گام ۱") > _x_of(fa, "گام ۲") > _x_of(fa, "گام ۳")
    assert _x_of(en, "rank 1: chunk A") < _x_of(en, "rank 4: chunk D")
    assert _x_of(fa, "رنک ۱: تکهٔ الف") > _x_of(fa, "رنک ۴: تکهٔ د")
    assert "رتبه" not in fa  # a process rank is رنک on the site; رتبه is a ranking


def test_data_parallel_gpus_read_right_to_left_in_persian():
    en, fa = data_parallel_diagram(locale="en"), data_parallel_diagram(locale="fa")
    assert _x_of(en, "GPU 1") < _x_of(en, "GPU 4")
    assert _x_of(fa, "GPU ۱") > _x_of(fa, "GPU ۴")


def test_the_3d_layout_snakes_from_the_right_in_persian():
    en, fa = layout_3d_diagram(locale="en"), layout_3d_diagram(locale="fa")
    assert _x_of(en, "stage 1") < _x_of(en, "stage 2")
    assert _x_of(fa, "مرحلهٔ ۱") > _x_of(fa, "مرحلهٔ ۲")
    # the second row runs back: stage 5 is under stage 4 in both
    assert _x_of(en, "stage 5") == pytest.approx(_x_of(en, "stage 4"))
    assert _x_of(fa, "مرحلهٔ ۵") == pytest.approx(_x_of(fa, "مرحلهٔ ۴"))
