"""The Activity's budgets: token buckets (sign-ins per address, Discord calls in all) and the
count of Discord's invalid answers in its 10-minute window.

Pure bookkeeping on a monotonic clock passed in, so the figures are the same in a test and in
production; bot/activity/discord_api.py and bot/activity/__init__.py spend them.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Final

#: Addresses whose buckets are kept (the least recently seen are forgotten past it): a flood
#: from many addresses cannot grow the server's memory.
ADDRESSES_KEPT: Final = 10_000


@dataclass(slots=True)
class TokenBucket:
    """``burst`` tokens at most, refilled at ``per_minute`` a minute: ``take`` spends one."""

    burst: int
    per_minute: float
    tokens: float = -1.0
    at: float = 0.0

    def _refill(self, now: float) -> None:
        if self.tokens < 0:
            self.tokens, self.at = float(self.burst), now
            return
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.per_minute / 60)
        self.at = now

    def take(self, now: float) -> float:
        """0 when a token was spent; else the seconds until one is there (none spent)."""
        self._refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        if self.per_minute <= 0:
            return 60.0
        return (1 - self.tokens) * 60 / self.per_minute


@dataclass(slots=True)
class PerAddress:
    """One token bucket per address, the least recently seen forgotten past ADDRESSES_KEPT."""

    burst: int
    per_minute: float
    buckets: OrderedDict[str, TokenBucket] = field(default_factory=OrderedDict)

    def take(self, address: str, now: float) -> float:
        bucket = self.buckets.pop(address, None) or TokenBucket(self.burst, self.per_minute)
        self.buckets[address] = bucket
        while len(self.buckets) > ADDRESSES_KEPT:
            self.buckets.popitem(last=False)
        return bucket.take(now)


@dataclass(slots=True)
class WindowCount:
    """Events in the last ``window`` seconds, against a ``limit``."""

    limit: int
    window: float
    times: deque[float] = field(default_factory=deque)

    def add(self, now: float) -> None:
        self.times.append(now)
        self._forget(now)

    def count(self, now: float) -> int:
        self._forget(now)
        return len(self.times)

    def full_for(self, now: float, pending: int = 0) -> float:
        """0 while the count, with ``pending`` events that may yet come, is under the limit;
        else the seconds until it falls back under it."""
        self._forget(now)
        over = len(self.times) + pending - self.limit
        if over < 0:
            return 0.0
        if over >= len(self.times):
            return 1.0  # what is pending must come back first
        return self.times[over] + self.window - now

    def _forget(self, now: float) -> None:
        while self.times and self.times[0] <= now - self.window:
            self.times.popleft()
