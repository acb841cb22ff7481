"""What each algorithm needs of a game, as each game's module gives it (``engine/games/``,
``Registered.players``): what the seat knows, the game's hand in play of a sampled world, its
rule-based action and its search.

An algorithm asks ``game_of(rules)`` and never branches on the game's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..actions import Action
from ..games import GAMES
from ..rules import Rules
from ..views import SeatView
from .levels import Level
from .nines import Draw
from .sampling import Knowledge
from .state import HandState

__all__ = ["Draw", "GameModel", "game_of", "knowledge"]


@dataclass(frozen=True, slots=True)
class GameModel:
    #: What the seat knows, the game's plays read for the voids they show.
    knowledge: Callable[[SeatView], Knowledge]
    #: The hand in play in a world (the unseen cards dealt) from what the seat knows.
    state: Callable[[Knowledge, list[int], SeatView], HandState]
    #: The action a move (``HandState``'s int) stands for.
    action: Callable[[int], Action]
    rule_action: Callable[[SeatView], Action]
    #: The search's decision at a level; ``draw`` gives card play's worlds where it applies.
    search: Callable[[SeatView, random.Random, Level, Draw], Action]
    #: The most a hand can score: ISMCTS's reward scale.
    scale: float


@cache
def _model(game: str) -> GameModel:
    return GAMES[game].players()


def game_of(rules: Rules) -> GameModel:
    return _model(rules.game)


def knowledge(view: SeatView) -> Knowledge:
    """What the seat knows, for any game."""
    return game_of(view.table.rules).knowledge(view)
