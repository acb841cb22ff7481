"""What each seat, and the table, may know (R1, N4, N13, G11).

These are the only ways code outside the engine reads a game in progress. A seat's view holds
its own hand, the hands it held and put down, every decision and declaration, and every card
played this hand in order; never another seat's hand or the spare during play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, Exchange
from .cards import Card
from .events import HandEnded, TrickWon
from .game import Game, SheetRow
from .rules import Rules, Trump


@dataclass(frozen=True, slots=True)
class PublicView:
    """What the table shows: safe to post in a channel."""

    rules: Rules
    hand_number: int
    dealer: int
    first_dealer: int
    trump: Trump
    phase: str  # "exchange", "play" or "over"
    turn: int | None
    exchange_order: tuple[int, ...]
    exchange: tuple[tuple[int, bool], ...]
    leader: int
    trick: tuple[tuple[int, Card], ...]  # the trick in progress, (seat, card) in play order
    joker_call: str | None  # Nein Nine: the call of a Joker in the trick in progress
    last_trick: TrickWon | None  # None in Nein Nine, where taken tricks stay face down (G11)
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    start_scores: tuple[int, ...]
    sheet: tuple[SheetRow, ...]
    last_hand: HandEnded | None  # the previous hand's result, spare revealed
    last_hand_tricks: tuple[TrickWon, ...]  # every trick of the previous hand (N13)
    winners: tuple[int, ...] | None

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def players(self) -> int:
        return self.rules.players


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know: what its player sees, and all a computer player may use."""

    seat: int
    table: PublicView
    hand: tuple[Card, ...]
    put_down: tuple[tuple[Card, ...], ...]  # hands this seat held and put down this hand (N4)
    played: tuple[TrickWon, ...]  # every completed trick of this hand, in order (R1)
    legal: tuple[Action, ...]  # empty when it is not this seat's turn

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)


def public_view(game: Game) -> PublicView:
    rules = game.rules
    previous = game.hands_log[-2] if len(game.hands_log) > 1 else None
    current = game.hands_log[-1]
    # A finished game keeps showing its last hand; otherwise it is the hand before this one.
    shown = current if game.over else previous
    hidden_tricks = rules.kind.hidden_tricks and not game.over
    last_trick = game.tricks[-1] if game.tricks and not hidden_tricks else None
    return PublicView(
        rules=rules,
        hand_number=game.hand_number,
        dealer=game.dealer,
        first_dealer=game.first_dealer,
        trump=game.trump,
        phase=game.phase,
        turn=game.turn,
        exchange_order=game.exchange_order,
        exchange=tuple(game.exchange_made),
        leader=game.leader,
        trick=tuple(((game.leader + i) % game.players, card) for i, card in enumerate(game.trick)),
        joker_call=game.joker_call,
        last_trick=last_trick,
        tricks_won=tuple(game.tricks_won),
        hand_sizes=tuple(len(h) for h in game.hands),
        scores=tuple(game.scores),
        start_scores=game.start_scores,
        sheet=tuple(game.sheet),
        last_hand=shown.result if shown else None,
        last_hand_tricks=tuple(shown.tricks) if shown else (),
        winners=game.winners,
    )


def _cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    # Deck order, not deal order: the order cards were dealt in fingerprints the shuffle.
    return tuple(sorted(cards, key=_card_key))


def _card_key(card: Card) -> int:
    return card.index


def _action_key(action: Action) -> tuple[int, int]:
    # Keep before swap; plays in deck order, a Joker's "win" before its "lose".
    if isinstance(action, Exchange):
        return (-1, int(action.swap))
    return (action.card.index, 0 if action.joker in (None, "win") else 1)


def seat_view(game: Game, seat: int) -> SeatView:
    """``seat``'s view; ``hand``, ``put_down`` and ``legal`` come in a canonical order (deck
    order), so nothing in a view depends on how the cards were dealt beyond which they are."""
    if not 0 <= seat < game.players:
        raise ValueError(f"No seat {seat} at a table of {game.players}.")
    return SeatView(
        seat=seat,
        table=public_view(game),
        hand=_cards(game.hands[seat]),
        put_down=tuple(_cards(h) for h in game.put_down[seat]),
        played=tuple(game.tricks),
        legal=tuple(sorted(game.legal_actions(seat), key=_action_key)),
    )
