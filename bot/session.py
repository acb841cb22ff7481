"""One session per live game: the engine game, its seats, a lock, its timers, its storage.

Everything that changes a game goes through ``GameSession`` under its lock, in this order:
check with the engine, apply to the engine game in memory, store (a click's move and the
computer moves that follow it in one write), then tell the presenter (the Discord side, in
``cogs/nines``) what changed. A write that fails puts the game back as the database holds it
(replayed from its stored actions): nobody is told of a move that was not stored, and a restart
at any moment loses nothing and applies nothing twice. The presenter keeps each game's
messages in order with ``table_lock``; a click's table edit is started under the lock and sent
after it is released, so the next click need not wait for it.

The lobby's seat changes and the start are ``Lobby``'s (``bot/lobby.py``), the deadlines
``TurnTimer``'s (``bot/turn_timer.py``); only a session ends its game, and its registry
(``Sessions``) forgets it as it closes.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Final, Protocol, TypeVar

from engine import (
    Action,
    Game,
    IllegalAction,
    Play,
    Rules,
    SeatView,
    parse_action,
    seat_view,
)
from engine.duplicate import Rotations

from .computer import Computers
from .failpoints import failpoint
from .lobby import Lobby
from .session_values import Change, GameLost, SeatInfo, SessionError
from .storage import (
    ActionConflict,
    ChannelBusy,
    Fence,
    FencedOut,
    GameResult,
    GameRow,
    Seat,
    SeatResult,
    Storage,
)
from .turn_timer import TurnTimer

log = logging.getLogger(__name__)

T = TypeVar("T")

LOBBY_SECONDS: Final = 15 * 60
DEFAULT_TURN_SECONDS: Final = 120
TIMEOUTS_BEFORE_AWAY: Final = 2  # time-outs in a row before the computer keeps the seat


def stored_rules(row: GameRow) -> Rules:
    """A stored game's rules. Storage keeps them as their dict (``Rules.to_dict``, written by
    ``Sessions.open_lobby``); the bot passes ``Rules`` everywhere else."""
    return Rules.from_dict(row.rules)


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


class GameSession:
    """A lobby or a game in progress in one channel (or thread): its seats, its engine game,
    the lock every change takes, its ``lobby`` (seat changes, the start) and its ``timer``."""

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
        self.lock = asyncio.Lock()
        #: Keeps the presenter's table edits of this game in order. Not ``lock``: a table edit
        #: is a Discord round trip, and the next click must not wait for it.
        self.table_lock = asyncio.Lock()
        self.lobby: Final = Lobby(self)
        self.timer: Final = TurnTimer(self)
        self.closed = False
        #: A daily deal (bot/daily.py): played by one person alone, shown to them only (the
        #: presenter posts nothing of it in a channel but one line at the end), its computers'
        #: choices exact, and finished by the computers when the person is away.
        self.private = False
        #: A duplicate match's game (bot/duplicate_match.py): the match's games before it, for
        #: its sheet's running duplicate result. None for any other game.
        self.duplicate: Rotations | None = None
        #: Stamped on every write of the game (storage's fencing.py): the lease under which
        #: this process runs it, set by Sessions when it opens or restores the game. A
        #: session never outlives its lease: a new lease, a new session.
        self.fence: Fence | None = None
        #: The registry that runs this session, told when it closes.
        self._registry: Sessions | None = None

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
        self.closed = True
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


class Sessions:
    """Every open game of the process, by id and by channel."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self._by_id: dict[int, GameSession] = {}
        #: Set when no restore is under way: a click that finds no game waits for it.
        self._restored = asyncio.Event()
        self._restored.set()
        self._restoring = 0
        self._by_channel: dict[int, GameSession] = {}
        #: Told when a game starts running here or is found in a new channel (a lobby
        #: opened, a game restored or taken over, a table moved to its thread): the
        #: Activity's pages waiting in a channel with no game sit down at it
        #: (bot/activity/waiting.py). Must not block.
        self.opened: Callable[[GameSession], None] | None = None
        #: Told of each session that closes (its game ended), e.g. a tournament whose table it
        #: was (bot/tournament/runner.py). Called, not awaited: a listener starts its own task.
        self.closed_listeners: list[Callable[[GameSession], None]] = []
        #: Awaited with the sessions of each restore, before anything is shown of them: what
        #: a game keeps beside its row (a duplicate match's earlier games,
        #: bot/duplicate_match.py) is read again.
        self.restore_hooks: list[Callable[[list[GameSession]], Awaitable[None]]] = []

    def __len__(self) -> int:
        return len(self._by_id)

    def get(self, game_id: int) -> GameSession | None:
        session = self._by_id.get(game_id)
        return None if session is None or session.closed else session

    def in_channel(self, channel_id: int) -> GameSession | None:
        session = self._by_channel.get(channel_id)
        return self.get(session.id) if session else None

    def all(self) -> list[GameSession]:
        return [s for s in list(self._by_id.values()) if self.get(s.id)]

    def seated(self, guild_id: int | None, user_id: int) -> GameSession | None:
        """The open lobby or game of this server where ``user_id`` has a seat, if any."""
        for session in self.all():
            if session.private:
                continue  # a daily is played apart from the server's games
            if session.guild_id == guild_id and session.seat_of(user_id) is not None:
                return session
        return None

    def add(self, session: GameSession) -> None:
        """Run ``session`` here: found by its id, its table's channel and its lobby's, until
        it closes."""
        session._registry = self
        self._by_id[session.id] = session
        self._by_channel[session.channel_id] = session
        # A game in its own thread is found from its lobby's channel too (after a restart).
        self._by_channel.setdefault(session.lobby_channel_id, session)
        if self.opened is not None:
            self.opened(session)

    def move_to_thread(self, session: GameSession, thread_id: int) -> None:
        """``session``'s table now runs in a thread (``GameSession.move_to_thread``); the
        lobby's channel still finds it."""
        session.channel_id = thread_id
        self._by_channel[thread_id] = session
        self._by_channel[session.lobby_channel_id] = session
        if self.opened is not None:
            self.opened(session)

    def forget(self, session: GameSession) -> None:
        """``session`` closed (``GameSession.close``): it is found no more."""
        if self._by_id.get(session.id) is session:
            del self._by_id[session.id]
        for channel_id in (session.channel_id, session.lobby_channel_id):
            if self._by_channel.get(channel_id) is session:
                del self._by_channel[channel_id]
        for listener in self.closed_listeners:
            listener(session)

    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        rules: Rules,
        host_id: int,
        host_name: str,
        language: str,
        turn_seconds: float,
    ) -> GameSession:
        """A new lobby with its host seated. Raises ChannelBusy if the channel has a game."""
        storage = self.deps.storage
        row = await storage.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            kind=rules.game,
            rules=rules.to_dict(),
            seed=random.SystemRandom().getrandbits(62),
            host_id=host_id,
            language=language,
            seats=[Seat(0, host_name, host_id)],  # stored with the game: one write (issue 31)
        )
        session = GameSession(
            row,
            [SeatInfo(host_name, host_id)],
            self.deps,
            players=rules.players,
            turn_seconds=turn_seconds,
        )
        session.fence = self.deps.fence(guild_id)
        await session.timer.arm()
        self.add(session)
        return session

    async def restore(self, serves: Callable[[int], bool] | None = None) -> list[GameSession]:
        """Rebuild every open game from storage after a start; timers resume. Ended games
        whose end their channel was not told yet come back too, closed, to be announced.
        ``serves`` (a sharded bot): only the games of the guilds it says this process serves,
        and not those it already runs."""
        self._restoring += 1
        self._restored.clear()
        try:
            return await self._restore(serves)
        finally:
            self._restoring -= 1
            if not self._restoring:
                self._restored.set()

    @property
    def restoring(self) -> bool:
        return not self._restored.is_set()

    async def restored(self, within: float) -> bool:
        """Wait at most ``within`` seconds for the restores under way; whether they ended."""
        try:
            await asyncio.wait_for(self._restored.wait(), within)
        except TimeoutError:
            return False
        return True

    async def _restore(self, serves: Callable[[int], bool] | None) -> list[GameSession]:
        storage = self.deps.storage
        restored = []
        timers: dict[int, float] = {}  # per guild: its turn timer setting
        rows = [*await storage.live_games(), *await storage.unannounced_games()]
        dailies = await storage.daily_games(row.id for row in rows)
        for row in rows:
            if serves is not None and (not serves(row.guild_id) or row.id in self._by_id):
                continue
            seats = [
                SeatInfo(s.name, s.user_id, s.difficulty, s.away, s.timeouts)
                for s in await storage.seats(row.id)
            ]
            rules = stored_rules(row)
            game = None
            if row.status != "lobby":
                stored = await storage.actions(row.id)
                try:
                    actions = [(a.seat, parse_action(a.action)) for a in stored]
                    game = Game.replay(rules, row.seed, actions)
                except Exception:
                    log.exception("game %s does not replay; abandoning it", row.id)
                    await storage.abandon_game(
                        row.id, "corrupt", fence=self.deps.fence(row.guild_id)
                    )
                    row = replace(row, status="abandoned", end_reason="corrupt")
            session = GameSession(
                row,
                seats,
                self.deps,
                players=rules.players,
                turn_seconds=await self._turn_seconds(row.guild_id, timers),
                game=game,
            )
            session.fence = self.deps.fence(row.guild_id)
            session.private = row.id in dailies
            if row.status == "live":
                await session.load_preferences()
            if row.is_open:
                self.add(session)
            else:
                session.closed = True  # ended: only its announcement is owed
            restored.append(session)
        for hook in self.restore_hooks:
            await hook(restored)
        return restored

    async def _turn_seconds(self, guild_id: int, known: dict[int, float]) -> float:
        if guild_id not in known:
            stored = await self.deps.storage.get_guild_settings(guild_id)
            known[guild_id] = float(stored.get("turn_timer") or DEFAULT_TURN_SECONDS)
        return known[guild_id]

    async def autoplay_changed(self, user_id: int, on: bool) -> list[tuple[GameSession, Change]]:
        """A person changed their autoplay preference (stored by the caller): their seats in
        the games this process runs follow it at once, and a forced card already due plays
        now. Each game's change, to show."""

        async def follow(session: GameSession, seat: int) -> tuple[GameSession, Change] | None:
            session.seats[seat].autoplay = on
            if session.status != "live" or not session.plays_itself():
                return None
            try:
                return session, await session.run_computers()
            except GameLost:
                return None  # logged; its shard's holder runs it

        return await self._each_seat_of(user_id, follow)

    async def trumps_first_changed(self, user_id: int, on: bool) -> list[tuple[GameSession, int]]:
        """A person changed how their hand is sorted (stored by the caller): their seats in
        the games this process runs follow it at once. Each game and seat, to redraw."""

        async def follow(session: GameSession, seat: int) -> tuple[GameSession, int] | None:
            session.seats[seat].trumps_first = on
            return (session, seat) if session.status == "live" else None

        return await self._each_seat_of(user_id, follow)

    async def text_cards_changed(self, user_id: int, on: bool) -> list[tuple[GameSession, int]]:
        """A person changed whether their hand shows text cards (stored by the caller): as
        ``trumps_first_changed``, each live game and seat, to redraw."""

        async def follow(session: GameSession, seat: int) -> tuple[GameSession, int] | None:
            session.seats[seat].text_cards = on
            return (session, seat) if session.status == "live" else None

        return await self._each_seat_of(user_id, follow)

    async def _each_seat_of(
        self, user_id: int, follow: Callable[[GameSession, int], Awaitable[T | None]]
    ) -> list[T]:
        """``follow(session, seat)`` for the person's seat in each open game this process
        runs, under that game's lock; what it returned, but None."""
        followed = []
        for session in self.all():
            seat = session.seat_of(user_id)
            if seat is None:
                continue
            async with session.lock:
                if session.closed:
                    continue
                result = await follow(session, seat)
            if result is not None:
                followed.append(result)
        return followed

    def let_go(self, serves: Callable[[int], bool]) -> int:
        """Stop running the games of the guilds ``serves`` no longer covers (their shard went
        to another process, which restores them); how many."""
        gone = [s for s in self._by_id.values() if not serves(s.guild_id)]
        for session in gone:
            session.close()
        return len(gone)

    async def close(self) -> None:
        for session in list(self._by_id.values()):
            session.close()
        # Let cancelled timers finish so nothing is left pending at shutdown.
        await asyncio.sleep(0)

    async def resume(self, restored: list[GameSession]) -> None:
        """Once connected: bring every restored game's channel up to date, saying the game was
        restored, and resume its timers. Ended games whose end was not told get it now."""
        presenter = self.deps.presenter
        for session in restored:
            try:
                async with session.lock:
                    if session.closed:  # ended before its channel was told
                        ended = "finished" if session.status == "finished" else session.end_reason
                        await presenter.show(session, Change(restored=True, ended=ended))
                        continue
                    if session.status == "lobby":
                        await presenter.refresh_lobby(session)
                        session.timer.resume()
                        continue
                    change = Change(restored=True)
                    game = session.game
                    assert game is not None
                    if game.over:  # stopped between its last move and its result
                        change.extend(await session._finish())
                    elif session.plays_itself():
                        change.extend(await session.run_computers())
                    elif session.deadline is not None and session.deadline <= session.deps.clock():
                        # The turn ran out while the bot was down: time it out now, in the
                        # same table edit that says the game was restored.
                        change.extend(await session.time_out())
                    else:
                        session.timer.resume()  # a deadline that passed while down fires now
                    await presenter.show(session, change)
            except GameLost:
                continue  # logged; taken over again meanwhile
            except Exception:
                log.exception("could not restore game %s", session.id)


__all__ = [
    "Change",
    "ChannelBusy",
    "Deps",
    "GameLost",
    "GameSession",
    "Presenter",
    "SeatInfo",
    "SessionError",
    "Sessions",
]
