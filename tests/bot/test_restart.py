"""Issue 7.1: a game in progress survives the bot's process dying at any moment.

The real bot runs as a subprocess (``python -m bot``) pointed at the double in this process;
it is killed with SIGKILL mid-game (once right after a click it had not answered), started
again, and the game is played to its end. Also an in-process restart on the same database.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.storage import Storage
from engine import Game, Rules, parse_action
from fakecord import FakeDiscord
from fakecord.models import User
from testbed.games import HANG_GUARD, finish, open_game, play_one, text_of, wait_for
from testbed.people import end_message, table_message

from .conftest import StartBot

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """``python -m bot`` in a child process, configured only through its environment."""

    def __init__(self, fake: FakeDiscord, database: Path) -> None:
        self.fake = fake
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE"))},
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DATABASE_PATH": str(database),
            "COMPUTER_WORKERS": "0",
            "SYNC_COMMANDS": "auto",
            "LOG_LEVEL": "WARNING",
            "CARD_EMOJIS": "off",  # as bot_settings: no uploads in these tests
        }
        self.proc: subprocess.Popen[bytes] | None = None
        database.parent.mkdir(parents=True, exist_ok=True)
        self.log = database.parent / "bot.log"

    async def start(self) -> None:
        identifies = self.fake.gateway.identifies
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(  # noqa: ASYNC220 (returns at once)
                [sys.executable, "-m", "bot"], cwd=ROOT, env=self.env, stdout=out, stderr=out
            )
        # Until the double sees it identify, however long a loaded machine takes to start a
        # Python process; one that died says so at once.
        deadline = time.monotonic() + HANG_GUARD
        while (
            self.fake.gateway.identifies == identifies or not self.fake.gateway.connected.is_set()
        ):
            self.assert_running()
            assert time.monotonic() < deadline, "the bot did not connect"
            await asyncio.sleep(0.02)
        await wait_for(self.fake, lambda: self.fake.commands.find(self.fake.guild.id, "nines"))
        await self.fake.settle()

    def assert_running(self) -> None:
        assert self.proc is not None and self.proc.poll() is None, self.log.read_text()[-3000:]

    def kill(self) -> None:
        assert self.proc is not None and self.proc.poll() is None, "the bot died on its own"
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def stored_game(database: Path, game_id: int) -> tuple[str, list[tuple[int, str]]]:
    storage = await Storage.open(database)
    try:
        row = await storage.game(game_id)
        assert row is not None
        return row.status, [(a.seat, a.action) for a in await storage.actions(game_id)]
    finally:
        await storage.close()


@pytest.mark.slow(35)
async def test_sigkill_mid_game_loses_nothing(fake_discord: FakeDiscord, tmp_path: Path):
    fake = fake_discord
    database = tmp_path / "data" / "nines.sqlite3"
    bot = BotProcess(fake, database)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = [alice, bob]
    rng = random.Random(7)
    accepted: list[tuple[User, str]] = []  # (who, custom_id) of every answered move
    try:
        await bot.start()
        game_id = await open_game(fake, alice, people=(bob,), computers=("normal",), start=3)

        async def play(turns: int) -> None:
            for _ in range(turns):
                played = await play_one(fake, users, fake.channel, rng)
                assert played is not None, "the game ended too early for this test"
                user, res = played
                accepted.append((user, res.payload["data"]["custom_id"]))

        await play(3)
        bot.kill()  # between two moves
        await bot.start()
        table = await wait_for(
            fake,
            lambda: "restored" in text_of(table_message(fake, alice, fake.channel)),
            what="the restored table",
        )
        assert table
        await play(2)

        # A click the bot received but had not answered when it died.
        user = await wait_for(fake, lambda: _turn(fake, users))
        hand = await fake.click(user, table_message(fake, user, fake.channel), "My hand")
        assert hand.message is not None
        moves = [b.custom_id for b in hand.message.buttons() if b.custom_id and not b.disabled]
        move = next(m for m in moves if ":hand:" not in m)
        click = await fake.click(user, hand.message, move, wait=False)
        # Not a wait for an event: a turn or so for the click to reach the bot. Whether the
        # kill comes before its answer or after, both outcomes are checked (accepted below).
        await asyncio.sleep(0.01)
        bot.kill()
        if click.acknowledged:
            accepted.append((user, move))
        await bot.start()
        await play(1)
        bot.kill()
        await bot.start()
        await finish(fake, users, fake.channel, seed=3)
    finally:
        bot.stop()

    status, actions = await stored_game(database, game_id)
    assert status == "finished"
    # The stored log replays to a finished game: nothing lost, nothing applied twice.
    row_rules = await _rules(database, game_id)
    game = Game(Rules.from_dict(row_rules[0]), row_rules[1])
    for seat, action in actions:
        game.apply(seat, parse_action(action))
    assert game.over
    # Every move a person was answered for is in the log, at the index its button carried.
    seats = {alice.id: 0, bob.id: 1}
    for who, custom_id in accepted:
        kind, n, choice = (
            custom_id.split(":")[2],
            int(custom_id.split(":")[4]),
            custom_id.split(":")[5],
        )
        seat, action = actions[n]
        assert seat == seats[who.id]
        if kind == "play" and choice != "JK":
            assert action == choice
    # Counted once.
    storage = await Storage.open(database)
    try:
        rows, _total = await storage.leaderboard(fake.guild.id, "nines")
        assert sum(r.games for r in rows if not r.is_computer) == 2
    finally:
        await storage.close()
    assert end_message(fake, alice, fake.channel) is not None


def _turn(fake: FakeDiscord, users: list[User]) -> User | None:
    from testbed.people import whose_turn

    return whose_turn(fake, users, fake.channel)


async def _rules(database: Path, game_id: int) -> tuple[dict[str, object], int]:
    storage = await Storage.open(database)
    try:
        row = await storage.game(game_id)
        assert row is not None
        return row.rules, row.seed
    finally:
        await storage.close()


async def test_in_process_restart_keeps_the_game(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    first = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = [alice, bob]
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    rng = random.Random(2)
    for _ in range(4):
        assert await play_one(fake, users, fake.channel, rng) is not None
    before = len(await first.storage.actions(game_id))
    old_table = table_message(fake, alice, fake.channel)
    await first.close()

    second = await start_bot()
    assert second.sessions.get(game_id) is not None
    assert len(await second.storage.actions(game_id)) == before
    await wait_for(
        fake,
        lambda: "restored" in text_of(table_message(fake, alice, fake.channel)),
        what="the table saying it was restored",
    )
    # The buttons of messages from before the restart still work.
    assert old_table is not None
    res = await fake.click(alice, old_table, "My hand")
    assert not res.errors and res.message is not None and res.ephemeral
    await finish(fake, users, fake.channel, seed=5)
    row = await second.storage.game(game_id)
    assert row is not None and row.status == "finished"
    assert len(second.sessions) == 0
