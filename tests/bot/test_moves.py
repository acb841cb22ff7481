"""Issues 44 and 45: one move use case (bot/game/moves.py) for a chat click and a web table's tap,
end to end through the real bot against the Discord double and a real websocket.

A chat click and a tap are both played by ``bot.game.moves``; a tap made on an older table is
refused as out of date, as a chat click is, even resent after a reconnect, while one made on
the current table plays; a key that made a move is refused with another move or another table,
both while this process remembers it and, after a restart, from what storage keeps.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp

from bot.app import NinesBot
from bot.game import GameSession, Move, Moves, Reply
from bot.words import tr
from fakecord import FakeDiscord
from fakecord.models import User
from testbed.people import open_hand

from .conftest import StartBot
from .test_activity import (  # noqa: F401
    Activity,
    Json,
    Table,
    activity,
    stored_actions,
    turn_seat,
    two_people_and_a_computer,
)
from .test_network_faults import free_port

ROOT = Path(__file__).resolve().parents[2]


class Recording(Moves):
    """The bot's move use case, recording each move it is given and the adapter's reply."""

    def __init__(self, moves: Moves) -> None:
        super().__init__(moves.presenter, moves.storage)
        self.played: list[tuple[Move, str]] = []

    async def play(
        self, session: GameSession, move: Move, reply: Reply
    ) -> asyncio.Future[None] | None:
        self.played.append((move, type(reply).__name__))
        return await super().play(session, move, reply)


async def keep_in_chat(fake: FakeDiscord, person: User) -> None:
    """``person`` keeps their hand from their private hand in chat."""
    hand = await open_hand(fake, person, fake.channel)
    keep = next(b for b in hand.buttons() if (b.custom_id or "").endswith(":keep"))
    result = await fake.click(person, hand, keep.custom_id or "")
    assert not result.errors, result.errors


async def moved_on(sockets: dict[int, tuple[Table, Json]], after: int) -> dict[int, Json]:
    """Each seat's table, its frames read until one after move ``after`` where a person (seat
    0 or 1) is due."""
    tables = {}
    for seat, (table, _) in sockets.items():
        frame = await table.table_where(lambda t: t["n"] > after and turn_seat(t) in (0, 1))
        tables[seat] = frame["table"]
    return tables


async def test_a_click_and_a_tap_are_played_by_the_one_move_use_case(
    activity: Activity,  # noqa: F811
):
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    recording = Recording(bot.moves)
    # The one use case, given to both adapters when the bot was set up (cogs.nines.setup,
    # NinesBot.plug_in): the chat's controller and the web table's hub. Both now record.
    controller = bot.get_cog("Nines").controller  # type: ignore[union-attr]
    server = bot.activity_server
    assert server is not None
    assert controller.moves is bot.moves and server.hub.games.moves is bot.moves
    controller.moves = recording
    server.hub.plays(bot.sessions, recording, bot.daily)
    game, alice, bob = await two_people_and_a_computer(activity)
    people = (alice, bob)
    sockets = {0: await activity.open(alice), 1: await activity.open(bob)}
    first = sockets[0][1]["table"]
    due = turn_seat(first)
    assert due in (0, 1)
    before = await stored_actions(bot, game)
    # A click in chat...
    await keep_in_chat(fake, people[due])
    # ... then a tap at the web table, by whoever is due next.
    now = (await moved_on(sockets, first["n"]))[0]
    nxt = turn_seat(now)
    assert nxt is not None
    tapper, _ = sockets[nxt]
    await tapper.send(op="act", key="tap-1", action="keep", n=now["n"])
    assert await tapper.next("ack") == {"op": "ack", "key": "tap-1"}
    moves = [(m.user_id, m.n, str(m.action), m.key, reply) for m, reply in recording.played]
    assert moves == [
        (people[due].id, first["n"], "keep", None, "ClickReply"),
        (people[nxt].id, now["n"], "keep", "tap-1", "TapReply"),
    ]
    # Both stored, each at the count of the table it was made on.
    stored = await bot.storage.actions(game)
    assert len(stored) > before
    assert (stored[first["n"]].seat, stored[first["n"]].action) == (due, "keep")
    assert (stored[now["n"]].seat, stored[now["n"]].action) == (nxt, "keep")
    # The answer window is defined once, with the use case.
    defined = [
        path
        for folder in ("bot", "cogs")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"^ANSWER_WITHIN\b", path.read_text(), re.MULTILINE)
    ]
    assert defined == [ROOT / "bot" / "game" / "moves.py"]


async def test_a_tap_on_an_older_table_is_stale_and_one_on_the_current_table_plays(
    activity: Activity,  # noqa: F811
):
    """Issue 44, item 5: the tap is legal and its person's turn, but it was made on a table
    from before the last move: refused as out of date, in the chat's words, nothing stored."""
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    game, alice, bob = await two_people_and_a_computer(activity)
    people = (alice, bob)
    sockets = {0: await activity.open(alice), 1: await activity.open(bob)}
    older = sockets[0][1]["table"]
    due = turn_seat(older)
    assert due in (0, 1)
    await keep_in_chat(fake, people[due])
    tables = await moved_on(sockets, older["n"])
    now = tables[0]
    nxt = turn_seat(now)
    assert nxt is not None
    tapper, _ = sockets[nxt]
    assert "keep" in tables[nxt]["hand"]["legal"]  # legal now, and their turn
    before = await stored_actions(bot, game)
    await tapper.send(op="act", key="old", action="keep", n=older["n"])
    refused = await tapper.next("error")
    assert (refused["key"], refused["code"]) == ("old", "stale")
    assert refused["message"] == tr("en", "error.stale")  # as a stale chat click is told
    assert await stored_actions(bot, game) == before
    # The same move made on the current table plays.
    await tapper.send(op="act", key="new", action="keep", n=now["n"])
    assert await tapper.next("ack") == {"op": "ack", "key": "new"}
    stored = await bot.storage.actions(game)
    assert (stored[now["n"]].seat, stored[now["n"]].action) == (nxt, "keep")


async def test_a_tap_resent_after_a_reconnect_keeps_its_older_table_and_is_refused(
    activity: Activity,  # noqa: F811
):
    """The page's tap waits while its socket is down; meanwhile the game moves on and it is
    the person's turn again. Resent after the reconnect with the table it was made on, it is
    refused as out of date rather than played on the turn it finds."""
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    game, alice, bob = await two_people_and_a_computer(activity)
    people = (alice, bob)
    watching = await activity.open(alice)
    older = watching[1]["table"]
    due = turn_seat(older)
    assert due in (0, 1)
    other = 1 - due
    # The other person's table is at ``older`` when their socket drops.
    dropped, _ = await activity.open(people[other])
    await dropped.ws.close()
    await keep_in_chat(fake, people[due])
    now = (await moved_on({0: watching}, older["n"]))[0]
    assert turn_seat(now) == other
    again, ready = await activity.open(people[other])
    assert ready["table"]["n"] == now["n"] and "keep" in ready["table"]["hand"]["legal"]
    before = await stored_actions(bot, game)
    await again.send(op="act", key="pending", action="keep", n=older["n"])
    refused = await again.next("error")
    assert (refused["key"], refused["code"], refused["message"]) == (
        "pending",
        "stale",
        tr("en", "error.stale"),
    )
    assert await stored_actions(bot, game) == before


async def test_a_key_that_made_a_move_is_refused_with_another_move_here_and_after_a_restart(
    activity: Activity,  # noqa: F811
    start_bot: StartBot,
):
    """Issue 44, item 9: the key is bound to its move: resent with another action or another
    table it is refused, in plain words, whether this process remembers it or the process
    that runs the game next finds it in storage; resent unchanged it is acknowledged."""
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    game, alice, bob = await two_people_and_a_computer(activity)
    people = (alice, bob)
    table, ready = await activity.open(alice)
    due = turn_seat(ready["table"])
    assert due in (0, 1)
    mover, mine = (table, ready) if due == 0 else await activity.open(people[due])
    n = mine["table"]["n"]
    assert {"keep", "swap"} <= set(mine["table"]["hand"]["legal"])
    await mover.send(op="act", key="k", action="keep", n=n)
    assert await mover.next("ack") == {"op": "ack", "key": "k"}
    stored = await stored_actions(bot, game)
    reused = tr("en", "error.key_reused")

    async def answers(socket: Table, action: str, at: int) -> Json:
        await socket.send(op="act", key="k", action=action, n=at)
        return await socket.next("error" if (action, at) != ("keep", n) else "ack")

    # Remembered here: another action, another table, refused; the same, its first answer.
    for action, at in (("swap", n), ("keep", n + 1)):
        assert await answers(mover, action, at) == {
            "op": "error",
            "key": "k",
            "code": "bad-request",
            "message": reused,
        }
    assert await answers(mover, "keep", n) == {"op": "ack", "key": "k"}
    # The process stops; the next one restores the game and knows the key only from storage.
    await bot.close()
    port = free_port()
    second: NinesBot = await start_bot(
        ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret
    )
    server = second.activity_server
    assert server is not None and not server.hub.answered  # nothing remembered
    assert second.sessions.get(game) is not None
    async with aiohttp.ClientSession() as http:
        after = Activity(fake, second, port, http)
        socket, ready = await after.open(people[due])
        assert ready["op"] == "ready"
        for action, at in (("swap", n), ("keep", ready["table"]["n"])):
            assert await answers(socket, action, at) == {
                "op": "error",
                "key": "k",
                "code": "bad-request",
                "message": reused,
            }
        assert await answers(socket, "keep", n) == {"op": "ack", "key": "k"}
    assert await stored_actions(second, game) == stored
