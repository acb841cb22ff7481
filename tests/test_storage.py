"""bot.storage against a real database per test, no mocks: each test that takes ``backend`` (or
``storage``) runs on a SQLite file and on PostgreSQL (tests/storage_backends.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import (
    FORMER_PLAYER_KEY,
    FORMER_PLAYER_NAME,
    ActionConflict,
    ChannelBusy,
    GameKind,
    GameNotFound,
    GameResult,
    GameRow,
    GameStateError,
    Migration,
    Seat,
    SeatResult,
    Storage,
    load_migrations,
)
from bot.storage import postgres as postgres_driver
from bot.storage.driver import Tx
from bot.storage.sqlite import _migrate
from tests.storage_backends import RAW_INTEGRITY_ERRORS, Backend

GUILD = 100


class Clock:
    """A hand-moved clock so timestamps in assertions are exact."""

    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t

    def tick(self, seconds: float = 1.0) -> None:
        self.t += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nines.sqlite3"


@pytest.fixture
async def storage(backend: Backend, clock: Clock) -> AsyncIterator[Storage]:
    store = await backend.open(now=clock)
    yield store
    await store.close()


async def new_game(
    storage: Storage,
    channel_id: int = 1,
    *,
    guild_id: int = GUILD,
    kind: GameKind = "nines",
    host_id: int = 11,
    thread_id: int | None = None,
) -> GameRow:
    return await storage.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        kind=kind,
        rules={"variant": "classic", "hands": 4},
        seed=42,
        host_id=host_id,
        thread_id=thread_id,
    )


def person(seat: int, user_id: int, name: str | None = None) -> Seat:
    return Seat(seat, name or f"user{user_id}", user_id=user_id)


def computer(seat: int, difficulty: str = "hard") -> Seat:
    return Seat(seat, f"Bot {seat} ({difficulty})", is_computer=True, difficulty=difficulty)


async def seated_game(
    storage: Storage, seats: list[Seat], channel_id: int = 1, *, guild_id: int = GUILD
) -> GameRow:
    game = await new_game(storage, channel_id, guild_id=guild_id)
    await storage.set_seats(game.id, seats)
    return await storage.update_game(game.id, status="live")


def result_for(seats: list[Seat], places: list[int], *, hands: int = 4) -> GameResult:
    """A result where seat i finishes at places[i]; best place wins."""
    best = min(places)
    return GameResult(
        winners=tuple(s.seat for s, p in zip(seats, places, strict=True) if p == best),
        hands_played=hands,
        seats=tuple(
            SeatResult(
                seat=s.seat,
                player_key=s.player_key,
                name=s.name,
                is_computer=s.is_computer,
                place=p,
                tricks=10 - p,
                hands=hands,
                swaps=p,
                exchanges=hands,
                final_score=100 - 10 * p,
            )
            for s, p in zip(seats, places, strict=True)
        ),
    )


async def play_and_finish(
    storage: Storage,
    seats: list[Seat],
    places: list[int],
    channel_id: int = 1,
    *,
    guild_id: int = GUILD,
) -> GameRow:
    game = await seated_game(storage, seats, channel_id, guild_id=guild_id)
    assert await storage.finish_game(game.id, result_for(seats, places))
    return game


# --- opening, migrations, durability ------------------------------------------------------------


async def test_fresh_database_is_migrated_to_the_latest_version(
    storage: Storage, backend: Backend
) -> None:
    migrations = load_migrations(backend.name)
    versions = [m.version for m in migrations]
    assert versions == sorted(set(versions)) and versions[0] == 1
    assert migrations[0].name == "0001_init.sql"
    assert await storage.schema_version() == versions[-1]
    assert storage.dialect == backend.name
    tables = await backend.tables()
    assert {"games", "seats", "actions", "results", "player_stats", "guild_settings"} <= tables


async def test_both_databases_have_the_same_migrations() -> None:
    sqlite, postgresql = load_migrations("sqlite"), load_migrations("postgresql")
    assert [m.name for m in sqlite] == [m.name for m in postgresql]


async def test_wal_mode_and_parent_folder_created(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "nines.sqlite3"
    store = await Storage.open(path)
    try:
        assert path.exists()
        assert await store.journal_mode() == "wal"
    finally:
        await store.close()


async def at_version(backend: Backend, migrations: list[Migration]) -> None:
    """Bring an empty database to the last of ``migrations`` the way an older bot did."""
    version = migrations[-1].version if migrations else 0
    if backend.name == "sqlite":
        raw = sqlite3.connect(backend.target)
        try:
            for migration in migrations:
                raw.executescript(migration.sql)
            raw.execute(f"PRAGMA user_version = {version}")
            raw.commit()
        finally:
            raw.close()
        return
    conn = await asyncpg.connect(backend.target)
    try:
        for migration in migrations:
            await conn.execute(migration.sql)
        await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
    finally:
        await conn.close()


async def test_upgrading_a_v1_database_keeps_its_data(backend: Backend, clock: Clock) -> None:
    await at_version(backend, load_migrations(backend.name)[:1])
    await backend.execute(
        "INSERT INTO games (guild_id, channel_id, kind, rules, seed, status, host_id,"
        " created_at, updated_at) VALUES (?, 5, 'nines', '{\"x\": 1}', 7, 'live', 11, 1.0, 2.0)",
        (GUILD,),
    )
    await backend.execute(
        "INSERT INTO seats (game_id, seat, player_key, user_id, name, is_computer)"
        " VALUES (1, 0, 'u:11', 11, 'Ann', 0)"
    )
    await backend.execute(
        "INSERT INTO actions (game_id, n, seat, action, by_computer, at)"
        " VALUES (1, 0, 0, 'swap', 0, 3.0)"
    )

    store = await backend.open(now=clock)
    try:
        assert await store.schema_version() == load_migrations()[-1].version > 1
        (game,) = await store.live_games()
        assert (game.id, game.rules, game.seed, game.status) == (1, {"x": 1}, 7, "live")
        assert (game.shown_hands, game.announced) == (0, True)  # 0004's defaults
        assert [s.name for s in await store.seats(1)] == ["Ann"]
        assert [a.action for a in await store.actions(1)] == ["swap"]
        # The upgraded database keeps working: the log continues where it was.
        assert await store.append_action(1, 1, 0, "9H", False) == 2
    finally:
        await store.close()
    assert "games_guild_ended" in await backend.indexes()


async def test_a_failing_migration_changes_nothing(db_path: Path) -> None:
    good, *_ = load_migrations()
    broken = Migration(2, "0002_broken.sql", "CREATE TABLE extra (x);\nCREATE TABLE games (x);")
    db = await aiosqlite.connect(db_path, isolation_level=None)
    try:
        assert await _migrate(db, [good]) == 1
        with pytest.raises(sqlite3.OperationalError, match="already exists"):
            await _migrate(db, [good, broken])
        assert not db.in_transaction
        rows = list(await db.execute_fetchall("PRAGMA user_version"))
        assert rows[0][0] == 1
        tables = [r[0] for r in await db.execute_fetchall("SELECT name FROM sqlite_master")]
        assert "extra" not in tables
    finally:
        await db.close()


async def test_a_failing_postgresql_migration_changes_nothing(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = Backend("postgresql", postgres_url)
    good, *_ = load_migrations("postgresql")
    await at_version(backend, [good])
    broken = Migration(
        2, "0002_broken.sql", "CREATE TABLE extra (x INT);\nCREATE TABLE games (x INT);"
    )
    monkeypatch.setattr(postgres_driver, "load_migrations", lambda _dialect: [good, broken])
    with pytest.raises(asyncpg.DuplicateTableError):
        await backend.open()
    assert await backend.column("SELECT version FROM schema_version") == [1]
    assert "extra" not in await backend.tables()
    monkeypatch.undo()
    store = await backend.open()  # the real migrations still apply
    try:
        assert await store.schema_version() == load_migrations()[-1].version
    finally:
        await store.close()


async def test_a_database_newer_than_the_code_is_refused(backend: Backend) -> None:
    await at_version(backend, [])
    if backend.name == "sqlite":
        await backend.execute("PRAGMA user_version = 999")
    else:
        await backend.execute("UPDATE schema_version SET version = 999")
    with pytest.raises(RuntimeError, match="newer"):
        await backend.open()


async def test_reopening_after_close_keeps_everything(backend: Backend, clock: Clock) -> None:
    store = await backend.open(now=clock)
    seats = [person(0, 11), person(1, 12), computer(2)]
    await store.set_guild_settings(GUILD, {"language": "fr", "timer": 60, "ranked": True})
    finished = await play_and_finish(store, seats, [1, 2, 3], channel_id=1)
    live = await seated_game(store, seats, channel_id=2)
    await store.append_actions(live.id, 0, [(0, "swap", False), (2, "keep", True)])
    await store.close()

    store = await backend.open(now=clock)
    try:
        assert await store.schema_version() == load_migrations()[-1].version
        assert await store.get_guild_settings(GUILD) == {
            "language": "fr",
            "timer": 60,
            "ranked": True,
        }
        assert [g.id for g in await store.live_games()] == [live.id]
        assert [a.action for a in await store.actions(live.id)] == ["swap", "keep"]
        record = await store.game_result(finished.id)
        assert record is not None
        assert record.result == result_for(seats, [1, 2, 3])
        stats = await store.stats(GUILD, "nines", "u:11")
        assert stats is not None
        assert (stats.games, stats.wins) == (1, 1)
    finally:
        await store.close()


# --- guild settings -----------------------------------------------------------------------------


async def test_guild_settings_round_trip(storage: Storage) -> None:
    assert await storage.get_guild_settings(GUILD) == {}
    await storage.set_guild_settings(GUILD, {"variant": "classic", "timer": 90})
    await storage.set_guild_settings(GUILD, {"variant": "spits", "bots": False})
    assert await storage.get_guild_settings(GUILD) == {"variant": "spits", "bots": False}
    assert await storage.get_guild_settings(GUILD + 1) == {}


# --- games ----------------------------------------------------------------------------------------


async def test_one_open_game_per_channel(storage: Storage) -> None:
    game = await new_game(storage, channel_id=1)
    assert game.status == "lobby"
    assert game.rules == {"variant": "classic", "hands": 4}
    with pytest.raises(ChannelBusy) as busy:
        await new_game(storage, channel_id=1)
    assert busy.value.game_id == game.id
    other = await new_game(storage, channel_id=2)
    assert (await storage.game_in_channel(1)) == game
    assert (await storage.game_in_channel(2)) == other
    assert await storage.game_in_channel(3) is None

    # Once the game has ended the channel is free again.
    assert await storage.abandon_game(game.id, "expired")
    assert await storage.game_in_channel(1) is None
    again = await new_game(storage, channel_id=1)
    assert again.id > game.id
    assert [g.id for g in await storage.live_games()] == [other.id, again.id]


async def test_the_database_itself_refuses_a_second_open_game(backend: Backend) -> None:
    store = await backend.open()
    await new_game(store, channel_id=1)
    await store.close()
    with pytest.raises(RAW_INTEGRITY_ERRORS):
        await backend.execute(
            "INSERT INTO games (guild_id, channel_id, kind, seed, host_id, created_at,"
            " updated_at) VALUES (1, 1, 'nines', 1, 1, 0, 0)"
        )


async def test_games_in_threads(storage: Storage) -> None:
    game = await new_game(storage, channel_id=1, thread_id=50)
    assert (await storage.game_in_channel(50)) == game
    with pytest.raises(ChannelBusy):
        await new_game(storage, channel_id=50)
    other = await new_game(storage, channel_id=2)
    with pytest.raises(ChannelBusy):
        await storage.update_game(other.id, thread_id=50)
    moved = await storage.update_game(other.id, thread_id=60)
    assert (await storage.game_in_channel(60)) == moved


async def test_update_game_whitelist_and_status(storage: Storage, clock: Clock) -> None:
    game = await new_game(storage)
    clock.tick(5)
    updated = await storage.update_game(
        game.id, status="live", table_message_id=777, turn_deadline=clock.t + 60
    )
    assert updated.status == "live"
    assert updated.table_message_id == 777
    assert updated.turn_deadline == clock.t + 60
    assert updated.updated_at == clock.t > game.updated_at
    assert updated == await storage.game(game.id)

    with pytest.raises(TypeError, match="guild_id"):
        await storage.update_game(game.id, guild_id=5)
    with pytest.raises(ValueError, match="finish_game"):
        await storage.update_game(game.id, status="finished")
    with pytest.raises(GameNotFound):
        await storage.update_game(9999, table_message_id=1)
    assert await storage.game(9999) is None

    await storage.abandon_game(game.id, "stopped by 11")
    with pytest.raises(GameStateError):
        await storage.update_game(game.id, status="live")
    # Message ids may still be set on an ended game (e.g. its final message).
    assert (await storage.update_game(game.id, table_message_id=778)).status == "abandoned"


async def test_unknown_game_kind_is_refused(storage: Storage) -> None:
    with pytest.raises(ValueError, match="kind"):
        await new_game(storage, kind="poker")  # type: ignore[arg-type]


# --- seats ----------------------------------------------------------------------------------------


async def test_seats_are_set_in_the_lobby_only(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.set_seats(game.id, [person(0, 11), person(1, 12)])
    rows = await storage.set_seats(game.id, [computer(1, "easy"), person(0, 11, "Ann")])
    assert [(s.seat, s.player_key, s.name, s.is_computer) for s in rows] == [
        (0, "u:11", "Ann", False),
        (1, "cpu:easy", "Bot 1 (easy)", True),
    ]
    assert rows == await storage.seats(game.id)

    with pytest.raises(ValueError, match="invalid seats"):
        await storage.set_seats(game.id, [person(0, 11), person(1, 11)])
    # The refused change left the previous seats in place.
    assert rows == await storage.seats(game.id)

    await storage.update_game(game.id, status="live")
    with pytest.raises(GameStateError):
        await storage.set_seats(game.id, [person(0, 12)])


async def test_seat_values_are_checked() -> None:
    with pytest.raises(ValueError, match="user id"):
        Seat(0, "Ann")
    with pytest.raises(ValueError, match="no user id"):
        Seat(0, "Bot", user_id=5, is_computer=True)


async def test_seat_away_and_timeouts(storage: Storage) -> None:
    game = await seated_game(storage, [person(0, 11), person(1, 12)])
    await storage.set_seat_away(game.id, 1, True, 3)
    seats = await storage.seats(game.id)
    assert [(s.away, s.timeouts) for s in seats] == [(False, 0), (True, 3)]
    await storage.set_seat_away(game.id, 1, False, 0)
    assert not (await storage.seats(game.id))[1].away
    with pytest.raises(GameNotFound):
        await storage.set_seat_away(game.id, 7, True, 1)


# --- actions --------------------------------------------------------------------------------------


async def test_append_action_updates_the_game(storage: Storage, clock: Clock) -> None:
    game = await seated_game(storage, [person(0, 11), person(1, 12)])
    clock.tick(3)
    assert await storage.append_action(game.id, 0, 0, "swap", False, turn_deadline=clock.t + 30)
    stored = await storage.game(game.id)
    assert stored is not None
    assert stored.turn_deadline == clock.t + 30
    assert stored.updated_at == clock.t
    clock.tick(1)
    assert await storage.append_action(game.id, 1, 1, "JK:win", True) == 2
    actions = await storage.actions(game.id)
    assert [(a.n, a.seat, a.action, a.by_computer, a.at) for a in actions] == [
        (0, 0, "swap", False, clock.t - 1),
        (1, 1, "JK:win", True, clock.t),
    ]
    stored = await storage.game(game.id)
    assert stored is not None
    assert stored.turn_deadline is None


async def test_append_action_conflicts(storage: Storage) -> None:
    game = await seated_game(storage, [person(0, 11), person(1, 12)])
    await storage.append_action(game.id, 0, 0, "swap", False, turn_deadline=500.0)
    with pytest.raises(ActionConflict) as twice:  # a double click
        await storage.append_action(game.id, 0, 0, "swap", False)
    assert (twice.value.n, twice.value.expected) == (0, 1)
    with pytest.raises(ActionConflict) as skipped:
        await storage.append_action(game.id, 2, 1, "keep", False)
    assert skipped.value.expected == 1
    assert [a.action for a in await storage.actions(game.id)] == ["swap"]
    stored = await storage.game(game.id)
    assert stored is not None
    assert stored.turn_deadline == 500.0  # a refused action changes nothing

    await storage.abandon_game(game.id, "stopped by 11")
    with pytest.raises(ActionConflict) as ended:
        await storage.append_action(game.id, 1, 1, "keep", False)
    assert ended.value.expected is None
    with pytest.raises(GameNotFound):
        await storage.append_action(9999, 0, 0, "swap", False)


async def test_append_actions_is_all_or_nothing(storage: Storage) -> None:
    game = await seated_game(storage, [person(0, 11), computer(1), computer(2, "easy")])
    moves = [(0, "9H", False), (1, "10H", True), (2, "QH", True)]
    assert await storage.append_actions(game.id, 0, moves, turn_deadline=99.0) == 3
    with pytest.raises(ActionConflict):
        await storage.append_actions(game.id, 2, [(0, "KH", False), (1, "AH", True)])
    assert [a.action for a in await storage.actions(game.id)] == ["9H", "10H", "QH"]
    with pytest.raises(ValueError, match="no actions"):
        await storage.append_actions(game.id, 3, [])


async def test_the_database_itself_refuses_a_hole_in_the_log(
    storage: Storage, backend: Backend
) -> None:
    game = await seated_game(storage, [person(0, 11), person(1, 12)])
    await storage.append_action(game.id, 0, 0, "swap", False)
    with pytest.raises(RAW_INTEGRITY_ERRORS, match="out of sequence"):
        await backend.execute(
            "INSERT INTO actions (game_id, n, seat, action, by_computer, at)"
            " VALUES (?, 5, 0, 'keep', 0, 0)",
            (game.id,),
        )
    with pytest.raises(RAW_INTEGRITY_ERRORS, match="append-only"):
        await backend.execute("UPDATE actions SET action = 'keep'")


async def test_concurrent_games_and_racing_clicks(storage: Storage) -> None:
    games = [
        await seated_game(storage, [person(0, 1000 + c), computer(1)], channel_id=c)
        for c in range(1, 13)
    ]
    moves = 25

    async def play(game: GameRow) -> None:
        for n in range(moves):
            if n % 3 == 2:
                await storage.append_actions(
                    game.id, n, [(n % 2, f"a{n}", True)], turn_deadline=float(n)
                )
            else:
                await storage.append_action(game.id, n, n % 2, f"a{n}", False)
            await asyncio.sleep(0)

    await asyncio.gather(*(play(g) for g in games))
    for game in games:
        assert [a.n for a in await storage.actions(game.id)] == list(range(moves))

    # Ten racing clicks for the same move: exactly one is stored.
    target = games[0]
    outcomes = await asyncio.gather(
        *(storage.append_action(target.id, moves, 0, "swap", False) for _ in range(10)),
        return_exceptions=True,
    )
    assert sum(1 for o in outcomes if o == moves + 1) == 1
    assert all(isinstance(o, ActionConflict) for o in outcomes if o != moves + 1)
    assert len(await storage.actions(target.id)) == moves + 1


# --- finishing and abandoning --------------------------------------------------------------------


async def test_finish_game_is_idempotent(storage: Storage) -> None:
    seats = [person(0, 11), person(1, 12), computer(2)]
    game = await seated_game(storage, seats)
    result = result_for(seats, [1, 2, 3])
    assert await storage.finish_game(game.id, result)
    assert not await storage.finish_game(game.id, result)
    assert not await storage.abandon_game(game.id, "late stop")
    stored = await storage.game(game.id)
    assert stored is not None
    assert (stored.status, stored.rated, stored.hands_played) == ("finished", True, 4)
    assert stored.end_reason == "completed"
    assert stored.turn_deadline is None
    for key, wins in (("u:11", 1), ("u:12", 0), ("cpu:hard", 0)):
        stats = await storage.stats(GUILD, "nines", key)
        assert stats is not None
        assert (stats.games, stats.wins) == (1, wins)
    with pytest.raises(GameNotFound):
        await storage.finish_game(9999, result)


async def test_finish_game_checks_the_game_and_the_result(storage: Storage) -> None:
    seats = [person(0, 11), person(1, 12)]
    lobby = await new_game(storage)
    await storage.set_seats(lobby.id, seats)
    with pytest.raises(GameStateError):
        await storage.finish_game(lobby.id, result_for(seats, [1, 2]))
    game = await storage.update_game(lobby.id, status="live")
    wrong_player = [person(0, 11), person(1, 99)]
    with pytest.raises(ValueError, match="do not match"):
        await storage.finish_game(game.id, result_for(wrong_player, [1, 2]))
    with pytest.raises(ValueError, match="do not match"):
        await storage.finish_game(game.id, result_for(seats[:1], [1]))
    bad_winner = GameResult((5,), 1, result_for(seats, [1, 2]).seats)
    with pytest.raises(ValueError, match="winner"):
        await storage.finish_game(game.id, bad_winner)
    # Nothing was written by the refused calls.
    assert (await storage.game(game.id)).status == "live"  # type: ignore[union-attr]
    assert await storage.leaderboard(GUILD, "nines") == ([], 0)
    assert await storage.finish_game(game.id, result_for(seats, [1, 2]))


async def test_concurrent_finishes_count_once(storage: Storage) -> None:
    seats = [person(0, 11), person(1, 12)]
    game = await seated_game(storage, seats)
    result = result_for(seats, [1, 2])
    outcomes = await asyncio.gather(*(storage.finish_game(game.id, result) for _ in range(5)))
    assert sorted(outcomes) == [False] * 4 + [True]
    stats = await storage.stats(GUILD, "nines", "u:11")
    assert stats is not None
    assert stats.games == 1


async def test_abandoned_games_are_never_counted(storage: Storage) -> None:
    seats = [person(0, 11), person(1, 12)]
    game = await seated_game(storage, seats)
    await storage.append_action(game.id, 0, 0, "swap", False)
    assert await storage.abandon_game(game.id, "channel deleted")
    assert not await storage.abandon_game(game.id, "again")
    assert not await storage.finish_game(game.id, result_for(seats, [1, 2]))
    stored = await storage.game(game.id)
    assert stored is not None
    assert (stored.status, stored.rated, stored.end_reason) == (
        "abandoned",
        False,
        "channel deleted",
    )
    assert await storage.stats(GUILD, "nines", "u:11") is None
    assert await storage.leaderboard(GUILD, "nines") == ([], 0)
    assert await storage.game_result(game.id) is None
    with pytest.raises(GameNotFound):
        await storage.abandon_game(9999, "?")


async def test_rated_only_with_two_people(storage: Storage) -> None:
    seats = [person(0, 11), computer(1), computer(2, "easy")]
    game = await play_and_finish(storage, seats, [1, 2, 3])
    stored = await storage.game(game.id)
    assert stored is not None
    assert (stored.status, stored.rated) == ("finished", False)
    assert await storage.stats(GUILD, "nines", "u:11") is None
    assert await storage.stats(GUILD, "nines", "cpu:hard") is None
    record = await storage.game_result(game.id)
    assert record is not None
    assert record.result.winners == (0,)
    assert record.rating_changes == ()
    (history,) = await storage.history(GUILD)
    assert (history.game_id, history.rated, history.winners) == (game.id, False, (0,))

    # A game created unrated stays unrated, even with enough people.
    friendly = await storage.create_game(
        guild_id=GUILD, channel_id=9, kind="nines", rules={}, seed=1, host_id=11, rated=False
    )
    two = [person(0, 11), person(1, 12)]
    await storage.set_seats(friendly.id, two)
    await storage.update_game(friendly.id, status="live")
    assert await storage.finish_game(friendly.id, result_for(two, [1, 2]))
    assert await storage.stats(GUILD, "nines", "u:12") is None


async def test_ratings_move_winners_up_and_losers_down(storage: Storage) -> None:
    seats = [person(0, 11), person(1, 12), person(2, 13)]
    game = await play_and_finish(storage, seats, [1, 2, 3])
    record = await storage.game_result(game.id)
    assert record is not None
    changes = {c.player_key: c for c in record.rating_changes}
    assert all(c.before == pytest.approx(1000.0) for c in changes.values())
    assert changes["u:11"].delta > 0 > changes["u:13"].delta
    assert changes["u:11"].after > changes["u:12"].after > changes["u:13"].after

    # The next game starts from the stored ratings.
    await play_and_finish(storage, seats, [3, 2, 1], channel_id=2)
    first = await storage.stats(GUILD, "nines", "u:11")
    assert first is not None
    assert first.rating < changes["u:11"].after
    assert (first.games, first.wins, first.best_place) == (2, 1, 1)
    assert first.tricks == (10 - 1) + (10 - 3)
    assert first.swaps == 1 + 3
    assert first.hands == 8


async def test_stats_are_per_guild_and_per_game_kind(storage: Storage) -> None:
    seats = [person(0, 11), person(1, 12)]
    await play_and_finish(storage, seats, [1, 2], channel_id=1)
    await play_and_finish(storage, seats, [2, 1], channel_id=2, guild_id=GUILD + 1)
    assert (await storage.stats(GUILD, "nines", "u:11")).wins == 1  # type: ignore[union-attr]
    assert (await storage.stats(GUILD + 1, "nines", "u:11")).wins == 0  # type: ignore[union-attr]
    assert await storage.stats(GUILD, "nein-nine", "u:11") is None


async def test_two_computers_of_one_level_share_an_entry(storage: Storage) -> None:
    seats = [person(0, 11), person(1, 12), computer(2), computer(3)]
    await play_and_finish(storage, seats, [2, 3, 1, 4])
    bots = await storage.stats(GUILD, "nines", "cpu:hard")
    assert bots is not None
    assert (bots.games, bots.wins, bots.best_place) == (2, 1, 1)


async def test_leaderboard_order_pages_and_computers(storage: Storage) -> None:
    players = [person(i, 11 + i) for i in range(4)]
    # Player 11 wins everything; player 14 always loses.
    for game_number in range(3):
        await play_and_finish(
            storage, [*players, computer(4)], [1, 2, 3, 5, 4], channel_id=game_number + 1
        )
    rows, total = await storage.leaderboard(GUILD, "nines", page=1, per_page=3)
    assert total == 4
    assert [r.player_key for r in rows] == ["u:11", "u:12", "u:13"]
    assert [r.rating for r in rows] == sorted((r.rating for r in rows), reverse=True)
    assert all(not r.is_computer for r in rows)
    rows2, total2 = await storage.leaderboard(GUILD, "nines", page=2, per_page=3)
    assert (total2, [r.player_key for r in rows2]) == (4, ["u:14"])
    assert await storage.leaderboard(GUILD, "nines", page=3, per_page=3) == ([], 4)

    bots, bot_total = await storage.leaderboard(GUILD, "nines", 1, computers=True)
    assert bot_total == 1
    assert [(b.player_key, b.games) for b in bots] == [("cpu:hard", 3)]
    assert await storage.leaderboard(GUILD, "nein-nine", 1) == ([], 0)
    with pytest.raises(ValueError, match="page"):
        await storage.leaderboard(GUILD, "nines", 0)


async def test_leaderboard_breaks_rating_ties_by_wins(storage: Storage, backend: Backend) -> None:
    for channel, places in enumerate(([1, 2], [2, 1], [1, 2]), start=1):
        await play_and_finish(storage, [person(0, 11), person(1, 12)], places, channel_id=channel)
    # Force equal ratings to see the tie-break.
    await backend.execute("UPDATE player_stats SET rating = 1000")
    rows, _ = await storage.leaderboard(GUILD, "nines")
    assert [(r.player_key, r.wins) for r in rows] == [("u:11", 2), ("u:12", 1)]


# --- history and privacy -------------------------------------------------------------------------


async def test_history(storage: Storage, clock: Clock) -> None:
    seats = [person(0, 11), person(1, 12)]
    first = await play_and_finish(storage, seats, [2, 1], channel_id=1)
    clock.tick(10)
    dropped = await seated_game(storage, [person(0, 11), computer(1)], channel_id=2)
    await storage.abandon_game(dropped.id, "stopped by 11")
    clock.tick(10)
    await seated_game(storage, [person(0, 12), person(1, 13)], channel_id=3)  # still live

    rows = await storage.history(GUILD)
    assert [r.game_id for r in rows] == [dropped.id, first.id]
    assert rows[0].status == "abandoned"
    assert rows[0].winners == ()
    assert [(p.player_key, p.place) for p in rows[0].players] == [
        ("u:11", None),
        ("cpu:hard", None),
    ]
    assert rows[1].winners == (1,)
    assert [(p.name, p.place, p.final_score) for p in rows[1].players] == [
        ("user11", 2, 80),
        ("user12", 1, 90),
    ]
    assert [r.game_id for r in await storage.history(GUILD, player_key="u:12")] == [first.id]
    assert [r.game_id for r in await storage.history(GUILD, limit=1)] == [dropped.id]
    assert await storage.history(GUILD, game="nein-nine") == []
    assert await storage.history(GUILD + 1) == []


async def test_forget_player(storage: Storage) -> None:
    seats = [person(0, 11, "Ann"), person(1, 12, "Bob"), computer(2)]
    game = await play_and_finish(storage, seats, [1, 2, 3], channel_id=1)
    other_guild = await play_and_finish(storage, seats, [1, 2, 3], channel_id=2, guild_id=7)
    open_game = await seated_game(storage, [person(0, 11, "Ann"), person(1, 13)], channel_id=3)

    changed = await storage.forget_player(GUILD, 11)
    # stats row + seat + result + host of the ended game (the host in new_game is user 11).
    assert changed == 4
    assert await storage.stats(GUILD, "nines", "u:11") is None
    assert await storage.stats(GUILD, "nines", "u:12") is not None
    assert await storage.stats(7, "nines", "u:11") is not None  # other guilds untouched

    seats_now = await storage.seats(game.id)
    assert (seats_now[0].name, seats_now[0].user_id, seats_now[0].player_key) == (
        FORMER_PLAYER_NAME,
        None,
        FORMER_PLAYER_KEY,
    )
    assert seats_now[1].name == "Bob"
    record = await storage.game_result(game.id)
    assert record is not None
    assert record.result.seats[0].name == FORMER_PLAYER_NAME
    assert record.result.winners == (0,)  # Bob's second place still reads right
    assert record.game.host_id == 0
    assert await storage.history(GUILD, player_key="u:11") == []
    assert [r.game_id for r in await storage.history(GUILD, player_key="u:12")] == [game.id]

    # Not in other guilds, and not in a game still being played.
    assert (await storage.seats(other_guild.id))[0].name == "Ann"
    assert (await storage.seats(open_game.id))[0].user_id == 11
    assert await storage.forget_player(GUILD, 11) == 0


async def test_postgresql_commits_with_sqlites_durability(postgres_url: str) -> None:
    """A commit waits for PostgreSQL, not for its disk, like SQLite's synchronous=NORMAL."""
    store = await Storage.open(postgres_url)
    try:

        async def show(tx: Tx) -> str:
            row = await tx.fetchone("SHOW synchronous_commit")
            assert row is not None
            return str(row[0])

        assert await store._driver.read(show) == "off"
    finally:
        await store.close()
