"""The games the players know, registered by ``Rules.game``: what each algorithm needs of one.

An algorithm asks ``game_of(rules)`` for the game's hand in play of a sampled world, its
rule-based action and its search, and never branches on the game's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ..actions import PLAYS, Action
from ..rules import Rules
from ..views import SeatView
from .levels import Level
from .nein import move_action, nein_rule_action, nein_search, nein_state
from .nines import Draw, nines_hand, nines_rule_action, nines_search
from .sampling import Knowledge
from .state import HandState


@dataclass(frozen=True, slots=True)
class GameModel:
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
    # ``nein_worlds``, each the best of 4 draws against the others' plays: +0.100
    # points/hand (CI +0.017 .. +0.183) over twice as many drawn blind, in 0.89 of
    # the time (400 deals, opponents rules). 16 take 0.102 of ISMCTS-2000's time;
    # 14 lost -0.060 (-0.117 .. -0.003, 300 deals) at a human-like table in 0.9 of it.
    return nein_search(view, rng, level.nein_worlds, level.budget_s, 4)


GAMES: Final[Mapping[str, GameModel]] = MappingProxyType(
    {
        "nines": GameModel(nines_hand, PLAYS.__getitem__, nines_rule_action, nines_search, 13.0),
        "nein-nine": GameModel(nein_state, move_action, nein_rule_action, _nein_search, 7.0),
    }
)


def game_of(rules: Rules) -> GameModel:
    return GAMES[rules.game]
