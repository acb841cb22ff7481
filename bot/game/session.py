"""One session per live game: the engine game, its seats, a lock, its timers, its storage.

Everything that changes a game goes through ``GameSession`` under its lock, in this order:
check with the engine, apply to the engine game in memory, store (a click's move and the
computer moves that follow it in one write), then tell the presenter (the Discord side, in
``cogs/nines``) what changed. A write that fails puts the game back as the database holds it
(replayed from its stored actions): nobody is told of a move that was not stored, and a restart
at any moment loses nothing and applies nothing twice. The presenter keeps each game's
messages in order with ``table_lock``; a click's table edit is started under the lock and sent
after it is released, so the next click need not wait for it.

What a session holds and reads is ``SessionState`` (``bot/game/state.py``); the lobby's seat
changes and the start are ``Lobby``'s (``bot/game/lobby.py``), the deadlines ``TurnTimer``'s
(``bot/game/turn_timer.py``), both given the state alone; only a session ends its game, and its
registry (``Sessions``, ``bot/game/sessions.py``) forgets it as it closes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from engine import (
    Action,
    Game,
    IllegalAction,
)

from ..base import failpoint
from ..storage import ActionConflict, ChannelBusy, Fence, GameResult, GameRow, SeatResult, Storage
from .computer import Computers
from .lobby import Lobby
from .state import DEFAULT_TURN_SECONDS, SessionState, stored_rules
from .turn_timer import TurnTimer
from .values import Change, GameLost, SeatInfo, SessionError

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_AWAY: Final = 2  # time-outs in a row before the computer keeps the seat


def no_fence(guild_id: int) -> Fence | None:
    """A process without shards: its writes are not fenced."""
    return None


def ignore_fenced_out(fence: Fence) -> None:
    """A process without shards is never fenced out."""


class Presenter(Protocol):
    """The Discord side, as the sessions and the bot see it: every call they make on it. The
    game's extension (cogs/nines) plugs its presenter in at setup (``NinesBot.plug_in``)."""

    async def show(self, session: GameSession, change: Change) -> None:
        """Show what one step did (table, hand summaries, time-outs, restored, the end)."""
        ...

    async def lobby_expired(self, session: GameSession) -> None:
        """The lobby closed by itself, unstarted."""
        ...

    async def refresh_lobby(self, session: GameSession) -> None:
        """Bring a restored lobby's message up to date."""
        ...

    def lobby_changed(self, session: GameSession) -> None:
        """The lobby's seats changed and are stored (a join, a leave, a computer added or
        removed, a rematch's people seated), or its host cancelled it. The click that did it
        updates the lobby message itself; a view that a click does not answer (the Activity's
        sockets) is told here. Called under the game's lock: it must not wait."""
        ...


class ChatPresenter(Presenter, Protocol):
    """The game's extension's presenter, as ``NinesBot.plug_in`` takes it: the sessions'
    ``Presenter``, and told when a seated person closed the game's web table
    (bot/activity/fanout.py), so that the chat catches up for them."""

    async def web_table_left(self, session: GameSession) -> None:
        """A seated person closed the game's web table (their last socket): they follow the
        game in chat now, which catches up for them."""
        ...


@dataclass(frozen=True, slots=True)
class Deps:
    storage: Storage
    computers: Computers
    presenter: Presenter
    clock: Callable[[], float] = time.time
    #: The fence of a guild's games' writes: the lease this process holds on the guild's
    #: shard (a sharded bot), taken when a session starts or is restored.
    fence: Callable[[int], Fence | None] = no_fence
    #: Told when the database refused a write under a fence: the shard may be lost before
    #: the next renewal says so (a sharded bot stops serving it at once).
    fenced_out: Callable[[Fence], None] = ignore_fenced_out


class Registry(Protocol):
    """What a session tells the registry that runs it (``bot/game/sessions.py``'s ``Sessions``)."""

    def forget(self, session: GameSession) -> None: ...

    def move_to_thread(self, session: GameSession, thread_id: int) -> None: ...


class GameSession(SessionState):
    """A lobby or a game in progress in one channel (or thread): its state (``SessionState``),
    its ``lobby`` (seat changes, the start) and its ``timer``; it plays and ends the game."""

    deps: Deps

    def __init__(
        self,
        row: GameRow,
        seats: list[SeatInfo],
        deps: Deps,
        *,
        players: int,
        turn_seconds: float = DEFAULT_TURN_SECONDS,
        game: Game | None = None,
    ) -> None:
        super().__init__(row, seats, deps, players=players, turn_seconds=turn_seconds, game=game)
        self.timer: Final = TurnTimer(self, self.deadline_passed)
        self.lobby: Final = Lobby(self, self.timer, lambda: deps.presenter.lobby_changed(self))
        #: The registry that runs this session, told when it closes.
        self._registry: Registry | None = None

    async def act(
        self,
        user_id: int,
        n: int,
        action: Action,
        *,
        until: float | None = None,
        key: str | None = None,
    ) -> Change:
        """A person's action, checked and applied, then the computers' turns that follow it (as
        ``run_computers``), all stored in one write. Call under ``lock``. ``key``: the
        action's idempotency key (the Activity's), stored with it; storage's KeyAnswered,
        nothing applied, when it made a move already."""
        seat = self.check_turn(user_id, n)
        assert self.game is not None
        try:
            self.game.check(seat, action)
        except IllegalAction as error:
            raise SessionError("error.illegal", error=error) from None
        self.seats[seat].timeouts = 0
        return await self._play(
            [(seat, action, False)], until=until, key=None if key is None else (user_id, key)
        )

    async def run_computers(self, *, until: float | None = None) -> Change:
        """Play every computer (or absent person's) turn and every forced card that plays
        itself (``forced_move``) up to the next person's decision, stored in one write. Under
        lock.

        ``until`` (a ``time.monotonic()`` instant): stop starting new decisions after it, so a
        click can be answered in time; the caller then calls again without it to finish.
        """
        return await self._play([], until=until)

    async def _play(
        self,
        moves: list[tuple[int, Action, bool]],
        *,
        until: float | None = None,
        computers: bool = True,
        key: tuple[int, str] | None = None,
    ) -> Change:
        """Apply checked ``(seat, action, by_computer)`` moves, then (``computers``) the
        computer turns that follow them, and store them all in one write with the deadline of
        the decision they lead to. A click's moves cost one round trip to the database: on
        PostgreSQL, a click's writes one after another queued behind every other game's. Not
        stored, they are undone: nothing acknowledges a move before it is stored."""
        game = self.game
        assert game is not None
        first = len(game.log)
        change = Change()
        batch: list[tuple[int, str, bool]] = []
        stopped_early = False
        try:
            for seat, action, by_computer in moves:
                change.events.extend(game.apply(seat, action))
                batch.append((seat, str(action), by_computer))
            while computers and not game.over and not self.closed:
                turn = game.turn
                assert turn is not None
                forced = self.forced_move()
                if forced is not None:
                    # A person's forced card: no decision to wait for, stored with the rest.
                    change.events.extend(game.apply(turn, forced))
                    batch.append((turn, str(forced), False))
                    continue
                if not self.seats[turn].played_by_computer:
                    break
                if until is not None and time.monotonic() >= until:
                    stopped_early = True  # the caller finishes the run (and the timer) later
                    break
                within = None if until is None else until - time.monotonic()
                choice = await self._computer_choice(turn, within=within)
                change.events.extend(game.apply(turn, choice))
                batch.append((turn, str(choice), True))
        finally:
            # Stored even if a computer's decision failed: the moves before it stand.
            if batch:
                await self._store(first, batch, key)
        if game.over:
            failpoint("last_card_stored")
            change.extend(await self._finish())
        elif computers and not stopped_early:
            await self.timer.arm()
        return change

    async def _store(
        self, first: int, batch: list[tuple[int, str, bool]], key: tuple[int, str] | None = None
    ) -> None:
        game = self.game
        assert game is not None
        due = self.person_due()
        deadline = None if due is None else self.deps.clock() + self.turn_seconds
        try:
            await self.write(
                self.deps.storage.append_actions(
                    self.id, first, batch, turn_deadline=deadline, fence=self.fence, key=key
                )
            )
        except BaseException as error:
            # The database is the truth: back to what it holds (a cancelled or failed write
            # rolls back). A mismatch means another writer: refuse, change nothing.
            self.game = Game.replay(self.rules, self.seed, game.log[:first])
            if isinstance(error, ActionConflict):
                raise SessionError("error.stale") from None
            raise
        self.timer.stored((first + len(batch), due), deadline)

    async def _computer_choice(self, seat: int, *, within: float | None = None) -> Action:
        info = self.seats[seat]
        difficulty = info.difficulty or "normal"
        # Seeded by the deal and the moves so far: the same moves meet the same answers (exact
        # in a daily, where the clock must not change them either).
        seed = (self.seed * 1_000_003 + self.n) % (1 << 62)
        return await self.deps.computers.decide(
            self.view(seat), difficulty, seed, within=within, exact=self.private
        )

    async def come_back(self, user_id: int) -> None:
        seat = self.seat_of(user_id)
        if seat is None:
            raise SessionError("error.not_seated")
        info = self.seats[seat]
        if not info.away:
            raise SessionError("error.not_away")
        info.away, info.timeouts = False, 0
        await self.write(self.deps.storage.set_seat_away(self.id, seat, False, 0, fence=self.fence))
        await self.timer.arm()

    async def time_out(self) -> Change:
        """The seat due to act ran out of time (its ``TurnTimer`` fired, or the deadline
        passed while the bot was down): the computer plays for it this once."""
        game = self.game
        assert game is not None and game.turn is not None
        seat = game.turn
        info = self.seats[seat]
        info.timeouts += 1
        if info.timeouts >= TIMEOUTS_BEFORE_AWAY:
            info.away = True
        await self.write(
            self.deps.storage.set_seat_away(
                self.id, seat, info.away, info.timeouts, fence=self.fence
            )
        )
        change = Change(timed_out=[seat])
        if all(s.played_by_computer for s in self.seats) and not self.private:
            # Nobody is left to play: this move is stored, then the game is abandoned (a daily
            # goes on: the computers finish it for its person, and it is scored).
            move = (seat, await self._computer_choice(seat), True)
            change.extend(await self._play([move], computers=False))
            if not game.over:
                await self.abandon("everyone_away")
                change.ended = "everyone_away"
            return change
        change.extend(await self._play([(seat, await self._computer_choice(seat), True)]))
        return change

    async def deadline_passed(self, n: int) -> None:
        """The timer's deadline for version ``n`` passed (``TurnTimer``): time the turn out, or
        expire the lobby, unless someone acted first."""
        presenter = self.deps.presenter
        try:
            async with self.lock:
                if self.closed or n != self.n:
                    return  # someone acted first
                if self.status == "lobby":
                    await self.abandon("expired")
                    await presenter.lobby_expired(self)
                    return
                change = await self.time_out()
            await presenter.show(self, change)
        except GameLost:
            return  # logged; the shard's holder runs the game's timers now
        except Exception:
            log.exception("timer of game %s failed", self.id)

    # -- the end ---------------------------------------------------------------------------------

    def result(self) -> GameResult:
        """Places, tricks and exchanges of every seat, for the leaderboard."""
        game = self.game
        assert game is not None and game.winners is not None
        rules = game.rules
        scores = game.scores
        better = -1 if rules.kind.higher_wins else 1  # Nines: lowest wins
        tricks = [0] * self.players
        swaps = [0] * self.players
        exchanges = [0] * self.players
        for hand in game.hands_log:
            if hand.result is not None:
                for s, t in enumerate(hand.result.tricks_won):
                    tricks[s] += t
            for s, swap in hand.exchange:
                exchanges[s] += 1
                swaps[s] += int(swap)
        seats = []
        for i, info in enumerate(self.seats):
            mine = scores[rules.unit_of(i)]
            place = 1 + sum(1 for u in range(rules.units) if better * scores[u] < better * mine)
            if i in game.winners:
                place = 1
            seats.append(
                SeatResult(
                    seat=i,
                    player_key=info.key,
                    name=info.name,
                    is_computer=info.is_computer,
                    place=place,
                    tricks=tricks[i],
                    hands=game.hand_number,
                    swaps=swaps[i],
                    exchanges=exchanges[i],
                    final_score=mine,
                )
            )
        return GameResult(game.winners, game.hand_number, tuple(seats))

    async def _finish(self) -> Change:
        await self.write(self.deps.storage.finish_game(self.id, self.result(), fence=self.fence))
        self.status, self.end_reason = "finished", "completed"
        self.close()
        return Change(ended="finished")

    async def abandon(self, reason: str) -> None:
        await self.write(self.deps.storage.abandon_game(self.id, reason, fence=self.fence))
        self.status, self.end_reason = "abandoned", reason
        self.close()

    def close(self) -> None:
        """Stop running the game here: its timer stops and its registry forgets it."""
        super().close()
        self.timer.cancel()
        if self._registry is not None:
            self._registry.forget(self)

    # -- the messages' marks ---------------------------------------------------------------------

    async def lobby_posted(self, message_id: int) -> None:
        """The lobby message was posted (again, after a restart): its id, stored."""
        self.lobby_message_id = message_id
        await self.deps.storage.update_game(self.id, fence=self.fence, lobby_message_id=message_id)

    async def move_to_thread(self, thread_id: int) -> None:
        """The game's table now runs in a thread opened from its lobby message; the lobby's
        channel still finds it."""
        await self.deps.storage.update_game(self.id, fence=self.fence, thread_id=thread_id)
        if self._registry is None:
            self.channel_id = thread_id
        else:
            self._registry.move_to_thread(self, thread_id)

    async def end_announced(self) -> None:
        """The game's end stands in its channel (or cannot be told): nothing more is owed, and
        a restart does not announce it again."""
        await self.deps.storage.update_game(self.id, fence=self.fence, announced=True)


__all__ = [
    "DEFAULT_TURN_SECONDS",
    "Change",
    "ChannelBusy",
    "ChatPresenter",
    "Deps",
    "GameLost",
    "GameSession",
    "Presenter",
    "SeatInfo",
    "SessionError",
    "SessionState",
    "stored_rules",
]
