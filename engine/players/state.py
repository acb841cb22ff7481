"""The one hand-in-play interface every algorithm works over (OpenSpiel's ``State`` in small).

``simulate.NinesHand`` and ``nein.NeinHand`` implement it; moves are ints (a card's index, or
Nein Nine's Joker with its call), cheap to copy and to play out.
"""

from __future__ import annotations

from typing import Protocol, Self


class HandState(Protocol):
    @property
    def turn(self) -> int:
        """The seat to move."""

    @property
    def over(self) -> bool:
        """The hand is finished (or stopped by a house rule)."""

    def legal_moves(self) -> list[int]: ...

    def play(self, move: int) -> None: ...

    def copy(self) -> Self: ...

    def score(self, seat: int) -> float:
        """What the hand is worth to ``seat`` (a unit's tricks, or Nein Nine's points)."""

    def rule_move(self) -> int:
        """The rule-based player's move: the playout policy."""

    def playout(self) -> None:
        """Finish the hand with every seat playing the rule's move."""
