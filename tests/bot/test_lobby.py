"""The lobby: one live game per channel, only the host starts or cancels, every seat filled
before the start, join/leave/computers, and a lobby nobody starts expires and says so.

Every refusal goes privately to the person who clicked and changes nothing.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import bot.game.state as state_module
from bot.app import NinesBot
from bot.game import GameSession
from cogs.nines import ids
from engine import Action, Exchange
from fakecord import FakeDiscord
from fakecord.interactions import MESSAGE_COMPONENT, Interaction
from fakecord.models import Channel, Message, User
from testbed.games import wait_for
from testbed.notebook import delivery
from testbed.reading import as_read, words

from .conftest import StartBot

# -- helpers shared by the other issue-6 test files --------------------------------------------


async def open_lobby(
    fake: FakeDiscord, host: User, channel: Channel | None = None, **options: Any
) -> Message:
    res = await fake.slash(host, channel or fake.channel, "nines start", **options)
    assert not res.errors, res.errors
    assert res.message is not None and not res.ephemeral, res.message
    return res.message


async def full_lobby(
    fake: FakeDiscord, host: User, *people: User, computers: int = 0, **options: Any
) -> Message:
    """A lobby with `people` joined and `computers` computer seats added by the host."""
    lobby = await open_lobby(fake, host, **options)
    for person in people:
        ok(await fake.click(person, lobby, "Join"))
    for _ in range(computers):
        ok(await fake.click(host, lobby, "+ 🤖 Easy"))
    return lobby


def ok(res: Interaction) -> Interaction:
    assert res.acknowledged and not res.errors, res
    return res


def refused(res: Interaction, who: User, *words: str) -> str:
    """The answer went to `who` only (ephemeral), contains `words`, and was in time."""
    assert res.acknowledged and not res.errors, res
    assert res.ephemeral, f"not private: {res.message}"
    assert res.message is not None and res.message.ephemeral_for == who.id
    text = res.message.content or ""
    for word in words:
        assert word in text, text
    return text


def all_acknowledged(fake: FakeDiscord) -> None:
    """Nobody ever saw "This interaction failed", and the bot got no error from Discord."""
    for inter in fake.interactions.values():
        assert inter.acknowledged, inter
        assert not inter.errors, inter


async def forged_click(
    fake: FakeDiscord, user: User, message: Message, custom_id: str
) -> Interaction:
    """A click the Discord client would not send (a disabled button, a made-up id)."""
    data = {"custom_id": custom_id, "component_type": 2}
    return await fake._interact(
        MESSAGE_COMPONENT,
        user,
        fake.store.channel(message.channel_id),
        data,
        wait=True,
        source=message,
    )


def move_id(session: GameSession, action: Action) -> str:
    """The custom_id of the button a fresh hand shows for `action`."""
    return ids.move_click(session.id, session.n, action).custom_id


async def play_fast(
    fake: FakeDiscord,
    bot: NinesBot,
    users: list[User],
    channel: Channel,
    *,
    seed: int = 1,
    limit: int = 3000,
    swap: bool | None = None,
) -> GameSession:
    """Every person plays a random legal move whenever it is their turn, by clicking the
    button their (refreshed) private hand shows for it: one interaction per move. Returns
    the session once the game is over."""
    rng = random.Random(seed)
    session = bot.sessions.in_channel(channel.id)
    assert session is not None and session.game is not None
    game = session.game
    by_id = {u.id: u for u in users}
    hands: dict[int, Message] = {}
    await fake.settle()
    for _ in range(limit):
        if game.over or session.closed:
            await end_posted(fake, channel, session)
            return session
        seat = game.turn
        assert seat is not None
        user = by_id[session.seats[seat].user_id or 0]
        if user.id not in hands:
            table = fake.store.message_by_id(delivery(session).table_message_id or 0)
            res = ok(await fake.click(user, table, "My hand"))
            assert res.message is not None
            hands[user.id] = res.message
        legal = game.legal_actions(seat)
        if swap is not None and any(isinstance(a, Exchange) for a in legal):
            action: Action = Exchange(swap)
        else:
            action = rng.choice(list(legal))
        ok(await forged_click(fake, user, hands[user.id], move_id(session, action)))
    raise AssertionError("the game did not end")


async def end_posted(fake: FakeDiscord, channel: Channel, session: GameSession) -> Message:
    """The game-over message. settle() alone may return before it: the bot draws the score
    chart (tens of ms without a request) between the last table edit and posting it."""
    rematch = ids.RematchClick(session.id).custom_id

    def posted() -> Message | None:
        for message in fake.store.messages.get(channel.id, []):
            if any(b.custom_id == rematch for b in message.buttons()):
                return message
        return None

    found: Message = await wait_for(fake, posted, what="the game-over message")
    return found


def seats_of(session: GameSession) -> list[tuple[str, int | None, str | None]]:
    return [(s.name, s.user_id, s.difficulty) for s in session.seats]


async def snapshot(bot: NinesBot, session: GameSession) -> tuple[Any, ...]:
    """What a refusal must not change: seats, status, the stored seats and actions."""
    stored = await bot.storage.seats(session.id)
    actions = await bot.storage.actions(session.id)
    row = await bot.storage.game(session.id)
    assert row is not None
    return (
        seats_of(session),
        session.status,
        session.host_id,
        session.n,
        [(s.seat, s.user_id, s.difficulty) for s in stored],
        [(a.n, a.seat, a.action) for a in actions],
        row.status,
    )


def button(message: Message, label: str) -> Any:
    found = [b for b in message.buttons() if b.label == label]
    assert len(found) == 1, [b.label for b in message.buttons()]
    return found[0]


def current(fake: FakeDiscord, message: Message) -> Message:
    return fake.store.message_by_id(message.id)


# -- one game per channel ----------------------------------------------------------------------


async def test_one_live_game_per_channel(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await open_lobby(fake, alice)
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.host_id == alice.id
    before = await snapshot(bot, session)
    text = refused(
        await fake.slash(bob, fake.channel, "nines start"), bob, "already a game in this channel"
    )
    # The answer links to the live game's lobby.
    assert f"/{fake.guild.id}/{fake.channel.id}/{lobby.id}" in text
    assert await snapshot(bot, session) == before
    assert len(bot.sessions) == 1
    # A second channel has its own game.
    games = fake.add_channel(name="games")
    await open_lobby(fake, bob, games)
    assert len(bot.sessions) == 2
    assert bot.sessions.in_channel(games.id) is not session
    all_acknowledged(fake)


async def test_a_live_game_also_blocks_a_second_start(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await full_lobby(fake, alice, bob, computers=1, start=3)
    ok(await fake.click(alice, lobby, "Start"))
    refused(await fake.slash(alice, fake.channel, "nines start"), alice, "already a game")
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.status == "live"
    all_acknowledged(fake)


# -- host only ---------------------------------------------------------------------------------


async def test_only_the_host_starts_or_cancels(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await full_lobby(fake, alice, bob, computers=1)
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    before = await snapshot(bot, session)
    refused(await fake.click(bob, lobby, "Start"), bob, "Only the host")
    refused(await fake.click(bob, lobby, "Cancel"), bob, "Only the host")
    add = button(lobby, "+ 🤖 Hard").custom_id  # disabled (full): a forged click
    refused(await forged_click(fake, bob, lobby, add), bob, "Only the host")
    refused(await fake.click(bob, lobby, "− 🤖"), bob, "Only the host")
    assert await snapshot(bot, session) == before
    assert bot.sessions.in_channel(fake.channel.id) is session
    # The public lobby was not touched by those refusals.
    assert current(fake, lobby).embeds == lobby.embeds
    # The host cancels: the lobby says so, loses its buttons, and the channel is free.
    ok(await fake.click(alice, lobby, "Cancel"))
    cancelled = current(fake, lobby)
    assert "cancelled" in str(cancelled.embeds[0]) and not cancelled.buttons()
    assert bot.sessions.in_channel(fake.channel.id) is None
    row = await bot.storage.game(session.id)
    assert row is not None and row.status == "abandoned" and not row.rated
    await open_lobby(fake, bob)
    all_acknowledged(fake)


async def test_start_needs_every_seat(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await full_lobby(fake, alice, bob)
    start = button(current(fake, lobby), "Start")
    assert start.disabled
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    before = await snapshot(bot, session)
    # A forged click on the disabled Start button is refused privately; nothing starts.
    assert start.custom_id is not None
    refused(
        await forged_click(fake, alice, lobby, start.custom_id),
        alice,
        "Every seat",
        "free seats: 1",
    )
    assert await snapshot(bot, session) == before
    assert session.game is None
    # Filled: Start is enabled and works.
    ok(await fake.click(alice, lobby, "+ 🤖 Normal"))
    assert not button(current(fake, lobby), "Start").disabled
    ok(await fake.click(alice, lobby, "Start"))
    assert session.status == "live" and session.game is not None
    started = current(fake, lobby)
    assert not started.buttons() and "Draw for first dealer" in (started.content or "")
    all_acknowledged(fake)


async def test_forged_custom_ids_are_answered(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    lobby = await open_lobby(fake, alice)
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    before = await snapshot(bot, session)
    refused(
        await forged_click(fake, alice, lobby, "nines:1:lobby:999999:start"), alice, "do not know"
    )
    refused(
        await forged_click(fake, alice, lobby, "somebody-else:button"), alice, "not from a game"
    )
    refused(
        await forged_click(fake, alice, lobby, f"nines:1:lobby:{session.id}:explode"),
        alice,
        "not from a game",
    )
    assert await snapshot(bot, session) == before
    all_acknowledged(fake)


# -- joining and leaving -----------------------------------------------------------------------


async def test_join_leave_and_computers(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    lobby = await open_lobby(fake, alice)
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None

    ok(await fake.click(bob, lobby, "Join"))
    assert "2. bob" in words(current(fake, lobby))  # a name: no mention in an embed
    before = await snapshot(bot, session)
    refused(await fake.click(bob, lobby, "Join"), bob, "already seated")
    refused(await fake.click(alice, lobby, "Join"), alice, "already seated")
    refused(await fake.click(carol, lobby, "Leave"), carol, "not seated")
    refused(await fake.click(alice, lobby, "Leave"), alice, "host cannot leave")
    uncpu = button(lobby, "− 🤖")
    assert uncpu.disabled and uncpu.custom_id is not None
    refused(await forged_click(fake, alice, lobby, uncpu.custom_id), alice, "no computer player")
    assert await snapshot(bot, session) == before

    ok(await fake.click(bob, lobby, "Leave"))
    assert seats_of(session) == [("alice", alice.id, None)]
    assert "bob" not in str(current(fake, lobby).embeds[0])
    assert [s.user_id for s in await bot.storage.seats(session.id)] == [alice.id]

    ok(await fake.click(carol, lobby, "Join"))
    ok(await fake.click(alice, lobby, "+ 🤖 Hard"))
    assert seats_of(session)[-1][1:] == (None, "hard")
    assert "🤖 Ada · Hard" in words(current(fake, lobby))
    # Full: more people and computers are refused, and the buttons say so.
    assert all(button(current(fake, lobby), f"+ 🤖 {lv}").disabled for lv in ("Easy", "Hard"))
    before = await snapshot(bot, session)
    refused(await fake.click(dave, lobby, "Join"), dave, "Every seat is taken")
    assert await snapshot(bot, session) == before

    ok(await fake.click(alice, lobby, "− 🤖"))
    assert [s[1] for s in seats_of(session)] == [alice.id, carol.id]
    assert button(current(fake, lobby), "Start").disabled
    ok(await fake.click(dave, lobby, "Join"))
    assert [s.user_id for s in await bot.storage.seats(session.id)] == [alice.id, carol.id, dave.id]
    all_acknowledged(fake)


async def test_the_lobby_shows_the_host_and_free_seats(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    lobby = await open_lobby(fake, alice, ruleset="partnership")
    embed = lobby.embeds[0]
    seats = next(f["value"] for f in embed["fields"] if f["name"] == "Seats")
    assert as_read(seats).splitlines()[0] == "1. alice (host)"
    assert seats.count("— free —") == 3
    assert [b.label for b in lobby.buttons()][:4] == ["Join", "Leave", "Start", "Cancel"]
    closes = next(f["value"] for f in embed["fields"] if f["name"] == "The lobby closes")
    assert re.fullmatch(r"<t:\d+:R>", closes)  # Discord shows it as "in 5 minutes"


async def test_after_the_start_the_lobby_buttons_refuse(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    bot = await start_bot()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    lobby = await full_lobby(fake, alice, bob, computers=1)
    join = button(lobby, "Join").custom_id
    ok(await fake.click(alice, lobby, "Start"))
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    # Started: the lobby no longer counts down to a closing that will not come.
    names = [f["name"] for f in current(fake, lobby).embeds[0]["fields"]]
    assert "Seats" in names and "The lobby closes" not in names
    before = await snapshot(bot, session)
    refused(await forged_click(fake, carol, lobby, join), carol, "already started")
    assert await snapshot(bot, session) == before
    all_acknowledged(fake)


# -- expiry ------------------------------------------------------------------------------------


async def test_a_lobby_nobody_starts_expires(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
):
    fake = fake_discord
    monkeypatch.setattr(state_module, "LOBBY_SECONDS", 0.5)
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await open_lobby(fake, alice)
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    expired = await wait_for(
        fake, lambda: "Lobby closed" in str(current(fake, lobby).embeds) and current(fake, lobby)
    )
    assert "Lobby closed" in str(expired.embeds[0]) and "in time" in str(expired.embeds[0])
    assert not expired.buttons()
    row = await bot.storage.game(session.id)
    assert row is not None and row.status == "abandoned" and row.end_reason == "expired"
    assert bot.sessions.in_channel(fake.channel.id) is None
    # The channel is free again.
    await open_lobby(fake, bob)
    all_acknowledged(fake)
