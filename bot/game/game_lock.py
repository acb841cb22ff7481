"""A game's lock, taken for one person's request (a chat click, a web table's tap).

Taken at once when free; when the game stays busy (computers thinking, a timer firing), the
request is told once it has waited ``WAIT_BEFORE_TELLING`` (a chat click is then acknowledged,
so Discord never calls it failed) and waits on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Final

from ..base import discord_internals

#: A request waits this long for a busy game before it is told it waits.
WAIT_BEFORE_TELLING: Final = 1.0


@contextlib.asynccontextmanager
async def hold(lock: asyncio.Lock, waiting: Callable[[], Awaitable[None]]) -> AsyncIterator[None]:
    """``lock`` for the body; ``waiting`` is called once if taking it takes
    WAIT_BEFORE_TELLING."""
    if discord_internals.lock_contended(lock):
        await _wait_for(lock, waiting)
    else:
        # Free, and nobody woken to take it: taken without suspending. Waiting costs three
        # trips through the loop's queue (a task, its wake-up, ours), and at 200 games each
        # trip waited behind up to ~300 other callbacks.
        await lock.acquire()
    try:
        yield
    finally:
        lock.release()


async def _wait_for(lock: asyncio.Lock, waiting: Callable[[], Awaitable[None]]) -> None:
    acquire = asyncio.ensure_future(lock.acquire())
    try:
        done, _ = await asyncio.wait({acquire}, timeout=WAIT_BEFORE_TELLING)
        if not done:
            await waiting()
        await asyncio.shield(acquire)
    except BaseException:
        # Never leave the lock taken by a request that gave up (cancelled, or its answer
        # failed).
        def release(future: asyncio.Future[Any]) -> None:
            if not future.cancelled() and future.exception() is None:
                lock.release()

        acquire.add_done_callback(release)
        acquire.cancel()
        raise
