"""Playing a person's move: one use case for a chat click and a web table's tap alike.

``Moves.play`` takes the game's lock (``game_lock.hold``), has the session check, apply and
store the move with the computer turns that follow it within ``ANSWER_WITHIN`` (so the answer
shows the game current; the move and theirs in one write), answers the mover through the
caller's ``Reply``, lets the computers finish when the game plays itself, and starts the
presenter's show under the lock, so a game's table edits keep their order; the caller awaits
it after the lock is released, so the next move need not wait for Discord's round trips.

Each adapter only translates: the chat's controller (cogs/nines/controller.py) answers with the
clicker's hand message, refusals shown in it; the web table's hub (bot/activity/hub.py) with
``ack`` and ``error`` frames.

A move carries the move count of the table it was made on (``Move.n``): made on an older table
it is refused as out of date, unless nothing moved since (the session's ``check_turn``),
whichever table it came from. A web tap also carries its idempotency key, stored with the move
in the move's own write: a key that made this very move already (a resend, even to the process
that took the game over) gets its first answer again and is never applied twice; the same key
with another move or another count is refused (``error.key_reused``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Protocol

from engine import Action

from ..storage import KeyAnswered, Storage
from .game_lock import hold
from .session import GameSession, Presenter
from .values import GameLost, SessionError

log = logging.getLogger(__name__)

#: After a move, the computers that follow start their decisions before the answer until this
#: long after the move arrived (each decision takes at most a second; Discord wants a click
#: answered within 3 s:
#: https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
ANSWER_WITHIN: Final = 1.2


@dataclass(frozen=True, slots=True)
class Move:
    """A person's move as they made it: who, on the table of which move count, what."""

    user_id: int
    #: The game's move count on the table the move was made on (``GameSession.n``).
    n: int
    action: Action
    #: The web table's idempotency key, stored with the move; None for a chat click.
    key: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """What a stored move is answered with, made under the lock and sent by ``send``."""

    send: Callable[[], Awaitable[None]]
    #: It shows the mover the game as it is now (the chat's hand): if their turn is due at
    #: this very count, they know it, and the presenter need not tell them.
    shows_game: bool


class Reply(Protocol):
    """How one adapter answers the person who moved, in its own form. Exactly one of
    ``gone``, ``refused``, ``made_before`` and ``accepted`` is called, unless ``play``
    raises."""

    async def waiting(self) -> None:
        """The game stayed busy ``game_lock.WAIT_BEFORE_TELLING``: the move waits on."""
        ...

    async def gone(self) -> None:
        """The game closed before the move had its lock."""
        ...

    async def refused(self, error: SessionError) -> None:
        """Under the lock: the move is refused, nothing stored."""
        ...

    async def made_before(self) -> None:
        """Under the lock: the move's key made this very move already: its first answer."""
        ...

    def accepted(self, session: GameSession) -> Answer:
        """Under the lock: the move is stored; its answer."""
        ...


class Moves:
    """The one way a person's move is played (see the module's docstring)."""

    def __init__(self, presenter: Presenter, storage: Storage) -> None:
        self.presenter = presenter
        self.storage = storage

    async def play(
        self, session: GameSession, move: Move, reply: Reply
    ) -> asyncio.Future[None] | None:
        """Play ``move`` in ``session``, answered through ``reply``; the presenter's show of
        it, started, for the caller to await (its GameLost or FencedOut: another process runs
        the game now and shows it), or None. GameLost: the game's shard has another holder,
        nothing was stored, and the mover is answered by nobody here."""
        until = time.monotonic() + ANSWER_WITHIN
        answer: Answer | None = None
        shown: asyncio.Future[None] | None = None
        try:
            async with hold(session.lock, reply.waiting):
                if session.closed:
                    await reply.gone()
                    return None
                try:
                    change = await session.act(
                        move.user_id, move.n, move.action, until=until, key=move.key
                    )
                except KeyAnswered:
                    await self._not_played(session, move, reply, None)
                    return None
                except SessionError as error:
                    await self._not_played(session, move, reply, error)
                    return None
                answer = reply.accepted(session)
                if answer.shows_game:
                    change.answered = (move.user_id, session.n)
                if session.plays_itself():
                    # Past the budget: answered now, then the computers finish under the lock.
                    pending, answer = answer, None
                    await pending.send()
                    try:
                        change.extend(await session.run_computers())
                    except GameLost:
                        log.info("game %s: its shard's new holder plays on", session.id)
                        return None  # the move stands
                shown = asyncio.ensure_future(self.presenter.show(session, change))
        finally:
            # Sent after the lock is released: the next move in this game need not wait for
            # this answer's round trip. The move is stored: acknowledged only after.
            if answer is not None:
                try:
                    await answer.send()
                except BaseException:
                    if shown is not None:
                        await shown  # awaited even if answering failed: its errors are not lost
                    raise
        return shown

    async def _not_played(
        self, session: GameSession, move: Move, reply: Reply, error: SessionError | None
    ) -> None:
        """A move refused (``error``), or its key stored already (None): if its key made
        this very move (before a takeover, the key stored with it), refused now only because
        it was played then: the first answer again; the key with another move is refused."""
        if move.key is not None:
            made = await self.storage.key_answered(session.id, move.user_id, move.key)
            if made is not None and (made.n, made.action) == (move.n, str(move.action)):
                await reply.made_before()
                return
            if made is not None or error is None:
                error = SessionError("error.key_reused")
        assert error is not None  # a key stored already comes with a key
        await reply.refused(error)
