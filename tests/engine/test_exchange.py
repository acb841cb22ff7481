"""The exchange (N4): order, what a swap gives, and what each seat knows afterwards."""

from __future__ import annotations

import itertools

import pytest

from engine import (
    KEEP,
    SWAP,
    Card,
    ExchangeDecided,
    IllegalAction,
    NotYourTurn,
    WrongPhase,
    seat_view,
)

from .positions import new_game


@pytest.mark.parametrize(("setting", "offset"), [("left", 1), ("dealer", 0)])
def test_exchange_order(setting: str, offset: int) -> None:
    for seed in range(6):
        game = new_game("classic", seed, exchange=setting)
        d = game.dealer
        expected = tuple((d + offset + k) % 3 for k in range(3))
        assert game.exchange_order == expected
        assert game.phase == "exchange"
        order = []
        while game.phase == "exchange":
            seat = game.turn
            assert seat is not None
            order.append(seat)
            assert game.legal_actions(seat) == [KEEP, SWAP]
            for other in range(3):
                if other != seat:
                    assert game.legal_actions(other) == []
            game.apply(seat, KEEP)
        assert tuple(order) == expected
        # Play starts left of the dealer whoever decided first.
        assert game.phase == "play"
        assert game.turn == game.leader == (d + 1) % 3


def test_each_player_decides_once() -> None:
    game = new_game("classic", 1)
    for _ in range(3):
        assert game.turn is not None
        game.apply(game.turn, KEEP)
    assert game.phase == "play"
    with pytest.raises(WrongPhase, match="The exchange is over"):
        game.apply(game.turn, SWAP)


def test_card_during_exchange_is_wrong_phase() -> None:
    game = new_game("classic", 1)
    seat = game.turn
    assert seat is not None
    from engine import Play

    with pytest.raises(WrongPhase, match="keep your hand or swap"):
        game.apply(seat, Play(game.hands[seat][0]))


def test_exchange_out_of_turn() -> None:
    game = new_game("classic", 1)
    other = (game.turn + 1) % 3  # type: ignore[operator]
    with pytest.raises(NotYourTurn, match=r"^It is not your turn\.$"):
        game.apply(other, SWAP)


def test_swap_takes_the_spare_and_puts_the_hand_down() -> None:
    game = new_game("classic", 2)
    first = game.turn
    assert first is not None
    mine, spare = list(game.hands[first]), list(game.spare or [])
    events = game.apply(first, SWAP)
    assert events == [ExchangeDecided(first, True)]
    assert game.hands[first] == spare
    assert game.spare == mine
    assert game.put_down[first] == [tuple(mine)]


def test_a_later_swap_can_take_an_earlier_players_hand() -> None:
    game = new_game("classic", 3)
    a, b, c = game.exchange_order
    hand_a, hand_b, hand_c = (list(game.hands[s]) for s in (a, b, c))
    original_spare = list(game.spare or [])
    game.apply(a, SWAP)  # a takes the original spare, puts hand_a down
    game.apply(b, SWAP)  # b takes hand_a, puts hand_b down
    game.apply(c, KEEP)
    assert game.hands[a] == original_spare
    assert game.hands[b] == hand_a
    assert game.hands[c] == hand_c
    assert game.spare == hand_b
    # What each seat knows (N4, R1), in deck order (views do not show the deal order).
    va, vb, vc = (seat_view(game, s) for s in (a, b, c))

    def deck(cards: list[Card]) -> tuple[Card, ...]:
        return tuple(sorted(cards, key=lambda card: card.index))

    assert va.hand == deck(original_spare)
    assert va.put_down == (deck(hand_a),)
    assert vb.hand == deck(hand_a)
    assert vb.put_down == (deck(hand_b),)
    assert vc.hand == deck(hand_c)
    assert vc.put_down == ()
    # a knows exactly the hand b now holds, because a held it.
    assert set(va.put_down[0]) == set(game.hands[b])
    for view in (va, vb, vc):
        assert view.table.exchange == ((a, True), (b, True), (c, False))


@pytest.mark.parametrize("choices", list(itertools.product([False, True], repeat=3)))
@pytest.mark.parametrize("setting", ["left", "dealer"])
def test_every_combination_of_decisions(choices: tuple[bool, ...], setting: str) -> None:
    game = new_game("classic", 5, exchange=setting)
    order = game.exchange_order
    held = {s: list(game.hands[s]) for s in range(3)}
    spare = list(game.spare or [])
    before = {frozenset(c for h in game.hands for c in h) | frozenset(spare)}
    for seat, swap in zip(order, choices, strict=True):
        game.apply(seat, SWAP if swap else KEEP)
        if swap:
            held[seat], spare = spare, held[seat]
    for seat in range(3):
        assert game.hands[seat] == held[seat]
    assert game.spare == spare
    after = frozenset(c for h in game.hands for c in h) | frozenset(game.spare or [])
    assert before == {after}
    for seat, swap in zip(order, choices, strict=True):
        view = seat_view(game, seat)
        assert len(view.put_down) == (1 if swap else 0)
        assert view.table.exchange == tuple(zip(order, choices, strict=True))
        # Nobody sees the final spare, unless it is a hand that seat put down itself.
        visible = set(view.hand) | {c for h in view.put_down for c in h}
        if set(game.spare or []) & visible:
            assert set(game.spare or []) in [set(h) for h in view.put_down]


def test_no_exchange_without_a_spare() -> None:
    for ruleset in ("partnership", "four-player"):
        game = new_game(ruleset, 0)
        seat = game.turn
        assert seat is not None
        with pytest.raises(IllegalAction):
            game.apply(seat, KEEP)
