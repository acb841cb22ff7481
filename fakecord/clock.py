"""The double's clock: real time plus whatever the test has skipped ahead."""

from __future__ import annotations

import time


class FakeClock:
    """Wall-clock time that tests can move forward without sleeping.

    It keeps running with real time (so a genuinely slow bot still misses Discord's deadlines),
    and `advance()` jumps it forward (so a test can expire a token without waiting 15 minutes).
    """

    def __init__(self, start: float | None = None) -> None:
        self._origin_wall = time.time() if start is None else start
        self._origin_mono = time.monotonic()
        self._offset = 0.0

    def now(self) -> float:
        """Seconds since the Unix epoch, as the double sees them."""
        return self._origin_wall + (time.monotonic() - self._origin_mono) + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
