"""The floor: a legal action chosen uniformly at random (the laboratory's baseline)."""

from __future__ import annotations

from engine.actions import Action
from engine.players.base import Player
from engine.views import SeatView


class RandomPlayer(Player):
    name = "random"

    def choose(self, view: SeatView) -> Action:
        return self.rng_for(view).choice(view.legal)
