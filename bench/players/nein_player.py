"""Nein Nine's search with its own settings, for experiments (issue 19)."""

from __future__ import annotations

from engine.actions import Action
from engine.players.base import Player
from engine.players.nein import nein_search
from engine.views import SeatView


class NeinPlayer(Player):
    """The Nein Nine search with its own settings (issue 19 experiments, duel spec
    ``nein:WORLDS:TRIES``): ``worlds`` worlds, each the best fit of ``tries`` draws to the
    others' plays as a rule-based player would have made them (1: no such inference)."""

    name = "nein"

    def __init__(
        self, seed: int = 0, worlds: int = 16, tries: int = 4, budget_s: float = 0.25
    ) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.tries = tries
        self.budget_s = budget_s

    def choose(self, view: SeatView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        rng = self.rng_for(view)
        return nein_search(view, rng, self.worlds, self.budget_s, self.tries)
