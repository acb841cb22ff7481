"""The worker processes that run the computer players' searches for the bot.

Pure Python holds the GIL, so a search in a thread would stall the event loop; each decision
runs in one of a few worker processes instead. This module only runs decisions and keeps the
workers tied to the bot's process; ``bot/game/computer.py`` owns the budget and the one fallback to
the rule-based move (a worker late, broken or answering something odd).

Use::

    pool = ComputerPool(workers=1)
    await pool.start()                       # optional: spawn the workers before the first move
    action = await pool.choose(seat_view(game, seat), "hard", seed=game_id, budget_s=1.0)
    ...
    await pool.aclose()                      # at shutdown
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType

from engine.actions import Action, parse_action
from engine.players import choose
from engine.players.exact import choose_exact
from engine.views import SeatView


def _choose_text(view: SeatView, difficulty: str, seed: int, budget_s: float, exact: bool) -> str:
    if exact:
        return str(choose_exact(view, difficulty, seed))
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


class ComputerPool:
    """A small pool of worker processes deciding for every computer seat of the bot."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("ComputerPool is closed.")
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

    async def choose(
        self, view: SeatView, difficulty: str, seed: int, budget_s: float, *, exact: bool = False
    ) -> Action:
        """A worker's decision (``engine.players.choose``; ``exact``: ``choose_exact``, the
        clock out of it), however long it takes. A broken pool (a worker killed) is raised,
        and replaced at the next decision."""
        loop = asyncio.get_running_loop()
        try:
            text = await loop.run_in_executor(
                self._executor(), _choose_text, view, difficulty, seed, budget_s, exact
            )
        except BrokenProcessPool:
            self._pool = None
            raise
        return parse_action(text)

    def close(self) -> None:
        """Stop the workers (waiting for a decision in progress); idempotent."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    async def __aenter__(self) -> ComputerPool:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
