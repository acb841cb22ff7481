"""A lobby's writes (issue 31): /nines start's create_game with the host's seat, each lobby
click's set_seats, and the Start's start_game, on both databases; and on PostgreSQL each of
them is one round trip, counted by a wrapper on the driver so it cannot silently regress."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence

import pytest

from bot.storage import (
    ChannelBusy,
    GameNotFound,
    GameRow,
    GameStateError,
    Seat,
    Storage,
)
from bot.storage.driver import Driver, Row, T, Tx, Work
from tests.storage_backends import Backend

GUILD = 100
NOW = 1_700_000_000.0


def person(seat: int, user_id: int) -> Seat:
    return Seat(seat, f"user{user_id}", user_id=user_id)


def computer(seat: int) -> Seat:
    return Seat(seat, f"Bot {seat}", is_computer=True, difficulty="hard")


@pytest.fixture
async def storage(backend: Backend) -> AsyncIterator[Storage]:
    store = await backend.open(now=lambda: NOW)
    yield store
    await store.close()


async def lobby(storage: Storage, channel_id: int = 1, thread_id: int | None = None) -> GameRow:
    return await storage.create_game(
        guild_id=GUILD,
        channel_id=channel_id,
        thread_id=thread_id,
        kind="nines",
        rules={"variant": "classic"},
        seed=7,
        host_id=11,
        seats=[person(0, 11)],
    )


# -- the same behaviour and errors on both databases --------------------------------------------


async def test_a_lobby_opens_with_its_host_seated(storage: Storage) -> None:
    game = await lobby(storage)
    assert (game.status, game.host_id, game.created_at, game.seed) == ("lobby", 11, NOW, 7)
    assert await storage.game(game.id) == game
    [host] = await storage.seats(game.id)
    assert (host.seat, host.user_id, host.player_key, host.is_computer) == (0, 11, "u:11", False)


async def test_a_channel_or_thread_with_an_open_game_refuses_a_second(storage: Storage) -> None:
    first = await lobby(storage, channel_id=1, thread_id=5)
    for channel_id, thread_id in [(1, None), (5, None), (2, 1), (2, 5)]:
        with pytest.raises(ChannelBusy) as busy:
            await lobby(storage, channel_id=channel_id, thread_id=thread_id)
        assert busy.value.game_id == first.id
    assert [g.id for g in await storage.live_games()] == [first.id]  # nothing half-written
    assert await lobby(storage, channel_id=2) is not None


async def test_two_lobbies_opened_at_once_in_one_channel_give_one_game(storage: Storage) -> None:
    outcomes = await asyncio.gather(lobby(storage), lobby(storage), return_exceptions=True)
    opened = [o for o in outcomes if isinstance(o, GameRow)]
    refused = [o for o in outcomes if isinstance(o, ChannelBusy)]
    assert len(opened) == 1 and len(refused) == 1, outcomes
    assert refused[0].game_id == opened[0].id
    assert len(await storage.seats(opened[0].id)) == 1


async def test_seats_the_schema_refuses_open_no_lobby(storage: Storage) -> None:
    with pytest.raises(ValueError, match="invalid seats"):
        await storage.create_game(
            guild_id=GUILD,
            channel_id=1,
            kind="nines",
            rules={},
            seed=1,
            host_id=11,
            seats=[person(0, 11), person(1, 11)],
        )
    assert await storage.live_games() == []


async def test_lobby_clicks_replace_the_seats(storage: Storage) -> None:
    game = await lobby(storage)
    joined = await storage.set_seats(game.id, [person(0, 11), person(1, 12), computer(2)])
    assert joined == await storage.seats(game.id)
    assert [(s.seat, s.player_key) for s in joined] == [(0, "u:11"), (1, "u:12"), (2, "cpu:hard")]
    left = await storage.set_seats(game.id, [person(0, 11), computer(1)])
    assert left == await storage.seats(game.id)
    assert [s.player_key for s in left] == ["u:11", "cpu:hard"]


async def test_bad_seats_a_started_game_or_none_change_nothing(storage: Storage) -> None:
    game = await lobby(storage)
    before = await storage.seats(game.id)
    with pytest.raises(ValueError, match="invalid seats"):
        await storage.set_seats(game.id, [person(0, 11), person(1, 11)])
    with pytest.raises(GameNotFound):
        await storage.set_seats(game.id + 99, [person(0, 11)])
    assert await storage.seats(game.id) == before
    await storage.start_game(game.id, [11], turn_deadline=None)
    with pytest.raises(GameStateError):
        await storage.set_seats(game.id, [person(0, 11), person(1, 12)])
    assert await storage.seats(game.id) == before


async def test_start_goes_live_with_its_deadline_and_reads_autoplay(storage: Storage) -> None:
    game = await lobby(storage)
    await storage.set_seats(game.id, [person(0, 11), person(1, 12), person(2, 13)])
    await storage.set_autoplay(12, True)
    await storage.set_autoplay(13, False)
    autoplay = await storage.start_game(game.id, [11, 12, 13], turn_deadline=NOW + 60)
    assert autoplay == {12}
    row = await storage.game(game.id)
    assert row is not None
    assert (row.status, row.turn_deadline) == ("live", NOW + 60)


async def test_a_second_start_or_none_is_refused_and_changes_nothing(storage: Storage) -> None:
    game = await lobby(storage)
    assert await storage.start_game(game.id, [11], turn_deadline=None) == set()
    with pytest.raises(GameStateError):  # a double click on Start
        await storage.start_game(game.id, [11], turn_deadline=NOW + 5)
    row = await storage.game(game.id)
    assert row is not None and (row.status, row.turn_deadline) == ("live", None)
    with pytest.raises(GameNotFound):
        await storage.start_game(game.id + 99, [], turn_deadline=None)
    await storage.abandon_game(game.id, "cancelled")
    with pytest.raises(GameStateError):
        await storage.start_game(game.id, [11], turn_deadline=None)


# -- round trips on PostgreSQL ------------------------------------------------------------------


class _CountingTx:
    """Counts each statement a piece of work sends (one round trip each)."""

    def __init__(self, inner: Tx, counter: list[int]) -> None:
        self.dialect = inner.dialect
        self._inner = inner
        self._counter = counter

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        self._counter[0] += 1
        return await self._inner.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        self._counter[0] += 1
        return await self._inner.fetchall(sql, params)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        self._counter[0] += 1
        return await self._inner.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        self._counter[0] += 1
        await self._inner.executemany(sql, rows)

    async def lock_keys(self, keys: Iterable[str]) -> None:
        self._counter[0] += 1
        await self._inner.lock_keys(keys)


class CountingDriver:
    """The storage's driver, counting round trips: each statement, plus BEGIN and COMMIT of a
    write that is a transaction (``single=False``)."""

    def __init__(self, inner: Driver) -> None:
        self.dialect = inner.dialect
        self._inner = inner
        self.counter = [0]

    @property
    def trips(self) -> int:
        return self.counter[0]

    def _counted(self, work: Work[T]) -> Work[T]:
        async def run(tx: Tx) -> T:
            return await work(_CountingTx(tx, self.counter))

        return run

    async def write(self, work: Work[T], *, hot: bool = False, single: bool = False) -> T:
        if not single:
            self.counter[0] += 2
        return await self._inner.write(self._counted(work), hot=hot, single=single)

    async def read(self, work: Work[T], *, hot: bool = False) -> T:
        return await self._inner.read(self._counted(work), hot=hot)

    async def on_each_connection(self, work: Work[None]) -> None:
        await self._inner.on_each_connection(work)

    async def schema_version(self) -> int:
        return await self._inner.schema_version()

    async def journal_mode(self) -> str | None:
        return await self._inner.journal_mode()

    async def close(self) -> None:
        await self._inner.close()


async def test_each_lobby_write_is_one_round_trip_on_postgresql(postgres_url: str) -> None:
    store = await Storage.open(postgres_url, now=lambda: NOW)
    counting = CountingDriver(store._driver)
    store._driver = counting
    try:

        async def trips(call: object) -> int:
            before = counting.trips
            await call  # type: ignore[misc]
            return counting.trips - before

        assert await trips(lobby(store)) == 1  # /nines start
        [game] = await store.live_games()
        assert await trips(store.set_seats(game.id, [person(0, 11), person(1, 12)])) == 1
        assert await trips(store.set_seats(game.id, [person(0, 11)])) == 1  # leave
        assert await trips(store.set_seats(game.id, [person(0, 11), computer(1)])) == 1
        assert await trips(store.start_game(game.id, [11], turn_deadline=NOW + 60)) == 1
        # A double click on Start is refused in its one trip; a busy channel takes a second
        # (a read of which game is there), only when refused.
        before = counting.trips
        with pytest.raises(GameStateError):
            await store.start_game(game.id, [11], turn_deadline=None)
        assert counting.trips - before == 1
        before = counting.trips
        with pytest.raises(ChannelBusy):
            await lobby(store)
        assert counting.trips - before == 2
        # Cancel (or a stop): one statement.
        assert await trips(store.abandon_game(game.id, "cancelled")) == 1
    finally:
        await store.close()
