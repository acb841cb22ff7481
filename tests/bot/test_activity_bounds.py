"""Issue 44: the Activity's sockets and HTTP answers within bounds, end to end against the real
bot: a hello within its bound, a heartbeat websocket pings do not reset, caps on sockets (in
all, per address, per person), a rate per socket, frames and the token body within size and
depth, binary frames refused, a request's line and headers within aiohttp's keep-alive bound,
security headers on every answer; and a thousand idle sockets
closed while chat clicks are answered within Discord's 3 s (the double enforces it:
fakecord/interactions.ACK_DEADLINE).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest

import bot.activity as activity_server
from bot.activity import SECURITY_HEADERS
from bot.activity.hub import Hub
from fakecord import FakeDiscord
from testbed.games import open_game
from testbed.web_tables import CROWD_SIGN_INS

from .conftest import StartBot
from .test_activity import Activity, Table, stored_actions, two_people_and_a_computer
from .test_network_faults import free_port

Json = dict[str, Any]
OpenActivity = Callable[..., Awaitable[Activity]]
#: A socket the server has not closed after this long never will be.
NEVER_CLOSED = 60.0


@pytest.fixture
async def open_activity(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> AsyncIterator[OpenActivity]:
    """``await open_activity(**env)``: the bot with the Activity on and those settings."""
    fake = fake_discord
    fake.enable_activities()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:

        async def start(**env: str) -> Activity:
            port = free_port()
            bot = await start_bot(
                ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret, **env
            )
            return Activity(fake, bot, port, http)

        yield start


def hub_of(activity: Activity) -> Hub:
    assert activity.bot is not None and activity.bot.activity_server is not None
    return activity.bot.activity_server.hub


async def frames_until_closed(table: Table) -> list[Json]:
    """Every frame the socket gets until the server closes it. Nothing is asserted on time:
    the wait ends on the close; its bound only turns a socket never closed into a failure
    (one overall bound: the client's own receive timeout restarts on each pong)."""
    frames: list[Json] = []
    async with asyncio.timeout(NEVER_CLOSED):
        while True:
            message = await table.ws.receive()
            if message.type is not aiohttp.WSMsgType.TEXT:
                assert message.type in (
                    aiohttp.WSMsgType.CLOSE,
                    aiohttp.WSMsgType.CLOSING,
                    aiohttp.WSMsgType.CLOSED,
                ), message
                return frames
            frames.append(json.loads(message.data))


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing was logged as an error, and no record carries a traceback."""
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert bad == [], [r.getMessage() for r in bad]
    assert "RecursionError" not in caplog.text and "Traceback" not in caplog.text


# -- the socket's clocks -----------------------------------------------------------------------


async def test_a_socket_that_never_says_hello_is_closed_in_words(open_activity: OpenActivity):
    activity = await open_activity()
    hub_of(activity).hello_seconds = 0.5
    table = Table(await activity.http.ws_connect(activity.base + "/api/ws", autoping=True))
    # Malformed frames are answered, but are no hello: the bound still closes it.
    await table.ws.send_str("{not json")
    await table.ws.ping()
    frames = await frames_until_closed(table)
    assert [f["code"] for f in frames] == ["bad-request", "bad-request"]
    assert "hello" in frames[-1]["message"] and "in time" in frames[-1]["message"]


async def test_websocket_pings_do_not_keep_a_socket_open(open_activity: OpenActivity):
    activity = await open_activity()
    await two_people_and_a_computer(activity)
    alice = next(u for u in activity.fake.store.users.values() if u.name == "alice")
    table, ready = await activity.open(alice)
    assert ready["op"] == "ready"
    hub_of(activity).silent_seconds = 0.5  # read when the next wait starts
    await table.send(op="ping")  # so the next wait starts now, under the short bound
    stop = asyncio.Event()

    async def control_frames() -> None:
        # A websocket ping every 0.1 s: each reset aiohttp's own receive timeout.
        while not stop.is_set() and not table.ws.closed:
            await table.ws.ping()
            await asyncio.sleep(0.1)

    pinger = asyncio.create_task(control_frames())
    try:
        frames = await frames_until_closed(table)
    finally:
        stop.set()
        await pinger
    assert [f["op"] for f in frames] == ["pong"]


async def test_stopping_closes_the_sockets_yet_to_say_hello(open_activity: OpenActivity):
    activity = await open_activity()
    hub = hub_of(activity)
    hub.hello_seconds = NEVER_CLOSED * 2  # only the stop can close it
    waiting = Table(await activity.http.ws_connect(activity.base + "/api/ws"))
    await waiting.ws.send_str("{}")
    assert (await waiting.next())["code"] == "bad-request"  # open, and its hello awaited
    await hub.close()
    assert await frames_until_closed(waiting) == []
    assert waiting.ws.close_code == aiohttp.WSCloseCode.GOING_AWAY


# -- caps --------------------------------------------------------------------------------------


async def test_one_person_has_at_most_their_cap_of_sockets(open_activity: OpenActivity):
    activity = await open_activity(ACTIVITY_SOCKETS_PER_PERSON="2")
    _game, alice, bob = await two_people_and_a_computer(activity)
    first, ready = await activity.open(alice)
    _second, ready_too = await activity.open(alice)
    assert ready["op"] == ready_too["op"] == "ready"
    third, refused = await activity.open(alice)
    assert (refused["op"], refused["code"]) == ("error", "busy")
    assert "too many tables" in refused["message"]
    assert await frames_until_closed(third) == []
    # Someone else is not counted with her; and a socket closed frees its place.
    _, bobs = await activity.open(bob)
    assert bobs["op"] == "ready"
    await first.ws.close()
    again, ready_again = await activity.open(alice)
    assert ready_again["op"] == "ready"
    assert hub_of(activity).openings.people[alice.id] == 2
    await again.ws.close()


@pytest.mark.parametrize(
    ("env", "forwarded", "open_before_busy"),
    [
        # Per address: the peer's (loopback), whatever X-Forwarded-For claims.
        ({"ACTIVITY_SOCKETS_PER_ADDRESS": "3"}, ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"], 3),
        # In all, whatever the addresses.
        ({"ACTIVITY_SOCKETS": "2", "ACTIVITY_SOCKETS_PER_ADDRESS": "0"}, [None] * 3, 2),
        # Behind the operator's proxy: its last X-Forwarded-For entry (a client's own entries
        # before it change nothing).
        (
            {"ACTIVITY_SOCKETS_PER_ADDRESS": "1", "ACTIVITY_TRUSTED_PROXIES": "1"},
            ["1.1.1.1", "2.2.2.2", "9.9.9.9, 1.1.1.1"],
            2,
        ),
    ],
)
async def test_sockets_beyond_the_caps_are_refused_in_words(
    open_activity: OpenActivity,
    env: dict[str, str],
    forwarded: list[str | None],
    open_before_busy: int,
):
    activity = await open_activity(**env)
    hub_of(activity).hello_seconds = 60.0  # the open ones stay open while counted
    sockets: list[Table] = []
    for address in forwarded:
        headers = {} if address is None else {"X-Forwarded-For": address}
        ws = await activity.http.ws_connect(activity.base + "/api/ws", headers=headers)
        sockets.append(Table(ws))
    for table in sockets[:open_before_busy]:
        await table.ws.send_str("{}")  # a frame refused as malformed: the socket is open
        assert (await table.next())["code"] == "bad-request"
    refused = await frames_until_closed(sockets[open_before_busy])
    assert [(f["code"], f["key"]) for f in refused] == [("busy", None)]
    assert "too busy" in refused[0]["message"]
    for table in sockets:
        await table.ws.close()


# -- what a socket sends -----------------------------------------------------------------------


async def test_a_flood_of_actions_is_limited_then_closed(open_activity: OpenActivity):
    activity = await open_activity()
    game, _alice, _bob = await two_people_and_a_computer(activity)
    carol = activity.fake.add_user("carol")
    watcher, ready = await activity.open(carol)
    assert ready["you"]["seat"] is None
    before = await stored_actions(activity.bot, game)  # type: ignore[arg-type]
    for i in range(300):
        act = {"op": "act", "key": f"f{i}", "action": "keep", "n": ready["table"]["n"]}
        await watcher.ws.send_str(json.dumps(act))
    frames = await frames_until_closed(watcher)
    busy = [f for f in frames if f["op"] == "error" and f["code"] == "busy"]
    answered = [f for f in frames if f["op"] == "error" and f["code"] != "busy"]
    # Some were answered (a watcher is not seated), the rest refused as too fast, and the
    # socket closed once they went on: far fewer than 300 answers of either kind.
    assert answered and busy and frames[-1] in busy
    assert all(f["code"] == "not-seated" for f in answered)
    assert "too many messages" in busy[0]["message"].lower()
    assert busy[0]["key"] is not None and busy[0]["key"].startswith("f")
    assert len(frames) < 300
    assert await stored_actions(activity.bot, game) == before  # type: ignore[arg-type]


async def test_deep_and_long_json_is_refused_in_words_without_a_traceback(
    open_activity: OpenActivity, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.INFO)
    activity = await open_activity()
    await two_people_and_a_computer(activity)
    table = Table(await activity.http.ws_connect(activity.base + "/api/ws"))
    for text in (
        "[" * 2000,
        "[" * 2000 + "]" * 2000,
        json.dumps({"op": "ping", "x": "y" * 10_000}),
    ):
        await table.ws.send_str(text)
        refused = await table.next()
        assert (refused["op"], refused["code"]) == ("error", "bad-request")
        assert "too long or too nested" in refused["message"]
    # The socket is still good: the hello is welcome after them.
    alice = next(u for u in activity.fake.store.users.values() if u.name == "alice")
    await table.send(
        op="hello",
        access_token=await activity.token_for(alice),
        instance_id=activity.fake.activity_instance(activity.fake.channel, [alice.id]),
        channel_id=str(activity.fake.channel.id),
        guild_id=str(activity.fake.guild.id),
        last_seq=None,
        locale="en-US",
    )
    assert (await table.next("ready"))["you"]["seat"] == 0
    # The token route: a 400 in words, never a 500.
    for body in (
        "[" * 2000,
        '{"code": "' + "x" * 100_000 + '"}',
        '{"code": [[[[[[[[[["x"]]]]]]]]]]}',
    ):
        async with activity.http.post(
            activity.base + "/api/token", data=body, headers={"Content-Type": "application/json"}
        ) as answer:
            assert answer.status == 400
            assert "authorization code" in (await answer.json())["error"]
    no_traceback(caplog)


async def test_a_binary_frame_is_refused_and_its_socket_closed(open_activity: OpenActivity):
    activity = await open_activity()
    table = Table(await activity.http.ws_connect(activity.base + "/api/ws"))
    await table.ws.send_bytes(b'{"op": "ping"}')
    frames = await frames_until_closed(table)
    assert [(f["code"], "binary" in f["message"]) for f in frames] == [("bad-request", True)]


# -- HTTP --------------------------------------------------------------------------------------


async def test_every_answer_carries_the_security_headers(open_activity: OpenActivity):
    activity = await open_activity()
    http, base = activity.http, activity.base
    async with http.get(base + "/") as page:
        assert page.status == 200
        index = await page.text()
    asset = index.split('src="', 1)[1].split('"', 1)[0]
    assert asset.startswith("assets/")
    answers = []
    for method, path in (("GET", "/"), ("GET", "/" + asset), ("POST", "/api/token"),
                         ("GET", "/assets/missing.js"), ("GET", "/nowhere")):  # fmt: skip
        async with http.request(method, base + path, json={"code": "made-up"}) as answer:
            answers.append((path, answer.status, answer.headers))
    assert [status for _, status, _ in answers] == [200, 200, 400, 404, 404]
    for path, _, headers in answers:
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name) == value, (path, name)
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "frame-ancestors 'self' https://discord.com https://*.discord.com" in csp
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    # The built page has nothing inline for that policy to block.
    assert "<script>" not in index and "<style" not in index and " style=" not in index


async def test_a_connection_slow_to_send_its_request_is_closed(
    open_activity: OpenActivity, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(activity_server, "KEEPALIVE_SECONDS", 0.5)  # read when the server starts
    activity = await open_activity()
    # Nothing sent; half a request line; the headers of an upgrade never finished.
    for start in (b"", b"GET /api/", b"GET /api/ws HTTP/1.1\r\nHost: x\r\nUpgrade: web"):
        reader, writer = await asyncio.open_connection("127.0.0.1", activity.port)
        writer.write(start)
        async with asyncio.timeout(NEVER_CLOSED):
            assert await reader.read() == b""  # closed by the server, nothing answered
        writer.close()


# -- a thousand idle sockets -------------------------------------------------------------------


def idle_sockets(url: str, count: int) -> list[list[Json]]:
    """``count`` sockets opened on ``url`` that never say hello, and the frames each got until
    the server closed it. Run in a thread with a loop of its own: the clients' work is not the
    bot's (its event loop is the test's, which a real flood's clients would not share)."""

    async def run() -> list[list[Json]]:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:

            async def one() -> list[Json]:
                return await frames_until_closed(Table(await http.ws_connect(url)))

            return await asyncio.gather(*(one() for _ in range(count)))

    return asyncio.run(run())


@pytest.mark.slow(15)
async def test_a_thousand_idle_sockets_are_closed_and_chat_clicks_answered(
    open_activity: OpenActivity,
):
    # All from 127.0.0.1, at once: no cap per address, and sign-ins not limited per address
    # (bot/activity/__init__.py), so that the bound tested is the hello's.
    activity = await open_activity(ACTIVITY_SOCKETS_PER_ADDRESS="0", **CROWD_SIGN_INS)
    hub = hub_of(activity)
    hub.hello_seconds = 2.0
    fake = activity.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    flood = asyncio.ensure_future(asyncio.to_thread(idle_sockets, activity.base + "/api/ws", 1000))
    # Meanwhile people play in chat: each click answered within Discord's 3 s, or the double
    # marks it failed (fakecord/interactions.ACK_DEADLINE) and the bot's answer is refused.
    await open_game(fake, alice, people=(bob,), computers=("normal",))
    clicks = 0
    while not flood.done() or clicks == 0:
        opened = await fake.slash(bob, fake.channel, "nines rules")
        assert not opened.failed and not opened.errors, opened
        clicks += 1
    refusals = await flood
    assert len(refusals) == 1000
    assert all([f["code"] for f in frames] == ["bad-request"] for frames in refusals)
    assert hub.openings.total == 0 and not hub.openings.addresses
