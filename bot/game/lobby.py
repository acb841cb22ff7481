"""The lobby of one game: who sits down before it starts, and the start.

Every change is checked here, then stored (all the seats in one write), then kept; a refusal
is a ``SessionError`` for the person who asked. The caller holds the session's lock and shows
the lobby afterwards (the chat's click answer); the presenter hears of each stored seat change
(``Presenter.lobby_changed``, through ``changed``) for the views no click answers. It sees
its session's state (``SessionState``), not the whole session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import Game

from ..base import failpoint
from ..storage import Seat
from .state import SessionState
from .turn_timer import TurnTimer
from .values import Change, SeatInfo, SessionError


class Lobby:
    """The seat changes of a game not started yet, and its start (``GameSession.lobby``)."""

    def __init__(
        self, session: SessionState, timer: TurnTimer, changed: Callable[[], None]
    ) -> None:
        self.session = session
        #: The game's clock: the start stores and arms the first deadline.
        self.timer = timer
        #: Tells the presenter of a stored seat change (``Presenter.lobby_changed``).
        self.changed = changed

    def _require_open(self) -> None:
        if self.session.status != "lobby":
            raise SessionError("error.not_lobby")

    def _require_host(self, user_id: int) -> None:
        if user_id != self.session.host_id:
            raise SessionError("error.host_only")

    def _require_room(self) -> None:
        if len(self.session.seats) >= self.session.players:
            raise SessionError("error.lobby_full")

    async def _save(self) -> None:
        session = self.session
        seats = [
            Seat(i, s.name, s.user_id, s.is_computer, s.difficulty)
            for i, s in enumerate(session.seats)
        ]
        await session.write(session.deps.storage.set_seats(session.id, seats, fence=session.fence))
        self.changed()

    async def join(self, user_id: int, name: str) -> None:
        self._require_open()
        if self.session.seat_of(user_id) is not None:
            raise SessionError("error.already_joined")
        self._require_room()
        self.session.seats.append(SeatInfo(name, user_id))
        await self._save()
        failpoint("join_stored")

    async def leave(self, user_id: int) -> None:
        self._require_open()
        seat = self.session.seat_of(user_id)
        if seat is None:
            raise SessionError("error.not_joined")
        if user_id == self.session.host_id:
            raise SessionError("error.host_cannot_leave")
        del self.session.seats[seat]
        await self._save()

    async def add_computer(self, user_id: int, difficulty: str, name: str) -> None:
        self._require_open()
        self._require_host(user_id)
        if difficulty not in self.session.deps.computers.difficulties:
            raise SessionError("error.bad_difficulty")
        self._require_room()
        self.session.seats.append(SeatInfo(name, None, difficulty))
        await self._save()

    async def remove_computer(self, user_id: int) -> None:
        self._require_open()
        self._require_host(user_id)
        seats = self.session.seats
        for i in range(len(seats) - 1, -1, -1):
            if seats[i].is_computer:
                del seats[i]
                await self._save()
                return
        raise SessionError("error.no_computer")

    async def seat_rematch(self, others: Sequence[SeatInfo]) -> None:
        """A rematch's other players, seated at once by whoever opened it (one write)."""
        self._require_open()
        seats = self.session.seats
        if len(seats) + len(others) > self.session.players:
            raise SessionError("error.lobby_full")
        seats.extend(SeatInfo(s.name, s.user_id, s.difficulty) for s in others)
        await self._save()

    async def start(self, user_id: int) -> Change:
        """Deal the first hand; the caller then plays the computer seats that act first
        (``GameSession.run_computers``)."""
        self._require_open()
        self._require_host(user_id)
        session = self.session
        if len(session.seats) < session.players:
            raise SessionError("error.seats_empty", missing=session.players - len(session.seats))
        session.game = Game(session.rules, session.seed)
        session.status = "live"
        # The first deadline is stored with the start, one write (issue 31). Whose decision is
        # due does not hang on the preferences read with it: autoplay plays only a forced card,
        # and nobody holds one at the deal (if it did, arming stops the timer).
        seat = session.person_due()
        deadline = None if seat is None else session.deps.clock() + session.turn_seconds
        # How each person sorts their hand: read before the start is stored, so a failed
        # read leaves the lobby as it was.
        trumps_first = await session.deps.storage.trumps_first_users(session.people)
        text_cards = await session.deps.storage.text_cards_users(session.people)
        try:
            autoplay = await session.write(
                session.deps.storage.start_game(
                    session.id, session.people, turn_deadline=deadline, fence=session.fence
                )
            )
        except BaseException:
            session.game, session.status = None, "lobby"
            raise
        for info in session.seats:
            info.autoplay = info.user_id in autoplay
            info.trumps_first = info.user_id in trumps_first
            info.text_cards = info.user_id in text_cards
        self.timer.stored((session.n, seat), deadline)
        change = Change(events=list(session.game.opening))
        await self.timer.arm()
        return change
