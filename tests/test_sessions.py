"""The sessions' registry and a session's lobby, without Discord: only a session ends its game,
and its registry forgets it as it closes (no caller discards it); the lobby checks, stores,
then keeps each seat change."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import NinesBot
from bot.base import Settings
from bot.game import Computers, Sessions
from bot.game.session import GameSession, SeatInfo, SessionError
from bot.storage import Storage
from engine import Rules
from tests.test_layers import RecordingPresenter

GUILD, CHANNEL, THREAD, HOST = 7, 20, 21, 100


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "nines.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
async def sessions(storage: Storage) -> AsyncIterator[Sessions]:
    computers = Computers(0)
    registry = NinesBot(Settings(token="a.b.c"), storage, computers).plug_in(RecordingPresenter())
    yield registry
    await registry.close()
    await computers.close()


async def lobby(sessions: Sessions) -> GameSession:
    return await sessions.open_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=None,
        rules=Rules.from_settings("classic"),
        host_id=HOST,
        host_name="host",
        language="en",
        turn_seconds=600,
    )


async def test_a_session_that_ends_is_found_no_more(sessions: Sessions, storage: Storage) -> None:
    session = await lobby(sessions)
    await session.move_to_thread(THREAD)
    row = await storage.game(session.id)
    assert row is not None and row.thread_id == THREAD
    assert sessions.in_channel(THREAD) is session and sessions.in_channel(CHANNEL) is session
    assert sessions.seated(GUILD, HOST) is session and len(sessions) == 1
    async with session.lock:
        await session.abandon("stopped")
    assert session.closed and len(sessions) == 0
    assert sessions.get(session.id) is None
    assert sessions.in_channel(THREAD) is None and sessions.in_channel(CHANNEL) is None
    assert sessions.seated(GUILD, HOST) is None
    row = await storage.game(session.id)
    assert row is not None and row.status == "abandoned"
    # The channel is free again: a new lobby opens there.
    assert sessions.in_channel(CHANNEL) is None
    again = await lobby(sessions)
    assert sessions.in_channel(CHANNEL) is again


async def test_a_shard_let_go_closes_its_sessions(sessions: Sessions) -> None:
    session = await lobby(sessions)
    assert sessions.let_go(lambda guild_id: guild_id != GUILD) == 1
    assert session.closed and len(sessions) == 0 and sessions.in_channel(CHANNEL) is None


async def test_the_lobby_stores_each_change_before_keeping_it(
    sessions: Sessions, storage: Storage
) -> None:
    session = await lobby(sessions)
    seats = session.lobby

    async def stored() -> list[str]:
        return [s.name for s in await storage.seats(session.id)]

    await seats.join(101, "ann")
    await seats.add_computer(HOST, "easy", "bot")
    assert await stored() == ["host", "ann", "bot"] == session.names()
    with pytest.raises(SessionError) as full:
        await seats.join(102, "bea")
    assert full.value.key == "error.lobby_full" and await stored() == session.names()
    await seats.remove_computer(HOST)
    with pytest.raises(SessionError) as host_only:
        await seats.add_computer(101, "easy", "bot")
    assert host_only.value.key == "error.host_only"
    # A rematch's players, seated at once; never more than the game's seats.
    with pytest.raises(SessionError):
        await seats.seat_rematch([SeatInfo("x", 1), SeatInfo("y", 2)])
    assert await stored() == ["host", "ann"]
    await seats.seat_rematch([SeatInfo("cy", 103)])
    assert await stored() == ["host", "ann", "cy"] == session.names()
    change = await seats.start(HOST)
    assert session.status == "live" and session.game is not None and change.events
    with pytest.raises(SessionError) as started:
        await seats.leave(101)
    assert started.value.key == "error.not_lobby"
