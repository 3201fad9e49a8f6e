"""The SVG writer: inline, page-coloured, page-fonted, deterministic."""

import matplotlib.pyplot as plt

from distlesson.render.svg import INK, STYLE, to_svg


def _svg(title):
    """A plot drawn and written as the library's renderers do: inside the style."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots()
        ax.plot([0, 1], [1, 0], color=INK)
        ax.set_xlabel("تعداد")
        return to_svg(fig, name="t", title=title)


def test_text_uses_the_page_font_and_colour():
    svg = _svg("a title")
    assert svg.startswith("<svg ") and 'aria-label="a title"' in svg
    assert "font-family: inherit" in svg and "DejaVu" not in svg
    assert "currentColor" in svg and INK not in svg
    assert "تعداد" in svg  # text stays text


def test_same_figure_same_string():
    assert _svg("x") == _svg("x")
