"""The double serves several shards as Discord does: each session IDENTIFYs for one shard, and
a guild's events and interactions go to the session of shard ``(guild_id >> 22) % count``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from fakecord import FakeDiscord
from fakecord.gateway import (
    DISPATCH,
    HELLO,
    IDENTIFY,
    INVALID_SESSION,
    INVALID_SHARD,
    RESUME,
    shard_of,
)


class Socket:
    """A bare gateway client: IDENTIFY for one shard, then collect every dispatch."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.closed_with: int | None = None
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type is aiohttp.WSMsgType.TEXT:
                frame = json.loads(msg.data)
                if frame["op"] == DISPATCH:
                    self.events.append((frame["t"], frame["d"]))
        self.closed_with = self.ws.close_code

    def named(self, event: str) -> list[dict[str, Any]]:
        return [d for t, d in self.events if t == event]

    async def close(self) -> None:
        await self.ws.close()
        await self._reader


@pytest.fixture
async def fake2() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(shards=2)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def connect(
    http: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int] | None
) -> Socket:
    ws = await http.ws_connect(fake.gateway_url)
    hello = await ws.receive_json()
    assert hello["op"] == HELLO
    identify: dict[str, Any] = {"token": fake.token, "intents": 1 | (1 << 9)}
    if shard is not None:
        identify["shard"] = shard
    await ws.send_json({"op": IDENTIFY, "d": identify})
    return Socket(ws)


async def until(check: Any, within: float = 60.0) -> None:  # a guard for a stuck test
    deadline = asyncio.get_running_loop().time() + within
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_each_guild_goes_to_its_shards_session(fake2: FakeDiscord) -> None:
    fake = fake2
    other = fake.add_guild("Second", shard=1)
    assert (shard_of(fake.guild.id, 2), shard_of(other.id, 2)) == (0, 1)
    async with aiohttp.ClientSession() as http:
        s0 = await connect(http, fake, [0, 2])
        s1 = await connect(http, fake, [1, 2])
        await until(lambda: s0.named("GUILD_CREATE") and s1.named("GUILD_CREATE"))
        await until(fake.gateway.connected.is_set)
        # READY lists only the shard's guilds, and says which shard it is.
        ready0, ready1 = s0.named("READY")[0], s1.named("READY")[0]
        assert [g["id"] for g in ready0["guilds"]] == [str(fake.guild.id)]
        assert [g["id"] for g in ready1["guilds"]] == [str(other.id)]
        assert (ready0["shard"], ready1["shard"]) == ([0, 2], [1, 2])
        assert [g["id"] for g in s1.named("GUILD_CREATE")] == [str(other.id)]

        # A guild's events and interactions: its shard's session only.
        fake.add_channel(other, "games")
        bob = fake.add_user("bob", guild=other)
        await fake.gateway.dispatch("TYPING_START", {"channel_id": "1", "user_id": "2"})
        await _command(http, fake)
        inter = await fake.slash(
            bob, fake.store.channels[other.channel_ids[-1]], "ping", wait=False
        )
        await until(lambda: bool(s1.named("INTERACTION_CREATE")))
        await until(lambda: bool(s1.named("CHANNEL_CREATE")) and bool(s0.named("TYPING_START")))
        assert [d["id"] for d in s1.named("INTERACTION_CREATE")] == [str(inter.id)]
        assert s0.named("INTERACTION_CREATE") == [] and s0.named("CHANNEL_CREATE") == []
        # Events without a guild go to shard 0.
        assert s1.named("TYPING_START") == []
        assert fake.gateway.doubled == []
        await s0.close()
        await s1.close()


async def _command(http: aiohttp.ClientSession, fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/applications/{fake.app_id}/commands"
    body = [{"name": "ping", "description": "ping", "type": 1}]
    async with http.put(url, json=body, headers={"Authorization": f"Bot {fake.token}"}) as resp:
        assert resp.status == 200


async def test_wrong_shard_count_is_closed_and_gateway_bot_says_the_count(
    fake2: FakeDiscord,
) -> None:
    fake = fake2
    fake.gateway.max_concurrency = 2
    async with aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/gateway/bot"
        async with http.get(url, headers={"Authorization": f"Bot {fake.token}"}) as resp:
            body = await resp.json()
        assert body["shards"] == 2
        assert body["session_start_limit"]["max_concurrency"] == 2
        unsharded = await connect(http, fake, None)
        await until(lambda: unsharded.closed_with is not None)
        assert unsharded.closed_with == 4011  # sharding required
        too_far = await connect(http, fake, [2, 2])
        await until(lambda: too_far.closed_with is not None)
        assert too_far.closed_with == INVALID_SHARD
        assert fake.gateway.identifies == 0


async def test_identify_spacing_and_a_doubled_shard_are_recorded(fake2: FakeDiscord) -> None:
    fake = fake2
    async with aiohttp.ClientSession() as http:
        first = await connect(http, fake, [0, 2])
        await until(lambda: bool(first.named("READY")))
        second = await connect(http, fake, [1, 2])  # same bucket at max_concurrency 1
        again = await connect(http, fake, [0, 2])  # shard 0 while its session is connected
        await until(lambda: bool(second.named("READY")) and bool(again.named("READY")))
        assert [(s, before) for s, before, _ in fake.gateway.spacing_violations()] == [
            (1, 0),
            (0, 1),
        ]
        fake.gateway.max_concurrency = 2  # buckets 0 and 1: only shard 0 came twice too soon
        assert [(s, before) for s, before, _ in fake.gateway.spacing_violations()] == [(0, 0)]
        assert fake.gateway.doubled == [0]
        # Both sessions of shard 0 get its guild's events, as on Discord (issue 32); shard
        # 1's does not.
        fake.add_channel(fake.guild, "later")
        await until(lambda: bool(again.named("CHANNEL_CREATE")))
        await until(lambda: bool(first.named("CHANNEL_CREATE")))
        assert second.named("CHANNEL_CREATE") == []
        for socket in (first, second, again):
            await socket.close()


async def test_a_resume_replays_what_was_missed_and_beside_another_session_is_doubled(
    fake2: FakeDiscord,
) -> None:
    """RESUME (op 6): the events after the bot's last sequence are replayed, then RESUMED; a
    session resumed while another process's session is connected on its shard is recorded
    as doubled (the same harm as a second IDENTIFY); an unknown session gets Invalid
    Session, not resumable."""
    fake = fake2
    async with aiohttp.ClientSession() as http:
        first = await connect(http, fake, [0, 2])
        await until(lambda: bool(first.named("READY")))
        session_id = first.named("READY")[0]["session_id"]
        seen = fake.gateway.sessions[session_id].seq
        await fake.gateway.drop(code=4000, shard=0)
        await until(lambda: first.closed_with is not None)
        fake.add_channel(fake.guild, "missed")  # sent while away: kept for the RESUME
        other = await connect(http, fake, [0, 2])  # another process takes the shard
        await until(lambda: bool(other.named("READY")))
        ws = await http.ws_connect(fake.gateway_url)
        assert (await ws.receive_json())["op"] == HELLO
        resume = {"token": fake.token, "session_id": session_id, "seq": seen}
        await ws.send_json({"op": RESUME, "d": resume})
        frames = [await ws.receive_json() for _ in range(2)]
        assert [(f["t"], f["s"]) for f in frames] == [
            ("CHANNEL_CREATE", seen + 1),
            ("RESUMED", seen + 2),
        ]
        assert fake.gateway.doubled == [0]
        await ws.close()
        gone = await http.ws_connect(fake.gateway_url)
        assert (await gone.receive_json())["op"] == HELLO
        await gone.send_json({"op": RESUME, "d": {**resume, "session_id": "unknown"}})
        assert await gone.receive_json() == {"op": INVALID_SESSION, "d": False}
        await gone.close()
        await other.close()
