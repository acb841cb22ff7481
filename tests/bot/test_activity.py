"""Issue 37: the Activity's server, end to end: the real bot against the Discord double, a real
aiohttp websocket client as the web table.

Who someone is comes from their token and Discord's instance, never from what the client
says; a seated person plays from the socket and the chat table shows it; a chat click reaches
the socket; refusals store nothing; a resent key is answered, never applied twice; a
reconnection gets the table whole; a silent socket is dropped.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

from bot.app import NinesBot
from bot.words import card_label
from engine import Card, Rules
from fakecord import FakeDiscord
from fakecord.models import Channel, Message, User
from testbed.contract import check_server_frame
from testbed.games import HANG_GUARD, game_id_of, open_game, raw_click, text_of, wait_for
from testbed.people import end_message, open_hand, table_message

from .conftest import StartBot
from .test_network_faults import free_port

Json = dict[str, Any]


class Table:
    """One open web table: the socket, read frame by frame. Its actions carry the move count
    of the newest table it read (``n``), and a key sent again the count it was first sent
    with, as the page's do, unless the test gives one."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.n: int | None = None
        self.sent_n: dict[str, int] = {}

    async def send(self, **frame: Any) -> None:
        if frame.get("op") == "act" and "n" not in frame and self.n is not None:
            frame["n"] = self.sent_n.setdefault(frame["key"], self.n)
        await self.ws.send_json(frame)

    async def next(self, op: str | None = None, *, within: float = HANG_GUARD) -> Json:
        """The next frame (of that op, skipping others)."""
        deadline = time.monotonic() + within
        while True:
            message = await self.ws.receive(timeout=max(0.01, deadline - time.monotonic()))
            if message.type is not aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the socket closed: {message}")
            frame: Json = json.loads(message.data)
            check_server_frame(frame)  # what the real server sends is the contract's
            if frame["op"] in ("ready", "table"):
                self.n = frame["table"]["n"]
            if op is None or frame["op"] == op:
                return frame

    async def table_where(
        self, check: Callable[[Json], bool], *, within: float = HANG_GUARD
    ) -> Json:
        """Read table frames until one's table passes ``check``; that frame."""
        deadline = time.monotonic() + within
        while True:
            frame = await self.next("table", within=deadline - time.monotonic())
            if check(frame["table"]):
                return frame

    async def closed(self, *, within: float) -> bool:
        """Whether the server closes the socket within that long (frames before are read)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            try:
                message = await self.ws.receive(timeout=deadline - time.monotonic())
            except TimeoutError:
                return False
            if message.type in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
                aiohttp.WSMsgType.CLOSING,
            ):
                return True
        return False


class Activity:
    """The Activity as people's browsers reach it: the bot's port, Discord's SDK faked by the
    double (``authorize`` codes, instances)."""

    def __init__(
        self, fake: FakeDiscord, bot: NinesBot | None, port: int, http: aiohttp.ClientSession
    ):
        self.fake, self.bot, self.port, self.http = fake, bot, port, http

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def token_for(self, user: User) -> str:
        code = self.fake.authorize(user)
        async with self.http.post(self.base + "/api/token", json={"code": code}) as answer:
            assert answer.status == 200, await answer.text()
            body = await answer.json()
        token: str = body["access_token"]
        return token

    async def open(
        self,
        user: User,
        *,
        channel: Channel | None = None,
        instance_channel: Channel | None = None,
        in_instance: bool = True,
        token: str | None = None,
        **hello: Any,
    ) -> tuple[Table, Json]:
        """``user`` opens the table in ``channel`` (their instance in ``instance_channel``,
        by default the same); the socket and its first frame (``ready`` or ``error``)."""
        channel = channel or self.fake.channel
        members = [user.id] if in_instance else []
        instance = self.fake.activity_instance(instance_channel or channel, members)
        ws = await self.http.ws_connect(self.base + "/api/ws")
        table = Table(ws)
        frame = {
            "op": "hello",
            "access_token": token or await self.token_for(user),
            "instance_id": instance,
            "channel_id": str(channel.id),
            "guild_id": str(self.fake.guild.id),
            "last_seq": None,
            "locale": user.locale,
            **hello,
        }
        await table.send(**frame)
        return table, await table.next()


@pytest.fixture
async def activity(fake_discord: FakeDiscord, start_bot: StartBot) -> AsyncIterator[Activity]:
    fake = fake_discord
    fake.enable_activities()  # as in the Developer Portal: Discord keeps an Entry Point command
    port = free_port()
    bot = await start_bot(ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret)
    async with aiohttp.ClientSession() as http:
        yield Activity(fake, bot, port, http)


async def stored_actions(bot: NinesBot, game_id: int) -> int:
    return len(await bot.storage.actions(game_id))


def turn_seat(table: Json) -> int | None:
    turn = table["turn"]
    return None if turn is None else int(turn["seat"])


async def two_people_and_a_computer(activity: Activity) -> tuple[int, User, User]:
    fake = activity.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game = await open_game(fake, alice, people=(bob,), computers=("normal",))
    return game, alice, bob


# -- serving, the token, the command sync ------------------------------------------------------


async def test_the_page_and_the_token_are_served_and_the_entry_point_kept(activity: Activity):
    fake, http = activity.fake, activity.http
    async with http.get(activity.base + "/") as page:
        assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
        assert page.headers["Cache-Control"] == "no-cache"
    async with http.get(activity.base + "/assets/..%2Fsettings.py") as escape:
        assert escape.status == 404
    code = fake.authorize(fake.add_user("alice"))
    async with http.post(activity.base + "/api/token", json={"code": code}) as answer:
        assert answer.status == 200
        assert set(await answer.json()) == {"access_token"}
    # A code is good once; a made-up one and a body without one are refused in plain words.
    for body in ({"code": code}, {"code": "made-up"}, {"nothing": 1}):
        async with http.post(activity.base + "/api/token", json=body) as answer:
            assert answer.status == 400
            assert (await answer.json())["error"]
    # The bot synced its commands without dropping the Entry Point command Discord keeps.
    synced = {(c["name"], c["type"]) for c in fake.commands.global_commands.values()}
    assert ("launch", 4) in synced and ("nines", 1) in synced


async def test_the_script_is_served_precompressed_by_what_the_client_accepts(
    activity: Activity,
):
    """Issue 46, item 16: brotli where asked, else gzip, else the file as it is; each with
    its type, ``Vary: Accept-Encoding``, and the bytes the build wrote beside the asset."""
    from bot.activity import STATIC

    script = next(p for p in (STATIC / "assets").iterdir() if p.suffix == ".js")
    asked = {
        "gzip, deflate, br": ("br", ".br"),
        "gzip;q=1.0, br;q=0": ("gzip", ".gz"),
        "gzip": ("gzip", ".gz"),
        "*": ("br", ".br"),
        "identity": (None, ""),
        "": (None, ""),
    }
    async with aiohttp.ClientSession(auto_decompress=False) as raw:
        for accept, (coding, suffix) in asked.items():
            url = f"{activity.base}/assets/{script.name}"
            async with raw.get(url, headers={"Accept-Encoding": accept}) as answer:
                assert answer.status == 200, accept
                assert answer.headers.get("Content-Encoding") == coding, accept
                assert answer.headers["Vary"] == "Accept-Encoding"
                assert answer.headers["Content-Type"].startswith("text/javascript")
                body = await answer.read()
            assert body == script.with_name(script.name + suffix).read_bytes(), accept
    assert gzip.decompress(script.with_name(script.name + ".gz").read_bytes()) == (
        script.read_bytes()
    )


def table_buttons(message: Message) -> list[str]:
    """The custom ids of the message's "Open the table" buttons."""
    return [b.custom_id or "" for b in message.buttons() if ":table:" in (b.custom_id or "")]


async def test_the_open_the_table_button_launches_the_activity(activity: Activity):
    fake = activity.fake
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    opened = await fake.slash(alice, fake.channel, "nines start")
    lobby = opened.message
    assert lobby is not None
    game = game_id_of(lobby)
    # On the lobby message, on a row of its own: anyone in the channel may open the table.
    assert table_buttons(lobby) == [f"nines:1:table:{game}"]
    assert [c["custom_id"] for c in lobby.components[-1]["components"]] == table_buttons(lobby)
    click = await fake.click(carol, lobby, "Open the table")
    assert click.ack_type == 12 and not click.errors
    instance = fake.activities.instances[click.activity_instance_id or ""]
    assert instance.channel.id == fake.channel.id and carol.id in instance.users
    # Still there once the lobby changes (a join edits the message), and on the table.
    await fake.click(bob, lobby, "Join")
    await fake.click(alice, lobby, f"nines:1:lobby:{game}:cpu-normal")
    assert table_buttons(fake.store.message_by_id(lobby.id)) == [f"nines:1:table:{game}"]
    await fake.click(alice, lobby, "Start")
    table = await wait_for(fake, lambda: table_message(fake, alice, fake.channel))
    assert table_buttons(table) == [f"nines:1:table:{game}"]
    click = await fake.click(bob, table, "Open the table")
    assert click.ack_type == 12 and not click.errors
    instance = fake.activities.instances[click.activity_instance_id or ""]
    assert instance.channel.id == fake.channel.id and bob.id in instance.users


async def test_without_the_activity_the_messages_are_as_before(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    opened = await fake.slash(alice, fake.channel, "nines start")
    lobby = opened.message
    assert lobby is not None
    game = game_id_of(lobby)
    rows = [[b["custom_id"] for b in row["components"]] for row in lobby.components]
    verbs = [["join", "leave", "start", "cancel"], ["cpu-easy", "cpu-normal", "cpu-hard", "uncpu"]]
    assert rows == [[f"nines:1:lobby:{game}:{verb}" for verb in row] for row in verbs]
    await fake.click(bob, lobby, "Join")
    await fake.click(alice, lobby, f"nines:1:lobby:{game}:cpu-normal")
    await fake.click(alice, lobby, "Start")
    table = await wait_for(fake, lambda: table_message(fake, alice, fake.channel))
    assert [b.custom_id for b in table.buttons()] == [f"nines:1:hand:{game}"]
    # An old message's button (from before the Activity was turned off) says so.
    click = await raw_click(fake, bob, table, f"nines:1:table:{game}")
    assert click.ack_type == 4 and click.ephemeral
    assert "not set up" in text_of(click.message)


# -- who is at the table -----------------------------------------------------------------------


async def test_the_person_comes_from_the_token_and_the_instance(activity: Activity):
    fake = activity.fake
    game, alice, bob = await two_people_and_a_computer(activity)
    carol = fake.add_user("carol")
    # A forged user id in the hello is ignored: the token says who this is.
    table, ready = await activity.open(alice, user_id=str(bob.id))
    assert ready["op"] == "ready" and ready["you"]["user_id"] == str(alice.id)
    assert ready["you"]["seat"] == 0 and ready["lang"] == "en"
    assert ready["table"]["game_id"] == game and ready["table"]["hand"]["seat"] == 0
    assert ready["table"]["seats"][0]["user_id"] == str(alice.id)
    await table.ws.close()
    # Someone not among the instance's users.
    _, refused = await activity.open(carol, in_instance=False)
    assert (refused["op"], refused["code"]) == ("error", "not-in-instance")
    # A forged token, and one that expired.
    _, refused = await activity.open(carol, token="forged-token")
    assert refused["code"] == "auth"
    token = await activity.token_for(carol)
    fake.activities.tokens[token].expires_at = fake.clock.now() - 1
    _, refused = await activity.open(carol, token=token)
    assert refused["code"] == "auth"


async def test_another_channels_game_is_refused_and_no_game_waited_for(activity: Activity):
    fake = activity.fake
    _game, alice, _bob = await two_people_and_a_computer(activity)
    elsewhere = fake.add_channel(name="elsewhere")
    # The instance runs in #elsewhere but the client claims the game's channel.
    _, refused = await activity.open(alice, instance_channel=elsewhere)
    assert refused["code"] == "wrong-channel"
    # Opened in a channel with no game: told so, and kept open (tests/bot/test_activity_waiting.py).
    table, waiting = await activity.open(alice, channel=elsewhere)
    assert (waiting["op"], waiting["code"]) == ("waiting", "no-game")
    assert "no game" in waiting["message"]
    # An action meanwhile is refused under its key.
    await table.send(op="act", key="w1", action="AS", n=0)
    refused = await table.next("error")
    assert (refused["key"], refused["code"]) == ("w1", "no-game")


async def test_a_watcher_sees_no_hand(activity: Activity):
    fake = activity.fake
    _game, alice, bob = await two_people_and_a_computer(activity)
    carol = fake.add_user("carol", locale="fr")
    watcher, ready = await activity.open(carol)
    assert ready["you"]["seat"] is None and ready["table"]["hand"] is None
    assert ready["lang"] == "fr" and ready["table"]["viewer"] is None
    # Still none after a change.
    seated, mine = await activity.open(alice)
    if turn_seat(mine["table"]) == 0:
        await seated.send(op="act", key="a1", action=mine["table"]["hand"]["legal"][0])
    else:
        hand = await open_hand(fake, bob, fake.channel)
        move = next(b for b in hand.buttons() if not b.disabled and ":xchg:" in (b.custom_id or ""))
        await fake.click(bob, hand, move.custom_id or "")
    frame = await watcher.next("table")
    assert frame["table"]["hand"] is None and frame["seq"] > ready["seq"]


# -- playing -----------------------------------------------------------------------------------


async def play_from_sockets_until_a_card(
    activity: Activity, sockets: dict[int, tuple[Table, Json]]
) -> tuple[int, str, Json]:
    """The people keep their hands from their sockets until someone is to play a card; that
    seat, the card it plays from its socket, and the ack."""
    latest = {seat: ready["table"] for seat, (_, ready) in sockets.items()}
    for _ in range(10):
        seat = turn_seat(next(iter(latest.values())))
        assert seat in sockets, f"turn of seat {seat}"
        table, _ = sockets[seat]
        legal = latest[seat]["hand"]["legal"]
        action = "keep" if "keep" in legal else legal[0]
        await table.send(op="act", key=f"k-{seat}-{action}", action=action)
        assert await table.next("ack") == {"op": "ack", "key": f"k-{seat}-{action}"}

        def moved_on(t: Json, acted: int = seat) -> bool:
            return turn_seat(t) != acted or t["phase"] == "play"

        for other, (socket, _) in sockets.items():
            latest[other] = (await socket.table_where(moved_on))["table"]
        if action != "keep":
            return seat, action, latest[seat]
    raise AssertionError("no card was played")


async def test_a_card_played_in_the_activity_shows_in_chat(activity: Activity):
    fake, bot = activity.fake, activity.bot
    game, alice, bob = await two_people_and_a_computer(activity)
    sockets = {0: await activity.open(alice), 1: await activity.open(bob)}
    seat, card, table = await play_from_sockets_until_a_card(activity, sockets)
    assert card not in table["hand"]["cards"]
    name = ("alice", "bob")[seat]
    label = card_label(Card.parse(card), "en")

    def shown() -> bool:
        chat = table_message(fake, alice, fake.channel)
        return chat is not None and f"{name} **{label}**" in text_of(chat)

    await wait_for(fake, shown, what=f"{name}'s {label} on the chat table")
    # And the move is stored once, by the session, like a click's.
    stored = await bot.storage.actions(game)
    assert [a.action for a in stored].count(card) == 1


async def test_a_chat_click_reaches_the_socket(activity: Activity):
    fake = activity.fake
    _game, alice, bob = await two_people_and_a_computer(activity)
    table, ready = await activity.open(alice)
    who = turn_seat(ready["table"])
    person = (alice, bob)[who or 0]
    hand = await open_hand(fake, person, fake.channel)
    move = next(b for b in hand.buttons() if not b.disabled and ":xchg:" in (b.custom_id or ""))
    await fake.click(person, hand, move.custom_id or "")
    frame = await table.table_where(lambda t: t["exchange"] != ready["table"]["exchange"])
    assert frame["seq"] == ready["seq"] + 1  # one change, one frame
    assert [who, move.custom_id.endswith("swap")] in frame["table"]["exchange"]  # type: ignore[union-attr]


async def test_the_lobbys_seat_changes_reach_the_socket(activity: Activity):
    fake = activity.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    opened = await fake.slash(alice, fake.channel, "nines start")
    lobby = opened.message
    assert lobby is not None
    game = game_id_of(lobby)
    table, ready = await activity.open(bob)  # a watcher, before sitting down
    assert ready["op"] == "ready" and ready["table"]["status"] == "lobby"
    assert ready["table"]["notation"] == "en"
    seq = ready["seq"]

    def names(frame: Json) -> list[str | None]:
        return [s["user_id"] for s in frame["table"]["seats"]]

    # Each seat change clicked in chat is one table frame, in order, with the seats as stored.
    await fake.click(bob, lobby, "Join")
    frame = await table.next("table")
    assert frame["seq"] == seq + 1 and names(frame) == [str(alice.id), str(bob.id)]
    await fake.click(alice, lobby, f"nines:1:lobby:{game}:cpu-normal")
    frame = await table.next("table")
    assert frame["seq"] == seq + 2 and names(frame) == [str(alice.id), str(bob.id), None]
    assert frame["table"]["seats"][2]["computer"]
    await fake.click(alice, lobby, f"nines:1:lobby:{game}:uncpu")
    await fake.click(bob, lobby, "Leave")
    frame = await table.next("table")
    assert frame["seq"] == seq + 3 and len(names(frame)) == 2
    frame = await table.next("table")
    assert frame["seq"] == seq + 4 and names(frame) == [str(alice.id)]
    # A refused click (bob is not seated any more) changes nothing: no frame.
    await fake.click(bob, lobby, "Leave")
    await fake.click(bob, lobby, "Join")
    frame = await table.next("table")
    assert frame["seq"] == seq + 5 and names(frame) == [str(alice.id), str(bob.id)]
    # The host cancels: the web table hears that too.
    await fake.click(alice, lobby, "Cancel")
    frame = await table.next("table")
    assert frame["seq"] == seq + 6 and frame["table"]["status"] == "abandoned"


async def answer_to(table: Table, key: str) -> Json:
    """The ack or error answering ``key`` (table frames before it read)."""
    while True:
        frame = await table.next()
        if frame["op"] in ("ack", "error") and frame.get("key") == key:
            return frame


async def test_people_sit_down_and_start_from_the_web_table(activity: Activity):
    """Issue 46, item 15: join, leave, add and remove a computer and start from the page, the
    host's rights as in chat; the chat's lobby message follows each, and the start deals."""
    fake = activity.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    opened = await fake.slash(alice, fake.channel, "nines start")
    assert opened.message is not None
    lobby_id = opened.message.id
    host, _ = await activity.open(alice)
    guest, ready = await activity.open(bob)
    assert ready["table"]["status"] == "lobby" and ready["you"]["seat"] is None

    def seats(frame: Json) -> list[str | None]:
        return [s["user_id"] for s in frame["table"]["seats"]]

    def lobby_text() -> str:
        return text_of(fake.store.message(fake.channel.id, lobby_id))

    async def move(table: Table, key: str, what: str) -> Json:
        await table.send(op="lobby", key=key, what=what)
        return await answer_to(table, key)

    assert await move(guest, "j1", "join") == {"op": "ack", "key": "j1"}
    frame = await guest.table_where(lambda t: len(t["seats"]) == 2)
    assert seats(frame) == [str(alice.id), str(bob.id)]
    assert frame["table"]["viewer"] == 1  # seated: the table is his seat's now
    assert "bob" in lobby_text()
    # Only the host adds a computer or starts; the host cannot leave; nobody joins twice.
    for key, what, words in (
        ("c1", "cpu", "Only the host can do that."),
        ("s1", "start", "Only the host can do that."),
        ("j2", "join", "You are already seated."),
    ):
        refused = await move(guest, key, what)
        assert refused["op"] == "error" and refused["message"] == words, refused
    refused = await move(host, "l0", "leave")
    assert refused["op"] == "error" and refused["code"] != "bad-request"
    assert await move(guest, "l1", "leave") == {"op": "ack", "key": "l1"}
    await guest.table_where(lambda t: len(t["seats"]) == 1)
    await fake.settle()
    assert "bob" not in lobby_text()
    assert (await move(guest, "j3", "join"))["op"] == "ack"
    assert (await move(host, "c2", "cpu"))["op"] == "ack"
    assert (await move(host, "c3", "uncpu"))["op"] == "ack"
    assert (await move(host, "c4", "cpu"))["op"] == "ack"
    frame = await host.table_where(lambda t: len(t["seats"]) == 3 and t["seats"][2]["computer"])
    assert (await move(host, "s2", "start"))["op"] == "ack"
    frame = await guest.table_where(lambda t: t["status"] == "playing")
    assert frame["table"]["hand"] is not None and frame["table"]["hand"]["cards"]
    await wait_for(fake, lambda: table_message(fake, alice, fake.channel), what="the table")
    await fake.settle()
    assert "The game has started." in lobby_text()
    # A lobby move once the game is on is refused in words.
    late = await move(guest, "j4", "leave")
    assert late["op"] == "error" and late["message"]


async def test_refused_and_replayed_actions_store_nothing(activity: Activity):
    bot = activity.bot
    game, alice, bob = await two_people_and_a_computer(activity)
    sockets = {0: await activity.open(alice), 1: await activity.open(bob)}
    ready = sockets[0][1]["table"]
    due = turn_seat(ready)
    assert due in (0, 1)
    waiting = 1 - due
    before = await stored_actions(bot, game)
    # Out of turn.
    idle, _ = sockets[waiting]
    await idle.send(op="act", key="x1", action="keep")
    refused = await idle.next("error")
    assert (refused["key"], refused["code"]) == ("x1", "not-your-turn")
    # Illegal: a card in the exchange, a card not held, and no action at all.
    mover, mine = sockets[due]
    held = set(mine["table"]["hand"]["cards"])
    missing = next(c for c in ("2H", "3H", "4H", "5H", "6H") if c not in held)
    for key, action, code in (
        ("x2", mine["table"]["hand"]["cards"][0], "illegal"),
        ("x3", missing, "illegal"),
        ("x4", "juggle", "bad-request"),
    ):
        await mover.send(op="act", key=key, action=action)
        refused = await mover.next("error")
        assert (refused["key"], refused["code"]) == (key, code), refused
        assert refused["message"]
    assert await stored_actions(bot, game) == before
    # A replayed key: the first answer again, applied once.
    await mover.send(op="act", key="once", action="keep")
    assert await mover.next("ack") == {"op": "ack", "key": "once"}
    after = await stored_actions(bot, game)
    assert after > before
    await mover.send(op="act", key="once", action="keep")
    assert await mover.next("ack") == {"op": "ack", "key": "once"}
    # The refused key x2 gets its refusal again, even resent with another action.
    await mover.send(op="act", key="x2", action="keep")
    assert (await mover.next("error"))["code"] == "illegal"
    await activity.fake.settle()
    assert await stored_actions(bot, game) == after


async def test_a_reconnection_gets_the_table_whole(activity: Activity):
    fake = activity.fake
    _game, alice, bob = await two_people_and_a_computer(activity)
    first, ready = await activity.open(alice)
    await first.ws.close()
    # Meanwhile the game moves on in chat.
    person = (alice, bob)[turn_seat(ready["table"]) or 0]
    hand = await open_hand(fake, person, fake.channel)
    move = next(b for b in hand.buttons() if not b.disabled and ":xchg:" in (b.custom_id or ""))
    await fake.click(person, hand, move.custom_id or "")
    await fake.settle()
    _, again = await activity.open(alice, last_seq=ready["seq"])
    assert again["op"] == "ready" and again["table"]["exchange"] != ready["table"]["exchange"]
    session = activity.bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    assert len(again["table"]["exchange"]) == len(session.game.exchange_made)  # type: ignore[union-attr]


async def test_a_silent_socket_is_dropped_and_a_pinging_one_kept(activity: Activity):
    _game, alice, bob = await two_people_and_a_computer(activity)
    # The hub's silence is wall time (a socket's receive timeout): 2 s against a ping every
    # 0.1 s leaves a starved process twenty times the room it needs to keep pinging.
    activity.bot.activity_server.hub.silent_seconds = 2.0  # type: ignore[union-attr]
    silent, _ = await activity.open(alice)
    pinging, _ = await activity.open(bob)
    dropped = asyncio.Event()

    async def ping() -> None:
        while not dropped.is_set():  # until the silent one is dropped
            await pinging.send(op="ping")
            await asyncio.sleep(0.1)

    pinger = asyncio.create_task(ping())
    try:
        assert await silent.closed(within=HANG_GUARD)
    finally:
        dropped.set()
        await pinger
    assert await pinging.next("pong") == {"op": "pong"}
    assert not pinging.ws.closed


# -- whole games -------------------------------------------------------------------------------


async def drain(table: Table, latest: Json) -> Json:
    """The newest table frame already sent on this socket (or ``latest`` if none came). A
    frame still on its way is not waited for: a table that lags can only say a computer is
    still to play, and the game below then waits for its next frame."""
    while True:
        try:
            latest = await table.next("table", within=0.05)
        except TimeoutError:
            return latest


@pytest.mark.parametrize(
    ("ruleset", "options"), [("classic", {"start": 3}), ("nein-nine", {"rounds": 1})]
)
async def test_a_whole_game_played_from_sockets(
    activity: Activity, ruleset: str, options: dict[str, Any]
):
    """Two people play a whole game from their web tables only (computers in the other
    seats); the chat table follows to the end message, every move stored once."""
    fake, bot = activity.fake, activity.bot
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    computers = Rules.from_settings(ruleset).players - 2
    game = await open_game(
        fake, alice, people=(bob,), computers=("normal",) * computers, ruleset=ruleset, **options
    )
    sockets: dict[int, Table] = {}
    latest: dict[int, Json] = {}
    for seat, person in enumerate((alice, bob)):
        table, ready = await activity.open(person)
        assert ready["you"]["seat"] == seat
        sockets[seat], latest[seat] = table, {"seq": ready["seq"], "table": ready["table"]}
    rng = random.Random(5)
    acted = 0
    for _ in range(3000):
        for seat, table in sockets.items():
            latest[seat] = await drain(table, latest[seat])
        view = latest[0]["table"]
        if view["status"] != "playing":
            break
        seat = turn_seat(view)
        if seat not in sockets or turn_seat(latest[seat]["table"]) != seat:
            latest[0] = await sockets[0].next("table")  # computers at play: wait for them
            continue
        action = rng.choice(latest[seat]["table"]["hand"]["legal"])
        key = f"move-{acted}"
        await sockets[seat].send(op="act", key=key, action=action)
        answer = await sockets[seat].next()
        while answer["op"] not in ("ack", "error"):
            if answer["op"] == "table":
                latest[seat] = answer
            answer = await sockets[seat].next()
        assert answer == {"op": "ack", "key": key}, answer
        acted += 1
        seen = latest[seat]["seq"]
        latest[seat] = await sockets[seat].next("table")  # the move's own table follows its ack
        assert latest[seat]["seq"] > seen
    else:
        raise AssertionError("the game did not end")
    final = latest[0]["table"]
    assert final["status"] == "finished" and final["winners"] and final["ranking"]
    assert final["hand"] is not None  # a seat keeps its own (empty) hand to the end
    await wait_for(fake, lambda: end_message(fake, alice, fake.channel), what="the end message")
    row = await bot.storage.game(game)
    assert row is not None and row.status == "finished"
    assert await bot.storage.game_result(game) is not None
    assert acted > 10


async def test_a_failed_write_is_said_and_the_same_key_applies_later(
    activity: Activity, monkeypatch: pytest.MonkeyPatch
):
    """The database refuses the move: the person is told, nothing stands, the socket stays;
    the same key sent again (the client's retry) applies it once."""
    bot = activity.bot
    game, alice, bob = await two_people_and_a_computer(activity)
    sockets = {0: await activity.open(alice), 1: await activity.open(bob)}
    due = turn_seat(sockets[0][1]["table"])
    assert due in (0, 1)
    mover, _ = sockets[due]
    before = await stored_actions(bot, game)
    real = bot.storage.append_actions
    failures = [RuntimeError("the disk is full")]

    async def failing(*args: Any, **kwargs: Any) -> Any:
        if failures:
            raise failures.pop()
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.storage, "append_actions", failing)
    await mover.send(op="act", key="retry-me", action="keep")
    refused = await mover.next("error")
    assert (refused["key"], refused["code"]) == ("retry-me", "stale")
    assert "safe" in refused["message"]
    assert await stored_actions(bot, game) == before
    session = bot.sessions.get(game)
    assert session is not None and session.n == before and session.game is not None
    assert session.game.turn == due  # the engine was put back as the database holds it
    await mover.send(op="act", key="retry-me", action="keep")
    assert await mover.next("ack") == {"op": "ack", "key": "retry-me"}
    assert await stored_actions(bot, game) > before


async def test_frames_out_of_protocol_are_refused_in_plain_words(activity: Activity):
    fake = activity.fake
    await two_people_and_a_computer(activity)
    # An action before the hello: refused, and the socket closed.
    ws = await activity.http.ws_connect(activity.base + "/api/ws")
    table = Table(ws)
    await table.send(op="act", key="k", action="keep")
    refused = await table.next("error")
    assert refused["code"] == "bad-request" and "hello" in refused["message"]
    assert await table.closed(within=HANG_GUARD)
    # Not JSON, then an unknown op: each refused, the hello still welcome after them.
    ws = await activity.http.ws_connect(activity.base + "/api/ws")
    table = Table(ws)
    await ws.send_str("{not json")
    assert (await table.next("error"))["code"] == "bad-request"
    await table.send(op="dance", key="d1")
    assert (await table.next("error"))["key"] == "d1"
    alice = next(u for u in fake.store.users.values() if u.name == "alice")
    token = await activity.token_for(alice)
    instance = fake.activity_instance(fake.channel, [alice.id])
    await table.send(
        op="hello",
        access_token=token,
        instance_id=instance,
        channel_id=str(fake.channel.id),
        guild_id=str(fake.guild.id),
        last_seq=None,
        locale="en-US",
    )
    assert (await table.next("ready"))["you"]["seat"] == 0
    # An instance id that could reach another route with the bot's token: never asked.
    _, refused = await activity.open(alice, instance_id="../../users/@me")
    assert refused["code"] == "not-in-instance"
