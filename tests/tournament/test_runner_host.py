"""The host's side of a tournament (bot/tournament/runner.py) and duplicate scoring: check-in at
the start, pause (the deadline does not act) and resume (it does), removing a player, cancel
(the tables still playing end), and a duplicate round whose tables all play the same deal and
are scored in matchpoints."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from bot.game import Computers
from bot.storage import Storage
from bot.storage.tournament_values import PairedTable, TournamentSpec
from bot.tournament import TournamentError
from bot.tournament.standings import TableResult, round_points, standings
from engine.duplicate import Field, total_share
from fakecord.clock import FakeClock

from .test_runner import GUILD, HOST, Process, Shown, past_deadline

CHANNEL = 30


@pytest.fixture
async def process(tmp_path: Path) -> AsyncIterator[tuple[Process, Storage, FakeClock]]:
    clock = FakeClock()
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    computers = Computers(0)
    running = Process(storage, computers, clock, Shown())
    yield running, storage, clock
    await running.stop()
    await computers.close()
    await storage.close()


def spec(duplicate: bool = False, rounds: int = 2) -> TournamentSpec:
    return TournamentSpec(GUILD, CHANNEL, HOST, "Cup", "classic", 3, rounds, 600, 30, duplicate, 5)


async def refused(key: str, work: Awaitable[object]) -> None:
    with pytest.raises(TournamentError) as caught:
        await work
    assert caught.value.key == key


async def test_check_in_pause_resume_remove_and_cancel(
    process: tuple[Process, Storage, FakeClock],
) -> None:
    running, storage, clock = process
    runner = running.runner
    t = await runner.create(spec())
    await refused("tournament.error.nobody", runner.start(t.id))
    for user in range(201, 208):
        await runner.join(t.id, user, f"p{user}")
    for user in range(201, 207):  # 207 never checks in
        await runner.check_in(t.id, user)
    await refused("tournament.error.not_joined", runner.check_in(t.id, 299))
    await runner.start(t.id)
    await refused("tournament.error.started", runner.start(t.id))
    tables = await storage.tournament_tables(t.id, 1)
    assert sorted(p for x in tables for p in x.players if p) == list(range(201, 207))

    await runner.pause(t.id)
    await refused("tournament.error.not_running", runner.pause(t.id))
    found = await storage.tournament(t.id)
    assert found is not None and found.round_deadline is not None
    clock.advance(found.round_deadline - clock.now() + 1)
    await runner.recheck()
    await runner.idle()
    assert not any(x.finished for x in await storage.tournament_tables(t.id, 1))  # paused

    await runner.remove(t.id, 201)
    await runner.resume_play(t.id)  # the deadline that passed while paused acts now
    await runner.idle()
    assert all(x.finished for x in await storage.tournament_tables(t.id, 1))
    second = await storage.tournament_tables(t.id, 2)
    assert 201 not in {p for x in second for p in x.players}

    await runner.cancel(t.id)
    await runner.idle()
    found = await storage.tournament(t.id)
    assert found is not None and found.status == "cancelled"
    for x in second:
        game = await storage.game(x.game_id or 0)
        assert game is not None and game.status == "abandoned"
    await refused("tournament.error.over", runner.join(t.id, 250, "late"))


async def test_a_duplicate_round_plays_one_deal_scored_in_matchpoints(
    process: tuple[Process, Storage, FakeClock],
) -> None:
    running, storage, clock = process
    runner = running.runner
    t = await runner.create(spec(duplicate=True, rounds=1))
    for user in range(301, 310):  # nine people: three full tables
        await runner.join(t.id, user, f"p{user}")
    await runner.start(t.id)
    tables = await storage.tournament_tables(t.id, 1)
    assert len(tables) == 3 and len({x.seed for x in tables}) == 1  # the same deal everywhere
    await past_deadline(running, clock, storage, t.id)
    tables = await storage.tournament_tables(t.id, 1)
    _, rows = await runner.standings_now(t.id)
    assert all(x.boards is not None and len(x.boards) == 3 for x in tables)
    results = [
        TableResult(1, tuple(str(p) for p in x.players), x.scores or (), False, None, x.boards)
        for x in tables
    ]
    points = round_points(results, duplicate=True, scale=2)
    assert {r.person: r.points for r in rows} == points
    # Compared hand by hand, not by the final score alone: the boards decide.
    field = Field()
    for x in tables:
        for position, boards in enumerate(x.boards or ()):
            field.add(position, boards)
    first = tables[0]
    share = total_share(field.score(0, (first.boards or ())[0]))
    assert share is not None and points[str(first.players[0])] == pytest.approx(share * 2)
    final = await storage.tournament(t.id)
    assert final is not None and final.status == "finished"


async def test_a_break_between_rounds_waits_for_its_time_even_across_a_restart(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    computers = Computers(0)
    shown = Shown()
    running = Process(storage, computers, clock, shown)
    try:
        spec_ = TournamentSpec(
            GUILD, CHANNEL, HOST, "Cup", "classic", 3, 2, 600, 30, False, 5, break_minutes=10
        )
        t = await running.runner.create(spec_)
        for user in range(401, 404):
            await running.runner.join(t.id, user, f"p{user}")
        await running.runner.start(t.id)
        await past_deadline(running, clock, storage, t.id)
        found = await storage.tournament(t.id)
        assert found is not None and found.current_round == 1 and found.next_round_at is not None
        assert [(r, f) for r, f, _ in shown.standings] == [(1, False)]  # shown once, at the end

        await running.stop()  # a restart during the break: it keeps its time
        running = Process(storage, computers, clock, shown)
        await running.start()
        assert await storage.tournament_tables(t.id, 2) == []
        assert len(shown.standings) == 1
        clock.advance(found.next_round_at - clock.now() + 1)
        await running.runner.recheck()
        await running.runner.idle()
        assert len(await storage.tournament_tables(t.id, 2)) == 1
    finally:
        await running.stop()
        await computers.close()
        await storage.close()


async def test_a_four_player_tournament_seats_its_remainder_at_classic_tables_of_three(
    process: tuple[Process, Storage, FakeClock],
) -> None:
    """Ten people in four-player: a table of four and two of three playing classic Nines, no
    computer; places scaled so a three-seat table's first is worth a four-seat table's (3).
    In duplicate every table plays the same deal, so computers fill the seats instead."""
    running, storage, clock = process
    runner = running.runner
    t = await runner.create(
        TournamentSpec(GUILD, CHANNEL, HOST, "Cup", "four-player", 4, 2, 600, 30, False, 6)
    )
    for user in range(501, 511):
        await runner.join(t.id, user, f"p{user}")
    await runner.start(t.id)
    for number in (1, 2):
        tables = await storage.tournament_tables(t.id, number)
        assert sorted(x.seats for x in tables) == [3, 3, 4]
        assert all(p is not None for x in tables for p in x.players)
        for x in tables:
            game = await storage.game(x.game_id or 0)
            assert game is not None
            assert game.rules["ruleset"] == ("four-player" if x.seats == 4 else "classic")
        await past_deadline(running, clock, storage, t.id)
    found = await storage.tournament(t.id)
    assert found is not None and found.status == "finished"
    tables = await storage.tournament_tables(t.id)
    expected = standings(
        [str(u) for u in range(501, 511)],
        [
            TableResult(x.round, tuple(str(p) for p in x.players), x.scores or (), False)
            for x in tables
        ],
        duplicate=False,
        scale=3,
    )
    _, rows = await runner.standings_now(t.id)
    assert rows == expected
    for x in tables:  # whoever finished alone at the top of any table took 3
        best = min(x.scores or ())
        if (x.scores or ()).count(best) == 1:
            winner = str(x.players[(x.scores or ()).index(best)])
            assert round_points([_result(x)], False, 3)[winner] == 3.0

    dup = await runner.create(
        TournamentSpec(GUILD, CHANNEL + 1, HOST, "Dup", "four-player", 4, 1, 600, 30, True, 6)
    )
    for user in range(601, 611):
        await runner.join(dup.id, user, f"p{user}")
    await runner.start(dup.id)
    tables = await storage.tournament_tables(dup.id, 1)
    assert [x.seats for x in tables] == [4, 4, 4] and len({x.seed for x in tables}) == 1
    assert sum(p is None for x in tables for p in x.players) == 2


def _result(x: PairedTable) -> TableResult:
    return TableResult(x.round, tuple(str(p) for p in x.players), x.scores or (), False)
