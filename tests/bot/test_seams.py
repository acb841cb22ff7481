"""Issue 17.0: the bot's process killed at every seam between storing a move and telling the
channel; after a restart the channel shows every hand's summary and the end exactly once, the
live table is the newest table, and nothing is posted twice.

The real bot runs as a subprocess; ``NINES_FAILPOINTS`` (bot/base/failpoints.py) makes it SIGKILL
itself at one named place, the first time it gets there.
"""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from fakecord import FakeDiscord
from fakecord.models import Message, User
from testbed.games import HANG_GUARD, game_id_of, open_game, play_one, wait_for
from testbed.people import end_message, table_message, whose_turn
from testbed.reading import words

from .test_restart import BotProcess

SUMMARY = re.compile(r"^(Hand|Round) (\d+) is over")


def titles(fake: FakeDiscord, user: User) -> list[str]:
    """The embed titles of the public messages standing in the channel, oldest first."""
    return [
        str(e.get("title", ""))
        for m in fake.visible(user, fake.channel)
        if m.ephemeral_for is None
        for e in m.embeds
    ]


def check_channel(fake: FakeDiscord, user: User, *, over: bool) -> None:
    """Every ended hand's summary once, in order; the end once (if over); the live table
    (if not) the newest table and after every summary."""
    shown = titles(fake, user)
    summaries = [int(m[2]) for t in shown if (m := SUMMARY.match(t))]
    assert summaries == list(range(1, len(summaries) + 1)), shown
    ends = [t for t in shown if "game over" in t]
    assert len(ends) == (1 if over else 0), shown
    tables = [i for i, t in enumerate(shown) if " · " in t]
    if over:
        assert tables == [], shown
    else:
        assert len(tables) == 1 and tables[0] == len(shown) - 1, shown
        assert table_message(fake, user, fake.channel) is not None
    posts = Counter(
        r.body["nonce"]
        for r in fake.requests
        if r.method == "POST" and r.body and "nonce" in r.body and r.status == 200
    )
    created = {m.id for m in fake.store.messages.get(fake.channel.id, [])}
    assert len(created) == len(set(created))
    if over:  # the end notified each seated person once (issue 38), restart or not
        every = fake.store.messages.get(fake.channel.id, [])
        told = [m for m in every if (m.content or "").startswith("🏁")]
        assert len(told) == 1, [m.content for m in told]
        mentioned = {int(i) for i in re.findall(r"<@(\d+)>", told[0].content or "")}
        assert user.id in mentioned and {u.id for u in told[0].mentions} == mentioned
    assert posts  # the messages a game owes were posted with nonces


async def play_until_dead(
    fake: FakeDiscord, bot: BotProcess, users: list[User], rng: random.Random
) -> None:
    """People play until the process kills itself at its failpoint."""
    for _ in range(2000):
        if bot.proc is None or bot.proc.poll() is not None:
            return
        move = asyncio.ensure_future(play_one(fake, users, fake.channel, rng))
        # A click the bot dies in the middle of is given up as soon as the process is gone:
        # the double would otherwise wait out its settling time on a bot that will never answer.
        while not move.done() and bot.proc.poll() is None:
            await asyncio.wait({move}, timeout=0.05)
        if not move.done():
            move.cancel()
            await asyncio.gather(move, return_exceptions=True)
            return
        try:
            played = move.result()
        except (AssertionError, TimeoutError) as failed:
            # A click the dying bot left unanswered, only if the bot is really gone: it killed
            # itself at its failpoint, so it is already dead or dying. A live bot that failed
            # a click is a failure.
            if not await gone(bot):
                raise AssertionError("a click failed and the bot is still running") from failed
            return
        if played is None:
            break
        await asyncio.sleep(0)
    # The game is over for the people: a failpoint at its last seams (the end posted) fires
    # just after what they saw, and a loaded machine may take a while to get there.
    if not await gone(bot):
        raise AssertionError("the failpoint was never reached")


async def gone(bot: BotProcess) -> bool:
    """Whether the bot's process ends (it may be dying now), waited for up to HANG_GUARD: a
    guard for a stuck test only, as a bot at its failpoint is killed at once."""
    proc = bot.proc
    if proc is None:
        return True
    try:
        await asyncio.to_thread(proc.wait, HANG_GUARD)
    except subprocess.TimeoutExpired:
        return False
    return True


async def killed(bot: BotProcess) -> int | None:
    """The bot's exit status once it is gone (None if it runs on past HANG_GUARD). Waited for
    in a thread: the double, on this loop, answers what the bot asks on its way there."""
    proc = bot.proc
    assert proc is not None
    return proc.returncode if await gone(bot) else None


async def finish_game(fake: FakeDiscord, users: list[User], rng: random.Random) -> Message:
    for _ in range(3000):
        if await play_one(fake, users, fake.channel, rng) is None:
            break
    return await wait_for(fake, lambda: end_message(fake, users[0], fake.channel), what="the end")


@pytest.mark.slow(35)
@pytest.mark.parametrize(
    ("seam", "start"),
    [
        ("last_card_stored", 3),  # the last card stored, the game not yet finished nor told
        ("summary_shown", 3),  # a hand's summary shown, the next table not yet posted
        # The second hand's table posted, its id not stored (from 10 no game ends in its
        # first hand: a hand lowers a score by 9 at most, N7).
        ("table_posted@2", 10),
        ("turn_posted@3", 3),  # a turn message posted, its id not stored
        ("end_posted", 3),  # the end message posted (results and ratings stored), not told
    ],
)
async def test_killed_at_a_seam_the_channel_is_told_everything_once(
    fake_discord: FakeDiscord, tmp_path: Path, seam: str, start: int
) -> None:
    fake = fake_discord
    bot = BotProcess(fake, tmp_path / "data" / "nines.sqlite3")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = [alice, bob]
    rng = random.Random(len(seam))
    bot.env["NINES_FAILPOINTS"] = seam
    try:
        await bot.start()
        await open_game(fake, alice, people=(bob,), computers=("easy",), start=start)
        await play_until_dead(fake, bot, users, rng)
        assert await killed(bot) == -9, "the failpoint did not fire"
        bot.proc = None
        del bot.env["NINES_FAILPOINTS"]
        await bot.start()
        over = end_message(fake, alice, fake.channel) is not None
        await wait_for(
            fake,
            lambda: end_message(fake, alice, fake.channel) or whose_turn(fake, users, fake.channel),
            what="the restored game or its end",
        )
        check_channel(fake, alice, over=end_message(fake, alice, fake.channel) is not None)
        if start > 3:
            return  # a long game: what was owed at the seam is checked
        if not over:
            await finish_game(fake, users, rng)
        await fake.settle()
        check_channel(fake, alice, over=True)
    finally:
        bot.stop()


async def test_killed_in_the_lobby_the_lobby_shows_who_joined(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = BotProcess(fake, tmp_path / "data" / "nines.sqlite3")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot.env["NINES_FAILPOINTS"] = "join_stored"
    try:
        await bot.start()
        res = await fake.slash(alice, fake.channel, "nines start", start=3)
        lobby = res.message
        assert lobby is not None
        await fake.click(bob, lobby, "Join", wait=False)
        assert await killed(bot) == -9
        bot.proc = None
        assert "bob" not in str(
            fake.store.message(fake.channel.id, lobby.id).embeds
        )  # never told (seats are named, not mentioned, in the embed)
        del bot.env["NINES_FAILPOINTS"]
        await bot.start()
        await wait_for(
            fake,
            lambda: ". bob" in words(fake.store.message(fake.channel.id, lobby.id)),
            what="bob in the restored lobby",
        )
        lobby = fake.store.message(fake.channel.id, lobby.id)
        assert game_id_of(lobby)
        await fake.click(alice, lobby, f"nines:1:lobby:{game_id_of(lobby)}:cpu-easy")
        start = await fake.click(alice, lobby, "Start")
        assert not start.errors
        await wait_for(fake, lambda: table_message(fake, alice, fake.channel), what="the table")
        lobbies = [m for m in fake.visible(alice, fake.channel) if "Join" in str(m.components)]
        assert len(lobbies) <= 1
    finally:
        bot.stop()


@pytest.mark.slow(20)
async def test_killed_opening_a_rematch_the_new_lobby_is_posted_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = BotProcess(fake, tmp_path / "data" / "nines.sqlite3")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = [alice, bob]
    bot.env["NINES_FAILPOINTS"] = "lobby_opened@2"  # the first is the game's own lobby
    try:
        await bot.start()
        await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
        end = await finish_game(fake, users, random.Random(4))
        await fake.click(bob, end, "Rematch", wait=False)
        assert await killed(bot) == -9
        bot.proc = None
        del bot.env["NINES_FAILPOINTS"]
        await bot.start()

        def lobbies() -> list[Message]:
            return [
                m
                for m in fake.visible(alice, fake.channel)
                if any(b.label == "Join" for b in m.buttons())
            ]

        def seated() -> bool:  # seats by name
            return any(". alice" in words(m) and ". bob" in words(m) for m in lobbies())

        await wait_for(fake, seated, what="the rematch's lobby, both seated")
        (lobby,) = lobbies()
        start = await fake.click(bob, lobby, "Start")  # bob clicked Rematch: he hosts
        assert not start.errors
        await wait_for(fake, lambda: table_message(fake, bob, fake.channel), what="the table")
        # Nor did a second lobby come later: the restarted bot answered a click since.
        assert [m.id for m in lobbies()] in ([], [lobby.id])
    finally:
        bot.stop()


async def test_every_restart_says_so_on_the_table(fake_discord: FakeDiscord, tmp_path: Path):
    """The restored note after each of three restarts (it once came after 2 of 3)."""
    fake = fake_discord
    bot = BotProcess(fake, tmp_path / "data" / "nines.sqlite3")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = [alice, bob]
    rng = random.Random(8)
    try:
        await bot.start()
        await open_game(fake, alice, people=(bob,), computers=("easy",), start=9)
        for _restart in range(3):
            assert await play_one(fake, users, fake.channel, rng) is not None
            # The move's table edit clears the note: waited for, as a process starved of CPU
            # may send it after the double's quiet window (the click is answered first).
            await wait_for(
                fake,
                lambda: "restarted" not in str(table_message(fake, alice, fake.channel).embeds),  # type: ignore[union-attr]
                what="the table without the note",
            )
            bot.kill()
            await bot.start()
            await wait_for(
                fake,
                lambda: "restarted" in str(table_message(fake, alice, fake.channel).embeds),  # type: ignore[union-attr]
                what="the restored note",
            )
    finally:
        bot.stop()
