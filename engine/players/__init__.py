"""Computer players (issue 4): random, rule-based and search-based, for every ruleset.

A player decides from its seat's view alone (R1) and only among ``view.legal``. People choose
a difficulty; ``make_player`` builds the player for it. ``agent.ComputerSeat`` runs them off the
bot's event loop within a time budget.

>>> from engine import Game, Rules, seat_view
>>> game = Game(Rules.from_settings("classic"), seed=1)
>>> view = seat_view(game, game.turn)
>>> make_player("hard", seed=1).choose(view) in view.legal
True
"""

from __future__ import annotations

from typing import Final

from .base import Player
from .random_player import RandomPlayer
from .rules_player import RulesPlayer
from .search import SearchPlayer

#: The levels offered to people, weakest first; each measurably stronger than the one before.
DIFFICULTIES: Final = ("easy", "normal", "hard")


def make_player(difficulty: str, seed: int = 0) -> Player:
    """The player for a difficulty: "easy", "normal" or "hard" (ValueError otherwise)."""
    if difficulty == "easy":
        player: Player = RulesPlayer(seed, noise=0.3)
    elif difficulty == "normal":
        player = RulesPlayer(seed)
    elif difficulty == "hard":
        # 24 worlds take ~12 ms; the budget caps the rare slow position (anytime). 32 took
        # 0.11 to 0.12 of ISMCTS-2000's time; 24 take 0.75 to 0.80 of that, and the change
        # is within noise at a human-like table (duel --rotate, 300 deals, against 32):
        # classic +0.070 (-0.026 .. +0.166), four-player +0.033 (-0.072 .. +0.139),
        # partnership -0.077 (-0.239 .. +0.086). In the partnership game, from 5 cards in
        # hand the worlds (up to 16 at 5 cards, 32 from 4, as many as the pool gives) are
        # solved double dummy instead of played out by the rule (``endgame.py``): +0.105
        # tricks/hand (95% CI +0.028 .. +0.182, 200 deals) among ISMCTS-500 and +0.087
        # (-0.029 .. +0.204, 80) among ISMCTS-2000 over playouts alone; against ISMCTS-2000
        # itself -0.120 (-0.279 .. +0.039, 300 deals; was -0.300 over 100 before).
        # In classic, playouts judge sure winners against the world's hands (``sighted``),
        # measured against the same settings without (duel --rotate, 300 deals): +0.217
        # (+0.059 .. +0.375) at a human-like table, +0.153 (+0.007 .. +0.300) among
        # ISMCTS-500, +0.057 (-0.076 .. +0.190) among ISMCTS-2000, -0.003 among rule players,
        # in 1.08 to 1.23 times the time.
        player = SearchPlayer(
            seed, worlds=24, budget_s=0.25, endgame=5, solved_worlds=16, sighted=True
        )
    else:
        raise ValueError(f"Unknown difficulty {difficulty!r}: choose one of {DIFFICULTIES}.")
    player.name = difficulty
    return player


__all__ = [
    "DIFFICULTIES",
    "Player",
    "RandomPlayer",
    "RulesPlayer",
    "SearchPlayer",
    "make_player",
]
