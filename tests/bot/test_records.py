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
from testbed.games import wait_for
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
    # The end message follows the last move.
    await wait_for(fake, lambda: end_message(fake, users[0], channel), what="the end message")


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
    # each name isolated (FSI ... PDI, issue 39), its score after it
    assert re.search(r"\u2068alice\u2069 \*\*[+\u22120]\d*\*\*", text)
    assert "/nines record" in text
    mine = text_of(await fake.slash(carol, fake.channel, "nines history", member=alice))
    assert "Recent games of \u2068alice\u2069" in mine
    assert f"#{nein.game_id}" in mine and f"#{nines.game_id}" not in mine

    res = await fake.slash(bob, fake.channel, "nines record", number=nein.game_id)
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
    none = await fake.slash(alice, fake.channel, "nines record", number=999)
    assert none.ephemeral and "There is no game #999" in text_of(none)
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None
    session = next(iter(bot.sessions.all()))
    still = await fake.slash(alice, fake.channel, "nines record", number=session.id)
    assert still.ephemeral and "still being played" in text_of(still)
    french = await fake.slash(marie, fake.channel, "nines record", number=session.id)
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
    foreign = await fake.slash(alice, fake.channel, "nines record", number=row.id)
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
    res = await fake.slash(alice, fake.channel, "nines record", number=game_id)
    record = json.loads(res.message.attachments[0].data)  # type: ignore[union-attr]
    assert record["winners"] == [] and record["end_reason"] == "stopped"
    assert record["hands"] == []  # the hand in progress is not a played hand


def test_history_names_are_escaped_isolated_and_told_apart() -> None:
    """Issue 39: a past game lists its players as the table showed them: markdown and
    mentions inert, each name isolated, two Alex apart, a computer never a person's name."""
    from bot.storage import FORMER_PLAYER_KEY, HistoryPlayer, HistoryRow
    from cogs.nines.records import history_embed, history_line

    def player(seat: int, name: str, computer: bool = False, key: str = "") -> HistoryPlayer:
        return HistoryPlayer(seat, key or f"u:{seat}", name, computer, seat + 1, seat)

    row = HistoryRow(
        game_id=7,
        kind="nines",
        status="finished",
        rated=True,
        end_reason=None,
        ended_at=0.0,
        hands_played=3,
        winners=(0,),
        players=(
            player(3, "Alex", computer=True),
            player(0, "**Zoé** ```"),
            player(1, "Alex"),
            player(2, "alex"),
            player(4, "x", key=FORMER_PLAYER_KEY),
            player(5, "y", key=FORMER_PLAYER_KEY),
        ),
    )
    line = history_line("en", row).splitlines()[1]
    assert line == " · ".join(
        [
            "  🏆 \u2068\\*\\*Zoé\\*\\* \\`\\`\\`\u2069 **0**",
            "\u2068Alex\u2069 **1**",
            "\u2068alex (2)\u2069 **2**",
            "\u2068Alex (3)\u2069 **3**",  # the computer is the one renamed
            "\u2068Former player\u2069 **4**",
            "\u2068Former player (2)\u2069 **5**",
        ]
    )
    title = history_embed("en", [row], "<@1> @everyone").title
    assert title == "Recent games of \u2068<\u200b@\u200b1> @\u200beveryone\u2069"


def test_a_stored_seat_name_is_the_raw_display_name_cut_between_clusters() -> None:
    from types import SimpleNamespace

    from cogs.nines.controller import member_name

    raw = "**Zoé**\u200b @everyone"
    assert member_name(SimpleNamespace(display_name=raw)) == raw  # type: ignore[arg-type]
    accented = "x" * 31 + "e\u0301"
    assert member_name(SimpleNamespace(display_name=accented)) == "x" * 31  # type: ignore[arg-type]


@pytest.mark.slow(20)
async def test_two_people_called_alike_read_apart_in_the_history_and_the_record(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """Issue 39, end to end: two people whose display names differ only in case and in an
    invisible character play a game; the history and the record tell them apart the same
    way (seat order numbers them), and a name's markdown stays text."""
    fake = fake_discord
    bot = await start_bot()
    first, second = fake.add_user("Alex"), fake.add_user("alex\u200b")
    await game_with_computers(fake, bot, first, [second], ruleset="nein-nine", rounds=1)
    (row,) = await bot.storage.history(fake.guild.id, limit=1)

    text = text_of(await fake.slash(first, fake.channel, "nines history"))
    assert "\u2068Alex\u2069 **" in text and "\u2068alex (2)\u2069 **" in text
    assert "\u2068🤖 Pip\u2069 **" in text

    res = await fake.slash(second, fake.channel, "nines record", number=row.game_id)
    assert res.message is not None
    (attachment,) = res.message.attachments
    record = json.loads(attachment.data)
    check_record(record)
    assert record["players"] == ["Alex", "alex (2)", "🤖 Pip"]
    # what the seats stored stays the raw display name: cleaning happens where it is shown
    seats = await bot.storage.seats(row.game_id)
    assert [s.name for s in sorted(seats, key=lambda s: s.seat)][:2] == ["Alex", "alex\u200b"]
