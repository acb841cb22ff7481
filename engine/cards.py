"""Cards: frozen values whose text form round-trips.

>>> str(Card.parse("9H"))
'9H'
>>> Card.parse("TD") == Card(10, Suit.DIAMONDS)
True
>>> str(JOKER)
'JK'
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final


class Suit(enum.Enum):
    """The four suits, by their one-letter code in records and custom_ids."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def code(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self is Suit.HEARTS or self is Suit.DIAMONDS

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(f"Not a suit: {text!r} (use S, H, D or C).") from None


_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

#: Suit order used to sort a hand for display: alternating colours.
DISPLAY_SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)

RANK_CODES: Final = "23456789TJQKA"
_SUIT_INDEX: Final = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
_INTERNED: dict[tuple[int, Suit | None], Card] = {}
_SEALED = False
JOKER_RANK: Final = 15
ACE: Final = 14


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A playing card. ``suit`` is None only for Nein Nine's Joker.

    There is one instance per card (``Card(9, Suit.HEARTS) is Card.parse("9H")``), so equality
    is identity, which keeps hands and tricks fast to search.
    """

    rank: int
    suit: Suit | None
    index: int = field(init=False, repr=False)  # 0..51 in deck order, 52 for the Joker
    code: str = field(init=False, repr=False)  # the text form, e.g. "9H": records write many

    def __new__(cls, rank: int, suit: Suit | None) -> Card:
        known = _INTERNED.get((rank, suit))
        if known is not None:
            return known
        if _SEALED:
            raise ValueError(f"No such card: rank {rank} of {suit}.")
        return object.__new__(cls)

    def __post_init__(self) -> None:
        if (self.rank, self.suit) not in _INTERNED:
            index = 52 if self.suit is None else _SUIT_INDEX[self.suit] * 13 + self.rank - 2
            object.__setattr__(self, "index", index)
            code = "JK" if self.suit is None else RANK_CODES[self.rank - 2] + self.suit.value
            object.__setattr__(self, "code", code)
            _INTERNED[(self.rank, self.suit)] = self

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Unpickled (e.g. in a worker process) as the one instance of that card.
        return (Card.parse, (str(self),))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def pretty(self) -> str:
        """Rank and suit symbol, e.g. ``10♥``: for people, not for storage."""
        if self.suit is None:
            return "🃏"
        rank = "10" if self.rank == 10 else RANK_CODES[self.rank - 2]
        return rank + self.suit.symbol

    @staticmethod
    def parse(text: str) -> Card:
        """The card for a two-character code such as ``9H``, ``TD`` or ``JK``."""
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise ValueError(f"Not a card: {text!r}.")
        return card


JOKER: Final = Card(JOKER_RANK, None)

#: The 52-card deck, in a fixed order (suit by suit, two to ace): the deal shuffles a copy.
FULL_DECK: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for suit in Suit for rank in range(2, ACE + 1)
)

_BY_TEXT: Final[dict[str, Card]] = {str(card): card for card in (*FULL_DECK, JOKER)}
_SEALED = True  # every card exists now; asking for another is an error


def shuffled(rng: random.Random, cards: Sequence[Card]) -> list[Card]:
    """The cards in a uniformly random order drawn from ``rng``.

    Sorting by independent uniform keys is a fair shuffle and twice as fast as
    ``Random.shuffle`` in CPython, which matters to simulations that deal millions of hands.
    """
    rand = rng.random
    return sorted(cards, key=lambda _card: rand())


def suit_order(trumps_first: Suit | None = None) -> tuple[Suit, ...]:
    """The suits as a hand shows them: alternating in colour; with ``trumps_first`` (the trump
    suit, for a person who sorts that way) that suit first, the others still alternating.

    >>> [s.value for s in suit_order()], [s.value for s in suit_order(Suit.DIAMONDS)]
    (['S', 'H', 'C', 'D'], ['D', 'S', 'H', 'C'])
    """
    if trumps_first is None:
        return DISPLAY_SUIT_ORDER
    red = (Suit.HEARTS, Suit.DIAMONDS)
    others = [s for s in DISPLAY_SUIT_ORDER if s != trumps_first]
    unlike = [s for s in others if (s in red) != (trumps_first in red)]
    like = [s for s in others if (s in red) == (trumps_first in red)]
    return (trumps_first, unlike[0], *like, unlike[1])


def sort_hand(cards: list[Card] | tuple[Card, ...], trumps_first: Suit | None = None) -> list[Card]:
    """A hand in display order: suits alternating in colour (``suit_order``, the trump suit
    first if given), high to low within a suit, Nein Nine's Joker last."""
    order = suit_order(trumps_first)
    return sorted(
        cards,
        key=lambda c: (4, 0) if c.suit is None else (order.index(c.suit), -c.rank),
    )


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    """Cards as space-separated codes, e.g. ``AS KH 9D``."""
    return " ".join(str(c) for c in cards)
