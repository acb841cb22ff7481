"""Running tournaments: registration, rounds paired and opened, tables ended, standings, the end.

Every step reads and writes the tournament's stored state (storage/tournaments.py) and keeps
only timers in memory, so a restart (``resume``) picks up where the last process stopped: a
round is paired once (a conditional write), a table's game opened once (its game id stored),
and a table whose game ended while the bot was down is scored from the game's stored moves.
What is shown in Discord (threads, pings, the registration message, the standings) is the
``TournamentPresenter``'s; this module has no Discord in it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from engine import Game, Rules, find_ruleset, parse_action

from ..i18n import tr
from ..session import GameSession
from ..session_values import Change, SeatInfo
from ..sessions import Sessions
from ..storage import Seat
from ..storage.tournament_values import Entrant, PairedTable, TournamentRow, TournamentSpec
from .pairing import History, pair_round
from .standings import Standing, TableResult, standings

log = logging.getLogger(__name__)

#: The computers' level at a tournament's tables.
COMPUTER_LEVEL = "normal"


class TournamentError(Exception):
    """A refusal for the person who asked: a catalogue key and its values."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class TournamentPresenter(Protocol):
    """What a tournament shows (the cog's, in Discord)."""

    async def open_thread(self, tournament: TournamentRow, table: PairedTable) -> int:
        """A thread for the table's game in the tournament's channel; its id."""
        ...

    async def table_opened(
        self, tournament: TournamentRow, table: PairedTable, session: GameSession, change: Change
    ) -> None:
        """The table's game started: its people pinged in its thread, the table shown."""
        ...

    async def show_game(self, session: GameSession, change: Change) -> None:
        """A change of a table's game (computers finishing it after the deadline)."""
        ...

    async def registration_changed(self, tournament: TournamentRow) -> None: ...

    async def standings(
        self, tournament: TournamentRow, rows: Sequence[Standing], final: bool
    ) -> None: ...


def table_seed(tournament: TournamentRow, round_number: int, table_no: int) -> int:
    """The deal of a table: its own, or in duplicate the round's, the same at every table."""
    which = 0 if tournament.duplicate else table_no
    return random.Random(f"{tournament.seed}:{round_number}:{which}").getrandbits(62)


def rules_of(tournament: TournamentRow) -> Rules:
    return Rules.from_settings(tournament.ruleset, tournament.settings)


class TournamentRunner:
    """The tournaments of this process: their steps, and their round deadlines as loop timers."""

    def __init__(
        self,
        sessions: Sessions,
        presenter: TournamentPresenter,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.sessions = sessions
        self.storage = sessions.deps.storage
        self.presenter = presenter
        self.clock = clock or sessions.deps.clock
        self._tables: dict[int, tuple[int, int, int]] = {}  # game id -> (tournament, round, no)
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        sessions.closed_listeners.append(self._closed)

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def _get(self, tournament_id: int) -> TournamentRow:
        found = await self.storage.tournament(tournament_id)
        if found is None:
            raise TournamentError("tournament.error.unknown")
        return found

    # -- registration --------------------------------------------------------------------------

    async def create(self, spec: TournamentSpec) -> TournamentRow:
        """A new tournament open for registration; refused in words if its settings clash."""
        ruleset = find_ruleset(spec.ruleset)
        if ruleset.players != spec.seats:
            raise TournamentError(
                "tournament.error.seats", ruleset=ruleset.name, seats=ruleset.players
            )
        Rules.from_settings(spec.ruleset, spec.settings)  # a SettingError says what is wrong
        created = await self.storage.create_tournament(spec)
        if created.start_at is not None:
            self._arm(created.id, created.start_at)  # it starts by itself then
        return created

    async def join(self, tournament_id: int, user_id: int, name: str) -> int:
        """Register; the round they enter (a late joiner: the next one)."""
        async with self._lock(tournament_id):
            t = await self._get(tournament_id)
            if not t.open:
                raise TournamentError("tournament.error.over")
            first = t.current_round + 1
            if not await self.storage.join_tournament(t.id, user_id, name, first):
                raise TournamentError("tournament.error.joined")
        await self.presenter.registration_changed(t)
        return first

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Stop being paired from the next round; played games stand."""
        async with self._lock(tournament_id):
            t = await self._get(tournament_id)
            if not t.open:
                raise TournamentError("tournament.error.over")
            if not await self.storage.leave_tournament(t.id, user_id, t.current_round + 1):
                raise TournamentError("tournament.error.not_joined")
        await self.presenter.registration_changed(t)

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        if not await self.storage.check_in(tournament_id, user_id):
            raise TournamentError("tournament.error.not_joined")

    # -- the host's commands -------------------------------------------------------------------

    async def start(self, tournament_id: int) -> None:
        """Close registration and play round one. Those who checked in play; if nobody did,
        everyone registered does."""
        async with self._lock(tournament_id):
            t = await self._get(tournament_id)
            entrants = await self.storage.entrants(t.id)
            if not entrants:
                raise TournamentError("tournament.error.nobody")
            if any(e.checked_in for e in entrants):
                for e in entrants:
                    if not e.checked_in:
                        await self.storage.leave_tournament(t.id, e.user_id, 1)
            if not await self.storage.set_tournament_status(t.id, "running", was=["registration"]):
                raise TournamentError("tournament.error.started")
            self._cancel_timer(t.id)
            await self._next_round(await self._get(t.id))
        await self.presenter.registration_changed(t)

    async def pause(self, tournament_id: int) -> None:
        """No new round starts and the round's deadline does not act until ``resume_play``
        (a deadline that passed meanwhile acts then)."""
        if not await self.storage.set_tournament_status(tournament_id, "paused", was=["running"]):
            raise TournamentError("tournament.error.not_running")
        self._cancel_timer(tournament_id)

    async def resume_play(self, tournament_id: int) -> None:
        if not await self.storage.set_tournament_status(tournament_id, "running", was=["paused"]):
            raise TournamentError("tournament.error.not_paused")
        await self._carry_on(await self._get(tournament_id))

    async def remove(self, tournament_id: int, user_id: int) -> None:
        """The host takes someone out: as a drop."""
        await self.leave(tournament_id, user_id)

    async def cancel(self, tournament_id: int) -> None:
        """Stop for good: the tables still playing are ended unrated."""
        if not await self.storage.set_tournament_status(
            tournament_id, "cancelled", was=["registration", "running", "paused"]
        ):
            raise TournamentError("tournament.error.over")
        self._cancel_timer(tournament_id)
        for table in await self.storage.tournament_tables(tournament_id):
            session = None if table.game_id is None else self.sessions.get(table.game_id)
            if session is not None:
                async with session.lock:
                    if not session.closed:
                        await session.abandon("stopped")

    # -- rounds --------------------------------------------------------------------------------

    async def _next_round(self, t: TournamentRow) -> None:
        """Pair the round after ``t``'s current one and open its tables (under the lock)."""
        number = t.current_round + 1
        entrants = await self.storage.entrants(t.id)
        tables = await self.storage.tournament_tables(t.id)
        people = [str(e.user_id) for e in entrants if e.plays(number)]
        history = History.of(tuple(_keys(table.players)) for table in tables)
        order = [s.person for s in _standings(t, entrants, tables)]
        # In a thread: pairing 1,000 people takes seconds (bench/tournament_pairing.py), an
        # exhaustive search of 12 up to ~0.8 s, and the games on the loop must not wait.
        paired = await asyncio.to_thread(
            functools.partial(
                pair_round,
                people,
                order,
                history,
                size=t.seats,
                allow_three=False,  # every ruleset seats one number of players (engine/games/)
                seed=str(t.seed),
                round_number=number,
            )
        )
        rows = [
            PairedTable(
                number,
                i,
                table_seed(t, number, i),
                tuple(None if p is None else int(p) for p in seats),
            )
            for i, seats in enumerate(paired, start=1)
        ]
        deadline = self.clock() + t.round_minutes * 60
        if not await self.storage.pair_round(t.id, number, rows, deadline):
            log.info("tournament %s: round %s was paired already", t.id, number)
        await self._carry_on(await self._get(t.id))

    async def _carry_on(self, t: TournamentRow) -> None:
        """Whatever the stored state says is due now: open the round's unopened tables, score
        tables that ended unseen, arm the deadline, or end the round."""
        if t.status != "running" or t.current_round == 0:
            return
        entrants = {e.user_id: e for e in await self.storage.entrants(t.id)}
        for table in await self.storage.tournament_tables(t.id, t.current_round):
            if table.game_id is None:
                await self._open_table(t, table, entrants)
            elif not table.finished:
                self._tables[table.game_id] = (t.id, table.round, table.table_no)
                session = self.sessions.get(table.game_id)
                if session is None:
                    await self._score_stored(t, table)
                else:  # restored with the server's turn timer: the tournament's instead
                    session.turn_seconds = t.move_timer
        if t.round_deadline is not None:
            self._arm(t.id, t.round_deadline)
        await self._round_over(await self._get(t.id))

    async def _open_table(
        self, t: TournamentRow, table: PairedTable, entrants: dict[int, Entrant]
    ) -> None:
        rules = rules_of(t)
        infos, host = seat_infos(t, table, entrants)
        thread_id = await self.presenter.open_thread(t, table)
        row = await self.storage.create_game(
            guild_id=t.guild_id,
            channel_id=thread_id,
            kind=rules.game,
            rules=rules.to_dict(),
            seed=table.seed,
            host_id=host,
            language=t.language,
            seats=[
                Seat(i, s.name, s.user_id, s.is_computer, s.difficulty) for i, s in enumerate(infos)
            ],
        )
        await self.storage.attach_table_game(t.id, table.round, table.table_no, row.id, thread_id)
        session = GameSession(
            row, infos, self.sessions.deps, players=t.seats, turn_seconds=t.move_timer
        )
        session.fence = self.sessions.deps.fence(t.guild_id)
        self.sessions.add(session)
        self._tables[row.id] = (t.id, table.round, table.table_no)
        async with session.lock:
            change = await session.lobby.start(host)
            change.extend(await session.run_computers())
        opened = PairedTable(
            table.round, table.table_no, table.seed, table.players, row.id, thread_id
        )
        await self.presenter.table_opened(t, opened, session, change)

    def _closed(self, session: GameSession) -> None:
        where = self._tables.get(session.id)
        if where is None:
            return
        task = asyncio.get_running_loop().create_task(self._table_closed(session, *where))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _table_closed(
        self, session: GameSession, tournament_id: int, round_number: int, table_no: int
    ) -> None:
        try:
            async with self._lock(tournament_id):
                t = await self._get(tournament_id)
                game = session.game
                table = (await self.storage.tournament_tables(t.id, round_number))[table_no - 1]
                if game is not None and game.over:
                    await self._record(t, table, game)
                else:  # stopped or abandoned: everyone level, it counts as played
                    await self.storage.finish_table(t.id, round_number, table_no, [0] * t.seats)
                await self._round_over(await self._get(t.id))
        except Exception:
            log.exception("tournament %s: could not end table %s", tournament_id, table_no)

    async def _record(self, t: TournamentRow, table: PairedTable, game: Game) -> None:
        n = t.seats
        scores = [game.scores[game.rules.unit_of((game.first_dealer + p) % n)] for p in range(n)]
        await self.storage.finish_table(t.id, table.round, table.table_no, scores)

    async def _score_stored(self, t: TournamentRow, table: PairedTable) -> None:
        """A table whose game is not running here: ended while the bot was down (scored from
        its stored moves), or still live elsewhere (left to its holder)."""
        assert table.game_id is not None
        row = await self.storage.game(table.game_id)
        if row is None or row.status in ("lobby", "live"):
            return
        actions = [(a.seat, parse_action(a.action)) for a in await self.storage.actions(row.id)]
        game = Game.replay(rules_of(t), row.seed, actions)
        if game.over:
            await self._record(t, table, game)
        else:
            await self.storage.finish_table(t.id, table.round, table.table_no, [0] * t.seats)

    async def _round_over(self, t: TournamentRow) -> None:
        """If every table of the round has ended: the standings, then the next round (at once,
        or after the host's break) or the end (under the lock)."""
        if t.status != "running" or t.current_round == 0:
            return
        tables = await self.storage.tournament_tables(t.id)
        if any(not x.finished for x in tables if x.round == t.current_round):
            return
        if t.next_round_at is not None:  # standings shown; the break runs until then
            if t.next_round_at <= self.clock():
                await self._next_round(t)
            else:
                self._arm(t.id, t.next_round_at)
            return
        self._cancel_timer(t.id)
        entrants = await self.storage.entrants(t.id)
        rows = _standings(t, entrants, tables)
        final = t.current_round >= t.rounds
        if final:
            if not await self.storage.set_tournament_status(t.id, "finished", was=["running"]):
                return
            t = await self._get(t.id)
        await self.presenter.standings(t, rows, final)
        if final:
            return
        if t.break_minutes:
            at = self.clock() + t.break_minutes * 60
            await self.storage.schedule_next_round(t.id, at)
            self._arm(t.id, at)
        else:
            await self._next_round(t)

    async def standings_now(self, tournament_id: int) -> tuple[TournamentRow, list[Standing]]:
        t = await self._get(tournament_id)
        entrants = await self.storage.entrants(t.id)
        return t, _standings(t, entrants, await self.storage.tournament_tables(t.id))

    # -- deadlines -----------------------------------------------------------------------------

    def _arm(self, tournament_id: int, deadline: float) -> None:
        self._cancel_timer(tournament_id)
        delay = max(0.0, deadline - self.clock())
        self._timers[tournament_id] = asyncio.get_running_loop().call_later(
            delay, self._fire, tournament_id
        )

    async def recheck(self) -> None:
        """Look at every running tournament's deadline again (the clock moved: a test's fake
        clock, or a suspended host), acting at once on any that passed."""
        for t in await self.storage.open_tournaments():
            at = _due_at(t)
            if at is None:
                continue
            if at <= self.clock():
                self._cancel_timer(t.id)
                await self.due(t.id)
            else:
                self._arm(t.id, at)

    def _cancel_timer(self, tournament_id: int) -> None:
        handle = self._timers.pop(tournament_id, None)
        if handle is not None:
            handle.cancel()

    def _fire(self, tournament_id: int) -> None:
        self._timers.pop(tournament_id, None)
        task = asyncio.get_running_loop().create_task(self.due(tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def due(self, tournament_id: int) -> None:
        """A timer fired: the start time of a tournament in registration (it starts; with
        nobody registered it stays open), the end of a break between rounds, else the round's
        deadline."""
        t = await self._get(tournament_id)
        if t.status == "registration" and t.start_at is not None:
            if t.start_at > self.clock():
                self._arm(t.id, t.start_at)
                return
            try:
                await self.start(t.id)
            except TournamentError as refusal:
                log.info("tournament %s did not start at its time: %s", t.id, refusal.key)
            return
        if t.status == "running" and t.next_round_at is not None:
            async with self._lock(t.id):
                await self._round_over(await self._get(t.id))  # the break is over
            return
        await self.deadline_passed(tournament_id)

    async def deadline_passed(self, tournament_id: int) -> None:
        """If the round's deadline has passed: computers finish the tables still playing, as a
        timed-out turn does (each person's seat played by the computer)."""
        t = await self._get(tournament_id)
        if t.status != "running" or t.round_deadline is None:
            return
        if t.round_deadline > self.clock():
            self._arm(t.id, t.round_deadline)  # fired early (a clock moved): wait again
            return
        for table in await self.storage.tournament_tables(t.id, t.current_round):
            session = None if table.game_id is None else self.sessions.get(table.game_id)
            if session is None or table.finished:
                continue
            async with session.lock:
                if session.closed:
                    continue
                for i, info in enumerate(session.seats):
                    if not info.played_by_computer:
                        info.away = True
                        await session.write(
                            self.storage.set_seat_away(
                                session.id, i, True, info.timeouts, fence=session.fence
                            )
                        )
                change = Change(timed_out=[i for i, s in enumerate(session.seats) if s.user_id])
                change.extend(await session.run_computers())
            await self.presenter.show_game(session, change)

    # -- start-up and shut-down ----------------------------------------------------------------

    async def resume(self) -> None:
        """After a restart (the games restored first): every open tournament carries on."""
        for t in await self.storage.open_tournaments():
            if t.status == "registration" and t.start_at is not None:
                self._arm(t.id, t.start_at)
            async with self._lock(t.id):
                for table in await self.storage.tournament_tables(t.id):
                    if table.game_id is not None:
                        self._tables[table.game_id] = (t.id, table.round, table.table_no)
                await self._carry_on(t)

    async def idle(self) -> None:
        """Wait for the tasks the runner started (tables ending, deadlines) to be done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def close(self) -> None:
        for tournament_id in list(self._timers):
            self._cancel_timer(tournament_id)
        if self._closed in self.sessions.closed_listeners:
            self.sessions.closed_listeners.remove(self._closed)


def seat_infos(
    t: TournamentRow, table: PairedTable, entrants: dict[int, Entrant]
) -> tuple[list[SeatInfo], int]:
    """A table's seats in game order (its seat positions turned so position 0 is the game's
    first dealer) and the person who hosts its game (the first person seated)."""
    first = Game(rules_of(t), table.seed).first_dealer
    by_seat: list[int | None] = [None] * t.seats
    for position, user in enumerate(table.players):
        by_seat[(first + position) % t.seats] = user
    infos: list[SeatInfo] = []
    for i, user in enumerate(by_seat):
        if user is None:
            names = tr(t.language, f"computer.names.{COMPUTER_LEVEL}").split(", ")
            infos.append(SeatInfo(f"🤖 {names[i % len(names)]}", None, COMPUTER_LEVEL))
        else:
            infos.append(SeatInfo(entrants[user].name if user in entrants else "?", user))
    return infos, next(u for u in by_seat if u is not None)


def _standings(
    t: TournamentRow, entrants: Sequence[Entrant], tables: Sequence[PairedTable]
) -> list[Standing]:
    """The standings of the tables ended so far (standings.py's rule)."""
    ruleset = find_ruleset(t.ruleset)
    results = [
        TableResult(
            x.round,
            tuple(_keys(x.players)),
            x.scores,
            ruleset.kind.higher_wins,
            _teams_by_position(t, x, ruleset.teams),
        )
        for x in tables
        if x.scores is not None
    ]
    return standings([str(e.user_id) for e in entrants], results, t.duplicate)


def _due_at(t: TournamentRow) -> float | None:
    """When a timer of the tournament is due: its start, or its round's deadline."""
    if t.status == "registration":
        return t.start_at
    if t.status != "running":
        return None
    return t.round_deadline if t.next_round_at is None else t.next_round_at


def _keys(players: Sequence[int | None]) -> list[str | None]:
    return [None if p is None else str(p) for p in players]


def _teams_by_position(
    t: TournamentRow, table: PairedTable, teams: tuple[tuple[int, ...], ...] | None
) -> tuple[tuple[int, ...], ...] | None:
    """The ruleset's teams (by seat) as seat positions at this table."""
    if teams is None:
        return None
    first = Game(rules_of(t), table.seed).first_dealer
    return tuple(tuple(sorted((s - first) % t.seats for s in team)) for team in teams)
