"""People at the table, as a test drives them: open the hand, click a legal card, repeat."""

from __future__ import annotations

import asyncio
import random

from tests.fakecord import FakeDiscord
from tests.fakecord.models import Channel, Message, User


def table_message(fake: FakeDiscord, user: User, channel: Channel) -> Message | None:
    """The newest public message with a "My hand" button."""
    for message in reversed(fake.visible(user, channel)):
        if message.ephemeral_for is None and any(b.label == "My hand" for b in message.buttons()):
            return message
    return None


def end_message(fake: FakeDiscord, user: User, channel: Channel) -> Message | None:
    for message in reversed(fake.visible(user, channel)):
        for embed in message.embeds:
            if "game over" in str(embed.get("title", "")):
                return message
    return None


def whose_turn(fake: FakeDiscord, users: list[User], channel: Channel) -> User | None:
    table = table_message(fake, users[0], channel)
    if table is None:
        return None
    for user in users:
        if f"<@{user.id}>, your turn" in (table.content or ""):
            return user
    return None


async def open_hand(fake: FakeDiscord, user: User, channel: Channel) -> Message:
    table = table_message(fake, user, channel)
    assert table is not None, "no table message"
    res = await fake.click(user, table, "My hand")
    assert not res.errors, res.errors
    assert res.message is not None and res.message.ephemeral_for == user.id
    return res.message


def enabled_moves(hand: Message) -> list[str]:
    """custom_ids of the enabled card / keep / swap / joker buttons."""
    return [
        b.custom_id
        for b in hand.buttons()
        if not b.disabled and b.custom_id and ":hand:" not in b.custom_id
    ]


async def take_turn(fake: FakeDiscord, user: User, channel: Channel, rng: random.Random) -> Message:
    """Open the hand and make a legal move chosen at random; returns the updated hand.

    Under load the table can name a player a moment before the bot has finished its turn's
    work, so an empty hand is opened again after the bot settles, a few times.
    """
    for _ in range(20):
        hand = await open_hand(fake, user, channel)
        moves = enabled_moves(hand)
        if moves:
            break
        await fake.settle()
        await asyncio.sleep(0.05)
    assert moves, f"{user.name} has nothing to click on their turn: {hand.content}"
    res = await fake.click(user, hand, rng.choice(moves))
    assert not res.errors, res.errors
    if res.message is not None and any(
        ":joker:" in (b.custom_id or "") for b in res.message.buttons()
    ):
        calls = [b.custom_id for b in res.message.buttons() if ":joker:" in (b.custom_id or "")]
        res = await fake.click(user, res.message, rng.choice(calls))
        assert not res.errors, res.errors
    await fake.settle()
    assert res.message is not None
    return res.message


async def play_to_the_end(
    fake: FakeDiscord, users: list[User], channel: Channel, *, seed: int = 1, limit: int = 5000
) -> Message:
    """Every person plays whenever the table names them, until the game-over message."""
    rng = random.Random(seed)
    await fake.settle()
    idle = 0
    for _ in range(limit):
        done = end_message(fake, users[0], channel)
        if done is not None:
            return done
        user = whose_turn(fake, users, channel)
        if user is None:  # between the last hand's summary and the end message
            idle += 1
            assert idle < 100, "nobody is named on the table, and the game is not over"
            await fake.settle()
            await asyncio.sleep(0.05)
            continue
        idle = 0
        await take_turn(fake, user, channel, rng)
    raise AssertionError("the game did not end")
