"""Each level decides exactly as before on a fixed set of positions (issue 30's refactor guard).

Positions come from seeded games driven by random legal actions (exchange decisions and Joker
calls included, later hands and low scores too); every level decides at each, and the
decisions' sha256 is compared with the digest recorded from the code before the refactor.
The search's time budget is lifted so that only the algorithm, not the machine's load, decides.
Run this file as a script to print the digests of the code as it is.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

import pytest

from bench.players.random_player import RandomPlayer
from engine import Game, Rules, seat_view
from engine.players import SearchPlayer, make_player
from engine.players.base import Player

RULESETS = ("classic", "four-player", "partnership", "nein-nine")

#: Positions per ruleset: many for the cheap levels, a handful for the search.
COUNT = {"random": 60, "easy": 60, "normal": 60, "hard": 40}

#: sha256 of the decisions, recorded from the code before issue 30 (commit 2bb9e60).
DIGESTS = {
    "random": "2cf37428ec8362076468bc2b0fe5dba76760a58724fdd6d33c02ab9057a88741",
    "easy": "0a6bc5dac507028597d0f8be85c1ca764a1948910033ae81a2af2d3e489bf66d",
    "normal": "9c605a0a9fb6a53976e2140ba7f52725b9b25ae414db8de62a82286f99586890",
    "hard": "efdbb6a68c1338269652bb2f28f15c1e7ff4f433138bab374e0e882cda3dd6b0",
}


def positions(ruleset: str, count: int) -> list[tuple[Game, int]]:
    """Seeded positions: classic alternates instant win; a third start at low scores."""
    rng = random.Random(f"checksum:{ruleset}")
    out: list[tuple[Game, int]] = []
    i = 0
    while len(out) < count:
        settings = {"instant_win": "on"} if ruleset == "classic" and i % 2 else {}
        game = Game(Rules.from_settings(ruleset, settings), 7_000 + i)
        if i % 3 == 2 and ruleset != "nein-nine":
            # Near the end of a game: four players each for themselves judge the race.
            game.scores = [rng.randrange(1, 6) for _ in game.scores]
            game.hand_start_scores = tuple(game.scores)
        # A quarter at a hand's start (the exchange), the rest anywhere in the first hands.
        for _ in range(rng.randrange(0, 4) if i % 4 == 0 else rng.randrange(0, 90)):
            seat = game.turn
            if seat is None:
                break
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        i += 1
        if game.turn is not None:
            out.append((game, game.turn))
    return out


def player(level: str, seed: int) -> Player:
    if level == "random":
        return RandomPlayer(seed)
    chosen = make_player(level, seed)
    if isinstance(chosen, SearchPlayer):
        # No deadline: the decisions depend on the code alone.
        chosen.level = replace(chosen.level, budget_s=1e9)
    return chosen


def digest(level: str) -> str:
    decisions: list[str] = []
    for ruleset in RULESETS:
        for n, (game, seat) in enumerate(positions(ruleset, COUNT[level])):
            view = seat_view(game, seat)
            action = player(level, n).choose(view)
            assert action in view.legal
            decisions.append(f"{ruleset}:{n}:{action}")
    return hashlib.sha256("\n".join(decisions).encode()).hexdigest()


@pytest.mark.parametrize("level", list(DIGESTS))
def test_level_decides_as_recorded(level: str) -> None:
    assert digest(level) == DIGESTS[level]


if __name__ == "__main__":
    for level in DIGESTS:
        print(f'    "{level}": "{digest(level)}",')
