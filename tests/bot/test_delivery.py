"""The presenter's notebook (cogs/nines/delivery.py): it, not the session, says which messages
stand for a game, and storage keeps its marks in one call, read back after a restart."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.storage import DeliveryMarks, GameNotFound, Storage
from cogs.nines.delivery import Token
from fakecord import FakeDiscord
from testbed.games import open_game, play_one, wait_for
from testbed.notebook import delivery
from testbed.people import table_message, turn_messages, whose_turn

from .conftest import StartBot


async def test_marks_saved_in_one_call_read_back(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    try:
        game = await storage.create_game(
            guild_id=1, channel_id=2, kind="nines", rules={}, seed=7, host_id=3
        )
        assert await storage.load_delivery(game.id) == DeliveryMarks()  # 0004's defaults
        marks = DeliveryMarks(
            table_message_id=10, table_hand=2, shown_hands=1, turn_message_id=11, turn_n=40
        )
        await storage.save_delivery(game.id, marks)
        assert await storage.load_delivery(game.id) == marks
        row = await storage.game(game.id)
        assert row is not None and row.table_message_id == 10 and row.turn_n == 40
        with pytest.raises(GameNotFound):
            await storage.load_delivery(game.id + 1)
    finally:
        await storage.close()


async def test_the_notebook_names_the_standing_messages_and_is_stored(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    rng = random.Random(5)
    for _ in range(4):
        assert await play_one(fake, [alice, bob], fake.channel, rng) is not None
    await fake.settle()
    session = nines.sessions.get(game_id)
    assert session is not None
    assert not hasattr(session, "table_message_id")  # the session plays; the presenter tells
    notebook = delivery(session)
    table = await wait_for(fake, lambda: table_message(fake, alice, fake.channel))
    assert notebook.table_message_id == table.id
    pings = turn_messages(fake, alice, fake.channel)
    assert [m.id for m in pings] == ([notebook.turn_message_id] if pings else [])
    assert await nines.storage.load_delivery(game_id) == notebook.marks()


CHANNEL_POST = ("POST", "/channels/{channel_id}/messages")
CHANNEL_DELETE = ("DELETE", "/channels/{channel_id}/messages/{message_id}")
FOLLOW_UP = ("POST", "/webhooks/{webhook_id}/{webhook_token}")


def is_ping(body: Any) -> bool:
    return isinstance(body, dict) and not body.get("embeds") and "<@" in (body.get("content") or "")


async def test_turn_messages_go_through_click_tokens_off_the_global_limit(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """Three people, pings on: every turn message is a follow-up of a live click and is
    deleted through it; the table too moves onto a click's token after a hand's first card.
    (The people click at machine speed: the bot's budget of follow-ups per channel, which at
    this pace would send pings on the channel route, is lifted; test_traffic plays at a
    person's pace with it.)"""
    fake = fake_discord
    bot = await start_bot()
    bot.presenter.followups.budget = (10_000, 60.0)
    users = [fake.add_user(name) for name in ("alice", "bob", "carol")]
    await open_game(fake, users[0], people=tuple(users[1:]), start=3)
    mark = len(fake.requests)
    rng = random.Random(3)
    cards = 0
    for _ in range(24):
        if await play_one(fake, users, fake.channel, rng) is None:
            break
        cards += 1
    await fake.settle()
    sent = fake.requests[mark:]
    assert cards >= 20
    assert [r for r in sent if r.status == 429] == []
    kinds = [(r.method, r.route) for r in sent]
    assert not any(k == CHANNEL_POST and is_ping(r.body) for k, r in zip(kinds, sent, strict=True))
    # On the channel route, only a hand's first table is deleted (replaced by a follow-up).
    hands = 1 + sum(1 for r in sent if (r.method, r.route) == CHANNEL_POST and r.body["embeds"])
    assert sum(1 for k in kinds if k == CHANNEL_DELETE) <= hands
    assert sum(1 for r in sent if (r.method, r.route) == FOLLOW_UP and is_ping(r.body)) > 10
    global_per_card = sum(1 for r in sent if r.under_global_limit) / cards
    assert global_per_card <= 0.25, global_per_card  # was 3.1 (issue 31)


async def test_with_no_live_token_the_turn_message_takes_the_channel_route(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """A timer's move long after the last click: no token lives, so the turn message is
    posted (with its nonce) and the old one deleted on the channel routes, and reads right."""
    fake = fake_discord
    nines = await start_bot()
    await nines.storage.set_guild_settings(fake.guild.id, {"turn_timer": 0.3})
    users = [fake.add_user(name) for name in ("alice", "bob", "carol")]
    game_id = await open_game(fake, users[0], people=tuple(users[1:]), start=3)
    session = nines.sessions.get(game_id)
    assert session is not None
    notebook = delivery(session)
    first = notebook.turn_message_id
    assert first is not None and notebook.turn_by is not None  # the Start click's follow-up
    # As if 15 minutes had passed since every click.
    notebook.click = notebook.turn_by = Token(notebook.turn_by.value, 0.0)
    mark = len(fake.requests)
    await wait_for(
        fake,
        lambda: notebook.turn_message_id not in (None, first),
        what="the turn message after the time-out",
    )
    await fake.settle()
    sent = fake.requests[mark:]
    kinds = [(r.method, r.route) for r in sent]
    pings = [r for r in sent if (r.method, r.route) == CHANNEL_POST and is_ping(r.body)]
    assert pings and all("nonce" in r.body for r in pings)
    assert CHANNEL_DELETE in kinds and f"/messages/{first}" in next(
        r.path for r in sent if (r.method, r.route) == CHANNEL_DELETE
    )
    assert not any(k == FOLLOW_UP and is_ping(r.body) for k, r in zip(kinds, sent, strict=True))
    assert [r for r in sent if r.status == 429] == []
    # What people read: one turn message, naming the person whose turn it is.
    due = whose_turn(fake, users, fake.channel)
    standing = turn_messages(fake, users[0], fake.channel)
    assert due is not None and len(standing) == 1
    assert f"<@{due.id}>" in (standing[0].content or "")
