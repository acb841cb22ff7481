"""Actions a seat can take: small frozen values with a text form that round-trips.

>>> str(parse_action("swap")), str(parse_action("9h")), str(parse_action("JK:win"))
('swap', '9H', 'JK:win')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .cards import FULL_DECK, JOKER, Card

JokerCall = Literal["win", "lose"]


@dataclass(frozen=True, slots=True)
class Exchange:
    """Nines' exchange decision: keep the hand, or swap it for the spare."""

    swap: bool

    def __str__(self) -> str:
        return "swap" if self.swap else "keep"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card; Nein Nine's Joker carries its win/lose call."""

    card: Card
    joker: JokerCall | None = None

    def __str__(self) -> str:
        return f"{self.card}:{self.joker}" if self.joker else str(self.card)


Action = Exchange | Play

KEEP: Final = Exchange(False)
SWAP: Final = Exchange(True)

# Interned plays, by card index: legal-action lists are rebuilt every turn and reuse these.
PLAYS: Final[tuple[Play, ...]] = tuple(Play(card) for card in (*FULL_DECK, JOKER))
JOKER_WIN: Final = Play(JOKER, "win")
JOKER_LOSE: Final = Play(JOKER, "lose")

_BY_TEXT: Final[dict[str, Action]] = {
    "keep": KEEP,
    "swap": SWAP,
    "JK:win": JOKER_WIN,
    "JK:lose": JOKER_LOSE,
    **{str(play.card): play for play in PLAYS},
}


def parse_action(text: str) -> Action:
    """The action for its text form; raises ValueError for anything else."""
    cleaned = text.strip()
    action = _BY_TEXT.get(cleaned.lower()) or _BY_TEXT.get(_normalise_card_text(cleaned))
    if action is None:
        raise ValueError(f"Not an action: {text!r}.")
    return action


def _normalise_card_text(text: str) -> str:
    head, _, call = text.partition(":")
    return head.upper() + (":" + call.lower() if call else "")
