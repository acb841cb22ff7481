"""Issue 32: how a session reacts to a fenced write. A process whose lease of a shard ran out
(and another process took the shard over) still has the shard's sessions; the first write of
one of them is refused by the database, and the session drops out quietly (GameLost): nothing
stored, nothing shown, no "game over". The shard's new holder plays the same move."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import NinesBot
from bot.base import Settings
from bot.game import Computers, Sessions
from bot.game.session import GameLost, GameSession
from bot.process.shards import ShardLeases
from bot.storage import Storage
from engine import Rules
from tests.lease_clock import LeaseClock
from tests.test_layers import RecordingPresenter

GUILD = 7  # shard 0


class Process:
    """A sharded process's storage, leases and sessions, without its Discord side."""

    def __init__(self, storage: Storage, wanted: tuple[int, ...], lease: float) -> None:
        self.storage = storage
        self.leases = ShardLeases(storage, 1, wanted, lease=lease)
        self.computers = Computers(0)
        self.presenter = RecordingPresenter()
        bot = NinesBot(Settings(token="a.b.c"), storage, self.computers)
        bot.fence = self.leases.fence  # type: ignore[method-assign]
        self.sessions: Sessions = bot.plug_in(self.presenter)

    async def close(self) -> None:
        await self.sessions.close()
        await self.computers.close()
        await self.storage.close()


async def live_game(sessions: Sessions) -> GameSession:
    rules = Rules.from_settings("classic")
    session = await sessions.open_lobby(
        guild_id=GUILD,
        channel_id=2,
        thread_id=None,
        rules=rules,
        host_id=100,
        host_name="p0",
        language="en",
        turn_seconds=600,
    )
    async with session.lock:
        for i in range(1, rules.players):
            await session.lobby.join(100 + i, f"p{i}")
        await session.lobby.start(100)
    return session


async def a_move(session: GameSession) -> None:
    game = session.game
    assert game is not None and game.turn is not None
    seat = game.turn
    user = session.seats[seat].user_id
    assert user is not None
    async with session.lock:
        await session.act(user, session.n, session.view(seat).legal[0])


async def test_a_stale_holders_click_drops_its_session_and_the_holder_plays(
    tmp_path: Path, lease_clock: LeaseClock
) -> None:
    path = tmp_path / "nines.sqlite3"
    old = Process(await Storage.open(path, now=lease_clock.time), (0,), lease=0.3)
    new = Process(await Storage.open(path, now=lease_clock.time), (), lease=60.0)
    try:
        await old.leases.renew()
        assert old.leases.held == {0}
        stale = await live_game(old.sessions)
        assert stale.fence is not None and stale.fence.epoch == old.leases.epochs[0]
        await a_move(stale)
        # The old process stalls past its lease; the other one takes the shard over.
        lease_clock.advance(0.4)
        gained, _lost, _asked = await new.leases.renew()
        assert gained == {0} and new.leases.epochs[0] == old.leases.epochs[0] + 1
        (current,) = await new.sessions.restore(new.leases.serves)
        stored = [(a.n, a.action) for a in await new.storage.actions(stale.id)]
        shown = list(old.presenter.calls)

        with pytest.raises(GameLost):
            await a_move(stale)
        assert stale.closed and old.sessions.get(stale.id) is None
        assert [(a.n, a.action) for a in await new.storage.actions(stale.id)] == stored
        assert old.presenter.calls == shown  # nothing said: no "game over", no table
        assert (await new.storage.game(stale.id)).status == "live"  # type: ignore[union-attr]

        await a_move(current)
        assert len(await new.storage.actions(stale.id)) == len(stored) + 1
        # The old process's next renewal finds the shard gone.
        _gained, lost, _asked = await old.leases.renew()
        assert lost == {0}
    finally:
        await old.close()
        await new.close()


async def test_a_process_without_shards_writes_unfenced(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    computers = Computers(0)
    try:
        sessions = NinesBot(Settings(token="a.b.c"), storage, computers).plug_in(
            RecordingPresenter()
        )
        session = await live_game(sessions)
        assert session.fence is None
        await a_move(session)
        assert len(await storage.actions(session.id)) >= 1
        await sessions.close()
    finally:
        await computers.close()
        await storage.close()


async def test_a_shard_held_again_under_a_newer_epoch_is_lost_and_gained(
    tmp_path: Path, lease_clock: LeaseClock
) -> None:
    """Between two renewals the lease ran out, another process held the shard and died, and
    this one took it back: the games it still runs are stale (the other one may have played),
    so the renewal reports the shard lost (its sessions dropped) and gained (restored)."""
    path = tmp_path / "nines.sqlite3"
    first = ShardLeases(await Storage.open(path, now=lease_clock.time), 1, (0,), lease=0.2)
    other = ShardLeases(await Storage.open(path, now=lease_clock.time), 1, (), lease=0.2)
    try:
        await first.renew()
        lease_clock.advance(0.3)
        assert await other.renew() == ({0}, set(), set())
        lease_clock.advance(0.3)
        gained, lost, _asked = await first.renew()
        assert gained == lost == {0} and first.epochs[0] == 3
    finally:
        await first.storage.close()
        await other.storage.close()
