"""The places where one game plays differently from another.

``Game`` runs the flow every game shares (deal, turns, tricks, hands, the log); a ``Variant``
decides the rest. Each game's module (``engine/games/``) has one and registers it; the rules
give it (``Rules.variant``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .actions import Play
from .cards import Card
from .events import DealerChosen, Event, HandEnded
from .rules import Rules, Trump

if TYPE_CHECKING:
    from .game import Game


class Variant(ABC):
    """Rules hooks. Methods that take a ``Game`` read it and, where documented, change it."""

    def start_score(self, rules: Rules) -> int:
        """What every score starts at: 0 unless the game says otherwise (Nines: N7)."""
        return 0

    @abstractmethod
    def choose_first_dealer(self, rng: random.Random, players: int) -> DealerChosen:
        """The draw for first dealer."""

    @abstractmethod
    def deal(
        self, rng: random.Random, rules: Rules, dealer: int
    ) -> tuple[list[list[Card]], list[Card] | None]:
        """Each seat's cards and the spare (None where there is none)."""

    @abstractmethod
    def opening_trump(self, rules: Rules, hand_index: int) -> Trump:
        """The trump when a hand starts."""

    def exchange_order(self, rules: Rules, dealer: int) -> tuple[int, ...]:
        """Who decides keep or swap, in order; empty where the game has no exchange."""
        return ()

    @abstractmethod
    def legal_plays(self, game: Game, seat: int) -> list[Play]:
        """The plays open to the seat whose turn it is."""

    @abstractmethod
    def check_play(self, game: Game, seat: int, play: Play) -> None:
        """Raise an IllegalAction if ``play`` (of a card the seat holds) breaks the rules."""

    def after_play(self, game: Game, seat: int, play: Play) -> list[Event]:
        """React to a card just added to the trick (Nein Nine's trump-setting 8)."""
        return []

    @abstractmethod
    def trick_winner(self, game: Game) -> int:
        """The seat that wins the complete trick in ``game.trick``."""

    def stops_hand(self, game: Game, winner: int) -> bool:
        """After a trick: whether the hand stops here, won outright (N9)."""
        return False

    @abstractmethod
    def score_hand(self, game: Game, stopped: bool) -> HandEnded:
        """Update ``game.scores`` for the finished hand and describe it."""

    @abstractmethod
    def end_reached(self, rules: Rules, number: int, scores: Sequence[int]) -> bool:
        """Whether the game ends after hand ``number`` with these scores, but for a tie
        (N8, G9): the tables tell a tie-break hand by it."""

    @abstractmethod
    def winners(self, game: Game, stopped: bool) -> tuple[int, ...] | None:
        """After a scored hand: the winning seats if the game is over, else None."""

    def spits(self, trump: Trump) -> tuple[Card, Card] | None:
        """The Big and Little Spit under ``trump``: two cards that rank above the trump suit's
        own (Nein Nine, G5); None where the game has none, or no trump is set."""
        return None
