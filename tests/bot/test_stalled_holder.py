"""Issue 32: a process stalled past its lease (SIGSTOP) while another took its shard over.
Discord sends the shard's events to both sessions; when the stalled one wakes, it neither
stores a move (its writes are fenced) nor answers a click (its lease is not surely held):
every click is answered once, by the new holder, and the game's log stays whole."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from bot.process.shards import LEASE_SECONDS
from fakecord import FakeDiscord
from fakecord.wiring import discord_pointed_at
from testbed.games import HANG_GUARD, open_game, text_of, wait_for
from testbed.people import table_message
from tests.storage_backends import Backend

from .test_failover import actions, play, second_guild, sharded, until

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


@pytest.mark.slow(23)
async def test_a_stalled_holder_neither_stores_nor_answers(tmp_path: Path) -> None:
    fake = FakeDiscord(shards=2)
    fake.gateway.max_concurrency = 2  # no 5 s wait between the two shards' IDENTIFYs
    await fake.start()
    database = tmp_path / "data" / "nines.sqlite3"
    backend = Backend("sqlite", str(database))
    first, second = sharded(fake, backend, database, 0), sharded(fake, backend, database, 1)
    guild1, channel1 = second_guild(fake)
    carol, dave = fake.add_user("carol", guild=guild1), fake.add_user("dave", guild=guild1)
    stopped = False
    try:
        with discord_pointed_at(fake):
            await first.start()
            await second.start()
            game1 = await open_game(
                fake, carol, people=(dave,), computers=("easy",), channel=channel1
            )
            await play(fake, [carol, dave], channel1, 2)
            stale = fake.gateway.by_shard[1]
            assert second.proc is not None
            os.kill(second.proc.pid, signal.SIGSTOP)  # its socket stays open, unread
            stopped = True
            await until(
                lambda: (
                    fake.gateway.by_shard.get(1) not in (None, stale)
                    and fake.gateway.connected.is_set()
                ),
                LEASE_SECONDS + HANG_GUARD,
                "shard 1 taken over",
            )
            await wait_for(
                fake,
                lambda: "restored" in text_of(table_message(fake, carol, channel1)),
                within=HANG_GUARD,
                what="the table restored",
            )
            # Clicks now reach both sessions of shard 1: the new holder's and the stalled one.
            await play(fake, [carol, dave], channel1, 2)
            os.kill(second.proc.pid, signal.SIGCONT)  # it wakes and reads those clicks
            stopped = False
            # It reads them (answering none: its lease is not surely held) and at its renewal,
            # due since it stopped, learns the shard is gone: waited for, not a fixed 3 s.
            await until(
                lambda: "lost the lease of shard(s) [1]" in second.log.read_text(),
                HANG_GUARD,
                "the stalled process's renewal",
            )
            # On a loaded machine the new holder's session may be reconnecting just then (a
            # late heartbeat): a click then would fail as on Discord. Wait until it serves.
            await until(
                lambda: fake.gateway.session_for(guild1.id) is not None,
                HANG_GUARD,
                "shard 1 served",
            )
            await play(fake, [carol, dave], channel1, 1)
            refused = [r for r in fake.requests if r.route == CALLBACK and r.status >= 400]
            assert refused == [], "a click answered twice"
            # The takeover IDENTIFYed beside the stalled session, which could not close it.
            assert fake.gateway.doubled == [1]
            await until(lambda: stale.ws is None, HANG_GUARD, "the stalled process letting go")
            assert "lost the lease of shard(s) [1]" in second.log.read_text()
            assert not fake.violations, fake.violations
    finally:
        if stopped and second.proc is not None:
            os.kill(second.proc.pid, signal.SIGCONT)
        first.stop()
        second.stop()
        await fake.stop()
    # Every stored move replays in order: nothing stored twice by the two processes.
    logged = await actions(database, game1)
    assert len(logged) >= 5
