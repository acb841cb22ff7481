"""People at the table, as a test drives them: open the hand, click a legal card, repeat."""

from __future__ import annotations

import asyncio
import random
import re
import time

from bot.words import FSI, PDI, distinct, tr
from fakecord import FakeDiscord
from fakecord.models import Channel, Message, User
from fakecord.people import SETTLE_GUARD

from .reading import as_read

#: A "My hand" button's custom_id starts so (cogs/nines/ids.py's HAND).
HAND = "nines:1:hand:"
#: A name as every line shows one (bot/words/names.py ``in_text``): between bidi isolates.
_NAME = re.compile(f"{FSI}.*?{PDI}", re.S)


def table_message(fake: FakeDiscord, user: User, channel: Channel) -> Message | None:
    """The newest table: a public message with the game in an embed and a "My hand" button
    (the turn message below it has the button but no embed)."""
    for message in reversed(fake.visible(user, channel)):
        if (
            message.ephemeral_for is None
            and message.embeds
            and any(b.label == "My hand" for b in message.buttons())
        ):
            return message
    return None


def turn_messages(fake: FakeDiscord, user: User, channel: Channel) -> list[Message]:
    """The standing turn messages: public, no embed, a "My hand" button."""
    return [
        m
        for m in fake.visible(user, channel)
        if m.ephemeral_for is None
        and not m.embeds
        and any(b.label == "My hand" for b in m.buttons())
    ]


def end_message(fake: FakeDiscord, user: User, channel: Channel) -> Message | None:
    for message in reversed(fake.visible(user, channel)):
        for embed in message.embeds:
            if "game over" in str(embed.get("title", "")):
                return message
    return None


def whose_turn(fake: FakeDiscord, users: list[User], channel: Channel) -> User | None:
    """The person whose decision the table names ("To play: alice"), unless a computer plays
    for them; None on a computer's turn. The table says it in words only: the turn message
    alone mentions them (issue 38, item 3).

    ``users`` in seat order: the table tells two people of the same name apart as
    ``names.distinct`` does ("Alex", "Alex (2)"; computers never rename a person), and the
    name is the one isolated stretch after "To play: ", read as people read it."""
    table = table_message(fake, users[0], channel)
    if table is None:
        return None
    text = "\n".join(str(e.get("description", "")) for e in table.embeds)
    head, away = tr("en", "table.turn", who=""), tr("en", "table.away")
    shown = distinct([u.global_name or u.name for u in users], [False] * len(users))
    for line in text.splitlines():
        who = _NAME.match(line[len(head) :]) if line.startswith(head) else None
        if who is not None and away not in line:
            for user, name in zip(users, shown, strict=True):
                if as_read(who.group(0)) == name:
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
    work, so an empty hand is opened again after the bot settles, until SETTLE_GUARD (a guard
    for a stuck bot, not a figure of speed).
    """
    deadline = time.monotonic() + SETTLE_GUARD
    while True:
        hand = await open_hand(fake, user, channel)
        moves = enabled_moves(hand)
        if moves or time.monotonic() > deadline:
            break
        await fake.settle()
        await asyncio.sleep(0.05)
    assert moves, f"{user.name} has nothing to click on their turn: {hand.content}"
    res = await fake.click(user, hand, rng.choice(moves))
    assert not res.errors, res.errors
    if res.message is not None and any(
        ":joker:" in (b.custom_id or "") for b in res.message.buttons()
    ):
        calls = [
            b.custom_id for b in res.message.buttons() if b.custom_id and ":joker:" in b.custom_id
        ]
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
    idle_since: float | None = None
    for _ in range(limit):
        done = end_message(fake, users[0], channel)
        if done is not None:
            return done
        user = whose_turn(fake, users, channel)
        if user is None:  # between the last hand's summary and the end message
            idle_since = idle_since or time.monotonic()
            assert time.monotonic() - idle_since < SETTLE_GUARD, (
                "nobody is named on the table, and the game is not over"
            )
            await fake.settle()
            await asyncio.sleep(0.05)
            continue
        idle_since = None
        await take_turn(fake, user, channel, rng)
    raise AssertionError("the game did not end")


def hand_button(message: Message) -> str:
    """The custom_id of a message's "My hand" button, whatever the language it is labelled
    in."""
    found = [b.custom_id for b in message.buttons() if (b.custom_id or "").startswith(HAND)]
    assert found and found[0] is not None, f"no hand button on message {message.id}"
    return found[0]


class NotifiedPerson:
    """A person who reads only what Discord shows them: they act when a new message notifies
    them (a mention in a newly created message), from their newest private hand, and click
    "My hand" only when they have no hand yet or the one they have shows no move: every such
    click is counted, and one on a hand that was out of date is a failure of the bot."""

    def __init__(self, fake: FakeDiscord, user: User, channel: Channel) -> None:
        self.fake, self.user, self.channel = fake, user, channel
        self.seen: set[int] = set()
        self.opened = 0  # "My hand" clicks with no private hand yet
        self.stale: list[str] = []  # hands that showed no move on this person's turn
        self.moves = 0
        #: The answer to their last click showed them a move: their turn again (they took the
        #: trick and lead, say), which they know without a notification.
        self.answered_turn = False
        self.unnotified = 0  # turns taken on such an answer, with no notification

    def notifications(self) -> list[Message]:
        """Messages that notified this person and that they have not acted on yet (deleted
        since or not: the notification reached them when the message was created)."""
        return [
            m
            for m in self.fake.store.messages.get(self.channel.id, [])
            if m.id not in self.seen and any(u.id == self.user.id for u in m.mentions)
        ]

    def hand(self) -> Message | None:
        """Their newest private message with cards on it."""
        for message in reversed(self.fake.visible(self.user, self.channel)):
            if message.ephemeral_for == self.user.id and any(
                ":play:" in (b.custom_id or "") or ":xchg:" in (b.custom_id or "")
                for b in message.buttons()
            ):
                return message
        return None

    async def act(self, rng: random.Random) -> None:
        """Answer the notification (or the answer to their own click that gave them the turn
        again): a legal move from the hand as Discord shows it."""
        notes = self.notifications()
        self.seen.update(m.id for m in notes)
        if not notes:
            assert self.answered_turn, f"{self.user.name} acts without being told"
            self.unnotified += 1
        hand = self.hand()
        if hand is None:
            self.opened += 1
            opened = await self.fake.click(self.user, notes[-1], hand_button(notes[-1]))
            assert not opened.errors and opened.message is not None, opened.errors
            hand = opened.message
        moves = enabled_moves(hand)
        if not moves:
            self.stale.append(hand.content or "")
            opened = await self.fake.click(self.user, notes[-1], hand_button(notes[-1]))
            assert opened.message is not None
            hand = opened.message
            moves = enabled_moves(hand)
        assert moves, f"{self.user.name} was notified with nothing to play: {hand.content}"
        res = await self.fake.click(self.user, hand, rng.choice(moves))
        assert not res.errors, res.errors
        calls = [b.custom_id for b in (res.message.buttons() if res.message else ()) if b.custom_id]
        calls = [c for c in calls if ":joker:" in c]
        if calls:
            res = await self.fake.click(self.user, res.message, rng.choice(calls))  # type: ignore[arg-type]
            assert not res.errors, res.errors
        self.answered_turn = res.message is not None and bool(enabled_moves(res.message))
        self.moves += 1
