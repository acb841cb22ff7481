"""Computer players for the bot: decisions made off the event loop, always within a budget.

With ``COMPUTER_WORKERS`` > 0 the search runs in that many worker processes
(``engine.players.agent.ComputerSeat``: pure Python holds the GIL, so only a process keeps a
long search from stalling the loop). With 0 (tests, small hosts) each decision runs in a
thread. Either way a decision that misses its deadline is replaced by the rule-based move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Final

from engine import Action, SeatView
from engine.players import DIFFICULTIES
from engine.players.agent import ComputerSeat, choose
from engine.players.rules_player import rule_action

from . import metrics

log = logging.getLogger(__name__)

BUDGET_SECONDS: Final = 1.0


class Computers:
    """Thinks for computer seats. ``decide`` never blocks the loop and always answers."""

    difficulties: Final = DIFFICULTIES

    def __init__(self, workers: int = 1, *, budget: float = BUDGET_SECONDS) -> None:
        self.workers = workers
        self.budget = budget
        self._seats = ComputerSeat(workers) if workers > 0 else None
        #: The synchronous decision a thread runs (workers == 0); tests may slow it down.
        self.choose: Callable[[SeatView, str, int, float], Action] = choose

    async def decide(
        self, view: SeatView, difficulty: str, seed: int, *, within: float | None = None
    ) -> Action:
        """``within``: seconds the caller can still wait (a click to answer). The pool's
        workers are shared by every game, so a decision may queue behind other games'; its
        budget then shrinks to ``within`` (late: the rule-based move), so a click is answered
        when promised rather than a whole budget later. Threads (no pool) do not queue."""
        started = time.perf_counter()
        try:
            return await self._decide(view, difficulty, seed, within)
        finally:
            metrics.decision_time(time.perf_counter() - started)

    async def _decide(
        self, view: SeatView, difficulty: str, seed: int, within: float | None
    ) -> Action:
        if self._seats is not None:
            budget = self.budget if within is None else max(0.05, min(self.budget, within))
            return await self._seats.decide(view, difficulty, seed=seed, budget_s=budget)
        try:
            action = await asyncio.wait_for(
                asyncio.to_thread(self.choose, view, difficulty, seed, self.budget),
                timeout=self.budget,
            )
        except TimeoutError:
            log.warning("computer %s ran out of time; playing the rule-based move", difficulty)
            return rule_action(view)
        except Exception:
            log.exception("computer %s failed; playing the rule-based move", difficulty)
            return rule_action(view)
        if action not in view.legal:
            log.error(
                "computer %s chose %s, not legal; playing the rule-based move", difficulty, action
            )
            return rule_action(view)
        return action

    async def close(self) -> None:
        if self._seats is not None:
            await self._seats.aclose()
