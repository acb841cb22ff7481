"""Work the Activity's server runs in the background: each push, relayed send and shown move
in a task of its own, so that a socket's reader never waits on another game's work."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Background:
    """Tasks kept until done (the event loop keeps only a weak reference to a task: one nobody
    holds may be collected mid-way), each failure logged."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def run(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("activity task %s failed", task.get_name(), exc_info=task.exception())

    async def finish(self, seconds: float) -> None:
        """Wait for each task left, at most ``seconds`` each (stopping)."""
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, seconds)
