"""A page in a real browser (Chromium through selenium), as the web table's tests and the frame
bench drive it."""

from __future__ import annotations

import time
from typing import Any, Final

#: How long a wait on the page may last before the test calls it stuck: a guard for a hung
#: page, not a figure of speed (a browser starved of CPU is slow, not stuck).
PAGE_GUARD: Final = 60.0


def wait_js(driver: Any, script: str, timeout: float = PAGE_GUARD) -> Any:
    """``script``'s value once it is truthy, the page polled every 20 ms (it announces no
    render); an AssertionError after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for: {script}")
