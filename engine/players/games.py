"""The games the players know, registered once by their type (``Rules.kind``): what each
algorithm needs of one.

An algorithm asks ``game_of(rules)`` for what the seat knows, the game's hand in play of a
sampled world, its rule-based action and its search, and never branches on the game's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ..actions import PLAYS, Action
from ..gametype import NEIN_NINE, NINES, GameType
from ..rules import Rules
from ..views import SeatView
from .levels import Level
from .nein import move_action, nein_knowledge, nein_rule_action, nein_search, nein_state
from .nines import Draw, nines_hand, nines_knowledge, nines_rule_action, nines_search
from .sampling import Knowledge
from .state import HandState


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


def _nein_search(view: SeatView, rng: random.Random, level: Level, draw: Draw) -> Action:
    # Each world the best fit of 4 draws to the others' plays (figures: docs/players.md).
    return nein_search(view, rng, level.nein_worlds, level.budget_s, 4)


GAMES: Final[Mapping[GameType, GameModel]] = MappingProxyType(
    {
        NINES: GameModel(
            nines_knowledge,
            nines_hand,
            PLAYS.__getitem__,
            nines_rule_action,
            nines_search,
            13.0,
        ),
        NEIN_NINE: GameModel(
            nein_knowledge, nein_state, move_action, nein_rule_action, _nein_search, 7.0
        ),
    }
)


def game_of(rules: Rules) -> GameModel:
    return GAMES[rules.kind]


def knowledge(view: SeatView) -> Knowledge:
    """What the seat knows, for any game."""
    return game_of(view.table.rules).knowledge(view)
