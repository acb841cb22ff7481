"""Issue 47: today's daily deal at the web table, end to end: the real bot against the Discord
double, a real websocket as the page.

A person opens their daily at the web table (a hello with ``daily``) and plays it there,
privately: another person in the same channel, at the channel's game, is never sent a frame of
it; at its end they get their result (the chat's, in numbers) and the channel the one public
line; a second hello gets the result again, and chat refuses a second try. A daily begun in
chat continues at the web table, and one begun there continues in chat: one stored game, one
try. Without the operator's secret, or for someone else's daily, nothing is sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.activity.daily import result_frame
from bot.activity.hub import Hub
from bot.activity.limits import PER_SECOND
from bot.app import NinesBot
from fakecord import FakeDiscord
from fakecord.models import User
from testbed.games import open_game, text_of, wait_for

from .conftest import StartBot
from .test_activity import Activity, Json, Table
from .test_daily import SECRET, hand_of, move, public_messages
from .test_network_faults import free_port


@pytest.fixture
async def activity(fake_discord: FakeDiscord, start_bot: StartBot) -> AsyncIterator[Activity]:
    fake = fake_discord
    fake.enable_activities()
    port = free_port()
    bot = await start_bot(
        ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret, DAILY_SECRET=SECRET
    )
    async with aiohttp.ClientSession() as http:
        yield Activity(fake, bot, port, http)


def bot_of(activity: Activity) -> NinesBot:
    assert activity.bot is not None
    return activity.bot


async def play(
    table: Table, current: Json, *, moves: int | None = None
) -> tuple[Json, Json | None]:
    """Play the first legal action whenever the turn is the person's (seat 0): ``moves`` of
    them, or to the end (None). The last table read, and the result if it came."""
    asked: set[int] = set()
    sent_at = 0.0
    while True:
        turn, hand = current["turn"], current["hand"]
        mine = turn is not None and turn["seat"] == 0 and hand is not None and hand["legal"]
        if moves is not None and len(asked) >= moves and current["n"] > max(asked):
            return current, None
        if mine and current["n"] not in asked and (moves is None or len(asked) < moves):
            asked.add(current["n"])
            # At most a socket's steady rate (bot/activity/limits.py): a person taps slower,
            # and faster taps past its burst are refused ``busy``.
            await asyncio.sleep(max(0.0, sent_at + 1 / PER_SECOND - time.monotonic()))
            sent_at = time.monotonic()
            await table.send(
                op="act", key=f"web-{current['n']}", action=hand["legal"][0], n=current["n"]
            )
        frame = await table.next()
        assert frame["op"] != "error", frame
        if frame["op"] in ("ready", "table"):
            current = frame["table"]
        elif frame["op"] == "daily-result":
            return current, frame


async def test_a_daily_is_played_at_the_web_table_and_nobody_else_is_sent_it(
    activity: Activity,
) -> None:
    fake, bot = activity.fake, bot_of(activity)
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    # Bob and Carol play the channel's game; Bob has its table open, and so has Alice.
    game = await open_game(fake, bob, people=(carol,), computers=("normal",))
    bobs, ready = await activity.open(bob)
    assert ready["op"] == "ready" and ready["daily"] is None and ready["daily_offered"] is True
    watching, ready = await activity.open(alice)
    assert ready["table"]["game_id"] == game and ready["you"]["seat"] is None
    # Alice opens today's Nein Nine at the web table: her own game, seat 0, her hand.
    alices, ready = await activity.open(alice, daily="nein-nine")
    assert ready["op"] == "ready", ready
    day = bot.daily.today()
    assert ready["daily"] == {"game": "nein-nine", "day": day}
    daily = ready["table"]["game_id"]
    found = await bot.storage.daily_try(day, "nein-nine", alice.id)
    assert found is not None and found.game_id == daily and not found.finished
    assert ready["you"]["seat"] == 0 and ready["table"]["hand"]["cards"]
    assert ready["table"]["kind"]["name"] == "nein-nine"
    assert [s["name"] for s in ready["table"]["seats"][1:]] == ["🤖 Ada", "🤖 Blaise"]
    # She plays it through; the computers answer; the result comes at the end, hers only.
    last, result = await play(alices, ready["table"])
    assert last["status"] == "finished" and result is not None
    stored = await bot.storage.daily_try(day, "nein-nine", alice.id)
    assert stored is not None and stored.finished
    expected = await bot.daily.result_of(stored)
    assert expected is not None and result == result_frame(expected)
    assert result["game"] == "nein-nine" and result["day"] == day
    assert result["share"] is None and result["field"] == 0  # the first to finish it
    assert [h["number"] for h in result["hands"]] == list(range(1, len(result["hands"]) + 1))
    # The chat's one public line, nothing of the cards; no table of it in the channel.
    line = await wait_for(fake, lambda: public_messages(fake, carol, fake.channel)[-1:])
    assert "played today's daily Nein Nine, the first to finish it" in text_of(line[0])
    assert all(m.id != found.game_id for m in public_messages(fake, carol, fake.channel))
    # Bob's table and Alice's other socket, open in the same channel all along: nothing of it.
    for other in (bobs, watching):
        await _frames_never_of(other, daily)
    # A second hello: the result again, at no table (one try a day).
    again, answer = await activity.open(alice, daily="nein-nine")
    assert answer == result
    await again.send(op="act", key="late", action="9H", n=0)
    refused = await again.next("error")
    assert refused["code"] == "no-game"
    # And chat refuses a second try, with the same result.
    await fake.slash(alice, fake.channel, "nines daily", game="nein-nine")
    said = text_of(hand_of(fake, alice, fake.channel))
    assert "played today's daily Nein Nine already" in said


async def _frames_never_of(table: Table, daily: int) -> None:
    """Read what ``table`` was sent until a pong answers a ping: nothing of the daily."""
    await table.send(op="ping")
    while True:
        frame = await table.next()
        assert frame["op"] != "daily-result", frame
        if frame["op"] in ("ready", "table"):
            assert frame["table"]["game_id"] != daily, frame
            assert all(s["name"] not in ("🤖 Ada", "🤖 Blaise") for s in frame["table"]["seats"])
        if frame["op"] == "pong":
            return


async def test_a_daily_begun_in_chat_continues_at_the_web_table_and_back(
    activity: Activity,
) -> None:
    fake, bot = activity.fake, bot_of(activity)
    alice = fake.add_user("alice")
    here = fake.channel
    await fake.slash(alice, here, "nines daily", game="nines")
    await move(fake, alice, hand_of(fake, alice, here), 0)
    await fake.settle()
    day = bot.daily.today()
    found = await bot.storage.daily_try(day, "nines", alice.id)
    assert found is not None and found.game_id is not None
    stored = len(await bot.storage.actions(found.game_id))
    # The web table takes it up where chat left it: the same game, the same count of moves.
    web, ready = await activity.open(alice, daily="nines")
    assert ready["op"] == "ready" and ready["daily"] == {"game": "nines", "day": day}
    assert ready["table"]["game_id"] == found.game_id and ready["table"]["n"] == stored
    current, _ = await play(web, ready["table"], moves=2)
    # Back in chat: the same game, her turn, the web's moves in it; a click there is pushed to
    # the web table.
    await fake.slash(alice, here, "nines daily", game="nines")
    session = bot.sessions.get(found.game_id)
    assert session is not None and session.n == current["n"]
    await move(fake, alice, hand_of(fake, alice, here), 0)
    pushed = await web.table_where(lambda t: t["n"] > current["n"])
    assert pushed["table"]["game_id"] == found.game_id
    # Nothing of it in the channel while it is played, and one try.
    assert public_messages(fake, alice, here) == []
    again, claimed = await bot.storage.claim_daily(
        day, "nines", alice.id, guild_id=here.guild_id, channel_id=here.id, name="alice"
    )
    assert not claimed and again.game_id == found.game_id


async def test_a_daily_begun_at_the_web_table_continues_in_chat(activity: Activity) -> None:
    fake, bot = activity.fake, bot_of(activity)
    alice = fake.add_user("alice", locale="fr")
    here = fake.channel
    web, ready = await activity.open(alice, daily="nines")
    assert ready["op"] == "ready" and ready["lang"] == "fr"
    daily = ready["table"]["game_id"]
    current, _ = await play(web, ready["table"], moves=1)
    await web.ws.close()
    # In chat, /nines daily shows the same game's hand, privately, where the web left it.
    res = await fake.slash(alice, here, "nines daily", game="nines")
    assert res.ephemeral and not res.errors
    session = bot.sessions.get(daily)
    assert session is not None and session.private and session.n == current["n"]
    found = await bot.storage.daily_try(bot.daily.today(), "nines", alice.id)
    assert found is not None and found.game_id == daily
    assert public_messages(fake, alice, here) == []


async def test_no_one_else_sits_at_a_daily(activity: Activity) -> None:
    """Whatever asks (a hello, a waiting socket, the relay), a daily's table is its person's."""
    fake, bot = activity.fake, bot_of(activity)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    web, ready = await activity.open(alice, daily="nein-nine")
    session = bot.sessions.get(ready["table"]["game_id"])
    assert session is not None and session.private

    class Someone:
        def __init__(self, user: User) -> None:
            self.user_id, self.name, self.lang, self.game_id = user.id, user.name, "en", session.id
            self.sent: list[Any] = []

        def send(self, frame: Any) -> None:
            self.sent.append(frame)

        def stop(self) -> None:
            pass

    server = bot.activity_server
    assert server is not None
    hub: Hub = server.hub
    stranger = Someone(bob)
    await hub.join(stranger, session, None)
    assert stranger.sent == [] and hub.at_table(session.id) == {alice.id}
    await play(web, ready["table"], moves=1)
    assert stranger.sent == []


async def test_no_daily_at_the_web_table_without_its_secret(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    fake.enable_activities()
    port = free_port()
    bot = await start_bot(ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret)
    async with aiohttp.ClientSession() as http:
        activity = Activity(fake, bot, port, http)
        alice = fake.add_user("alice")
        _waiting, frame = await activity.open(alice)
        assert frame["op"] == "waiting" and frame["daily_offered"] is False
        table, refused = await activity.open(alice, daily="nines")
        assert refused["op"] == "error" and refused["code"] == "no-daily"
        assert "does not offer the daily deal" in refused["message"]
        assert await table.closed(within=5.0)
        assert await bot.storage.daily_try(bot.daily.today(), "nines", alice.id) is None
