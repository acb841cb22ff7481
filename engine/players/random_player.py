"""The floor: a legal action chosen uniformly at random."""

from __future__ import annotations

from ..actions import Action
from ..views import SeatView
from .base import Player


class RandomPlayer(Player):
    name = "random"

    def choose(self, view: SeatView) -> Action:
        return self.rng_for(view).choice(view.legal)
