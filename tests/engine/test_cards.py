"""Cards (N1): the 52-card deck, ace high, interned cards, text codes that round-trip."""

from __future__ import annotations

import pickle

import pytest

from engine import FULL_DECK, JOKER, Card, Suit, sort_hand
from engine.cards import RANK_CODES, cards_text


def test_deck_has_52_distinct_cards_indexed_0_to_51() -> None:
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert sorted(c.index for c in FULL_DECK) == list(range(52))
    assert JOKER.index == 52
    assert JOKER not in FULL_DECK


def test_each_suit_has_two_to_ace() -> None:
    for suit in Suit:
        ranks = sorted(c.rank for c in FULL_DECK if c.suit is suit)
        assert ranks == list(range(2, 15))


@pytest.mark.parametrize("card", FULL_DECK, ids=str)
def test_code_round_trips_and_is_interned(card: Card) -> None:
    text = str(card)
    assert len(text) == 2
    assert text[0] in RANK_CODES
    assert text[1] in "SHDC"
    assert Card.parse(text) is card
    assert Card.parse(text.lower()) is card
    assert Card(card.rank, card.suit) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_examples_from_the_record_spec() -> None:
    assert str(Card(14, Suit.SPADES)) == "AS"
    assert str(Card(10, Suit.DIAMONDS)) == "TD"
    assert str(Card(7, Suit.HEARTS)) == "7H"
    assert str(JOKER) == "JK"
    assert Card.parse("JK") is JOKER
    assert JOKER.suit is None
    assert JOKER.is_joker


def test_ace_is_high_and_two_low() -> None:
    assert Card.parse("AH").rank > Card.parse("KH").rank > Card.parse("2H").rank
    assert Card.parse("2H").rank == 2
    assert Card.parse("AH").rank == 14


@pytest.mark.parametrize("text", ["", "1H", "XH", "9X", "10H", "AHH", "J"])
def test_parse_rejects_non_cards(text: str) -> None:
    with pytest.raises(ValueError, match="Not a card"):
        Card.parse(text)


def test_no_new_cards_can_be_made() -> None:
    with pytest.raises(ValueError, match="No such card"):
        Card(1, Suit.HEARTS)


def test_suit_parse_and_colour() -> None:
    assert Suit.parse("h") is Suit.HEARTS
    assert Suit.HEARTS.is_red
    assert Suit.DIAMONDS.is_red
    assert not Suit.SPADES.is_red
    assert not Suit.CLUBS.is_red
    with pytest.raises(ValueError, match="Not a suit"):
        Suit.parse("x")


def test_pretty_and_text_helpers() -> None:
    assert Card.parse("TH").pretty == "10♥"
    assert Card.parse("AS").pretty == "A♠"
    assert cards_text([Card.parse("AS"), Card.parse("9D")]) == "AS 9D"


def test_sort_hand_alternates_colours_high_to_low() -> None:
    hand = [Card.parse(c) for c in ["2S", "AH", "KS", "3D", "QC", "9H"]]
    assert [str(c) for c in sort_hand(hand)] == ["KS", "2S", "AH", "9H", "QC", "3D"]
