"""The Nein Nine rule-based player in set positions: 9s (G8), cheap winners, the Joker (G7)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from bench.players.duel import make
from bench.players.nein_player import NeinPlayer
from bench.players.omniscient import true_world
from engine import Game, Rules, seat_view
from engine.cards import Card
from engine.players import RulesPlayer
from engine.players.games import knowledge
from engine.players.nein import (
    JOKER_BIT,
    JOKER_LOSE_MOVE,
    JOKER_WIN_MOVE,
    NeinHand,
    misfits,
    nein_rule_move,
    others_plays,
)
from engine.players.search import SearchPlayer

from .test_players import _rehide


def c(text: str) -> int:
    return Card.parse(text).index


def mask(*cards: int) -> int:
    return sum(1 << x for x in cards)


def last_to_play(trick: list[int], mine: list[int]) -> NeinHand:
    """Seat 2 plays last to ``trick`` (led by seat 0), no trump set yet, nothing taken."""
    hands = [mask(c("TC")), mask(c("TD")), mask(*mine)]
    played = mask(*trick)
    return NeinHand(hands, -1, 0, list(trick), [0, 0, 0], played, 0, [0, 0, 0])


def test_lets_a_trick_with_two_nines_go() -> None:
    # 9S led, 9H discarded: taking it with the jack scores 1 - 2; the 7 ducks it.
    st = last_to_play([c("9S"), c("9H")], [c("JS"), c("7S"), c("TH")])
    assert nein_rule_move(st) == c("7S")


def test_wins_a_clean_trick_with_the_cheaper_card() -> None:
    # Both the 10 and the jack win; the jack is kept for later.
    st = last_to_play([c("7S"), c("TH")], [c("TS"), c("JS"), c("7C")])
    assert nein_rule_move(st) == c("TS")


def test_joker_escapes_two_nines_and_wins_a_clean_trick() -> None:
    with_nines = last_to_play([c("9S"), c("9H")], [c("JS"), JOKER_BIT])
    assert nein_rule_move(with_nines) == JOKER_LOSE_MOVE
    clean = last_to_play([c("TS"), c("TH")], [c("7S"), JOKER_BIT])
    assert nein_rule_move(clean) == JOKER_WIN_MOVE


def test_throws_a_nine_on_a_trick_it_cannot_win() -> None:
    # Void in spades: the 9 goes to the jack's owner rather than staying a risk in hand.
    st = last_to_play([c("JS"), c("7S")], [c("9H"), c("7D"), c("TC")])
    assert nein_rule_move(st) == c("9H")


def test_search_spec_sets_worlds_and_inference() -> None:
    player = make("search:20:5", 1)
    assert isinstance(player, SearchPlayer)
    assert (player.level.worlds, player.level.inference, player.level.pool) == (20, 5, 12)
    player = make("search:20:5:6", 1)
    assert isinstance(player, SearchPlayer)
    assert player.level.pool == 6


def test_the_others_plays_fit_the_true_deal_when_they_play_by_the_rule() -> None:
    # The rule-based seats are deterministic: the true deal contradicts none of their plays,
    # and the replay of the round's public state agrees with the engine at every card.
    rules = Rules.from_settings("nein-nine")
    checked = 0
    for seed in range(12):
        game = Game(rules, seed)
        player = RulesPlayer(seed)
        while game.turn is not None and game.hand_number == 1:
            view = seat_view(game, game.turn)
            seen = others_plays(view)
            if seen:
                k = knowledge(view)
                assert misfits(k, seen, true_world(game), 1 << 30) == 0
                checked += 1
            game.apply(game.turn, player.choose(view))
    assert checked > 50


def test_nein_player_is_legal_and_decides_from_the_view_alone() -> None:
    """The Nein Nine search with its own settings (``NeinPlayer``, no play inference): legal,
    and re-dealing the hidden cards consistently with the view never changes a decision."""
    player = NeinPlayer(3, worlds=32, tries=1, budget_s=math.inf)
    rng = random.Random(4)
    compared = 0
    for deal in range(6):
        game = Game(Rules.from_settings("nein-nine"), 60 + deal)
        while game.turn is not None and game.hand_number == 1:
            seat = game.turn
            view = seat_view(game, seat)
            action = player.choose(view)
            assert action in view.legal
            if len(view.legal) > 1:
                other = _rehide(game, seat, rng)
                if true_world(other) != true_world(game):
                    assert player.choose(seat_view(other, seat)) == action
                    compared += 1
            game.apply(seat, action)
    assert compared > 20


def test_nein_player_spec_matches_hard_with_hard_settings() -> None:
    # nein:16:4 is the hard level's Nein Nine search: the same decisions (no time limit, so
    # that a loaded machine cannot cut either short).
    hard, same = make("hard", 2), make("nein:16:4", 2)
    assert isinstance(hard, SearchPlayer)
    assert isinstance(same, NeinPlayer)
    hard.level = replace(hard.level, budget_s=math.inf)
    same.budget_s = math.inf
    for seed in range(4):
        game = Game(Rules.from_settings("nein-nine"), 80 + seed)
        while game.turn is not None and game.hand_number == 1:
            view = seat_view(game, game.turn)
            action = hard.choose(view)
            assert same.choose(view) == action
            game.apply(game.turn, action)
