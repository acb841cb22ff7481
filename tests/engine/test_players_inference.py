"""Inference that fits how rule-like each seat plays (issue 19, ``players.inference``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import Game, Rules, seat_view
from engine.players.base import Player
from engine.players.human import HumanLikePlayer
from engine.players.inference import EPS_MAX, EPS_MIN, fit_eps, likeliest, world_weights
from engine.players.rules_player import RulesPlayer
from engine.players.sampling import knowledge, misfit_counts, sample_world, soft_worlds


def test_a_seat_that_fits_some_worlds_exactly_is_fitted_as_a_rule_player() -> None:
    # Seat 0 fits half the worlds perfectly; seat 1 misses 3 of its 4 plays everywhere.
    counts = [[0, 3], [2, 3], [0, 3], [3, 3]]
    eps = fit_eps(counts, [4, 4], {})
    assert eps[0] == EPS_MIN
    assert eps[1] == EPS_MAX  # off the rule as often as a random card would be
    weights = world_weights(counts, eps)
    assert weights[0] == weights[2] == 1.0
    assert weights[1] < 0.01 and weights[3] < 0.001


def test_a_fixed_rate_is_kept() -> None:
    assert fit_eps([[1, 0], [0, 0]], [3, 2], {1: 0.25})[1] == 0.25


def test_the_likeliest_worlds_are_kept_once_each() -> None:
    pool = [[i] for i in range(5)]
    kept = likeliest(pool, [0.1, 3.0, 1.0, 0.0, 1.0], 3)
    assert kept == [([1], 1), ([2], 1), ([4], 1)]


def _late_view(players: Sequence[Player], seed: int) -> tuple[Game, int]:
    game = Game(Rules.from_settings("classic"), seed)
    while game.turn is not None and sum(game.tricks_won) < 8:
        seat = game.turn
        game.apply(seat, players[seat].choose(seat_view(game, seat)))
    assert game.turn is not None
    return game, game.turn


def test_worlds_follow_rule_players_and_ignore_people() -> None:
    """At a table of rule players far more drawn worlds fit every play than blind draws do;
    a human-like table fits few (its seats' fitted rates are high: their plays count less)."""
    fits_rule = fits_human = fits_blind = 0
    for seed in range(6):
        game, seat = _late_view([RulesPlayer(s) for s in range(3)], seed)
        k = knowledge(seat_view(game, seat))
        worlds = soft_worlds(k, random.Random(seed), 16, 128)
        assert sum(t for _, t in worlds) == 16
        for world, times in worlds:
            for h in range(3):
                assert world[h].bit_count() == len(game.hands[h])
                assert world[h] & k.excluded[h] == 0
            fits_rule += times * (sum(misfit_counts(k, world)[:3]) == 0)
        rng = random.Random(seed + 100)
        blind = [sample_world(k, rng) for _ in range(16)]
        fits_blind += sum(sum(misfit_counts(k, w)[:3]) == 0 for w in blind)
        game, seat = _late_view([HumanLikePlayer(s) for s in range(3)], seed)
        k = knowledge(seat_view(game, seat))
        worlds = soft_worlds(k, random.Random(seed), 16, 128)
        fits_human += sum(t * (sum(misfit_counts(k, w)[:3]) == 0) for w, t in worlds)
    assert fits_rule > 4 * fits_blind  # the plays do inform the worlds
    assert fits_human < 0.5 * fits_rule


def test_noisy_playouts_finish_the_hand_and_keep_my_rule() -> None:
    from engine.players.omniscient import true_world
    from engine.players.search import nines_state

    for seed in range(10):
        game = Game(Rules.from_settings("classic"), seed)
        while game.phase == "exchange":
            seat = game.turn
            assert seat is not None
            game.apply(seat, RulesPlayer(seat).choose(seat_view(game, seat)))
        k = knowledge(seat_view(game, game.turn or 0))
        base = nines_state(k, true_world(game), None)
        plain, quiet = base.copy(), base.copy()
        plain.playout()
        quiet.noisy_playout(k.seat, 0.0, random.Random(seed))
        assert quiet.tricks == plain.tricks  # no noise: the rule's playout
        loud = base.copy()
        loud.noisy_playout(k.seat, 1.0, random.Random(seed))
        assert sum(loud.tricks) == 13 and loud.over
