"""Fixtures for the web table's browser tests: the fake Activity server and one headless
Chromium (Debian's ``chromium`` and ``chromium-driver``, which ``.ci/system-deps`` installs;
Selenium is given both paths, so its Selenium Manager never downloads a browser or a driver)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.activity.fake_server import STATIC, FakeActivityServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: Screenshots of every layout checked, kept as the run's artifacts (bench-out/ is not tracked).
SHOTS = Path(__file__).resolve().parents[2] / "bench-out" / "activity"


@pytest.fixture(scope="module")
def server(mock_static: Path) -> Iterator[FakeActivityServer]:
    if not (STATIC / "index.html").exists():
        pytest.fail("bot/activity/static/ has no build: run `npm ci && npm run build` in web/")
    fake = FakeActivityServer(static=mock_static)
    fake.start()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def browser(server: FakeActivityServer) -> Iterator[object]:
    # After the server (so quit before it stops): a page left open while the server closed its
    # sockets connected again during the server's cleanup, and the server's ends of those
    # connections outlived its loop, open, until a later test's garbage collection.
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip(
            "the browser tests need Debian's chromium and chromium-driver "
            "(/usr/bin/chromium, /usr/bin/chromedriver): bash .ci/system-deps installs them"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,800", "--hide-scrollbars", "--lang=en-US"):  # fmt: skip
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    os.environ.setdefault("SE_AVOID_STATS", "true")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(10)
    yield driver
    driver.quit()


@pytest.fixture
def fake(server: FakeActivityServer) -> Iterator[FakeActivityServer]:
    server.reset()
    yield server
    # Every frame sent either way was the contract's (docs/activity-protocol.schema.json).
    assert server.invalid == []
