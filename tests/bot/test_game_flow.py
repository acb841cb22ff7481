"""Issue 6 end to end: people play whole games through buttons against the Discord double."""

from __future__ import annotations

import pytest

from fakecord import FakeDiscord
from fakecord.models import Message, User
from testbed.people import end_message, open_hand, play_to_the_end, table_message

from .conftest import StartBot


async def open_lobby(fake: FakeDiscord, host: User, **options: object) -> Message:
    res = await fake.slash(host, fake.channel, "nines start", **options)
    assert not res.errors and res.message is not None
    return res.message


@pytest.mark.slow(17)
async def test_three_people_play_a_whole_game(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    lobby = await open_lobby(fake, alice, start=3)
    await fake.click(bob, lobby, "Join")
    await fake.click(carol, lobby, "Join")
    await fake.click(alice, lobby, "Start")
    end = await play_to_the_end(fake, [alice, bob, carol], fake.channel)
    text = end.embeds[0]["description"]
    assert "Winner" in text
    assert any(b.label == "Rematch" for b in end.buttons())
    # Every hand left a summary with the spare revealed and the score sheet.
    summaries = [
        m
        for m in fake.visible(alice, fake.channel)
        if m.embeds and "is over" in str(m.embeds[0].get("title"))
    ]
    assert summaries and all("spare hand was" in m.embeds[0]["description"] for m in summaries)
    # Stored once, finished, rated.
    rows, total = await bot.storage.leaderboard(fake.guild.id, "nines")
    assert total == 3 and sum(r.games for r in rows) == 3 and sum(r.wins for r in rows) >= 1
    assert len(bot.sessions) == 0


async def test_one_person_and_two_computers(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    lobby = await open_lobby(fake, alice, start=3)
    await fake.click(alice, lobby, "+ 🤖 Easy")
    await fake.click(alice, lobby, "+ 🤖 Normal")
    await fake.click(alice, lobby, "Start")
    end = await play_to_the_end(fake, [alice], fake.channel)
    assert end is not None
    finished = await bot.storage.history(fake.guild.id)
    assert finished[0].status == "finished"
    assert not finished[0].rated  # one person: recorded, not rated


async def test_partnership_game_with_four_seats(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await open_lobby(fake, alice, ruleset="partnership", start=3)
    await fake.click(bob, lobby, "Join")
    await fake.click(alice, lobby, "+ 🤖 Easy")
    await fake.click(alice, lobby, "+ 🤖 Normal")
    await fake.click(alice, lobby, "Start")
    end = await play_to_the_end(fake, [alice, bob], fake.channel)
    assert "&" in end.embeds[0]["description"]  # a team wins together


async def test_my_hand_is_private(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    await start_bot()
    alice, bob, eve = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("eve")
    lobby = await open_lobby(fake, alice)
    await fake.click(bob, lobby, "Join")
    await fake.click(alice, lobby, "+ 🤖 Easy")
    await fake.click(alice, lobby, "Start")
    await fake.settle()
    hand = await open_hand(fake, alice, fake.channel)
    assert hand not in fake.visible(bob, fake.channel)
    assert hand in fake.visible(alice, fake.channel)
    res = await fake.click(eve, table_message(fake, eve, fake.channel), "My hand")
    assert res.ephemeral and res.message is not None
    assert "not playing" in (res.message.content or "")
    assert end_message(fake, alice, fake.channel) is None


async def test_buttons_are_laid_out_in_rows(fake_discord: FakeDiscord, start_bot: StartBot):
    """The lobby in two rows (seats, then computers); a hand at most four cards a row (a row
    per suit where the suits fit, issue 46), then its controls, as the JSON the bot builds."""
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    lobby = await open_lobby(fake, alice)
    labels = [[c["label"] for c in row["components"]] for row in lobby.components]
    assert labels == [
        ["Join", "Leave", "Start", "Cancel"],
        ["+ 🤖 Easy", "+ 🤖 Normal", "+ 🤖 Hard", "− 🤖"],
    ], labels
    await fake.click(alice, lobby, "+ 🤖 Easy")
    await fake.click(alice, lobby, "+ 🤖 Normal")
    await fake.click(alice, lobby, "Start")
    await fake.settle()
    hand = await open_hand(fake, alice, fake.channel)
    rows = [[c["custom_id"] for c in row["components"]] for row in hand.components]
    cards = [cid for row in rows[:-1] for cid in row]
    assert sum(len(row) for row in rows[:-1]) == 13
    assert all(1 <= len(row) <= 4 for row in rows[:-1]), rows
    assert all(":play:" in cid for cid in cards)
    # The controls last: the exchange's Keep and Swap, then Refresh where a row has room for it
    # (four rows of cards leave none; the table's "My hand" opens a fresh hand anyway).
    assert any(":xchg:" in cid for cid in rows[-1])
    assert rows[-1][-1].startswith("nines:1:hand:") or len(rows) == 5
    assert all(c["type"] == 2 and c["label"] for row in hand.components for c in row["components"])
