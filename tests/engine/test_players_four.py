"""Four players each for themselves: the search's inference from the others' plays, and its
utility (the chance to win the game) near the end of a game."""

from __future__ import annotations

import random

import pytest

from bench.players.duel import Tally, late_sheet, match, new_game, play
from bench.players.omniscient import true_world
from bench.players.random_player import RandomPlayer
from engine import Game, Rules, seat_view
from engine.players import RulesPlayer
from engine.players.games import knowledge
from engine.players.nines import RACE_BELOW
from engine.players.race import game_value, win_chance
from engine.players.sampling import (
    _contradictions,
    infer_exclusions,
    rule_exclusions,
    sample_worlds,
)
from engine.players.simulate import FULL, SUIT_MASKS


def _positions(player: type[RulesPlayer] | type[RandomPlayer], count: int) -> list[Game]:
    """Four-player positions after 2 to 11 tricks, every seat played by ``player``."""
    rng = random.Random(4)
    out = []
    for i in range(count):
        trumps = ("H", "D", "C", "S", "NT")[i % 5]
        game = Game(Rules.from_settings("four-player", {"trumps": trumps}), 40 + i)
        seats = [player(s) for s in range(4)]
        stop = rng.randrange(9, 45)
        for _ in range(stop):
            seat = game.turn
            assert seat is not None
            game.apply(seat, seats[seat].choose(seat_view(game, seat)))
        out.append(game)
    return out


def test_the_rule_players_plays_exclude_only_cards_they_do_not_hold() -> None:
    fewer = 0
    for game in _positions(RulesPlayer, 60):
        seat = game.turn
        assert seat is not None
        k = knowledge(seat_view(game, seat))
        before = list(k.excluded)
        infer_exclusions(k)
        truth = true_world(game)
        for h in range(4):
            assert truth[h] & k.excluded[h] == 0
            assert k.excluded[h] & before[h] == before[h]
        worlds = sample_worlds(k, random.Random(1), 8, 96)
        assert all(w[h] & k.excluded[h] == 0 for w in worlds for h in range(4))
        if k.excluded != before:
            fewer += 1
    assert fewer > 40  # the inference finds something in most positions


def test_players_off_the_rule_keep_their_worlds() -> None:
    """Random players break the rule: the inference must never leave no deal that fits."""
    for game in _positions(RandomPlayer, 60):
        seat = game.turn
        assert seat is not None
        k = knowledge(seat_view(game, seat))
        infer_exclusions(k)
        truth = true_world(game)
        worlds = sample_worlds(k, random.Random(1), 4, 16)
        assert len(worlds) == 4
        # A seat caught off the rule keeps no inferred exclusion, so the truth may still fit.
        for h in range(4):
            if truth[h] & k.excluded[h]:
                assert _contradictions(k, truth, 1 << 30) > 0


def test_rule_exclusions_in_set_tricks() -> None:
    # Hearts led (7H), 9H on it, then 3H under them: no heart below the 3 (trump spades).
    ex = rule_exclusions(_c("3H"), [_c("7H"), _c("9H")], 0)
    assert ex == _mask("2H")
    # Last to play, KH over 9H: no heart between the 9 and the king.
    ex = rule_exclusions(_c("KH"), [_c("7H"), _c("9H"), _c("2H")], 0)
    assert ex == _mask("TH JH QH")
    # A side-suit discard on a ruffed trick (trump spades): no spade over the 3, no side card
    # lower than a 5.
    ex = rule_exclusions(_c("5D"), [_c("7H"), _c("3S")], 0)
    assert ex == _mask("4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H 3H 4H 2D 3D 4D 2C 3C 4C")
    # Under-trumping: nothing but trumps lower than the best, this one the lowest of them.
    ex = rule_exclusions(_c("4S"), [_c("7H"), _c("9S")], 0)
    assert ex == (FULL & ~SUIT_MASKS[0]) | _mask("TS JS QS KS AS 2S 3S")


def test_win_chance_at_the_start_and_moving() -> None:
    assert win_chance(9, (9, 9, 9)) == pytest.approx(0.25, abs=0.01)
    assert win_chance(7, (9, 9, 9)) > win_chance(8, (9, 9, 9)) > win_chance(9, (9, 9, 9))
    # An opponent near 0 is a threat; the same points elsewhere matter less.
    assert win_chance(5, (1, 9, 9)) < win_chance(5, (5, 5, 9))


def test_game_value_when_the_hand_ends_the_game() -> None:
    assert game_value((0, 2, 5, 9), 0) == 1.0  # alone lowest at 0: won
    assert game_value((1, -1, 5, 9), 0) == 0.0  # another alone lowest: lost
    assert game_value((-1, -1, 5, 9), 0) == 0.5  # tied for lowest: they play on (N8)
    assert 0.0 < game_value((3, 2, 5, 9), 0) < 1.0  # not over: a chance


def _c(code: str) -> int:
    from engine.cards import Card

    return Card.parse(code).index


def _mask(codes: str) -> int:
    m = 0
    for code in codes.split():
        m |= 1 << _c(code)
    return m


def test_race_deals_start_from_late_sheets_and_score_the_chance_to_win() -> None:
    for seed in range(20):
        sheet = late_sheet(seed)
        assert 0 < min(sheet) <= RACE_BELOW and len(sheet) == 4
        assert sum(sheet) < 4 * 9  # the total drops by one a hand (N11): hands were played
    sheet = late_sheet(3)
    rules = Rules.from_settings("four-player")
    game = new_game(rules, 11, sheet)
    ended = play(game, [RulesPlayer(s) for s in range(4)], set(), Tally(), True)
    assert ended is not None
    assert ended.scores == tuple(s + 3 - t for s, t in zip(sheet, ended.tricks_won, strict=True))
    # The same player in both arms has no edge; the one that sees every card and counts the
    # chance to win has one (deterministic: fixed seeds).
    same = match("rules", "rules", ruleset="four-player", deals=4, race=True)
    assert same.edges == [0.0] * 4
    assert all(0.0 <= v <= 1.0 for v in same.a_scores)
    seeing = match("omniscient", "rules", ruleset="four-player", deals=12, race=True)
    assert sum(seeing.edges) > 0
    with pytest.raises(ValueError, match="four-player"):
        match("rules", "rules", ruleset="classic", deals=1, race=True)
