"""Issue 38, items 7 and 8, through the double: when a hand ends every person's private hand
says how it went, and when the game ends each seated person is notified once, by one message
whose mentions are theirs alone, with the ranking in it."""

from __future__ import annotations

import random

from fakecord import FakeDiscord
from fakecord.models import Message, User
from testbed.games import finish, open_game, play_one, wait_for

from .conftest import StartBot


def newest_hand(fake: FakeDiscord, user: User) -> Message | None:
    """The person's newest private message (the hand the bot keeps up to date)."""
    for message in reversed(fake.visible(user, fake.channel)):
        if message.ephemeral_for == user.id and message.buttons():
            return message
    return None


def summaries(fake: FakeDiscord, user: User) -> list[str]:
    return [
        str(e.get("title", ""))
        for m in fake.visible(user, fake.channel)
        if m.ephemeral_for is None
        for e in m.embeds
        if " is over" in str(e.get("title", ""))
    ]


async def test_every_persons_hand_says_how_the_hand_ended(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = [alice, bob]
    await open_game(fake, alice, people=(bob,), computers=("easy",), start=9)
    rng = random.Random(4)
    while not summaries(fake, alice):
        assert await play_one(fake, users, fake.channel, rng) is not None
        await fake.settle()

    def told() -> bool:
        hands = [newest_hand(fake, u) for u in users]
        return all(h is not None and "Hand 1 is over: " in (h.content or "") for h in hands)

    # Whoever played the last card reads it in their click's answer, the other in their
    # hand brought up to date: both with every player's tricks against the quota.
    await wait_for(fake, told, what="hand 1's result in both private hands")
    for user in users:
        hand = newest_hand(fake, user)
        assert hand is not None
        line = next(x for x in (hand.content or "").splitlines() if "Hand 1 is over: " in x)
        assert "alice" in line and "bob" in line and "/4 → **" in line
        assert "Hand 2" in (hand.content or "")


async def test_the_end_notifies_each_seated_person_once(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    end = await finish(fake, [alice, bob], fake.channel, seed=6)
    await fake.settle()
    every = fake.store.messages.get(fake.channel.id, [])
    for user in (alice, bob):
        # Turn pings notified them during the game (deleted since); the end's own message
        # is one more, and the only one after the end.
        told = [m for m in every if any(u.id == user.id for u in m.mentions) and m.id >= end.id]
        assert [m.id for m in told] == [end.id], [m.content for m in told]
    assert {u.id for u in end.mentions} == {alice.id, bob.id}  # carol watches: not notified
    assert not any(u.id == carol.id for m in every for u in m.mentions)
    content = end.content or ""
    assert content.startswith("🏁 Nines: game over · 1. ")
    # The ranking: both people (mentioned) and the computer (named), each once, in order.
    assert content.count(f"<@{alice.id}>") == content.count(f"<@{bob.id}>") == 1
    assert content.count("🤖 Pip") == 1
    assert end.embeds and "Final ranking" in str(end.embeds[0])
