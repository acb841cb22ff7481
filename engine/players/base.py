"""The interface every computer player offers."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..actions import Action
from ..views import SeatView


class Player(ABC):
    """Chooses an action from one seat's view: only from ``view.legal``, only from the view."""

    name: str = "player"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @abstractmethod
    def choose(self, view: SeatView) -> Action:
        """The action to take; ``view.legal`` must not be empty."""

    def rng_for(self, view: SeatView) -> random.Random:
        """A generator seeded by the seed and where the seat is in the game, nothing else.

        The same view gives the same decision, whatever came before and in whichever process
        (a string seed is hashed the same way everywhere), and the hidden cards cannot leak in.
        """
        table = view.table
        done = sum(len(t.cards) for t in view.played) + len(table.trick)
        return random.Random(
            f"{self.seed}:{table.hand_number}:{view.seat}:{len(table.exchange)}:{done}"
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"
