"""What the widgets' build-side tests share: the start tags of a widget's HTML and the data
it embeds for its script, and the checks every widget passes the same way (the three
languages show the same widget, the controls are labelled and start on the default, the
data stays small, Persian writes Persian digits). The library's values are each test
module's own business."""

import json
import re
from collections.abc import Callable, Iterable
from html.parser import HTMLParser
from typing import Any

LOCALES = ("en", "ca", "fa")
DATA = re.compile(r'<script type="application/json" class="dl-widget-data">(.*?)</script>',
                  re.S)
STRUCTURE = frozenset({"id", "for", "data-in", "data-out", "value", "data-widget", "data-plot",
                       "data-bar", "data-legend", "data-kind"})
"""The attributes that make a widget's structure, the same in every language."""


class _Tags(HTMLParser):
    """Every start tag of the fragment, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(fragment: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(fragment)
    return parser.tags


def embedded_data(fragment: str) -> dict:
    """The one JSON object the widget's fragment embeds."""
    found = DATA.findall(fragment)
    assert len(found) == 1
    return json.loads(found[0])


def data_bytes(fragment: str) -> int:
    """The size of the embedded JSON, in UTF-8 bytes: what the page carries for the script."""
    return len(DATA.findall(fragment)[0].encode())


def structure(fragment: str) -> list[tuple[str, dict[str, str | None]]]:
    """The fragment's tags with only their structural attributes (no words, no numbers)."""
    return [(tag, {k: v for k, v in attrs.items() if k in STRUCTURE})
            for tag, attrs in tags(fragment)]


def shape(value: Any) -> Any:
    """The JSON's shape: the keys of every object and the length and kinds of every list,
    without the words and numbers that each language writes its own way."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        if all(isinstance(item, int | float | bool | str) for item in value):
            return ("list", len(value), sorted({type(item).__name__ for item in value}))
        return [shape(item) for item in value]
    return type(value).__name__


def check_same_in_every_language(render: Callable[[str], str]) -> None:
    """The three languages' widgets have the same controls, outputs and data shape."""
    fragments = {locale: render(locale) for locale in LOCALES}
    for locale in ("ca", "fa"):
        assert structure(fragments[locale]) == structure(fragments["en"]), locale
        assert (shape(embedded_data(fragments[locale]))
                == shape(embedded_data(fragments["en"]))), locale


def check_controls(fragment: str, name: str, default: Iterable[Any],
                   outputs: set[str]) -> None:
    """Every control is a ``<select>`` with its ``<label>``, the default setting is selected,
    the outputs are these, and the root says which widget it is."""
    found = tags(fragment)
    assert found[0][0] == "div" and found[0][1]["data-widget"] == name
    selects = [attrs["id"] for tag, attrs in found if tag == "select"]
    labels = [attrs["for"] for tag, attrs in found if tag == "label"]
    assert selects and labels == selects
    selected = [attrs["value"] for tag, attrs in found if tag == "option" and "selected" in attrs]
    assert selected == [str(v) for v in default]
    assert {attrs["data-out"] for _, attrs in found if "data-out" in attrs} == outputs


def visible_text(fragment: str, *, options: bool = True) -> str:
    """The fragment's text as a reader sees it: no tags, no embedded data."""
    hidden = r"<script\b.*?</script>" + ("" if options else r"|<option\b.*?</option>")
    return re.sub(hidden + r"|<[^>]+>", " ", fragment, flags=re.S)


def check_persian_digits(text: str, names: Iterable[str] = ()) -> None:
    """No Latin digit in ``text``, once the ``names`` that carry digits (1F1B, fp32, H100...)
    are taken out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    assert not re.search(r"[0-9]", text), re.findall(r".{0,20}[0-9].{0,20}", text)[:3]


def table_value(table: dict[str, Any], axes: dict[str, list[str]],
                setting: dict[str, Any]) -> Any:
    """What a factored table (distlesson/pages/widget_grid.py) holds for ``setting``, read
    as widget-core.js's lookup reads it; written here again so that the test does not
    trust the page's own reader."""
    index = 0
    for name in table["k"]:
        index = index * len(axes[name]) + axes[name].index(str(setting[name]))
    found = table["i"][index]
    return None if found < 0 else table["u"][found]
