"""Issue 44: a page in a channel with no game is told so once, then waits at no cost to Discord,
and sits down at the channel's game the moment someone opens one there (one process: the
hub's waiting sockets, bot/activity/waiting.py; ``Sessions.opened`` tells them)."""

from __future__ import annotations

from fakecord import FakeDiscord
from testbed.games import game_id_of, text_of, wait_for

from .test_activity import Activity, activity  # noqa: F401

#: The two routes a hello costs: the person and application of their token (bot/activity/gate.py),
#: the instance (the bot's token).
HELLO_ROUTES = ("/oauth2/@me", "/applications/{application_id}/activity-instances/{instance_id}")


def hello_calls(fake: FakeDiscord) -> int:
    return sum(1 for r in list(fake.requests) if r.route in HELLO_ROUTES)


async def test_a_page_with_no_game_waits_then_sits_down_when_one_opens(
    activity: Activity,  # noqa: F811
):
    fake = activity.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    before = hello_calls(fake)
    table, first = await activity.open(bob)
    # Told once, in the person's words, and the socket stays open.
    assert (first["op"], first["code"]) == ("waiting", "no-game")
    assert first["message"] == "There is no game in this channel."
    after_hello = hello_calls(fake)
    assert after_hello == before + 2  # the hello's own checks, once
    # Meanwhile it keeps its heartbeat and costs Discord nothing.
    for _ in range(3):
        await table.send(op="ping")
        assert await table.next() == {"op": "pong"}
    assert hello_calls(fake) == after_hello
    # Someone opens a game in the channel: the page gets the lobby, without a new hello.
    opened = await fake.slash(alice, fake.channel, "nines start")
    assert not opened.errors and opened.message is not None
    ready = await table.next()
    assert ready["op"] == "ready", ready
    assert ready["table"]["game_id"] == game_id_of(opened.message)
    assert ready["table"]["status"] == "lobby"
    assert ready["you"] == {"user_id": str(bob.id), "name": "bob", "seat": None}
    assert hello_calls(fake) == after_hello
    # From then on it is any socket at that table: bob's join reaches it.
    await fake.click(bob, opened.message, "Join")
    frame = await table.table_where(lambda t: len(t["seats"]) == 2)
    assert [s["user_id"] for s in frame["table"]["seats"]] == [str(alice.id), str(bob.id)]
    assert hello_calls(fake) == after_hello


async def test_a_waiting_page_in_another_channel_stays_waiting(
    activity: Activity,  # noqa: F811
):
    fake = activity.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    elsewhere = fake.add_channel(name="elsewhere")
    there, waiting = await activity.open(bob, channel=elsewhere)
    assert waiting["op"] == "waiting"
    here, waiting = await activity.open(alice)
    assert waiting["op"] == "waiting"
    await fake.slash(alice, fake.channel, "nines start")
    assert (await here.next())["op"] == "ready"
    # The page in #elsewhere is not seated at this channel's game: its next frame is its pong.
    await there.send(op="ping")
    assert await there.next() == {"op": "pong"}
    assert activity.bot is not None and activity.bot.activity_server is not None
    assert len(activity.bot.activity_server.hub.waiting) == 1  # #elsewhere's
    # Closed while waiting: forgotten.
    await there.ws.close()
    hub = activity.bot.activity_server.hub
    await wait_for(fake, lambda: len(hub.waiting) == 0, what="the waiting socket forgotten")


async def test_a_waiting_page_opens_a_lobby_that_chat_sees(
    activity: Activity,  # noqa: F811
):
    """Issue 46, item 15: a page waiting in a channel with no game opens a lobby there, as
    ``/nines start`` does: the lobby message is posted in the channel, the person is its host,
    and every page waiting there sits down at it. A second open is refused in words."""
    fake = activity.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    host, first = await activity.open(alice)
    other, _ = await activity.open(bob)
    assert first["op"] == "waiting"
    await host.send(op="lobby", key="o1", what="open")
    frames = [await host.next() for _ in range(2)]
    assert {"op": "ack", "key": "o1"} in frames, frames
    ready = next(f for f in frames if f["op"] == "ready")
    assert ready["table"]["status"] == "lobby" and ready["you"]["seat"] == 0
    assert ready["table"]["seats"][0]["host"]
    seated = await other.next()
    assert seated["op"] == "ready" and seated["table"]["game_id"] == ready["table"]["game_id"]
    await fake.settle()
    lobby = [m for m in fake.store.messages.get(fake.channel.id, []) if m.ephemeral_for is None]
    assert len(lobby) == 1 and "alice" in text_of(lobby[0])
    assert game_id_of(lobby[0]) == ready["table"]["game_id"]
    # Chat sees the same lobby: bob joins it with its button, and the pages hear it.
    await fake.click(bob, lobby[0], "Join")
    frame = await host.table_where(lambda t: len(t["seats"]) == 2)
    assert [s["user_id"] for s in frame["table"]["seats"]] == [str(alice.id), str(bob.id)]
    # The channel has its game now: opening another is refused, in words.
    await other.send(op="lobby", key="o2", what="open")
    while (refused := await other.next())["op"] != "error":
        pass
    assert (
        refused["key"] == "o2" and refused["message"] == "There is already a game in this channel."
    )
