"""Computer players (issue 4): rule-based and search-based, for every ruleset.

A player decides from its seat's view alone (R1) and only among ``view.legal``. People choose a
difficulty; ``make_player`` builds the player for its ``Level`` (``levels.LEVELS``), and ``choose``
decides within a time budget (the bot runs it off its event loop: ``bot/game/computer.py`` and its
worker processes, ``bot/computer_pool.py``). The algorithms work over one hand-state protocol
(``state.HandState``, searched by ``determinized.best_move``) and ask each game, by its type, for
what the seat knows, its state, rule and search (``games.game_of``). What only measures them lives
in ``bench/players``.

>>> from engine import Game, Rules, seat_view
>>> game = Game(Rules.from_settings("classic"), seed=1)
>>> view = seat_view(game, game.turn)
>>> make_player("hard", seed=1).choose(view) in view.legal
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..actions import Action
from ..views import SeatView
from .base import Player
from .levels import LEVELS, Level
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


def choose(view: SeatView, difficulty: str, seed: int = 0, budget_s: float = 1.0) -> Action:
    """The decision at a difficulty, the search given at most 0.6 of ``budget_s``: the rest is
    a margin for whoever runs it (a worker process's pickling and scheduling)."""
    player = make_player(difficulty, seed)
    if isinstance(player, SearchPlayer):
        player.level = replace(player.level, budget_s=min(player.level.budget_s, 0.6 * budget_s))
    return player.choose(view)


__all__ = [
    "DIFFICULTIES",
    "LEVELS",
    "Level",
    "Player",
    "RulesPlayer",
    "SearchPlayer",
    "choose",
    "make_player",
    "player_for",
]
