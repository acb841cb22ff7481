"""Issue 32: resume, don't re-identify. A sharded process that loses its gateway connection
but not its lease RESUMEs its sessions (Discord's budget of IDENTIFYs is 1,000 a day), the
events sent meanwhile are replayed to it, and a click sent while it was away is answered once.
Against the double's gateway (fakecord/gateway.py: session id, sequence, replay,
Invalid Session), with the real ``python -m bot``."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakecord import FakeDiscord
from testbed.games import HANG_GUARD, finish, open_game
from testbed.people import table_message

from .test_failover import until
from .test_restart import BotProcess

#: What discord.py's shard logs when an attempt to connect failed, before it tries again.
RECONNECT_FAILED = "Attempting a reconnect for shard ID"


@pytest.mark.slow(20)
async def test_a_lost_connection_with_the_lease_held_is_resumed(tmp_path: Path) -> None:
    fake = FakeDiscord(shards=2)
    await fake.start()
    bot = BotProcess(fake, tmp_path / "data" / "nines.sqlite3")
    bot.env.update(SHARD_COUNT="2", LOG_LEVEL="INFO")  # one process holding both shards
    alice = fake.add_user("alice")
    try:
        await bot.start()
        await until(lambda: len(fake.gateway.by_shard) == 2, HANG_GUARD, "both shards identified")
        await until(fake.gateway.connected.is_set, HANG_GUARD, "both shards connected")
        await open_game(fake, alice, computers=("easy", "easy"), start=3)
        table = table_message(fake, alice, fake.channel)
        assert table is not None
        identifies, resumes = fake.gateway.identifies, fake.gateway.resumes

        # The game's shard's socket drops with a code that allows resuming.
        shard = fake.gateway.shard_of(fake.guild.id)
        await fake.gateway.drop(code=4000, shard=shard)
        res = await fake.click(alice, table, "My hand")  # dispatched while the bot is away
        assert res.acknowledged and res.ephemeral and not res.errors
        assert fake.gateway.resumes == resumes + 1

        # Discord unreachable for a while: the reconnections are refused (connection
        # refused), then it is back. discord.py's shard would IDENTIFY after a failed
        # attempt; ours RESUMEs both sessions.
        port = fake.port
        failed = bot.log.read_text().count(RECONNECT_FAILED)
        await fake.stop()
        await until(  # at least one refused attempt, as discord.py's log says
            lambda: bot.log.read_text().count(RECONNECT_FAILED) > failed,
            HANG_GUARD,
            "a refused reconnection",
        )
        await fake.start(port)
        await until(
            lambda: fake.gateway.resumes >= resumes + 3 and fake.gateway.connected.is_set(),
            HANG_GUARD,
            "both shards resumed",
        )
        res = await fake.click(alice, table, "My hand")
        assert res.acknowledged and res.ephemeral and not res.errors
        assert fake.gateway.identifies == identifies, "a new IDENTIFY instead of a RESUME"
        assert fake.gateway.doubled == []
        await finish(fake, [alice], fake.channel)
        assert not fake.violations, fake.violations
    finally:
        if bot.proc is not None and bot.proc.poll() is None:
            bot.proc.terminate()
            bot.proc.wait(10)
        await fake.stop()
