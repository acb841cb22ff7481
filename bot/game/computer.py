"""Computer players for the bot: decisions made off the event loop, always within a budget.

With ``COMPUTER_WORKERS`` > 0 the search runs in that many worker processes
(``bot/computer_pool.py``: pure Python holds the GIL, so only a process keeps a long search
from stalling the loop). With 0 (tests, small hosts) each decision runs in a thread. Either
way a decision that is late, fails or is not legal is replaced by the rule-based move,
computed in a fraction of a millisecond: a computer always answers in time. A decision
depends only on the seat's view, the difficulty and the seed, so a computer can take over a
seat mid-hand from that view alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

from engine import Action, SeatView
from engine.players import DIFFICULTIES, choose
from engine.players.exact import choose_exact
from engine.players.rules_player import rule_action

from ..base import metrics
from ..computer_pool import ComputerPool

log = logging.getLogger(__name__)

BUDGET_SECONDS: Final = 1.0

#: An exact decision's limit (a daily deal's computers, ``decide(exact=True)``): the search
#: judges all its worlds, whatever the clock (~12 ms at hard), and only a search gone wrong
#: meets this limit and the rule-based move.
EXACT_SECONDS: Final = 10.0

#: Levels cheap enough to decide on the event loop itself (well under a millisecond), when
#: the other levels go to the worker processes.
INLINE: Final = frozenset({"easy", "normal"})


class Computers:
    """Thinks for computer seats. ``decide`` never blocks the loop and always answers."""

    difficulties: Final = DIFFICULTIES

    def __init__(self, workers: int = 1, *, budget: float = BUDGET_SECONDS) -> None:
        self.workers = workers
        self.budget = budget
        self._pool = ComputerPool(workers) if workers > 0 else None
        #: The synchronous decision a thread runs (workers == 0); tests may slow it down.
        self.choose: Callable[[SeatView, str, int, float], Action] = choose

    async def start(self) -> None:
        """Start the worker processes now, so the first decision does not pay for it."""
        if self._pool is not None:
            await self._pool.start()

    async def decide(
        self,
        view: SeatView,
        difficulty: str,
        seed: int,
        *,
        within: float | None = None,
        exact: bool = False,
    ) -> Action:
        """``within``: seconds the caller can still wait (a click to answer). The pool's
        workers are shared by every game, so a decision may queue behind other games'; its
        budget then shrinks to ``within`` (late: the rule-based move), so a click is answered
        when promised rather than a whole budget later. Threads (no pool) do not queue.

        ``exact``: the decision depends on the view, level and seed alone, never on how busy
        the machine is (``choose_exact``; a daily deal's computers): ``within`` is ignored."""
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"Unknown difficulty {difficulty!r}: choose one of {DIFFICULTIES}.")
        if not view.legal:
            raise ValueError("It is not this seat's turn.")
        started = time.perf_counter()
        try:
            if exact:
                return await self._decide_exact(view, difficulty, seed)
            return await self._decide(view, difficulty, seed, within)
        finally:
            metrics.decision_time(time.perf_counter() - started)

    async def _decide(
        self, view: SeatView, difficulty: str, seed: int, within: float | None
    ) -> Action:
        if self._pool is None:
            budget = self.budget
            thread = asyncio.to_thread(self.choose, view, difficulty, seed, budget)
            return await self._in_time(view, difficulty, thread, budget)
        budget = self.budget if within is None else max(0.05, min(self.budget, within))
        if difficulty in INLINE or len(view.legal) == 1:
            return choose(view, difficulty, seed, budget)
        worker = self._pool.choose(view, difficulty, seed, budget)
        return await self._in_time(view, difficulty, worker, budget)

    async def _decide_exact(self, view: SeatView, difficulty: str, seed: int) -> Action:
        if difficulty in INLINE or len(view.legal) == 1:
            return choose_exact(view, difficulty, seed)  # rules: no clock, well under 1 ms
        decision: Awaitable[Action]
        if self._pool is None:
            decision = asyncio.to_thread(choose_exact, view, difficulty, seed)
        else:
            decision = self._pool.choose(view, difficulty, seed, EXACT_SECONDS, exact=True)
        return await self._in_time(view, difficulty, decision, EXACT_SECONDS)

    @staticmethod
    async def _in_time(
        view: SeatView, difficulty: str, decision: Awaitable[Action], budget: float
    ) -> Action:
        """The decision if it is in time and legal; the rule-based move otherwise."""
        try:
            action = await asyncio.wait_for(decision, timeout=budget)
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
        if self._pool is not None:
            await self._pool.aclose()
