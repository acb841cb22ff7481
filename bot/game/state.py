"""What one game's session holds and reads, apart from what it does (``bot/game/session.py``).

``SessionState`` is the part of ``GameSession`` that its own parts, the lobby's seat changes
(``bot/game/lobby.py``) and the clock (``bot/game/turn_timer.py``), read and write: its seats,
engine game, status and deadline, the preferences of its people, whose decision is due, and its
fenced writes. They are given it, not the whole session, so none of them imports another.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Final, Protocol, TypeVar

from engine import Action, Game, Play, Rules, SeatView, seat_view
from engine.duplicate import Rotations

from ..base.discord_internals import QueueFreeLock
from ..storage import Fence, FencedOut, GameRow, Storage
from .computer import Computers
from .values import GameLost, SeatInfo, SessionError

log = logging.getLogger(__name__)

T = TypeVar("T")

LOBBY_SECONDS: Final = 15 * 60
DEFAULT_TURN_SECONDS: Final = 120


def stored_rules(row: GameRow) -> Rules:
    """A stored game's rules. Storage keeps them as their dict (``Rules.to_dict``, written by
    ``Sessions.open_lobby``); the bot passes ``Rules`` everywhere else. Games of the same
    rules share one (frozen) ``Rules``: most games play the few same settings."""
    try:
        return _shared_rules(tuple(sorted(row.rules.items())))
    except TypeError:  # a value that cannot be a key: this game's own
        return Rules.from_dict(row.rules)


@lru_cache(maxsize=256)
def _shared_rules(settings: tuple[tuple[str, object], ...]) -> Rules:
    return Rules.from_dict(dict(settings))


class StateDeps(Protocol):
    """What the state uses of the session's dependencies (``bot/game/session.py``'s ``Deps``)."""

    @property
    def storage(self) -> Storage: ...

    @property
    def computers(self) -> Computers: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def fenced_out(self) -> Callable[[Fence], None]: ...


class SessionState:
    """What a game's session holds and reads: its seats, its engine game, its deadline, the
    lock every change takes, and its writes (fenced). ``GameSession`` plays and ends the game
    on it; its ``Lobby`` and ``TurnTimer`` see this much of it."""

    def __init__(
        self,
        row: GameRow,
        seats: list[SeatInfo],
        deps: StateDeps,
        *,
        players: int,
        turn_seconds: float = DEFAULT_TURN_SECONDS,
        game: Game | None = None,
    ) -> None:
        self.id: Final = row.id
        self.guild_id: Final = row.guild_id
        self.channel_id = row.thread_id or row.channel_id  # where the table is posted
        self.lobby_channel_id = row.channel_id  # where the lobby message is
        self.host_id = row.host_id
        self.language = row.language
        # A restored game replayed from this row has read them already.
        self.rules = game.rules if game is not None else stored_rules(row)
        self.seed = row.seed
        self.status = row.status
        self.end_reason = row.end_reason  # why an ended game ended
        self.lobby_message_id = row.lobby_message_id
        self.created_at = row.created_at
        self.players = players
        self.seats = seats
        self.turn_seconds = turn_seconds
        self.game = game
        self.deadline: float | None = row.turn_deadline
        self.deps = deps
        self.lock: asyncio.Lock = QueueFreeLock()
        #: Keeps the presenter's table edits of this game in order. Not ``lock``: a table edit
        #: is a Discord round trip, and the next click must not wait for it.
        self.table_lock: asyncio.Lock = QueueFreeLock()
        self.closed = False
        #: A daily deal (bot/game/daily.py): played by one person alone, shown to them only (the
        #: presenter posts nothing of it in a channel but one line at the end), its computers'
        #: choices exact, and finished by the computers when the person is away.
        self.private = False
        #: A duplicate match's game (bot/game/duplicate_match.py): the match's games before it, for
        #: its sheet's running duplicate result. None for any other game.
        self.duplicate: Rotations | None = None
        #: Stamped on every write of the game (storage's fencing.py): the lease under which
        #: this process runs it, set by Sessions when it opens or restores the game. A
        #: session never outlives its lease: a new lease, a new session.
        self.fence: Fence | None = None

    async def write(self, write: Awaitable[T]) -> T:
        """A storage write of this game (its lobby's and timer's too); refused by the fence,
        the game is another process's now: close quietly (GameLost)."""
        try:
            return await write
        except FencedOut as refused:
            log.warning("game %s: its shard has a newer holder; no longer running it", self.id)
            self.close()
            self.deps.fenced_out(refused.fence)
            raise GameLost(self.id) from None

    def close(self) -> None:
        """Stop running the game here (``GameSession.close`` stops its timer too)."""
        self.closed = True

    # -- reading ---------------------------------------------------------------------------------

    @property
    def lobby_deadline(self) -> float:
        """When an unstarted lobby closes by itself."""
        return self.created_at + LOBBY_SECONDS

    @property
    def n(self) -> int:
        """How many actions the game has accepted: the version buttons carry."""
        return len(self.game.log) if self.game else 0

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    def view(self, seat: int) -> SeatView:
        assert self.game is not None
        return seat_view(self.game, seat)

    @property
    def people(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    # -- preferences -----------------------------------------------------------------------------

    async def load_preferences(self) -> None:
        """The seated people's own preferences, as stored (kept per person, every server's)."""
        autoplay = await self.deps.storage.autoplay_users(self.people)
        trumps_first = await self.deps.storage.trumps_first_users(self.people)
        text_cards = await self.deps.storage.text_cards_users(self.people)
        for seat in self.seats:
            seat.autoplay = seat.user_id in autoplay
            seat.trumps_first = seat.user_id in trumps_first
            seat.text_cards = seat.user_id in text_cards

    # -- play ------------------------------------------------------------------------------------

    def forced_move(self) -> Action | None:
        """The move that plays itself now, if any: a person's only legal card when it is the
        last of their hand (every seat then holds one card at most, so playing it reveals
        nothing), or, if they chose so (``autoplay``), any turn whose only legal action is one
        card. Never an exchange (keep or swap is a choice), never a Joker (its win or lose call
        is a choice: two legal actions)."""
        game = self.game
        if self.closed or game is None or game.over or game.turn is None:
            return None
        seat = game.turn
        info = self.seats[seat]
        if info.played_by_computer:
            return None
        legal = game.legal_actions(seat)
        if len(legal) != 1 or not isinstance(legal[0], Play):
            return None
        if info.autoplay or len(game.hands[seat]) == 1:
            return legal[0]
        return None

    def check_turn(self, user_id: int, n: int) -> int:
        """The acting seat of ``user_id`` at version ``n``, or a SessionError saying why it
        may not act."""
        if self.status != "live" or self.game is None:
            raise SessionError("error.not_live")
        seat = self.seat_of(user_id)
        if seat is None:
            raise SessionError("error.not_seated")
        if self.seats[seat].away:
            raise SessionError("error.away")
        if n != self.n:
            raise SessionError("error.stale")
        if self.game.turn != seat:
            raise SessionError("error.not_your_turn")
        return seat

    # -- whose decision --------------------------------------------------------------------------

    def person_due(self) -> int | None:
        """The seat of the person whose decision is due now, if any (computers and a forced
        card that plays itself need no timer)."""
        game = self.game
        if self.closed or game is None or game.over or game.turn is None:
            return None
        return None if self.plays_itself() else game.turn

    def plays_itself(self) -> bool:
        """Whether the next move needs nobody's click: a computer's (or an absent person's
        stand-in's), or a forced card (see ``forced_move``)."""
        game = self.game
        if self.closed or game is None or game.over or game.turn is None:
            return False
        return self.seats[game.turn].played_by_computer or self.forced_move() is not None
