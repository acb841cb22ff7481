"""The clock of one game: the deadline of the decision due, and what happens when it passes.

A lobby closes by itself ``LOBBY_SECONDS`` after it opened; a person's turn runs out after the
server's turn timer, and the computer plays for them that once (``GameSession.time_out``,
from ``GameSession.deadline_passed``).
Computers and forced cards need no timer: they play at once. Every deadline is stored with the
game (``turn_deadline``), so a restart honours it, even one that passed while the bot was down.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine

from .state import SessionState

#: A decision: (how many actions the game had accepted, the seat due, None in a lobby).
Decision = tuple[int, int | None]


class TurnTimer:
    """The pending deadline of one game's session, as a loop timer.

    A loop timer, not a sleeping task: a task per move cost two trips through the loop's queue,
    to start and to cancel. When it fires it starts the expiry, which takes the game's lock and
    does nothing if someone acted first.
    """

    def __init__(
        self, session: SessionState, expire: Callable[[int], Coroutine[None, None, None]]
    ) -> None:
        self.session = session
        #: What a passed deadline does (``GameSession.deadline_passed``), given the version it
        #: was set for.
        self.expire = expire
        self._handle: asyncio.TimerHandle | None = None
        self._expiry: asyncio.Task[None] | None = None
        #: The decision the pending timer is for.
        self._timed: Decision | None = None
        #: The decision whose deadline the last stored move carried.
        self._stored: Decision | None = None

    def stored(self, decision: Decision, deadline: float | None) -> None:
        """The deadline of ``decision`` was stored with the moves that made it due: arming
        the timer for it needs no write of its own."""
        self._stored = decision
        self.session.deadline = deadline

    async def arm(self) -> None:
        """(Re)start the timer of the decision now due, and store its deadline.

        A timer already running for this very decision is kept: after a click the computers
        run twice (before and after the answer), and each new deadline is a database write.
        """
        session = self.session
        if session.closed:
            self.cancel()
            return
        if session.status == "lobby":
            self.cancel()
            deadline = session.lobby_deadline
        else:
            seat = session.person_due()
            if seat is not None and self._handle is not None and self._timed == (session.n, seat):
                return
            self.cancel()
            if seat is None:
                session.deadline = None
                return
            if self._stored == (session.n, seat) and session.deadline is not None:
                deadline = session.deadline  # stored with the move that made it due
            else:
                deadline = session.deps.clock() + session.turn_seconds
                await session.write(
                    session.deps.storage.update_game(
                        session.id, turn_deadline=deadline, fence=session.fence
                    )
                )
        session.deadline = deadline
        self._timed = (session.n, session.game.turn if session.game else None)
        self._start(deadline)

    def resume(self) -> None:
        """After a restart: honour the stored deadline, even one that passed while down."""
        session = self.session
        self.cancel()
        if session.closed:
            return
        if session.status == "lobby":
            deadline = session.lobby_deadline
        elif session.deadline is not None:
            deadline = session.deadline
        else:
            # Stopped between storing a move and storing the next deadline: a full new turn,
            # so no game waits forever.
            game = session.game
            if game is None or game.over or game.turn is None:
                return
            deadline = session.deps.clock() + session.turn_seconds
            session.deadline = deadline
        self._start(deadline)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        expiry = self._expiry
        if expiry is not None and expiry is not asyncio.current_task():
            expiry.cancel()  # fired, and waiting for the lock the canceller holds
        self._expiry = None

    def _start(self, deadline: float) -> None:
        session = self.session
        delay = max(0.0, deadline - session.deps.clock())
        self._handle = asyncio.get_running_loop().call_later(delay, self._fire, session.n)

    def _fire(self, n: int) -> None:
        self._handle = None
        self._expiry = asyncio.create_task(self.expire(n), name=f"timer-{self.session.id}")
