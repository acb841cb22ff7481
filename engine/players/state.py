"""The one hand-in-play interface every algorithm works over (OpenSpiel's ``State`` in small).

``simulate.NinesHand`` and ``nein.NeinHand`` implement it, on what both keep (``Tricks``);
moves are ints (a card's index, or Nein Nine's Joker with its call), cheap to copy and to play
out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass(slots=True, eq=False)
class Tricks:
    """What a hand in play keeps in both games: each seat's cards and the cards played as bit
    masks (``Card.index``), the trump suit (-1: none), the trick's leader and its cards, and
    the tricks each seat has won."""

    hands: list[int]
    trump: int
    leader: int
    trick: list[int]
    tricks: list[int]
    played: int
    n: int = field(init=False)

    def __post_init__(self) -> None:
        self.n = len(self.hands)

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def copied(self) -> tuple[list[int], int, int, list[int], list[int], int]:
        """These fields as a copy takes them (the lists copied): a game's ``copy`` passes
        them first."""
        return (
            list(self.hands),
            self.trump,
            self.leader,
            list(self.trick),
            list(self.tricks),
            self.played,
        )
