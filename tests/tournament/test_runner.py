"""A whole tournament run by bot/tournament/runner.py on real sessions and a real SQLite file,
without Discord (a recording presenter): ten people and computers over three rounds at tables
of three, with a late join, a drop, every table running past its deadline (computers finish
it), a restart between rounds and one during a round, ending in the standings the scoring
rule gives from the tables' stored scores."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

from bot.app import NinesBot
from bot.base import Settings
from bot.game import Change, Computers, GameSession, Sessions
from bot.storage import Storage
from bot.storage.tournament_values import PairedTable, TournamentRow, TournamentSpec
from bot.tournament import TournamentError, TournamentRunner
from bot.tournament.standings import Standing, TableResult, standings
from fakecord.clock import FakeClock
from tests.test_layers import RecordingPresenter

GUILD, CHANNEL, HOST = 7, 20, 1


class Shown:
    """What the runner asked to show."""

    def __init__(self) -> None:
        self.threads = itertools.count(5000)
        self.opened: list[PairedTable] = []
        self.standings: list[tuple[int, bool, list[Standing]]] = []
        self.registrations = 0
        self.game_changes = 0


class RecordingTournamentPresenter:
    def __init__(self, shown: Shown) -> None:
        self.shown = shown

    async def open_thread(self, tournament: TournamentRow, table: PairedTable) -> int:
        return next(self.shown.threads)

    async def table_opened(
        self, tournament: TournamentRow, table: PairedTable, session: GameSession, change: Change
    ) -> None:
        self.shown.opened.append(table)

    async def show_game(self, session: GameSession, change: Change) -> None:
        self.shown.game_changes += 1

    async def registration_changed(self, tournament: TournamentRow) -> None:
        self.shown.registrations += 1

    async def standings(
        self, tournament: TournamentRow, rows: Sequence[Standing], final: bool
    ) -> None:
        self.shown.standings.append((tournament.current_round, final, list(rows)))


class Process:
    """One run of the bot: its sessions and runner over the shared database."""

    def __init__(self, storage: Storage, computers: Computers, clock: FakeClock, shown: Shown):
        self.bot = NinesBot(Settings(token="a.b.c"), storage, computers)
        self.sessions: Sessions = self.bot.plug_in(RecordingPresenter())
        self.runner = TournamentRunner(
            self.sessions, RecordingTournamentPresenter(shown), clock.now
        )

    async def start(self) -> None:
        restored = await self.sessions.restore()
        await self.runner.resume()
        await self.sessions.resume(restored)
        await self.runner.idle()

    async def stop(self) -> None:
        self.runner.close()
        await self.sessions.close()


async def past_deadline(process: Process, clock: FakeClock, storage: Storage, tid: int) -> None:
    t = await storage.tournament(tid)
    assert t is not None and t.round_deadline is not None
    clock.advance(t.round_deadline - clock.now() + 1)
    await process.runner.recheck()
    await process.runner.idle()  # each table's end, then the next round's opening


async def test_a_tournament_of_ten_over_three_rounds(tmp_path: Path) -> None:
    clock = FakeClock()
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    computers = Computers(0)
    shown = Shown()
    process = Process(storage, computers, clock, shown)
    try:
        with_error = None
        try:
            await process.runner.create(
                TournamentSpec(GUILD, CHANNEL, HOST, "Cup", "classic", 4, 3, 600, 30, False, 9)
            )
        except TournamentError as error:
            with_error = error.key
        assert with_error == "tournament.error.seats"  # classic seats three

        t = await process.runner.create(
            TournamentSpec(GUILD, CHANNEL, HOST, "Cup", "classic", 3, 3, 600, 30, False, 9)
        )
        for user in range(101, 111):  # ten people
            assert await process.runner.join(t.id, user, f"p{user}") == 1
        await process.runner.start(t.id)
        round_one = await storage.tournament_tables(t.id, 1)
        # Ten at tables of three: four tables, two computers, nobody sitting out.
        assert len(round_one) == 4
        assert sorted(p for x in round_one for p in x.players if p) == list(range(101, 111))
        assert sum(p is None for x in round_one for p in x.players) == 2
        assert all(x.game_id is not None and process.sessions.get(x.game_id) for x in round_one)

        # A late join and a drop during round one: both from round two.
        assert await process.runner.join(t.id, 111, "late") == 2
        await process.runner.leave(t.id, 104)

        # A restart during round one: the games and the tournament come back, nothing paired
        # again.
        await process.stop()
        process = Process(storage, computers, clock, shown)
        await process.start()
        assert await storage.tournament_tables(t.id, 1) == round_one
        assert all(process.sessions.get(x.game_id or 0) for x in round_one)

        await past_deadline(process, clock, storage, t.id)  # computers finish round one
        assert all(x.finished for x in await storage.tournament_tables(t.id, 1))
        round_two = await storage.tournament_tables(t.id, 2)
        seated = sorted(p for x in round_two for p in x.players if p)
        assert seated == sorted([*range(101, 104), *range(105, 112)])  # 104 dropped, 111 joined

        # A restart between rounds: round two's games are running; round three is not paired
        # twice whatever happens next.
        await process.stop()
        process = Process(storage, computers, clock, shown)
        await process.start()
        await past_deadline(process, clock, storage, t.id)
        await process.stop()
        process = Process(storage, computers, clock, shown)
        await process.start()
        await past_deadline(process, clock, storage, t.id)

        final = await storage.tournament(t.id)
        assert final is not None and (final.status, final.current_round) == ("finished", 3)
        tables = await storage.tournament_tables(t.id)
        assert [x.round for x in tables].count(3) == 4 and all(x.finished for x in tables)
        # Each game opened once: one game per table, and every table's game is marked.
        assert len({x.game_id for x in tables}) == len(tables)
        for x in tables:
            assert await storage.tournament_of_game(x.game_id or 0) == t.id

        # The standings shown at the end are the scoring rule's over the stored scores.
        entrants = [str(e.user_id) for e in await storage.entrants(t.id)]
        expected = standings(
            entrants,
            [
                TableResult(
                    x.round,
                    tuple(None if p is None else str(p) for p in x.players),
                    x.scores or (),
                    False,
                )
                for x in tables
            ],
            duplicate=False,
        )
        assert [(r, f) for r, f, _ in shown.standings] == [(1, False), (2, False), (3, True)]
        assert shown.standings[-1][2] == expected
        by_person = {s.person: s for s in expected}
        assert by_person["104"].games == 1 and by_person["111"].games == 2
        assert sum(s.points for s in expected) > 0
        with_error = None
        try:
            await process.runner.join(t.id, 120, "too late")
        except TournamentError as error:
            with_error = error.key
        assert with_error == "tournament.error.over"
    finally:
        await process.stop()
        await computers.close()
        await storage.close()
