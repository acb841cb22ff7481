"""A tournament's timers in this process: at most one loop timer a tournament (its start,
its round's deadline, or the end of a break), over a time stored with it, so a restart arms
them again (clock.py says what happens when one fires)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from .context import RunnerContext


class Timers:
    """One loop timer a tournament at most, calling ``due`` with its id when it fires."""

    def __init__(self, ctx: RunnerContext, due: Callable[[int], Coroutine[Any, Any, None]]) -> None:
        self.ctx = ctx
        self._due = due
        self._timers: dict[int, asyncio.TimerHandle] = {}

    def arm(self, tournament_id: int, deadline: float) -> None:
        """Fire at ``deadline`` (the clock's time), instead of any time set before."""
        self.cancel(tournament_id)
        delay = max(0.0, deadline - self.ctx.clock())
        self._timers[tournament_id] = asyncio.get_running_loop().call_later(
            delay, self._fire, tournament_id
        )

    def cancel(self, tournament_id: int) -> None:
        handle = self._timers.pop(tournament_id, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for tournament_id in list(self._timers):
            self.cancel(tournament_id)

    def armed(self) -> frozenset[int]:
        """The tournaments with a timer set in this process (a start, a deadline, a break)."""
        return frozenset(self._timers)

    def _fire(self, tournament_id: int) -> None:
        self._timers.pop(tournament_id, None)
        self.ctx.spawn(self._due(tournament_id))
