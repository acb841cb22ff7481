"""The endgame solvers (issue 19) against every card tried: the partnership's team solver,
the same solver with one seat against the others."""

from __future__ import annotations

import random

import pytest

from bench.players.omniscient import true_world
from bench.players.random_player import RandomPlayer
from engine import Game, Rules, seat_view
from engine.players.endgame import Solver
from engine.players.games import knowledge
from engine.players.nines import nines_state
from engine.players.simulate import NinesHand


def minimax(state: NinesHand, ours: int) -> int:
    """The tricks of the seats in ``ours`` (a bit each) when they play for the most and the
    others for the fewest, every card tried."""
    if state.over:
        return sum(t for seat, t in enumerate(state.tricks) if ours >> seat & 1)
    values = []
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        values.append(minimax(after, ours))
    return max(values) if ours >> state.turn & 1 else min(values)


def endgames(ruleset: str, count: int, cards: int) -> list[tuple[Game, int]]:
    """Positions with at most ``cards`` cards in the hand to play, from random play on seeded
    deals (every trump of the rotation)."""
    rng = random.Random(f"endgames:{ruleset}:{cards}")
    out = []
    for i in range(count):
        rules = Rules.from_settings(ruleset, {"trumps": ("H", "D", "C", "S", "NT")[i % 5]})
        game = Game(rules, 500 + i)
        player = RandomPlayer(i)
        n = rules.players
        while game.phase == "exchange":
            seat = game.turn
            assert seat is not None
            game.apply(seat, player.choose(seat_view(game, seat)))
        for _ in range(n * (13 - cards) + rng.randrange(n)):
            seat = game.turn
            assert seat is not None
            game.apply(seat, player.choose(seat_view(game, seat)))
        seat = game.turn
        assert seat is not None
        out.append((game, seat))
    return out


@pytest.mark.parametrize("ruleset", ["partnership", "classic", "four-player"])
def test_solver_matches_full_minimax(ruleset: str) -> None:
    for game, seat in endgames(ruleset, 30, 4):
        k = knowledge(seat_view(game, seat))
        state = nines_state(k, true_world(game), None)
        ours = 0b0101 << (seat % 2) if k.teams else 1 << seat
        done = sum(t for s, t in enumerate(state.tricks) if ours >> s & 1)
        solver = Solver(k.trump, k.n, ours, k.teams)
        value = solver.tricks(list(state.hands), state.leader, list(state.trick), state.played)
        assert done + value == minimax(state.copy(), ours)
