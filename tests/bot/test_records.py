"""``/nines history`` and ``/nines record``: past games listed, and exported as records the engine
replays to the same final scores."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from engine import Action, Exchange, Game, Play, Rules
from engine.cards import Card
from fakecord import FakeDiscord
from fakecord.interactions import Interaction
from fakecord.models import Channel, User
from testbed.people import enabled_moves, end_message
from tests.engine.test_replay_and_records import check_record

from .conftest import StartBot


def text_of(res: Interaction) -> str:
    message = res.message
    assert message is not None
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [str(e.get("title", "")), str(e.get("description", ""))]
        parts.append(str(e.get("footer", {}).get("text", "")))
    return "\n".join(parts)


async def game_with_computers(
    fake: FakeDiscord, bot: Any, host: User, others: list[User], **options: object
) -> None:
    """A whole game in a channel of its own (the end message tells the game is over)."""
    channel = fake.add_channel(name=f"game-{host.name}")
    res = await fake.slash(host, channel, "nines start", **options)
    assert res.message is not None
    for user in others:
        await fake.click(user, res.message, "Join")
    for _ in range(3 - 1 - len(others)):
        await fake.click(host, res.message, "+ 🤖 Easy")
    await fake.click(host, res.message, "Start")
    await play_all(fake, bot, [host, *others], channel)


async def play_all(fake: FakeDiscord, bot: Any, users: list[User], channel: Channel) -> None:
    """Each person plays a legal card (or keeps their hand) whenever the game says it is their
    turn, until it is over. Reads the session, not the table, which may lag on a busy machine."""
    by_id = {u.id: u for u in users}
    session = next(s for s in bot.sessions.all() if s.channel_id == channel.id)
    for _ in range(3000):
        game = session.game
        if session.closed or game is None or game.over:
            break
        seat = game.turn
        user = by_id.get(session.seats[seat].user_id) if seat is not None else None
        if user is None or session.lock.locked():
            await asyncio.sleep(0.02)
            await fake.settle()
            continue
        res = await fake.slash(user, channel, "nines hand")
        hand = res.message
        moves = enabled_moves(hand) if hand is not None else []
        if hand is None or not moves:
            continue
        done = await fake.click(user, hand, moves[0])
        if done.message is not None:
            calls = [b.custom_id for b in done.message.buttons() if ":joker:" in b.custom_id]
            if calls:
                await fake.click(user, done.message, calls[0])
        await fake.settle()
    for _ in range(100):  # the end message follows the last move
        if end_message(fake, users[0], channel) is not None:
            return
        await asyncio.sleep(0.02)
        await fake.settle()
    raise AssertionError("the game did not end")


def actions_of(record: dict[str, Any]) -> list[tuple[int, Action]]:
    """The decisions a record holds, in the order they were made."""
    n = len(record["players"])
    actions: list[tuple[int, Action]] = []
    for hand in record["hands"]:
        actions += [(e["seat"], Exchange(e["swap"])) for e in hand["exchange"]]
        for trick in hand["tricks"]:
            for k, code in enumerate(trick["cards"]):
                card = Card.parse(code)
                call = trick.get("joker") if card.suit is None else None
                actions.append(((trick["leader"] + k) % n, Play(card, call)))
    return actions


@pytest.mark.slow(20)
async def test_history_and_a_record_that_replays_to_the_same_scores(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    await game_with_computers(fake, bot, alice, [bob], ruleset="nein-nine", rounds=2)
    await game_with_computers(fake, bot, carol, [], start=3)
    nines, nein = await bot.storage.history(fake.guild.id, limit=2)
    assert nines.kind == "nines" and nein.kind == "nein-nine"  # newest first

    listed = await fake.slash(carol, fake.channel, "nines history")
    assert not listed.errors and not listed.ephemeral
    text = text_of(listed)
    assert "Recent games" in text
    assert f"#{nein.game_id}" in text and f"#{nines.game_id}" in text
    assert "🏆" in text and "alice" in text and "carol" in text
    # Nein Nine counts rounds, Nines hands; each score in bold, apart from its name.
    nein_line = next(line for line in text.splitlines() if f"#{nein.game_id}" in line)
    nines_line = next(line for line in text.splitlines() if f"#{nines.game_id}" in line)
    assert re.search(r" · \d+ rounds?$", nein_line) and re.search(r" · \d+ hands?$", nines_line)
    assert re.search(r"alice \*\*[+\u22120]\d*\*\*", text)
    assert "/nines record" in text
    mine = text_of(await fake.slash(carol, fake.channel, "nines history", member=alice))
    assert "Recent games of alice" in mine
    assert f"#{nein.game_id}" in mine and f"#{nines.game_id}" not in mine

    res = await fake.slash(bob, fake.channel, "nines record", game=nein.game_id)
    assert res.ephemeral and res.message is not None and not res.errors
    assert f"game #{nein.game_id}" in (res.message.content or "")
    (attachment,) = res.message.attachments
    assert attachment.filename == f"nines-game-{nein.game_id}.json"
    record = json.loads(attachment.data)
    check_record(record)  # the format of game-record.md, checked independently of the engine
    assert record["game"] == "nein-nine" and record["players"][:2] == ["alice", "bob"]
    assert record["id"] == nein.game_id

    # The engine replays the record's decisions to the same final scores as the table's.
    rules = Rules.from_dict(record["rules"])
    game = Game.replay(rules, record["seed"], actions_of(record))
    assert game.over
    final = record["hands"][-1]["scores"]
    assert list(game.scores) == final
    finished = await bot.storage.game_result(nein.game_id)
    assert finished is not None
    assert [s.final_score for s in finished.result.seats] == final
    assert sorted(record["winners"]) == sorted(finished.result.winners)


async def test_record_refusals(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    marie = fake.add_user("marie", locale="fr")
    none = await fake.slash(alice, fake.channel, "nines record", game=999)
    assert none.ephemeral and "There is no game #999" in text_of(none)
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None
    session = next(iter(bot.sessions.all()))
    still = await fake.slash(alice, fake.channel, "nines record", game=session.id)
    assert still.ephemeral and "still being played" in text_of(still)
    french = await fake.slash(marie, fake.channel, "nines record", game=session.id)
    assert "encore en cours" in text_of(french)
    # A game of another server is not found here.
    other = fake.add_guild("elsewhere")
    row = await bot.storage.create_game(
        guild_id=other.id,
        channel_id=123,
        kind="nines",
        rules=Rules.from_settings("classic").to_dict(),
        seed=1,
        host_id=alice.id,
    )
    await bot.storage.abandon_game(row.id, "stopped")
    foreign = await fake.slash(alice, fake.channel, "nines record", game=row.id)
    assert f"There is no game #{row.id}" in text_of(foreign)
    empty = await fake.slash(alice, fake.channel, "nines history", member=marie)
    assert "No finished games yet" in text_of(empty)


async def test_an_abandoned_game_has_a_record_too(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None
    await fake.click(alice, res.message, "+ 🤖 Easy")
    await fake.click(alice, res.message, "+ 🤖 Easy")
    await fake.click(alice, res.message, "Start")
    await fake.settle()
    game_id = next(iter(bot.sessions.all())).id
    await fake.slash(alice, fake.channel, "nines stop")
    listed = text_of(await fake.slash(alice, fake.channel, "nines history"))
    assert f"#{game_id}" in listed and "not finished" in listed
    res = await fake.slash(alice, fake.channel, "nines record", game=game_id)
    record = json.loads(res.message.attachments[0].data)  # type: ignore[union-attr]
    assert record["winners"] == [] and record["end_reason"] == "stopped"
    assert record["hands"] == []  # the hand in progress is not a played hand
