"""Issue 18.4: two bot processes on one database, each owning one of two shards; one is
SIGKILLed mid-game and the other takes over its shard once its lease expires, then hands it
back when it restarts: no move lost or applied twice, the old buttons keep working, each
finished game counted once.

On PostgreSQL, and on one SQLite file shared by both processes (WAL works across processes
on one machine)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.process.shards import LEASE_SECONDS
from bot.storage import Storage
from engine import Game, Rules, parse_action
from fakecord import FakeDiscord
from fakecord.models import Channel, Guild, User
from fakecord.server import BOT_DEFAULT
from fakecord.wiring import discord_pointed_at
from testbed.games import HANG_GUARD, finish, open_game, play_one, text_of, wait_for
from testbed.people import end_message, table_message, whose_turn
from tests.storage_backends import TEST_POOL_SIZE, Backend

from .test_restart import BotProcess


async def until(check: object, within: float, what: str) -> None:
    """Poll without settle(): while a shard has no session, the double is never settled."""
    deadline = time.monotonic() + within
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(0.05)


def sharded(fake: FakeDiscord, backend: Backend, database: Path, shard: int) -> BotProcess:
    bot = BotProcess(fake, database)
    bot.env.update(SHARD_COUNT="2", SHARD_IDS=str(shard), LOG_LEVEL="INFO")
    if backend.name == "postgresql":
        bot.env["DATABASE_URL"] = backend.target
        bot.env["DATABASE_POOL_SIZE"] = str(TEST_POOL_SIZE)
    bot.log = database.parent / f"bot{shard}.log"
    return bot


def second_guild(fake: FakeDiscord) -> tuple[Guild, Channel]:
    guild = fake.add_guild("Shard One", shard=1)
    role = fake.add_role(guild, "Nines", BOT_DEFAULT)
    fake.add_member(guild, fake.bot, roles=[role])
    return guild, fake.add_channel(guild, "general")


async def play(fake: FakeDiscord, users: list[User], channel: Channel, turns: int) -> None:
    rng = random.Random(turns)
    for _ in range(turns):
        assert await play_one(fake, users, channel, rng) is not None, "the game ended early"


async def check_stored(backend: Backend, game_id: int, guild_id: int) -> None:
    storage = await backend.open()
    try:
        row = await storage.game(game_id)
        assert row is not None and row.status == "finished"
        # The stored log replays to a finished game: nothing lost, nothing applied twice.
        game = Game(Rules.from_dict(row.rules), row.seed)
        for action in await storage.actions(game_id):
            game.apply(action.seat, parse_action(action.action))
        assert game.over
        rows, _total = await storage.leaderboard(guild_id, "nines")
        assert sum(r.games for r in rows if not r.is_computer) == 2  # two people, once each
    finally:
        await storage.close()


@pytest.mark.slow(60)
async def test_a_killed_process_shard_is_taken_over(backend: Backend, tmp_path: Path) -> None:
    fake = FakeDiscord(shards=2)
    await fake.start()
    database = tmp_path / "data" / "nines.sqlite3"
    if backend.name == "sqlite":
        database = Path(backend.target)
    first, second = sharded(fake, backend, database, 0), sharded(fake, backend, database, 1)
    guild1, channel1 = second_guild(fake)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    carol, dave = fake.add_user("carol", guild=guild1), fake.add_user("dave", guild=guild1)
    try:
        with discord_pointed_at(fake):
            await first.start()
            await second.start()
            assert {s for _, s in fake.gateway.identified} == {0, 1}
            game0 = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
            game1 = await open_game(
                fake, carol, people=(dave,), computers=("easy",), start=3, channel=channel1
            )
            await play(fake, [alice, bob], fake.channel, 3)
            await play(fake, [carol, dave], channel1, 3)
            old_table = table_message(fake, carol, channel1)
            assert old_table is not None

            identified = len(fake.gateway.identified)
            second.kill()
            killed = time.time()
            storage = await backend.open()
            try:
                expires = (await storage.shard_leases())[1].expires_at
            finally:
                await storage.close()
            await until(
                lambda: (
                    len(fake.gateway.identified) > identified and fake.gateway.connected.is_set()
                ),
                LEASE_SECONDS + 25,
                "shard 1 taken over",
            )
            taken = time.time()
            assert fake.gateway.identified[-1][1] == 1
            await wait_for(
                fake,
                lambda: "restored" in text_of(table_message(fake, carol, channel1)),
                within=HANG_GUARD,
                what="the taken-over table saying it was restored",
            )
            restored = time.time()
            print(
                f"\nlease expired {expires - killed:.1f} s after the kill; shard 1 identified "
                f"{taken - expires:.1f} s after expiry, table restored {restored - expires:.1f} s"
                " after expiry"
            )
            assert restored - expires < 30

            # A button from before the kill works on the process that took over.
            res = await fake.click(carol, old_table, "My hand")
            assert not res.errors and res.message is not None and res.ephemeral
            await play(fake, [carol, dave], channel1, 2)

            # The killed process comes back: shard 1, its own, is handed back to it.
            identified = len(fake.gateway.identified)
            back = time.monotonic()
            await second.start()
            assert [s for _, s in fake.gateway.identified[identified:]] == [1]
            print(f"shard 1 handed back {time.monotonic() - back:.1f} s after the restart")
            await finish(fake, [carol, dave], channel1, seed=4)
            await finish(fake, [alice, bob], fake.channel, seed=5)
            assert end_message(fake, carol, channel1) is not None
            assert fake.gateway.doubled == []  # never two sessions on one shard
            assert fake.gateway.spacing_violations(5.0) == []
            assert not fake.violations, fake.violations
    finally:
        first.stop()
        second.stop()
        await fake.stop()
    await check_stored(backend, game0, fake.guild.id)
    await check_stored(backend, game1, guild1.id)


@pytest.mark.slow(15)
async def test_a_lost_lease_stops_the_shard_and_a_freed_one_is_taken_back(tmp_path: Path) -> None:
    fake = FakeDiscord(shards=2)
    fake.gateway.max_concurrency = 2  # shards 0 and 1 in buckets of their own: no 5 s wait
    await fake.start()
    database = tmp_path / "data" / "nines.sqlite3"
    bot = BotProcess(fake, database)
    bot.env.update(SHARD_COUNT="2", LOG_LEVEL="INFO")  # no SHARD_IDS: both shards
    guild1, channel1 = second_guild(fake)
    carol, dave = fake.add_user("carol", guild=guild1), fake.add_user("dave", guild=guild1)
    alice = fake.add_user("alice")
    try:
        with discord_pointed_at(fake):
            await bot.start()
            await until(lambda: set(fake.gateway.by_shard) == {0, 1}, 20, "both shards")
            await fake.settle()
            game1 = await open_game(
                fake, carol, people=(dave,), computers=("easy",), channel=channel1
            )
            await play(fake, [carol, dave], channel1, 2)
            await wait_for(fake, lambda: whose_turn(fake, [carol, dave], channel1), what="a turn")
            session1 = fake.gateway.by_shard[1]

            # Another owner holds shard 1's lease now: the process stops serving it.
            await raw(
                database,
                "UPDATE shard_leases SET owner = 'thief', expires_at = ? WHERE shard_id = 1",
                time.time() + 600,
            )
            await until(lambda: session1.ws is None, 15, "shard 1 let go")
            res = await fake.slash(alice, fake.channel, "nines stats")  # shard 0 still served
            assert res.acknowledged and not res.errors

            # Meanwhile the turn ran out (its stored deadline passed): the process that takes
            # the shard plays the timed-out move at once.
            moves = len(await actions(database, game1))
            await raw(database, "UPDATE games SET turn_deadline = ? WHERE id = ?", 1.0, game1)
            # The thief lets it go: the process takes shard 1 back, and its game.
            await raw(database, "UPDATE shard_leases SET expires_at = 0 WHERE shard_id = 1")
            await until(
                lambda: (
                    fake.gateway.by_shard.get(1) not in (None, session1)
                    and fake.gateway.connected.is_set()
                ),
                15,
                "shard 1 taken back",
            )
            await wait_for(
                fake,
                lambda: "restored" in text_of(table_message(fake, carol, channel1)),
                within=HANG_GUARD,
                what="the table restored",
            )
            # The overdue timer ran: a person's move that nobody clicked.
            after = await actions(database, game1)
            assert len(after) > moves and after[moves][0] in (0, 1), after[moves:]
            await play(fake, [carol, dave], channel1, 2)
            assert fake.gateway.doubled == []
    finally:
        bot.stop()
        await fake.stop()
    assert len(await actions(database, game1)) >= 5


async def actions(database: Path, game_id: int) -> list[tuple[int, str]]:
    storage = await Storage.open(database)
    try:
        return [(a.seat, a.action) for a in await storage.actions(game_id)]
    finally:
        await storage.close()


async def raw(database: Path, sql: str, *params: object) -> None:
    """A write by another program (here: a process that took the lease)."""
    import sqlite3

    conn = sqlite3.connect(database, timeout=10)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()
