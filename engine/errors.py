"""Errors whose messages can be shown to a player as they are.

Tree::

    NinesError                 every error the engine raises on purpose
    ├── SettingError           a rules setting that does not exist or has a bad value
    ├── IllegalAction          an action the rules do not allow now; the game is unchanged
    │   ├── NotYourTurn
    │   ├── WrongPhase         e.g. playing a card during the exchange
    │   ├── NotInHand
    │   ├── MustFollowSuit
    │   ├── JokerNeedsCall     Nein Nine: the Joker is played with "win" or "lose"
    │   └── GameIsOver
    └── ReplayError            a stored game that does not replay
"""

from __future__ import annotations

from .cards import Suit

SUIT_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}


class NinesError(Exception):
    """Base of the engine's errors; ``str(error)`` is a sentence for a player."""


class SettingError(NinesError, ValueError):
    """A rules setting that does not exist or has a value the rules do not allow."""


class IllegalAction(NinesError):
    """An action the rules do not allow at this point; the game is left unchanged."""


class NotYourTurn(IllegalAction):
    def __init__(self) -> None:
        super().__init__("It is not your turn.")


class WrongPhase(IllegalAction):
    pass


class NotInHand(IllegalAction):
    def __init__(self, card: str) -> None:
        super().__init__(f"You do not hold {card}.")


class MustFollowSuit(IllegalAction):
    def __init__(self, suit: Suit) -> None:
        super().__init__(f"You must follow suit: {SUIT_NAMES[suit]}.")
        self.suit = suit


class JokerNeedsCall(IllegalAction):
    def __init__(self) -> None:
        super().__init__('Play the Joker with "win" or "lose".')


class GameIsOver(IllegalAction):
    def __init__(self) -> None:
        super().__init__("The game is over.")


class ReplayError(NinesError):
    """A stored game whose actions do not replay under its rules and seed."""
