"""The MFU section: the 405B step's seven terms, each derived by hand."""

import math

import pytest

from distlesson.efficiency.step_time import TERMS
from distlesson.pages import mfu as page

N405 = 405_853_388_800
H, F, L, S, V = 16384, 53248, 126, 8192, 128256
TOKENS = 2048 * 8192
GPUS, PEAK = 16384, 989e12
LAYER_WEIGHTS = 2 * H * H + 2 * 1024 * H + 3 * H * F  # q, o; k, v (8 heads of 128); MLP


def figure(name):
    return {f.name: f for f in page.figures()}[name].value


@pytest.fixture(scope="module")
def b():
    return page.llama405_step().breakdown


def test_useful_by_hand(b):
    model_flops = (6 * (L * LAYER_WEIGHTS + V * H) + 12 * L * S * H) * TOKENS
    assert b.useful == pytest.approx(model_flops / GPUS / PEAK, rel=1e-12)
    assert b.recompute == 0  # Llama 3 trained without recomputation
    assert figure("mfu.microbatches") == 16  # 2048 sequences over 128 replicas


def test_the_steady_step_is_the_accuracy_chapters(b):
    """One setup, one number: without its data stall and failures, the chapter's step is
    the accuracy chapter's prediction of Llama 3's 16,384-GPU run."""
    from distlesson.efficiency.accuracy import predict

    steady = predict(page.RUN).estimate.breakdown
    for term in ("useful", "below_peak", "recompute", "bubble", "exposed_comm"):
        assert getattr(b, term) == pytest.approx(getattr(steady, term), rel=1e-12)
    assert figure("mfu.steady_mfu") == pytest.approx(steady.mfu, rel=1e-12)


def test_data_and_failures_by_hand(b):
    assert b.data == 0.2
    mtbf = 54 * 24 * 3600 / 419  # Llama 3: 419 interruptions in 54 days, whole job
    assert figure("mfu.mtbf_hours") == pytest.approx(mtbf / 3600, rel=1e-12)
    # the checkpoint pauses for its bytes over Tectonic's sustained 2 TB/s: weights (2),
    # master (4) and Adam moments (8) of 405,853,388,800 parameters, 5.682 TB: 2.841 s
    write = 14 * 405_853_388_800 / 2e12
    assert figure("mfu.checkpoint_write_s") == pytest.approx(write, rel=1e-12)
    interval = math.sqrt(2 * write * mtbf)  # Young 1974
    overhead = (300 + interval / 2) / mtbf + write / interval
    assert b.failures == pytest.approx((b.total - b.failures) * overhead, rel=1e-12)


def test_mfu_two_ways_agree(b):
    step = page.llama405_step()
    assert b.mfu == pytest.approx(float(step.flops.model) / (b.total * GPUS * PEAK), rel=1e-14)
    assert figure("mfu.mfu") == pytest.approx(figure("mfu.mfu_from_flops"), rel=1e-14)
    assert sum(figure(f"mfu.{t}_share") for t in TERMS) == pytest.approx(1, rel=1e-12)


def test_comparison_with_the_widget(b):
    # computed, not tuned: the interleaved schedule's bubble is smaller than the widget's,
    # and the kernels below peak lead
    assert b.ranked()[0][0] == "below_peak"
    assert b.shares()["bubble"] < page.CATALAN_WIDGET["bubble"]
    assert b.mfu != pytest.approx(page.CATALAN_WIDGET["mfu"], abs=0.01)


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables(locale):
    terms = page.terms_table(locale).splitlines()
    assert len(terms) == 2 + len(TERMS) + 1
    two = [row.split("|") for row in page.two_ways_table(locale).splitlines()[2:]]
    assert two[0][-2] == two[1][-2]  # the same MFU, both ways
    exercise = page.exercise_table(locale).splitlines()
    assert len(exercise) == 2 + 6 + 1
    # the removed term has no seconds left: it sits among the last, with recomputation's zero
    assert page._TERMS["below_peak"][locale] in "".join(exercise[-3:-1])
    assert len(page.compare_table(locale).splitlines()) == 2 + len(TERMS) + 2


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_bar(locale):
    svg = page.step_bar(locale)
    assert svg.startswith("<svg") and 'class="dl-plot"' in svg
    for term in TERMS:
        assert page._TERMS[term][locale] in svg


def test_fixing_the_largest_term_first():
    # kernels at the peak: no time below it, and the recomputed forward and the bubble,
    # which scale with the compute time, shrink by the same factor 0.6
    term, after = page._fixed()
    before = page.llama405_step().breakdown
    assert term == "below_peak" and after.below_peak == 0
    assert after.recompute == pytest.approx(before.recompute * 0.6, rel=1e-12)
    assert after.useful == before.useful
    assert figure("mfu.mfu_after_fix") == pytest.approx(after.useful / after.total, rel=1e-12)
