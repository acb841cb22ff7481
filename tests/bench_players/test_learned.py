"""The learned play model (engine/players/learned.py) and its shipped weights."""

from __future__ import annotations

import math
import random

from bench.players.duel import deal_rules, make
from bench.players.learned import (
    N_FEATURES,
    Cache,
    Decision,
    card_features,
    fit,
    learned_world,
    log_likelihood,
    plays_of_hand,
    probabilities,
    world_log_likelihood,
)
from bench.players.learned_weights import WEIGHTS
from engine.game import Game
from engine.players.games import knowledge
from engine.players.sampling import Knowledge, sample_world
from engine.players.simulate import legal_mask
from engine.views import seat_view


def _plays(specs: tuple[str, ...], hands: int, seed: int) -> list[Decision]:
    """Every card played in ``hands`` hands of classic Nines, as each player saw it."""
    out: list[Decision] = []
    for i in range(hands):
        players = [make(specs[(i + s) % len(specs)], seed + s) for s in range(3)]
        out += plays_of_hand(Game(deal_rules("classic", i, {}), seed + i), players)
    return out


def _knowledge_after(spec: str, deal: int, seed: int, cards_left: int) -> tuple[int, Knowledge]:
    """The seat to play, and what it knows, once each hand is down to ``cards_left`` cards."""
    game = Game(deal_rules("classic", deal, {}), seed)
    players = [make(spec, s) for s in range(3)]
    while game.turn is not None and len(game.hands[0]) > cards_left:
        seat = game.turn
        game.apply(seat, players[seat].choose(seat_view(game, seat)))
    seat = game.turn
    assert seat is not None
    return seat, knowledge(seat_view(game, seat))


def _mean_ll(weights: list[float] | tuple[float, ...], plays: list[Decision]) -> float:
    return sum(log_likelihood(weights, d, share=0.0) for d in plays) / len(plays)


def test_the_model_is_a_distribution_over_the_legal_cards() -> None:
    plays = _plays(("rules", "human"), 6, 100)
    assert len(plays) > 150
    for d in plays:
        rows = card_features(d.hand, d.trick, d.played, d.trump, d.n, d.teams)
        cards = {c for c, _ in rows}
        legal = legal_mask(d.hand, list(d.trick))
        assert cards == {c for c in range(52) if legal >> c & 1}
        assert all(0 <= j < N_FEATURES for _, f in rows for j, _x in f)
        probs = probabilities(WEIGHTS, rows)
        assert math.isclose(sum(probs), 1.0) and min(probs) > 0
        assert d.card in cards


def test_fitting_learns_a_players_habits() -> None:
    """Fitted to the rule player's plays, the model predicts held-out plays of that player
    far better than a uniform choice does."""
    train = _plays(("rules",), 12, 200)
    held = [
        d
        for d in _plays(("rules",), 6, 900)
        if bin(legal_mask(d.hand, list(d.trick))).count("1") > 1
    ]
    weights = fit(train, epochs=80)
    uniform = [0.0] * N_FEATURES
    assert _mean_ll(weights, held) > _mean_ll(uniform, held) + 0.3


def test_the_shipped_weights_predict_a_mixed_table_better_than_uniform() -> None:
    held = [
        d
        for d in _plays(("human", "normal", "rules"), 8, 5_000)
        if bin(legal_mask(d.hand, list(d.trick))).count("1") > 1
    ]
    assert len(held) > 100
    assert _mean_ll(WEIGHTS, held) > _mean_ll([0.0] * N_FEATURES, held) + 0.1


def test_worlds_fit_the_view_and_favour_the_plays_seen() -> None:
    """A world drawn by the learned inference deals the unseen cards consistently with the
    view; the worlds it keeps are likelier under the model than blind draws."""
    seat, k = _knowledge_after("rules", 0, 77, 6)
    rng = random.Random(3)
    kept, blind = 0.0, 0.0
    for _ in range(40):
        world = learned_world(k, rng, 8, WEIGHTS)
        assert world[seat] == k.hand
        assert sum(m.bit_count() for m in world) + k.played.bit_count() == 52
        assert not any(world[h] & k.played for h in range(4))
        kept += world_log_likelihood(k, world, WEIGHTS)
        blind += world_log_likelihood(k, sample_world(k, rng), WEIGHTS)
    assert kept > blind


def test_a_worlds_likelihood_is_the_product_of_its_plays() -> None:
    """``world_log_likelihood`` sums the softmax suit by suit (for speed): it equals each
    play's likelihood computed over the whole hand."""
    _, k = _knowledge_after("human", 2, 91, 4)
    k.decisions = []  # the plays alone
    rng = random.Random(8)
    cache: Cache = {}
    for _ in range(20):
        world = sample_world(k, rng)
        whole = 0.0
        for s, card, trick, before in k.history:
            held = world[s] | (k.played_by[s] & ~before)
            d = Decision(held, tuple(trick), before, k.trump, 3, False, card)
            whole += log_likelihood(WEIGHTS, d)
        assert math.isclose(world_log_likelihood(k, world, WEIGHTS, cache), whole)
    assert len(k.history) > 15
