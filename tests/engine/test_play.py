"""Play (N6): turns, following suit, trick winners with and without trump, winner leads."""

from __future__ import annotations

import pytest

from engine import (
    CardPlayed,
    GameIsOver,
    IllegalAction,
    MustFollowSuit,
    NotInHand,
    NotYourTurn,
    Play,
    TrickWon,
    public_view,
    seat_view,
)
from engine.cards import Card

from .positions import cards, new_game, set_hand


def _snapshot(game):  # type: ignore[no-untyped-def]
    return (
        game.to_json(),
        public_view(game),
        tuple(seat_view(game, s) for s in range(game.players)),
        [list(h) for h in game.hands],
        list(game.trick),
        game.turn,
    )


def test_must_follow_suit_message_and_game_unchanged() -> None:
    game = set_hand(new_game(), ["AH 2C", "KH 3C", "QH 4C"], dealer=2, trick="AH", trump="S")
    # Seat 0 led AH; seat 1 holds KH and tries 3C.
    before = _snapshot(game)
    assert not game.is_legal(1, Play(Card.parse("3C")))
    with pytest.raises(MustFollowSuit, match=r"^You must follow suit: hearts\.$") as caught:
        game.apply(1, Play(Card.parse("3C")))
    assert caught.value.suit.value == "H"
    with pytest.raises(MustFollowSuit):
        game.check(1, Play(Card.parse("3C")))
    assert _snapshot(game) == before
    assert game.legal_actions(1) == [Play(Card.parse("KH"))]


def test_not_your_turn_message_and_game_unchanged() -> None:
    game = set_hand(new_game(), ["AH 2C", "KH 3C", "QH 4C"], dealer=2)
    before = _snapshot(game)
    with pytest.raises(NotYourTurn, match=r"^It is not your turn\.$"):
        game.apply(1, Play(Card.parse("KH")))
    assert game.legal_actions(1) == []
    assert not game.is_legal(2, Play(Card.parse("QH")))
    assert _snapshot(game) == before


def test_card_not_held_is_rejected() -> None:
    game = set_hand(new_game(), ["AH 2C", "KH 3C", "QH 4C"], dealer=2)
    before = _snapshot(game)
    with pytest.raises(NotInHand, match="You do not hold"):
        game.apply(0, Play(Card.parse("KH")))
    assert _snapshot(game) == before


def test_a_player_who_cannot_follow_may_play_anything() -> None:
    game = set_hand(new_game(), ["AH 2C", "3C 4S", "QH 4C"], dealer=2, trick="AH", trump="S")
    assert set(game.legal_actions(1)) == {Play(c) for c in cards("3C 4S")}
    game.apply(1, Play(Card.parse("3C")))  # a discard, not a trump
    assert game.turn == 2


def test_leader_may_lead_anything() -> None:
    game = set_hand(new_game(), ["AH 2C 5D", "3C 4S 6D", "QH 4C 7D"], dealer=2)
    assert set(game.legal_actions(0)) == {Play(c) for c in cards("AH 2C 5D")}


def _trick(trump: str | None, led_by: int, played: str) -> tuple[int, list[object]]:
    """Play one three-card trick from a position; return the winner and the events."""
    hands = ["", "", ""]
    order = [(led_by + k) % 3 for k in range(3)]
    for seat, code in zip(order, played.split(), strict=True):
        led = played.split()[0][1]
        pool = [r + s for s in "SHDC" if s != led for r in "2345"]
        spare_cards = [c for c in pool if c not in played.split()]
        hands[seat] = " ".join([code, *spare_cards[2 * seat : 2 * seat + 2]])
    game = set_hand(new_game(), hands, dealer=(led_by - 1) % 3, trump=trump)
    events: list[object] = []
    for seat, code in zip(order, played.split(), strict=True):
        events += game.apply(seat, Play(Card.parse(code)))
    won = [e for e in events if isinstance(e, TrickWon)]
    assert len(won) == 1
    assert game.leader == game.turn == won[0].winner, "the winner leads the next trick"
    return won[0].winner, events


@pytest.mark.parametrize(
    ("trump", "leader", "played", "winner"),
    [
        ("S", 0, "4H AH KH", 1),  # no trump played: highest of the suit led
        ("S", 0, "4H AH 2S", 2),  # the lowest trump beats the ace of the suit led
        ("S", 0, "4H 5S 6S", 2),  # higher trump beats lower trump
        ("S", 1, "9D AC KC", 1),  # off-suit aces do not win
        ("C", 2, "TC 9C AH", 2),  # trump led, trump wins
        (None, 0, "4H AS AD", 0),  # no trump: only the suit led counts
        (None, 0, "4H 5H AS", 1),
        ("D", 1, "KH 2D 3D", 0),  # seat 0 played 3D, the higher trump
    ],
)
def test_trick_winner(trump: str | None, leader: int, played: str, winner: int) -> None:
    got, events = _trick(trump, leader, played)
    assert got == winner
    plays = [e for e in events if isinstance(e, CardPlayed)]
    assert [str(e.card) for e in plays] == played.split()
    assert [e.seat for e in plays] == [(leader + k) % 3 for k in range(3)]
    won = next(e for e in events if isinstance(e, TrickWon))
    assert won.leader == leader
    assert [str(c) for c in won.cards] == played.split()
    assert won.winning_card == Card.parse(played.split()[(winner - leader) % 3])


def test_four_player_trick_and_turns() -> None:
    game = set_hand(
        new_game("partnership"),
        ["2H 2C", "AH 3C", "3S 4C", "KH 5C"],
        dealer=3,
        trump="S",
    )
    assert game.turn == 0
    for seat, code in [(0, "2H"), (1, "AH"), (2, "3S")]:
        game.apply(seat, Play(Card.parse(code)))
        assert game.turn == (seat + 1) % 4
    events = game.apply(3, Play(Card.parse("KH")))
    won = next(e for e in events if isinstance(e, TrickWon))
    assert won.winner == 2
    assert game.turn == game.leader == 2
    assert game.tricks_won == [0, 0, 1, 0]
    assert game.taken[2] == cards("2H AH 3S KH")


def test_first_trick_led_left_of_dealer_after_exchange() -> None:
    for seed in range(8):
        game = new_game("classic", seed, exchange="dealer")
        while game.phase == "exchange":
            game.apply(game.turn, game.legal_actions(game.turn)[0])  # type: ignore[arg-type]
        assert game.turn == (game.dealer + 1) % 3


def test_legal_actions_agree_with_is_legal() -> None:
    game = new_game("classic", 9)
    while game.phase == "exchange":
        game.apply(game.turn, game.legal_actions(game.turn)[0])  # type: ignore[arg-type]
    for _ in range(20):
        seat = game.turn
        assert seat is not None
        legal = game.legal_actions(seat)
        for card in game.hands[seat]:
            assert game.is_legal(seat, Play(card)) == (Play(card) in legal)
        game.apply(seat, legal[-1])


def test_joker_call_on_an_ordinary_card_is_illegal_in_nines() -> None:
    """A Nines card carries no Joker call: legal_actions never offers one, and an action text
    such as "9H:win" does not parse, so accepting it would log a game that cannot replay."""
    game = set_hand(new_game(), ["AH 2C", "KH 3C", "QH 4C"], dealer=2)
    play = Play(Card.parse("AH"), "win")
    assert play not in game.legal_actions(0)
    assert not game.is_legal(0, play)
    with pytest.raises(IllegalAction):
        game.apply(0, play)


def test_game_over_refuses_every_action() -> None:
    import random

    from .positions import play_random

    game = new_game("classic", 4, ties="joint")
    play_random(game, random.Random(4))
    assert game.phase == "over"
    assert game.turn is None
    for seat in range(3):
        assert game.legal_actions(seat) == []
        with pytest.raises(GameIsOver, match=r"^The game is over\.$"):
            game.apply(seat, Play(Card.parse("2C")))
