"""What the browser tests share: the built site served locally, headless Chromium, and the
check that a page fetched nothing from another host. Test modules import the fixtures
(``from tests.browser import browser, server, site``) and pytest finds them there."""

import functools
import os
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

from tests.pages import ROOT
from tests.test_site_built import SITE

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "HOST", "SCREENSHOTS", "browser", "elsewhere",
           "server", "site"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
HOST = "127.0.0.1"
SCREENSHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="module")
def site() -> Path:
    """scripts/test builds site/ before the tests; build it here when run alone (as
    tests/test_site_built.py does)."""
    if not (SITE / "index.html").exists():
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                        str(SITE)], cwd=ROOT, check=True,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return SITE


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # keep pytest's output clean
        pass


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = ThreadingHTTPServer((HOST, 0), handler)  # port 0: a free port
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://{HOST}:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def elsewhere(requests: list[str]) -> list[str]:
    """The requests that went to another host than the local server."""
    return [url for url in requests
            if urlsplit(url).scheme not in {"data", "blob", "about"}
            and urlsplit(url).hostname != HOST]
