"""Seats that provably left the rule (``sampling.rule_breakers``, which the four-player search's
inference skips), and the duel's later deals."""

from __future__ import annotations

import pytest

from bench.players.duel import Openings
from bench.players.human import HumanLikePlayer
from bench.players.omniscient import true_world
from engine import Game, Rules, seat_view
from engine.players import RulesPlayer
from engine.players.base import Player
from engine.players.games import knowledge
from engine.players.sampling import (
    Knowledge,
    rule_breakers,
)
from engine.players.simulate import rule_play


def _positions(ruleset: str, players: list[Player], count: int) -> list[tuple[Game, int]]:
    """Card-play positions after 1 to 11 tricks of seeded games of ``players``."""
    out = []
    for i in range(count):
        game = Game(Rules.from_settings(ruleset), 60 + i)
        turns = 0
        stop = 6 + (i * 7) % 30
        while game.turn is not None and turns < stop:
            seat = game.turn
            view = seat_view(game, seat)
            game.apply(seat, players[seat].choose(view))
            turns += 0 if view.table.phase == "exchange" else 1
        if game.turn is not None:
            out.append((game, game.turn))
    return out


def _left_the_rule(k: Knowledge, world: list[int], seat: int) -> bool:
    """Whether one of ``seat``'s plays this hand was not the rule's card in the true deal."""
    for s, card, trick, before in k.history:
        held = world[s] | (k.played_by[s] & ~before)
        if s == seat and rule_play(held, trick, k.n, k.trump, before, k.teams) != card:
            return True
    return False


@pytest.mark.parametrize("ruleset", ["classic", "four-player"])
def test_rule_players_never_break_the_rule(ruleset: str) -> None:
    n = 3 if ruleset == "classic" else 4
    rules = [RulesPlayer(s) for s in range(n)]
    for game, seat in _positions(ruleset, rules, 40):
        k = knowledge(seat_view(game, seat))
        assert k.history
        assert rule_breakers(k) == set()


@pytest.mark.parametrize("ruleset", ["classic", "four-player"])
def test_a_breaker_provably_left_the_rule(ruleset: str) -> None:
    n = 3 if ruleset == "classic" else 4
    people: list[Player] = [HumanLikePlayer(s) for s in range(n)]
    flagged = 0
    for game, seat in _positions(ruleset, people, 60):
        k = knowledge(seat_view(game, seat))
        world = true_world(game)
        for breaker in rule_breakers(k):
            assert breaker != seat
            assert _left_the_rule(k, world, breaker)
            flagged += 1
    assert flagged >= 20


def test_later_deals_start_both_arms_from_one_second_hand() -> None:
    openings = Openings(Rules.from_settings("classic"), 3, None, True, 0)
    one, two = openings.start(["rules"] * 3), openings.start(["rules"] * 3)
    assert one is not two
    assert seat_view(one, 0) == seat_view(two, 0)
    assert len(seat_view(one, 0).table.sheet) == 1
    seat = one.turn
    assert seat is not None
    one.apply(seat, seat_view(one, seat).legal[0])
    assert seat_view(one, 0) != seat_view(two, 0)  # copies: one arm's play leaves the other
    first = Openings(Rules.from_settings("classic"), 3, None, False, 0).start(["rules"] * 3)
    assert seat_view(first, 0).table.sheet == ()
