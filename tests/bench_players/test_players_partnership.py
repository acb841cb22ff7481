"""The partnership search (issue 19): the player plays legal cards from its view alone and
beats the rules on seeded deals (its solver: test_players_endgame.py)."""

from __future__ import annotations

import math
import random

import pytest

from bench.players.duel import make, match
from bench.players.omniscient import true_world
from bench.players.partnership import PartnershipPlayer
from engine import Game, Rules, seat_view
from tests.engine.test_players import _rehide


def test_plays_legal_cards_from_the_view_alone() -> None:
    """Legal throughout a hand; re-dealing the hidden cards consistently with the view
    never changes a decision (R1), in the solved endgame too."""
    player = PartnershipPlayer(3, budget_s=math.inf)
    rng = random.Random(5)
    compared = 0
    for deal in range(3):
        game = Game(Rules.from_settings("partnership"), 40 + deal)
        while game.turn is not None and game.hand_number == 1:
            seat = game.turn
            view = seat_view(game, seat)
            action = player.choose(view)
            assert action in view.legal
            if len(view.legal) > 1 and len(view.hand) % 3 == 1:
                other = _rehide(game, seat, rng)
                if true_world(other) != true_world(game):
                    assert player.choose(seat_view(other, seat)) == action
                    compared += 1
            game.apply(seat, action)
    assert compared > 10


@pytest.mark.slow(40)
def test_beats_the_rules_on_seeded_deals() -> None:
    # Measured: partner vs rules, field rules, 60 deals: see the report of issue 19.
    tally = match("partner", "rules", ruleset="partnership", deals=60, seed=7, rotate=True)
    edge = sum(tally.edges) / len(tally.edges)
    assert edge > 0.2, f"partner vs rules: edge {edge:+.3f}"


def test_spec_sets_worlds_and_endgame() -> None:
    player = make("partner:24:3", 1)
    assert isinstance(player, PartnershipPlayer)
    assert (player.level.worlds, player.level.endgame) == (24, 3)
