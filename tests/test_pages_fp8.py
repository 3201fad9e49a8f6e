"""The FP8 section of "Saving memory": its figures, by hand and against the datasheets."""

import pytest

from distlesson.pages import fp8
from distlesson.site.figures import figure_registry


def value(name):
    return figure_registry()[name].value


def test_fp8_figures_by_hand():
    assert value("fp8.e4m3_max") == 448 and value("fp8.e5m2_max") == 57_344
    # H100 SXM datasheet: 3,958 TFLOPS fp8 with sparsity, 1,979 dense; 989 bf16 dense
    assert value("fp8.peak_ratio") == pytest.approx(1979 / 989)
    # the same run's MFU against the H800's fp8 peak is its bf16 MFU x 989 / 1979
    assert value("fp8.deepseek_mfu_fp8") == pytest.approx(value("cost.deepseek_mfu") * 989
                                                          / 1979)
    assert value("fp8.tensor_high") > 5 * value("fp8.tiles_high")


def test_delayed_scaling_clips_the_new_outlier_to_the_old_amax():
    # delayed scaling takes the amax of the same tensor a step before, without the outlier:
    # the outlier is clipped to that amax (e4m3's top, 448, is exact), so it keeps
    # amax / outlier of its value
    import numpy as np

    from distlesson.memory.fp8 import OUTLIER_SHAPE

    before = np.random.default_rng(0).standard_normal(OUTLIER_SHAPE)  # the step before
    old_amax = np.abs(before).max()  # about 4.7 standard deviations
    assert value("fp8.delayed_kept") == pytest.approx(old_amax / max(fp8.OUTLIERS), rel=1e-9)


@pytest.mark.parametrize("locale", ["en", "ca", "fa"])
def test_tables_render(locale):
    assert len(fp8.formats_table(locale).splitlines()) == 2 + 2
    assert len(fp8.outlier_table(locale).splitlines()) == 2 + len(fp8.OUTLIERS)
