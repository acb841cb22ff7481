"""What the runner's parts share in this process: the sessions and storage, the presenter and
the clock, the failpoint at each seam, the games of the tables in play here, each
tournament's lock, and the tasks the parts start. Nothing here outlives the process: the
tournaments' state is stored (storage/tournaments.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from ..game import Sessions
from ..storage.tournament_values import TournamentRow
from .errors import TournamentError
from .presenter import TournamentPresenter

#: Where a table's game sits: (tournament, round, table number).
TableAt = tuple[int, int, int]


class RunnerContext:
    """The state the parts of a ``TournamentRunner`` share; its presenter and clock may be
    swapped after the start (a test's), the parts reading them at each use."""

    def __init__(
        self,
        sessions: Sessions,
        presenter: TournamentPresenter,
        clock: Callable[[], float],
        failpoint: Callable[[str], None],
    ) -> None:
        self.sessions = sessions
        self.storage = sessions.deps.storage
        self.presenter = presenter
        self.clock = clock
        #: Called at each seam of a step, by name (bot/base/failpoints.py).
        self.failpoint = failpoint
        #: The tables whose games this process runs or has run, by game id.
        self.games: dict[int, TableAt] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def lock(self, tournament_id: int) -> asyncio.Lock:
        """The tournament's lock: one step of it at a time in this process."""
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def get(self, tournament_id: int) -> TournamentRow:
        """The tournament as stored; refused in words if there is none."""
        found = await self.storage.tournament(tournament_id)
        if found is None:
            raise TournamentError("tournament.error.unknown")
        return found

    def spawn(self, step: Coroutine[Any, Any, None]) -> None:
        """Run ``step`` as a task of its own, kept until it is done (``idle`` waits for it)."""
        task = asyncio.get_running_loop().create_task(step)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait for the tasks the parts started (tables ending, deadlines) to be done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
