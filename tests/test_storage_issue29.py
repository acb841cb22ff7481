"""Issue 29's storage (migration 0008), on SQLite and on PostgreSQL like tests/test_storage.py:
a person's autoplay preference, kept per person across servers and forgotten on request, and
a history that lists only games that started."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage, load_migrations
from tests.storage_backends import Backend
from tests.test_storage import (
    GUILD,
    Clock,
    at_version,
    new_game,
    person,
    play_and_finish,
    seated_game,
)


@pytest.fixture
async def storage(backend: Backend) -> AsyncIterator[Storage]:
    store = await backend.open(now=Clock())
    yield store
    await store.close()


async def test_autoplay_is_off_by_default_and_kept_per_person(
    storage: Storage, backend: Backend
) -> None:
    assert await storage.autoplay_users([11, 12]) == set()
    assert await storage.autoplay_users([]) == set()
    await storage.set_autoplay(11, True)
    await storage.set_autoplay(12, True)
    await storage.set_autoplay(12, False)
    assert await storage.autoplay_users([11, 12, 13]) == {11}
    await storage.set_autoplay(11, True)  # again: still one row, still on
    assert await backend.column("SELECT user_id FROM player_prefs WHERE autoplay = 1") == [11]
    # A user id is no guild's: a second connection (another process, another shard) sees it.
    again = await backend.open()
    try:
        assert await again.autoplay_users([11]) == {11}
    finally:
        await again.close()


async def test_forget_me_deletes_the_preference(storage: Storage) -> None:
    await storage.set_autoplay(11, True)
    await storage.set_autoplay(12, True)
    # The preference is personal data kept across servers: forget-me in any server drops it.
    assert await storage.forget_player(GUILD + 5, 11) == 1
    assert await storage.autoplay_users([11, 12]) == {12}
    assert await storage.forget_player(GUILD + 5, 11) == 0


async def test_history_lists_no_lobby_that_never_started(storage: Storage) -> None:
    finished = await play_and_finish(storage, [person(0, 11), person(1, 12)], [1, 2])
    cancelled = await new_game(storage, channel_id=2)
    await storage.abandon_game(cancelled.id, "cancelled")
    expired = await new_game(storage, channel_id=3)
    await storage.abandon_game(expired.id, "expired")
    stopped = await seated_game(storage, [person(0, 11), person(1, 13)], channel_id=4)
    await storage.abandon_game(stopped.id, "stopped")

    assert [r.game_id for r in await storage.history(GUILD)] == [stopped.id, finished.id]
    assert [r.game_id for r in await storage.history(GUILD, player_key="u:11")] == [
        stopped.id,
        finished.id,
    ]
    started = await storage.game(stopped.id)
    assert started is not None and started.status == "abandoned"


async def test_upgrading_to_0008_marks_older_games_started(backend: Backend) -> None:
    """Games stored before 0008 have no start time: one whose table was posted or that has a
    move counts as started (history lists it), a lobby with neither does not."""
    await at_version(backend, load_migrations(backend.name)[:7])
    insert = (
        "INSERT INTO games (guild_id, channel_id, kind, rules, seed, status, host_id,"
        " table_message_id, created_at, updated_at, ended_at, end_reason, announced)"
        " VALUES (?, ?, 'nines', '{}', 7, 'abandoned', 11, ?, 1.0, 2.0, ?, ?, 1)"
    )
    await backend.execute(insert, (GUILD, 1, None, 3.0, "stopped"))  # 1: a move, no table
    await backend.execute(insert, (GUILD, 2, None, 4.0, "cancelled"))  # 2: a lobby
    await backend.execute(insert, (GUILD, 3, 55, 5.0, "stopped"))  # 3: a table, no move
    await backend.execute(
        "INSERT INTO actions (game_id, n, seat, action, by_computer, at)"
        " VALUES (1, 0, 0, 'swap', 0, 3.0)"
    )
    store = await backend.open()
    try:
        assert await store.schema_version() >= 8
        assert [r.game_id for r in await store.history(GUILD)] == [3, 1]
        assert await store.autoplay_users([11]) == set()
    finally:
        await store.close()
