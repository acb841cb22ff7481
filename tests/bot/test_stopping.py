"""Issue 17.2: SIGTERM (``docker stop``) and SIGINT stop the bot gracefully: the gateway is
closed first (no new clicks), a click in flight is answered and stored, timers and the
computer players' worker processes stop, the database is closed; started again, the game
goes on with nothing lost. How long a stop takes (well under Docker's 10 seconds) is a figure
of bench/stopping.py: here each stop is checked by what it waited for."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path

import pytest

from bot.storage import Storage
from fakecord import FakeDiscord
from testbed.games import HANG_GUARD, finish, open_game, play_one, text_of, wait_for
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


async def stop_with(bot: BotProcess, sig: signal.Signals) -> str:
    """Send ``sig``; once the process exited, with status 0, its log from the stop on. The
    stop waited for nothing but the clicks in progress (their drain did not run out: no
    "still being handled"); HANG_GUARD only fails a stop that hangs."""
    proc = bot.proc
    assert proc is not None and proc.poll() is None
    start = len(bot.log.read_text())
    proc.send_signal(sig)
    deadline = time.monotonic() + HANG_GUARD
    while proc.poll() is None:
        assert time.monotonic() < deadline, "the bot did not stop"
        await asyncio.sleep(0.01)
    log = bot.log.read_text()
    assert proc.returncode == 0, log[-3000:]
    bot.proc = None
    stop = log[start:]
    assert "stopped cleanly" in stop and "still being handled" not in stop, stop
    assert "Traceback" not in stop, stop
    return stop


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
        deadline = time.monotonic() + HANG_GUARD  # not settle(): it would wait for the answer
        while not held.arrived:
            assert time.monotonic() < deadline, "the click was not answered"
            await asyncio.sleep(0.005)
        assert not click.acknowledged
        await stop_with(bot, signal.SIGTERM)

        # It waited for the answer (stop_with: its drain did not run out).
        assert click.acknowledged and not click.errors, click.errors
        after = await stored_actions(database, game_id)
        assert after[: len(before)] == before and len(after) > len(before)
        n = int(move.split(":")[4])
        assert after[n][1] == move.split(":")[5] or move.split(":")[2] != "play"
        # The workers end with the bot (their parent-death signal): waited for.
        deadline = time.monotonic() + HANG_GUARD
        while [pid for pid in workers if alive(pid)]:
            assert time.monotonic() < deadline, "a worker process outlived the bot"
            await asyncio.sleep(0.05)
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
        await stop_with(bot, signal.SIGINT)
    finally:
        bot.stop()


async def test_sigterm_while_idle_stops_at_once(fake_discord: FakeDiscord, tmp_path: Path):
    bot = BotProcess(fake_discord, tmp_path / "data" / "nines.sqlite3")
    bot.env.update(LOG_LEVEL="INFO")
    try:
        await bot.start()
        stop = await stop_with(bot, signal.SIGTERM)
        # Nothing to wait for: "stopping", then at once "stopped cleanly", nothing between.
        lines = stop.splitlines()
        assert len(lines) == 2 and "stopping: finishing" in lines[0], stop
    finally:
        bot.stop()
