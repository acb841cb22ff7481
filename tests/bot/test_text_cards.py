"""Text cards (issue 46, item 3): a person's own preference, off by default (faces), kept by
user id like sorting; their hand in play is redrawn at once with each card as text (``D♠``,
said by a screen reader as the card), in the deck's colours, while the table keeps its faces
for everyone else."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.app import NinesBot
from engine import Card
from fakecord import FakeDiscord
from fakecord.models import Message
from testbed.games import HANG_GUARD, open_game, wait_for
from testbed.people import open_hand

from .conftest import StartBot


async def cards(fake: FakeDiscord, user: Any, kind: str | None = None) -> str:
    options = {} if kind is None else {"kind": kind}
    res = await fake.slash(user, fake.channel, "nines cards", **options)
    assert not res.errors and res.message is not None, res.errors
    assert res.message.ephemeral_for == user.id
    return res.message.content or ""


def card_buttons(hand: Message) -> list[tuple[Card, Any]]:
    return [
        (Card.parse(b.custom_id.rsplit(":", 1)[1]), b)
        for b in hand.buttons()
        if b.custom_id and ":play:" in b.custom_id
    ]


async def synced(start_bot: StartBot) -> NinesBot:
    bot = await start_bot(CARD_EMOJIS="on")
    assert bot.card_faces_synced is not None
    await asyncio.wait_for(bot.card_faces_synced, 60)
    return bot


async def test_text_cards_are_a_preference_that_redraws_the_hand(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await synced(start_bot)
    alice = fake.add_user("alice")
    assert "drawn card faces (the default)" in await cards(fake, alice)
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    hand = await open_hand(fake, alice, fake.channel)
    shown = card_buttons(hand)
    assert shown and all(b.emoji is not None and b.label is None for _, b in shown)  # faces

    assert "as text (D♠, 10♥)" in await cards(fake, alice, "text")
    assert await bot.storage.text_cards_users([alice.id]) == {alice.id}

    def redrawn() -> list[tuple[Card, Any]] | None:
        now = card_buttons(fake.store.message_by_id(hand.id))
        return now if all(b.emoji is None for _, b in now) else None

    # A hang guard, not a deadline: test workers on two cores delay the redraw.
    now = await wait_for(fake, redrawn, within=HANG_GUARD, what="the hand redrawn as text")
    for card, button in now:
        assert button.label == card.pretty  # the card as text: a screen reader says it
    assert "<:" not in (fake.store.message_by_id(hand.id).content or "")
    # "Faces" brings the faces back, in a hand opened again too.
    assert "drawn card faces" in await cards(fake, alice, "faces")
    again = card_buttons(await open_hand(fake, alice, fake.channel))
    assert all(b.emoji is not None for _, b in again)
    assert await bot.storage.text_cards_users([alice.id]) == set()
