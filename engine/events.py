"""Events: what happened, returned by the call that made it happen.

Every event holds only what the whole table may know when it happens, so a front end can show
any of them in public. Private facts (a seat's cards) are read through that seat's view.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import JokerCall
from .cards import FULL_DECK, JOKER, Card, Suit
from .rules import Trump


@dataclass(frozen=True, slots=True)
class DealerChosen:
    """The draw for first dealer (N2: rounds of (seat, card) draws, ties drawing again;
    G2: one sequence of (seat, card) dealt face up until a 9)."""

    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A new hand was dealt. ``exchange_order`` is empty where there is no exchange."""

    number: int
    dealer: int
    trump: Trump
    exchange_order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExchangeDecided:
    seat: int
    swap: bool


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    joker: JokerCall | None = None


# The events of plain plays, by seat and card index: shared, as a game makes thousands of them.
PLAYED: tuple[tuple[CardPlayed, ...], ...] = tuple(
    tuple(CardPlayed(seat, card) for card in (*FULL_DECK, JOKER)) for seat in range(4)
)


@dataclass(frozen=True, slots=True)
class TrumpSet:
    """Nein Nine: the first 8 of the round made its suit trump (G4), with its Spits (G5)."""

    suit: Suit
    big_spit: Card
    little_spit: Card
    by_seat: int


@dataclass(frozen=True, slots=True, init=False)
class TrickWon:
    """A completed trick; ``cards`` in play order starting with ``leader``'s."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    joker: JokerCall | None = None

    def __init__(
        self,
        number: int,
        leader: int,
        cards: tuple[Card, ...],
        winner: int,
        joker: JokerCall | None = None,
    ) -> None:
        # Sets the slots directly: a frozen dataclass's own __init__ goes through
        # object.__setattr__ per field, at twice the cost, and a game makes 13 of these a hand.
        _set_number(self, number)
        _set_leader(self, leader)
        _set_cards(self, cards)
        _set_winner(self, winner)
        _set_joker(self, joker)

    @property
    def winning_card(self) -> Card:
        n = len(self.cards)
        return self.cards[(self.winner - self.leader) % n]


_set_number, _set_leader, _set_cards, _set_winner, _set_joker = (
    vars(TrickWon)[name].__set__ for name in ("number", "leader", "cards", "winner", "joker")
)


@dataclass(frozen=True, slots=True)
class HandEnded:
    """A hand was scored. ``scores`` are cumulative, per player or per team.

    ``spare`` is the final spare, revealed now (N4); ``instant_win`` is set when the
    instant-win house rule ended the hand (N9); ``nines`` counts the 9s each seat took
    (Nein Nine, G11), empty otherwise.
    """

    number: int
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    spare: tuple[Card, ...] | None
    instant_win: bool = False
    nines: tuple[int, ...] = ()
    points: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over; ``winners`` are seats (a whole team's seats in partnership)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]


Event = (
    DealerChosen
    | HandStarted
    | ExchangeDecided
    | CardPlayed
    | TrumpSet
    | TrickWon
    | HandEnded
    | GameEnded
)
