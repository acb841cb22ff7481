"""Views (R1, N4, N13): what each seat and the table may know."""

from __future__ import annotations

import random

import pytest

from engine import KEEP, SWAP, Play, TrickWon, public_view, seat_view
from engine.cards import Card

from .positions import finish_exchange, new_game, play_random, set_hand


def test_seat_view_holds_own_hand_and_legal_actions() -> None:
    game = new_game("classic", 2)
    for seat in range(3):
        view = seat_view(game, seat)
        assert view.seat == seat
        assert view.hand == tuple(sorted(game.hands[seat], key=lambda c: c.index))
        assert view.put_down == ()
        assert view.played == ()
        assert view.my_turn == (seat == game.turn)
        assert view.legal == ((KEEP, SWAP) if seat == game.turn else ())


def test_no_such_seat() -> None:
    game = new_game("classic", 2)
    with pytest.raises(ValueError, match="No seat 3"):
        seat_view(game, 3)
    with pytest.raises(ValueError, match="No seat -1"):
        seat_view(game, -1)


def test_public_view_basics() -> None:
    game = new_game("classic", 5, trumps="quebec", start=7)
    table = public_view(game)
    assert table.hand_number == 1
    assert table.dealer == game.dealer == table.first_dealer
    assert table.trump == game.rules.trumps[0]
    assert table.phase == "exchange"
    assert table.turn == game.turn
    assert table.exchange_order == game.exchange_order
    assert table.exchange == ()
    assert table.hand_sizes == (13, 13, 13)
    assert table.scores == (7, 7, 7)
    assert table.start_scores == (7, 7, 7)
    assert table.sheet == ()
    assert table.last_hand is None
    assert table.last_hand_tricks == ()
    assert table.last_trick is None
    assert table.winners is None
    assert not table.over
    assert table.players == 3


def test_every_decision_is_public() -> None:
    game = new_game("classic", 5)
    a, b, c = game.exchange_order
    game.apply(a, SWAP)
    game.apply(b, KEEP)
    for seat in range(3):
        assert seat_view(game, seat).table.exchange == ((a, True), (b, False))
    assert seat_view(game, a).put_down != ()
    assert seat_view(game, b).put_down == ()
    assert seat_view(game, c).put_down == ()


def test_trick_in_progress_and_last_trick_n13() -> None:
    game = set_hand(new_game(), ["AH 2C 9S", "KH 3C TS", "QH 4C JS"], dealer=2, trump="D")
    game.apply(0, Play(Card.parse("2C")))
    game.apply(1, Play(Card.parse("3C")))
    table = public_view(game)
    assert table.trick == ((0, Card.parse("2C")), (1, Card.parse("3C")))
    assert table.last_trick is None
    game.apply(2, Play(Card.parse("4C")))
    table = public_view(game)
    assert table.trick == ()
    assert isinstance(table.last_trick, TrickWon)
    assert table.last_trick.winner == 2
    assert table.tricks_won == (0, 0, 1)
    game.apply(2, Play(Card.parse("JS")))
    table = public_view(game)
    assert table.leader == 2
    assert table.trick == ((2, Card.parse("JS")),)
    assert table.last_trick is not None
    assert [str(c) for c in table.last_trick.cards] == ["2C", "3C", "4C"]
    # Every card played this hand, in order, is in each seat's view (R1).
    for seat in range(3):
        view = seat_view(game, seat)
        assert [str(c) for t in view.played for c in t.cards] == ["2C", "3C", "4C"]
        assert view.table.trick == table.trick


def test_previous_hand_is_shown_with_its_spare() -> None:
    game = new_game("classic", 4)
    finish_exchange(game)
    spare = tuple(game.spare or [])
    rng = random.Random(1)
    while game.hand_number == 1:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    table = public_view(game)
    assert table.last_hand is not None
    assert table.last_hand.number == 1
    assert table.last_hand.spare == spare
    assert len(table.last_hand_tricks) == 13
    assert table.last_hand_tricks == tuple(game.hands_log[0].tricks)
    assert table.last_trick is None  # no trick completed yet in hand 2
    assert seat_view(game, 0).played == ()
    assert seat_view(game, 0).put_down == ()


def test_finished_game_shows_its_last_hand() -> None:
    game = new_game("classic", 4, ties="joint")
    play_random(game, random.Random(4))
    table = public_view(game)
    assert table.over
    assert table.winners == game.winners
    assert table.turn is None
    assert table.last_hand is game.hands_log[-1].result
    assert table.last_hand_tricks == tuple(game.hands_log[-1].tricks)
    for seat in range(3):
        assert seat_view(game, seat).legal == ()


def test_views_of_a_partnership_game() -> None:
    game = new_game("partnership", 3)
    table = public_view(game)
    assert table.scores == (9, 9)
    assert table.hand_sizes == (13, 13, 13, 13)
    assert table.exchange_order == ()
    assert table.phase == "play"
    for seat in range(4):
        assert seat_view(game, seat).hand == tuple(sorted(game.hands[seat], key=lambda c: c.index))


def test_views_are_snapshots() -> None:
    game = new_game("classic", 8)
    before = seat_view(game, 0)
    finish_exchange(game, swap=True)
    after = seat_view(game, 0)
    assert before.hand != after.hand or before.put_down != after.put_down
    assert before.table.exchange == ()
