"""Issue 17.2: SIGTERM (``docker stop``) and SIGINT stop the bot gracefully: the gateway is
closed first (no new clicks), a click in flight is answered and stored, timers and the
computer players' worker processes stop, the database is closed; started again, the game
goes on with nothing lost. Well under Docker's 10 seconds."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path

import pytest

from bot.storage import Storage
from fakecord import FakeDiscord
from testbed.games import finish, open_game, play_one, text_of, wait_for
from testbed.people import enabled_moves, open_hand, whose_turn

from .test_restart import BotProcess, table_message

CALLBACK = "/interactions/*/callback"


def children_of(pid: int) -> list[int]:
    """Live child processes of ``pid`` (from /proc: the parent id is stat's 4th field)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting for its parent to read its status)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def stored_actions(database: Path, game_id: int) -> list[tuple[int, str]]:
    storage = await Storage.open(database)
    try:
        return [(a.seat, a.action) for a in await storage.actions(game_id)]
    finally:
        await storage.close()


async def stop_with(bot: BotProcess, sig: signal.Signals, within: float = 8.0) -> float:
    """Send ``sig``; the seconds until the process exited, with status 0."""
    proc = bot.proc
    assert proc is not None and proc.poll() is None
    started = time.monotonic()
    proc.send_signal(sig)
    while proc.poll() is None:
        assert time.monotonic() - started < within, "the bot did not stop"
        await asyncio.sleep(0.01)
    took = time.monotonic() - started
    assert proc.returncode == 0, bot.log.read_text()[-3000:]
    bot.proc = None
    return took


@pytest.mark.slow(18)
async def test_sigterm_mid_game_answers_the_click_in_flight_and_loses_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
):
    fake = fake_discord
    database = tmp_path / "data" / "nines.sqlite3"
    bot = BotProcess(fake, database)
    bot.env.update(LOG_LEVEL="INFO", COMPUTER_WORKERS="1")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = [alice, bob]
    rng = random.Random(11)
    try:
        await bot.start()
        # A hard computer thinks in the worker process.
        game_id = await open_game(fake, alice, people=(bob,), computers=("hard",), start=3)
        for _ in range(3):
            assert await play_one(fake, users, fake.channel, rng) is not None
        assert bot.proc is not None
        workers = children_of(bot.proc.pid)
        assert workers, "COMPUTER_WORKERS=1 runs a worker process"

        # A click whose answer Discord holds for 1.5 s: SIGTERM arrives while it is in flight.
        user = await wait_for(fake, lambda: whose_turn(fake, users, fake.channel))
        hand = await open_hand(fake, user, fake.channel)
        move = enabled_moves(hand)[0]
        before = await stored_actions(database, game_id)
        held = fake.stall("POST", CALLBACK, seconds=1.5)
        click = await fake.click(user, hand, move, wait=False)
        deadline = time.monotonic() + 5  # not settle(): it would wait for the answer
        while not held.arrived:
            assert time.monotonic() < deadline, "the click was not answered"
            await asyncio.sleep(0.005)
        assert not click.acknowledged
        took = await stop_with(bot, signal.SIGTERM)

        # It waited for the answer, and no longer than it needed.
        assert 1.3 < took < 4.0, took
        print(f"SIGTERM stop with a click in flight (answer held 1.5 s): {took:.2f} s")
        assert click.acknowledged and not click.errors, click.errors
        after = await stored_actions(database, game_id)
        assert after[: len(before)] == before and len(after) > len(before)
        n = int(move.split(":")[4])
        assert after[n][1] == move.split(":")[5] or move.split(":")[2] != "play"
        log = bot.log.read_text()
        assert "stopped cleanly" in log and "Traceback" not in log, log[-3000:]
        await asyncio.sleep(0.5)
        assert not [pid for pid in workers if alive(pid)], "a worker process outlived the bot"
        assert not fake.gateway.connected.is_set()

        # Started again: the same game, every move in place, played to its end.
        await bot.start()
        await wait_for(
            fake,
            lambda: "restored" in text_of(table_message(fake, alice, fake.channel)),
            what="the restored table",
        )
        await finish(fake, users, fake.channel, seed=4)
        final = await stored_actions(database, game_id)
        assert final[: len(after)] == after
        took = await stop_with(bot, signal.SIGINT)
        assert took < 2.0, took
    finally:
        bot.stop()


async def test_sigterm_while_idle_stops_at_once(fake_discord: FakeDiscord, tmp_path: Path):
    bot = BotProcess(fake_discord, tmp_path / "data" / "nines.sqlite3")
    try:
        await bot.start()
        took = await stop_with(bot, signal.SIGTERM)
        assert took < 2.0, took
        print(f"idle SIGTERM stop: {took:.2f} s")
    finally:
        bot.stop()
