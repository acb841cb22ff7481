"""A restart at every seam of a tournament's steps (bot/tournament/runner.py, its ``failpoint``
names) loses nothing and repeats nothing: the process "dies" at the seam (the seam raises and
nothing of that process runs again: its sessions and timers are dropped without another
write, as after a SIGKILL), a new process resumes from storage alone, and the tournament ends
with every table's game opened once in one thread, nobody paired twice, each round's standings
posted once, and each table's people called once. Where the crash falls between a post and its
mark (the standings, a table's call) the post is made again with the same nonce, which Discord
answers with the message already made (tests/bot/test_tournament.py shows it through the
double): the presenter is asked twice, the channel shows it once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import bot.tournament.runner as runner_module
from bot.game import Computers
from bot.storage import Storage
from bot.storage.tournament_values import PairedTable, TournamentRow, TournamentSpec
from fakecord.clock import FakeClock

from .test_runner import GUILD, HOST, Process, RecordingTournamentPresenter, Shown, past_deadline

CHANNEL = 40


class Crash(BaseException):
    """The process dies here (a BaseException: no ``except Exception`` of the runner's
    catches it)."""


class Threads(RecordingTournamentPresenter):
    """Counts the threads opened, per table."""

    def __init__(self, shown: Shown, made: Counter[tuple[int, int]]) -> None:
        super().__init__(shown)
        self.made = made

    async def open_thread(self, tournament: TournamentRow, table: PairedTable) -> int:
        self.made[(table.round, table.table_no)] += 1
        return await super().open_thread(tournament, table)


#: Each seam and the how many-th time it fires when the process dies there.
SEAMS = [
    ("tournament_started", 1),  # running, round one not paired
    ("tournament_thread_opened", 2),  # table 2's thread made and stored, no game yet
    ("tournament_game_made", 2),  # table 2's game made in its thread, not attached
    ("tournament_game_started", 3),  # table 3's game dealt, its people not called
    ("tournament_table_called", 1),  # table 1's people called, not marked
    ("tournament_standings_posted", 1),  # round one's standings posted, not marked
    ("tournament_round_shown", 1),  # marked, round two not paired
]


@pytest.mark.slow(30)
@pytest.mark.parametrize(("seam", "nth"), SEAMS)
async def test_a_restart_at_each_seam_loses_nothing_and_repeats_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seam: str, nth: int
) -> None:
    left = {"count": nth, "dead": 0}

    def failpoint(name: str) -> None:
        if left["dead"]:
            raise Crash(name)  # a dead process does nothing more
        if name == seam:
            left["count"] -= 1
            if left["count"] == 0:
                left["dead"] = 1
                raise Crash(name)

    monkeypatch.setattr(runner_module, "failpoint", failpoint)
    clock = FakeClock()
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    computers = Computers(0)
    shown = Shown()
    made: Counter[tuple[int, int]] = Counter()

    def process() -> Process:
        running = Process(storage, computers, clock, shown)
        running.runner.presenter = Threads(shown, made)
        return running

    running = process()
    try:
        t = await running.runner.create(
            TournamentSpec(GUILD, CHANNEL, HOST, "Cup", "classic", 3, 2, 600, 30, False, 3)
        )
        for user in range(301, 309):  # eight people: three tables, one computer
            await running.runner.join(t.id, user, f"p{user}")
        try:
            await running.runner.start(t.id)
            await running.runner.idle()
            if not left["dead"]:
                await past_deadline(running, clock, storage, t.id)
        except Crash:
            pass
        assert left["dead"], "the seam was never reached"
        running.runner.close()  # dies: its games' timers stop, nothing more is written
        await running.sessions.close()

        running = process()
        monkeypatch.setattr(runner_module, "failpoint", lambda name: None)
        await running.start()
        for _ in range(4):
            found = await storage.tournament(t.id)
            assert found is not None
            if found.status == "finished":
                break
            await past_deadline(running, clock, storage, t.id)
        assert found.status == "finished" and found.current_round == 2

        tables = await storage.tournament_tables(t.id)
        assert [x.round for x in tables] == [1, 1, 1, 2, 2, 2]
        for number in (1, 2):
            seated = [p for x in tables if x.round == number for p in x.players if p]
            assert sorted(seated) == list(range(301, 309))  # everyone once a round
        # One thread and one game per table, and no other game made.
        assert all(made[(x.round, x.table_no)] == 1 for x in tables), made
        assert len({x.game_id for x in tables}) == 6 and all(x.finished for x in tables)
        assert await storage.live_games() == []
        ended = await storage.history(GUILD, limit=50)
        assert {r.game_id for r in ended} == {x.game_id for x in tables}
        assert all(r.status == "finished" for r in ended)
        # Each round's standings once; each table's people called once (but at the seams
        # between a post and its mark, where the same nonce makes the repeat one message).
        rounds = [(number, final) for number, final, _ in shown.standings]
        twice = seam == "tournament_standings_posted"
        assert rounds == ([(1, False)] if twice else []) + [(1, False), (2, True)]
        calls = Counter((x.round, x.table_no) for x in shown.opened)
        assert calls == {
            (x.round, x.table_no): 2 if (seam, x.round, x.table_no) == (SEAMS[4][0], 1, 1) else 1
            for x in tables
        }
    finally:
        running.runner.close()
        await running.sessions.close()
        await computers.close()
        await storage.close()
