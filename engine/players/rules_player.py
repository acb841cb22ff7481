"""The fast rule-based player: cheap heuristics, also the search's playout policy."""

from __future__ import annotations

from ..actions import Action
from ..views import SeatView
from .base import Player
from .games import game_of


def rule_action(view: SeatView) -> Action:
    """The rule-based action of the view's game (``games.game_of``)."""
    return game_of(view.table.rules).rule_action(view)


class RulesPlayer(Player):
    """Rules of thumb; with ``noise`` > 0 a share of its plays are random (the easy level)."""

    name = "rules"

    def __init__(self, seed: int = 0, noise: float = 0.0) -> None:
        super().__init__(seed)
        self.noise = noise

    def choose(self, view: SeatView) -> Action:
        if self.noise and len(view.legal) > 1:
            rng = self.rng_for(view)
            if rng.random() < self.noise:
                return rng.choice(view.legal)
        return rule_action(view)
