"""A clock the shard-lease tests move by hand: ``ShardLeases`` (bot/process/shards.py) and the
storage's lease rows read it instead of the real time, so a lease runs out when a test says
so and never because a loaded machine took a while between two steps (a 0.3 s lease once had
to outlast them)."""

from __future__ import annotations

import time

import pytest

import bot.process.shards


class LeaseClock:
    """Unix time, stopped: ``time()`` and ``monotonic()`` (the same value) move only by
    ``advance``."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def lease_clock(monkeypatch: pytest.MonkeyPatch) -> LeaseClock:
    """The clock of bot/process/shards.py for this test; open the storages with
    ``now=clock.time``."""
    clock = LeaseClock()
    monkeypatch.setattr(bot.process.shards, "time", clock)
    return clock
