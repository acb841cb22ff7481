"""``/nines forget-me``: after a confirmation, the user's statistics, ratings and name leave the
server's records; the games keep a placeholder seat so the other players' records stay whole.
Refused, with a clear message, while the user sits in an open game."""

from __future__ import annotations

import json
from typing import Any

from bot.storage import player_key
from fakecord import FakeDiscord
from fakecord.interactions import Interaction
from fakecord.models import User

from .conftest import StartBot
from .test_records import play_all


def text_of(res: Interaction) -> str:
    message = res.message
    assert message is not None
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [str(e.get("title", "")), str(e.get("description", ""))]
        parts += [f"{f['name']} {f['value']}" for f in e.get("fields", [])]
    return "\n".join(parts)


async def rated_game(fake: FakeDiscord, bot: Any, alice: User, bob: User) -> None:
    res = await fake.slash(alice, fake.channel, "nines start", ruleset="nein-nine", rounds=1)
    assert res.message is not None
    await fake.click(bob, res.message, "Join")
    await fake.click(alice, res.message, "+ 🤖 Easy")
    await fake.click(alice, res.message, "Start")
    await play_all(fake, bot, [alice, bob], fake.channel)


async def test_forget_me_end_to_end(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await rated_game(fake, bot, alice, bob)
    guild = fake.guild.id
    (game,) = await bot.storage.history(guild)
    assert await bot.storage.stats(guild, "nein-nine", player_key(alice.id, None)) is not None

    ask = await fake.slash(alice, fake.channel, "nines forget-me")
    assert ask.ephemeral and "Are you sure?" in text_of(ask)
    assert ask.message is not None
    # Nothing happens before the confirmation.
    assert await bot.storage.stats(guild, "nein-nine", player_key(alice.id, None)) is not None
    done = await fake.click(alice, ask.message, "Yes, forget me")
    assert not done.errors and "you are forgotten" in text_of(done)
    assert done.message is not None and done.message.buttons() == []

    # Her statistics and rating are gone; Bob's and the computer's stay.
    assert await bot.storage.stats(guild, "nein-nine", player_key(alice.id, None)) is None
    assert await bot.storage.stats(guild, "nein-nine", player_key(bob.id, None)) is not None
    rows, total = await bot.storage.leaderboard(guild, "nein-nine")
    assert total == 1 and [r.name for r in rows] == ["bob"]
    board = text_of(await fake.slash(bob, fake.channel, "nines stats", member=alice))
    assert "No rated games yet" in board
    # Her name left the game's records; her seat stays, as a placeholder.
    seats = await bot.storage.seats(game.game_id)
    assert [s.user_id for s in seats].count(alice.id) == 0
    assert "alice" not in [s.name for s in seats] and "bob" in [s.name for s in seats]
    listed = text_of(await fake.slash(bob, fake.channel, "nines history"))
    assert "Former player" in listed and "alice" not in listed and "bob" in listed
    record = await fake.slash(bob, fake.channel, "nines record", number=game.game_id)
    assert record.message is not None
    data = json.loads(record.message.attachments[0].data)
    assert "alice" not in data["players"] and "bob" in data["players"]
    assert len(data["hands"]) >= 1  # the game itself is whole
    finished = await bot.storage.game_result(game.game_id)
    assert finished is not None and len(finished.result.seats) == 3
    # Asking again changes nothing more.
    again = await fake.slash(alice, fake.channel, "nines forget-me")
    assert again.message is not None
    twice = await fake.click(alice, again.message, "Yes, forget me")
    assert "(records changed: 0)" in text_of(twice)


async def test_forget_me_is_refused_while_seated_in_an_open_game(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await rated_game(fake, bot, alice, bob)
    guild = fake.guild.id
    # She asks first, then sits down at a new table, then confirms: refused, nothing changes.
    ask = await fake.slash(alice, fake.channel, "nines forget-me")
    assert ask.message is not None
    lobby = await fake.slash(bob, fake.channel, "nines start")
    assert lobby.message is not None
    await fake.click(alice, lobby.message, "Join")
    refused = await fake.click(alice, ask.message, "Yes, forget me")
    assert "still open" in text_of(refused)
    assert await bot.storage.stats(guild, "nein-nine", player_key(alice.id, None)) is not None
    # While seated, the command itself says so and offers no button.
    again = await fake.slash(alice, fake.channel, "nines forget-me")
    assert again.ephemeral and "still open" in text_of(again)
    assert again.message is not None and again.message.buttons() == []
    # The open game still shows her: its table needs her seat.
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.seat_of(alice.id) is not None
    # Once she has left, it works.
    await fake.click(alice, lobby.message, "Leave")
    ok = await fake.slash(alice, fake.channel, "nines forget-me")
    assert ok.message is not None
    done = await fake.click(alice, ok.message, "Yes, forget me")
    assert "you are forgotten" in text_of(done)
    assert await bot.storage.stats(guild, "nein-nine", player_key(alice.id, None)) is None


async def test_forget_me_speaks_french(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    fake = fake_discord
    await start_bot()
    marie = fake.add_user("marie", locale="fr")
    ask = await fake.slash(marie, fake.channel, "nines forget-me")
    assert "Voulez-vous vraiment continuer\u202f?" in text_of(ask)  # ungendered
    assert ask.message is not None
    done = await fake.click(marie, ask.message, "Oui, oubliez-moi")
    assert "vos données sont effacées" in text_of(done)
