"""The fence on gateway sessions: a process never keeps a session on a shard it does not hold,
and never answers a click for a shard another process holds (issue 32)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot import discord_internals
from bot.shards import ShardedNinesBot, ShardLeases, shard_of
from cogs.nines.controller import Controller


class FakeShard:
    def __init__(self) -> None:
        self.disconnected = False

    async def disconnect(self) -> None:
        self.disconnected = True


class FakeBot:
    """What ShardedNinesBot._launch/_fence/dispatch touch, and nothing else."""

    def __init__(self, held: set[int]) -> None:
        self.leases = SimpleNamespace(held=frozenset(held))
        self.shard_count = 2
        self.shard_ids: list[int] = []
        self.shards: dict[int, FakeShard] = {}
        self._fencing: set[asyncio.Task[None]] = set()
        self.dispatched: list[str] = []

    def get_shard(self, shard_id: int) -> FakeShard | None:
        return self.shards.get(shard_id)

    _fence = ShardedNinesBot._fence
    _launch = ShardedNinesBot._launch


async def test_a_connection_completing_after_its_handback_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's log: the shard is handed back while the takeover's connection is being
    made (waiting for the IDENTIFY slot); the session must not stay open."""
    bot = FakeBot({1})

    async def launch_shard(client: Any, shard_id: int) -> None:
        client.leases.held = frozenset()  # handed back meanwhile
        client.shards[shard_id] = FakeShard()  # the connection completes

    monkeypatch.setattr(discord_internals, "set_shards", lambda *args: None)
    monkeypatch.setattr(discord_internals, "launch_shard", launch_shard)
    await bot._launch([1])
    await asyncio.gather(*bot._fencing)
    assert bot.shards[1].disconnected


async def test_a_held_shard_keeps_its_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = FakeBot({1})

    async def launch_shard(client: Any, shard_id: int) -> None:
        client.shards[shard_id] = FakeShard()

    monkeypatch.setattr(discord_internals, "set_shards", lambda *args: None)
    monkeypatch.setattr(discord_internals, "launch_shard", launch_shard)
    await bot._launch([1])
    assert not bot._fencing and not bot.shards[1].disconnected


async def test_a_reconnect_on_a_shard_no_longer_held_is_closed() -> None:
    """discord.py reconnects a shard on its own and dispatches shard_connect at READY."""
    bot = FakeBot(set())
    bot.shards[0] = FakeShard()
    bot._fence(0)
    await asyncio.gather(*bot._fencing)
    assert bot.shards[0].disconnected


class Response:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, *, ephemeral: bool) -> None:
        self.sent.append(text)


@pytest.mark.parametrize(("held", "answered"), [({0}, True), (set(), False)])
async def test_only_the_holder_answers_for_an_unknown_game(held: set[int], answered: bool) -> None:
    guild_id = 1 << 22 * 2  # any guild: its shard is shard_of(guild_id, 2)
    shard = shard_of(guild_id, 2)
    leases = ShardLeases(None, 2, ())  # type: ignore[arg-type]
    leases.held = frozenset(shard for _ in held)
    bot = SimpleNamespace(serves=leases.serves)
    interaction = SimpleNamespace(guild_id=guild_id, locale="en-US", response=Response())
    await Controller(bot).unknown_game(interaction)  # type: ignore[arg-type]
    assert bool(interaction.response.sent) is answered
    if answered:
        assert interaction.response.sent == ["That game is over or no longer exists."]
