"""A seat's view gives its cards and legal actions in a canonical order (issue 19).

The engine deals one card at a time, so ``game.hands[seat]`` is in deal order, which is a
function of the shuffle: a view in that order would tell a player (or a program) something
about the others' cards. Views give deck order instead, whatever order the cards came in.
"""

from __future__ import annotations

import random

import pytest

from engine import SWAP, Game, Play, Rules, seat_view
from engine.actions import Exchange

from .positions import finish_exchange, new_game


def _play_some(game: Game, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        seat = game.turn
        if seat is None:
            return
        game.apply(seat, rng.choice(list(game.legal_actions(seat))))


@pytest.mark.parametrize("ruleset", ["classic", "partnership", "four-player", "nein-nine"])
def test_views_do_not_depend_on_the_order_cards_were_dealt_in(ruleset: str) -> None:
    rng = random.Random(ruleset)
    checked = 0
    for seed in range(30):
        game = Game(Rules.from_settings(ruleset), seed)
        _play_some(game, rng, rng.randrange(0, 30))
        seat = game.turn
        if seat is None:
            continue
        shuffled = game.copy()
        for s in range(game.players):
            rng.shuffle(shuffled.hands[s])
        for piles in shuffled.put_down:
            piles[:] = [tuple(rng.sample(p, len(p))) for p in piles]
        for s in range(game.players):
            view = seat_view(game, s)
            assert seat_view(shuffled, s) == view
            assert [c.index for c in view.hand] == sorted(c.index for c in view.hand)
            for pile in view.put_down:
                assert [c.index for c in pile] == sorted(c.index for c in pile)
        legal = seat_view(game, seat).legal
        assert set(legal) == set(game.legal_actions(seat))
        if legal and isinstance(legal[0], Play):
            keys = [(a.card.index, a.joker == "lose") for a in legal if isinstance(a, Play)]
            assert keys == sorted(keys)
        checked += 1
    assert checked >= 20


def test_exchange_choices_come_keep_then_swap() -> None:
    game = new_game("classic", 3)
    legal = seat_view(game, game.turn or 0).legal
    assert all(isinstance(a, Exchange) for a in legal)
    assert [a.swap for a in legal if isinstance(a, Exchange)] == [False, True]


def test_a_hand_put_down_is_shown_in_deck_order() -> None:
    for seed in range(40):
        game = new_game("classic", seed)
        seat = game.exchange_order[0]
        game.apply(seat, SWAP)
        finish_exchange(game)
        (pile,) = seat_view(game, seat).put_down
        assert set(pile) == set(game.put_down[seat][0])
        assert [c.index for c in pile] == sorted(c.index for c in pile)
        if list(pile) != list(game.put_down[seat][0]):
            return
    raise AssertionError("no deal order differed from deck order in 40 deals")
