"""Computer players (issue 4): random, rule-based and search-based, for every ruleset.

A player decides from its seat's view alone (R1) and only among ``view.legal``. People choose
a difficulty; ``make_player`` builds the player for its ``Level`` (``levels.LEVELS``).
``agent.ComputerSeat`` runs them off the bot's event loop within a time budget. The algorithms
work over one hand-state protocol (``state.HandState``) and ask each game for its state, rule
and search by name (``games.GAMES``). What only measures them lives in ``bench/players``.

>>> from engine import Game, Rules, seat_view
>>> game = Game(Rules.from_settings("classic"), seed=1)
>>> view = seat_view(game, game.turn)
>>> make_player("hard", seed=1).choose(view) in view.legal
True
"""

from __future__ import annotations

from typing import Final

from .base import Player
from .levels import LEVELS, Level
from .random_player import RandomPlayer
from .rules_player import RulesPlayer
from .search import SearchPlayer

#: The levels offered to people, weakest first; each measurably stronger than the one before.
DIFFICULTIES: Final = tuple(LEVELS)


def player_for(level: Level, seed: int = 0) -> Player:
    """The player that plays ``level``."""
    if level.player == "rules":
        return RulesPlayer(seed, noise=level.noise)
    return SearchPlayer(seed, level)


def make_player(difficulty: str, seed: int = 0) -> Player:
    """The player for a difficulty: "easy", "normal" or "hard" (ValueError otherwise)."""
    level = LEVELS.get(difficulty)
    if level is None:
        raise ValueError(f"Unknown difficulty {difficulty!r}: choose one of {DIFFICULTIES}.")
    player = player_for(level, seed)
    player.name = difficulty
    return player


__all__ = [
    "DIFFICULTIES",
    "LEVELS",
    "Level",
    "Player",
    "RandomPlayer",
    "RulesPlayer",
    "SearchPlayer",
    "make_player",
    "player_for",
]
