"""Sorting the hand trumps first (issue 38, item 9): a person's own preference, off by default,
kept by user id like autoplay; the table model orders the cards, so the chat hand (and the web
table, which reads the same model) shows the trump suit first, and a change redraws the hand
in play at once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Card, Suit, sort_hand
from engine.cards import suit_order
from fakecord import FakeDiscord
from fakecord.models import Message
from testbed.games import HANG_GUARD, open_game, wait_for
from testbed.people import open_hand

from .conftest import StartBot


def cards_on(hand: Message) -> list[Card]:
    return [
        Card.parse(b.custom_id.rsplit(":", 1)[1])
        for b in hand.buttons()
        if b.custom_id and ":play:" in b.custom_id
    ]


async def sort(fake: FakeDiscord, user: Any, order: str | None = None) -> str:
    options = {} if order is None else {"order": order}
    res = await fake.slash(user, fake.channel, "nines sort", **options)
    assert not res.errors and res.message is not None, res.errors
    assert res.message.ephemeral_for == user.id
    return res.message.content or ""


async def test_trumps_first_is_a_preference_off_by_default_that_redraws_the_hand(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A known deal (the bot draws its seed from SystemRandom): one deal in about eighty leaves
    # alice no diamond, and trumps first then changes nothing to see (it once waited for a
    # redraw that could not show).
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(2029))
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    assert "sorted by suit (the default)" in await sort(fake, alice)
    # Hand 1's trump is diamonds: last in suit order, so trumps first moves it.
    await open_game(fake, alice, computers=("easy", "easy"), start=3, trumps="D,C")
    hand = await open_hand(fake, alice, fake.channel)
    cards = cards_on(hand)
    assert cards == sort_hand(cards) and cards[0].suit != Suit.DIAMONDS  # off by default
    assert any(c.suit is Suit.DIAMONDS for c in cards)  # the deal holds a trump to move

    assert "trump suit's cards first" in await sort(fake, alice, "trumps")
    assert await bot.storage.trumps_first_users([alice.id]) == {alice.id}

    def redrawn() -> list[Card] | None:
        now = cards_on(fake.store.message_by_id(hand.id))
        return now if now != cards else None

    # The hand in play is redrawn in place, without a click: diamonds first.
    # A hang guard, not a deadline: eight test workers on two cores delay the redraw.
    now = await wait_for(fake, redrawn, within=HANG_GUARD, what="the hand redrawn trumps first")
    assert now == sort_hand(cards, Suit.DIAMONDS) and now[0].suit == Suit.DIAMONDS
    assert sorted(now, key=lambda c: c.index) == sorted(cards, key=lambda c: c.index)
    assert suit_order(Suit.DIAMONDS) == (Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS, Suit.CLUBS)
    # A hand opened again keeps it; "By suit" sorts by suit alone again.
    assert cards_on(await open_hand(fake, alice, fake.channel)) == now
    assert "sorted by suit" in await sort(fake, alice, "suits")
    assert cards_on(await open_hand(fake, alice, fake.channel)) == cards
    assert await bot.storage.trumps_first_users([alice.id]) == set()
