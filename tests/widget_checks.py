"""What the widgets' build-side tests share: the start tags of a widget's HTML and the data
it embeds for its script."""

import json
import re
from html.parser import HTMLParser

LOCALES = ("en", "ca", "fa")
DATA = re.compile(r'<script type="application/json" class="dl-widget-data">(.*?)</script>',
                   re.S)


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
