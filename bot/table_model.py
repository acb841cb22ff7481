"""The table model: what one seat (or a watcher) may see of a game at one moment.

Plain frozen values, computed once from the engine's views and the session, in no language and
for no medium: the chat presenter renders them as embeds and buttons, the web table (the
Activity) as SVG cards. Nothing that renders a game reads a ``GameSession`` or a ``Game``.

What may be seen follows the engine's views (R1, N4, N13, G11): a seat's model holds its own
hand and legal actions; a watcher's (``viewer is None``) holds no hand at all.

``build`` (below the types) is the one way to make one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine import Action, Card, HandEnded, Rules, SheetRow, Trump
from engine.gametype import GameType

Status = Literal["lobby", "playing", "finished", "abandoned"]
Phase = Literal["exchange", "play", "over"]


@dataclass(frozen=True, slots=True)
class SeatModel:
    """One seat as everybody may see it."""

    seat: int
    #: The name to show, already told apart from every other seat's (``Alex``, ``Alex (2)``)
    #: and cleaned of what no client should draw (``bot/names.py``); not escaped for any
    #: medium: each renderer escapes for its own (markdown, a code block, HTML).
    name: str
    #: The score sheet's short code for this seat (``Ale``), unique in the game.
    code: str
    user_id: int | None  # None for a computer
    computer: bool
    level: str | None  # a computer's difficulty
    away: bool  # a person whose seat the computer plays after repeated time-outs
    host: bool
    team: int  # the unit (team, or the seat itself) whose score this seat plays for
    cards_left: int
    tricks_won: int  # this hand's tricks, the seat's own
    #: Nines: tricks the seat's unit still needs to reach its quota this hand (0 once met);
    #: None where the game has no quota.
    quota_left: int | None


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: Card
    #: Nein Nine: a Joker's call, "win" or "lose" (G7); None otherwise.
    call: str | None = None


@dataclass(frozen=True, slots=True)
class TrickModel:
    """A trick's cards in play order, each beside its player."""

    number: int  # 1-based within the hand
    cards: tuple[PlayedCard, ...]
    winner: int | None = None  # None while in play
    winning_card: Card | None = None


@dataclass(frozen=True, slots=True)
class TurnModel:
    """Whose decision is awaited, and until when."""

    seat: int
    kind: Literal["exchange", "play", "joker-call"]
    deadline: float | None  # Unix time the turn timer runs out; None: no timer (a computer)


@dataclass(frozen=True, slots=True)
class HandModel:
    """The viewer's own hand: never in a watcher's model, never another seat's."""

    seat: int
    cards: tuple[Card, ...]  # in display order (suit order, the person's sorting preference)
    legal: tuple[Action, ...]  # empty when it is not this seat's decision
    playable: frozenset[Card]  # the cards of ``legal``'s plays, for raising or enabling
    put_down: tuple[Card, ...] | None  # the hand this seat put down in an exchange (N4)


@dataclass(frozen=True, slots=True)
class RankRow:
    """One line of the final ranking: a unit (player or team), its place and score."""

    unit: int
    seats: tuple[int, ...]
    place: int  # tied scores share a place
    score: int
    winner: bool


@dataclass(frozen=True, slots=True)
class TableModel:
    game_id: int
    kind: GameType
    rules: Rules
    status: Status
    viewer: int | None  # the seat this model is for; None for a watcher
    seats: tuple[SeatModel, ...]
    hand_number: int
    phase: Phase
    dealer: int
    trump: Trump
    spits: tuple[Card, Card] | None  # Nein Nine once trump is set: the big and little Spit
    exchange_order: tuple[int, ...]
    exchange: tuple[tuple[int, bool], ...]  # (seat, swapped) decided so far
    turn: TurnModel | None
    trick: TrickModel | None  # in play, at least one card on it
    #: Completed tricks of this hand the viewer may see, in order; the last is the one that
    #: stands on the table (G11 amended: in Nein Nine only until the next trick's first card).
    tricks: tuple[TrickModel, ...]
    scores: tuple[int, ...]  # per unit
    start_scores: tuple[int, ...]
    sheet: tuple[SheetRow, ...]
    last_result: HandEnded | None  # the previous hand's (or, once over, the last hand's) result
    #: Why this hand is played at all: the units tied when the game would have ended (N8, G9).
    tiebreak: tuple[int, ...] | None
    winners: tuple[int, ...] | None  # seats; None while the game goes on
    ranking: tuple[RankRow, ...] | None  # once the game is over
    hand: HandModel | None  # the viewer's own; None for a watcher
