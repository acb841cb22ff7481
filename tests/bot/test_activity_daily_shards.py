"""Issue 47 with several processes on PostgreSQL: a person's daily runs on the process that runs
their server's games; their web table's socket, reaching another process, is relayed to it
(bot/activity/relay.py) and sent that person's frames only; a daily not started yet is refused
there in words (``/nines daily`` starts it, on its process)."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from fakecord import FakeDiscord
from fakecord.wiring import discord_pointed_at
from tests.storage_backends import Backend

from .test_activity import Activity
from .test_activity_daily import play
from .test_activity_shards import RELAY_KEY
from .test_daily import SECRET, hand_of
from .test_failover import second_guild, sharded
from .test_network_faults import free_port


@pytest.mark.slow(40)
async def test_a_daily_on_another_process_is_played_through_the_relay(
    postgres_url: str, tmp_path: Path
) -> None:
    fake = FakeDiscord(shards=2)
    await fake.start()
    fake.enable_activities()
    backend = Backend("postgresql", postgres_url)
    database = tmp_path / "data" / "nines.sqlite3"
    ports = (free_port(), free_port())
    processes = [sharded(fake, backend, database, shard) for shard in (0, 1)]
    for process, port in zip(processes, ports, strict=True):
        process.env.update(
            ACTIVITY_PORT=str(port),
            DISCORD_CLIENT_SECRET=fake.client_secret,
            RELAY_KEY=RELAY_KEY,
            DAILY_SECRET=SECRET,
        )
    guild, channel = second_guild(fake)  # on shard 1: the second process runs its games
    carol = fake.add_user("carol", guild=guild)
    try:
        with discord_pointed_at(fake):
            for process in processes:
                await process.start()
            async with aiohttp.ClientSession() as http:
                edge = Activity(fake, None, ports[0], http)
                where = {"channel": channel, "guild_id": str(guild.id), "daily": "nein-nine"}
                # Not started: the first process does not run this server's games.
                lone, refused = await edge.open(carol, **where)
                assert (refused["op"], refused["code"]) == ("error", "no-daily"), refused
                assert "/nines daily" in refused["message"]
                assert await lone.closed(within=10)
                # Started in chat (on the second process), continued from the first's socket.
                res = await fake.slash(carol, channel, "nines daily", game="nein-nine")
                assert res.ephemeral and not res.errors and hand_of(fake, carol, channel)
                web, ready = await edge.open(carol, **where)
                assert ready["op"] == "ready", ready
                assert ready["daily"]["game"] == "nein-nine" and ready["you"]["seat"] == 0
                assert "relaying its socket" in processes[0].log.read_text()
                before = ready["table"]["n"]
                current, _ = await play(web, ready["table"], moves=1)
                assert current["n"] > before and current["game_id"] == ready["table"]["game_id"]
    finally:
        for process in processes:
            process.stop()
        await fake.stop()
