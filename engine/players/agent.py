"""Computer seats for the bot: decide within a time budget without blocking the event loop.

The search runs in worker processes (pure Python holds the GIL, so a thread would stall the
loop). Every decision is anytime: if the worker is late, broken or returns something odd, the
rule-based action, computed in a fraction of a millisecond, is played instead. A decision
depends only on the seat's view, the difficulty and the seed, so a computer can take over a
seat mid-hand from that view alone.

Use::

    seats = ComputerSeat(workers=1)
    await seats.start()                      # optional: spawn the worker before the first move
    action = await seats.decide(seat_view(game, seat), "hard", seed=game_id, budget_s=1.0)
    game.apply(seat, action)
    ...
    await seats.aclose()                     # at shutdown
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from types import TracebackType

from ..actions import Action, parse_action
from ..views import SeatView
from . import DIFFICULTIES, make_player
from .rules_player import rule_action
from .search import SearchPlayer

log = logging.getLogger(__name__)

#: Levels cheap enough to decide on the event loop itself (well under a millisecond).
INLINE: frozenset[str] = frozenset({"easy", "normal"})


def choose(view: SeatView, difficulty: str, seed: int = 0, budget_s: float = 1.0) -> Action:
    """The synchronous decision: what ``decide`` returns when the worker is on time."""
    player = make_player(difficulty, seed)
    if isinstance(player, SearchPlayer):
        # Leave a margin for pickling and scheduling inside the caller's budget.
        player.level = replace(player.level, budget_s=min(player.level.budget_s, 0.6 * budget_s))
    return player.choose(view)


def _choose_text(view: SeatView, difficulty: str, seed: int, budget_s: float) -> str:
    return str(choose(view, difficulty, seed, budget_s))


def _ready() -> bool:
    return True


def _end_with_parent(parent: int) -> None:
    """In each worker: end when the bot's process does. A bot killed with SIGKILL (or by the
    out-of-memory killer) left its workers waiting on their queue for ever, since each holds
    that queue's pipe open itself; a bot restarted in a loop piled them up. Linux sends the
    worker SIGTERM when its parent dies (the pool starts workers from the loop's thread, which
    lives as long as the process)."""
    if sys.platform != "linux":
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
    if os.getppid() != parent:  # the bot died before the line above
        os._exit(0)


class ComputerSeat:
    """A small pool of worker processes deciding for every computer seat of the bot."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("ComputerSeat is closed.")
        if self._pool is None:
            # "spawn": a fresh interpreter, safe beside the bot's threads and event loop.
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_end_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def start(self) -> None:
        """Start the workers now, so the first decision does not pay for it."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(self.workers)))

    async def decide(
        self, view: SeatView, difficulty: str, *, seed: int = 0, budget_s: float = 1.0
    ) -> Action:
        """An action from ``view.legal``, always within about ``budget_s`` seconds."""
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"Unknown difficulty {difficulty!r}: choose one of {DIFFICULTIES}.")
        if not view.legal:
            raise ValueError("It is not this seat's turn.")
        if difficulty in INLINE or len(view.legal) == 1:
            return choose(view, difficulty, seed, budget_s)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(
                self._executor(), _choose_text, view, difficulty, seed, budget_s
            )
            text = await asyncio.wait_for(future, timeout=budget_s)
            action = parse_action(text)
            if action in view.legal:
                return action
            log.error("Worker chose %s, not legal here; playing the rule-based move", text)
        except TimeoutError:
            log.warning("Search late after %.2f s; playing the rule-based move", budget_s)
        except BrokenProcessPool:
            log.exception("Worker pool broke; restarting it")
            self._pool = None
        return rule_action(view)

    def close(self) -> None:
        """Stop the workers (waiting for a decision in progress); idempotent."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    async def __aenter__(self) -> ComputerSeat:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


async def decide(
    view: SeatView, difficulty: str, *, seed: int = 0, budget_s: float = 1.0
) -> Action:
    """One decision with a throwaway pool: for scripts and tests; the bot keeps a ComputerSeat."""
    async with ComputerSeat(workers=1) as seats:
        return await seats.decide(view, difficulty, seed=seed, budget_s=budget_s)
