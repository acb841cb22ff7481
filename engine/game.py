"""A game in progress: one owner of mutable state, driven by actions, reporting events.

A game is (rules, seed, actions): the constructor draws the first dealer and deals the first
hand from the seed; every accepted action is logged, so replaying the log rebuilds the same game.

>>> game = Game(Rules.from_settings("classic"), seed=7)
>>> seat = game.turn
>>> events = game.apply(seat, game.legal_actions(seat)[0])
>>> Game.from_json(game.to_json()).to_json() == game.to_json()
True
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import KEEP, PLAYS, SWAP, Action, Exchange, JokerCall, Play, parse_action
from .cards import Card
from .errors import GameIsOver, IllegalAction, NotInHand, NotYourTurn, ReplayError, WrongPhase
from .events import (
    PLAYED,
    CardPlayed,
    Event,
    ExchangeDecided,
    GameEnded,
    HandEnded,
    HandStarted,
    TrickWon,
)
from .rules import Rules, Trump
from .variant import Variant

#: The log's entries of plain plays, by seat and card index: shared, as a live game keeps one
#: per action (a pair each was ~6 KB of a 100-action game).
LOGGED: Final = tuple(tuple((seat, play) for play in PLAYS) for seat in range(4))

EXCHANGE: Final = "exchange"
PLAY: Final = "play"
OVER: Final = "over"


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One row of the score sheet (N12): after hand ``number``."""

    number: int
    trump: Trump
    dealer: int
    scores: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.scores)


@dataclass(slots=True)
class HandLog:
    """Everything about one hand, for records: kept by the game as the hand goes."""

    number: int
    dealer: int
    trump: Trump
    dealt: tuple[tuple[Card, ...], ...]
    spare: tuple[Card, ...] | None
    exchange: list[tuple[int, bool]]
    tricks: list[TrickWon]
    result: HandEnded | None = None


class Game:
    """The one owner of a game's state. Read it through ``view``/``public_view`` elsewhere."""

    # Slots: its 31 attributes are one more than an instance dict shares its keys for, so each
    # live game held a 1.5 KB dict of its own (240 bytes of slots instead).
    __slots__ = (
        "_after_play",
        "dealer",
        "exchange_made",
        "exchange_order",
        "first_dealer",
        "hand_index",
        "hand_start_scores",
        "hands",
        "hands_log",
        "joker_call",
        "last_trick_winner",
        "leader",
        "log",
        "opening",
        "phase",
        "players",
        "put_down",
        "rules",
        "scores",
        "seed",
        "sheet",
        "spare",
        "start_scores",
        "taken",
        "trick",
        "tricks",
        "tricks_won",
        "trump",
        "turn",
        "variant",
        "winners",
    )

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules: Final = rules
        self.seed: Final = seed
        self.variant: Final = rules.variant
        # Most variants do nothing after a card is played: skip the call for them.
        overridden = type(self.variant).after_play is not Variant.after_play
        self._after_play = self.variant.after_play if overridden else None
        self.players: Final = rules.players
        self.log: list[tuple[int, Action]] = []
        self.scores: list[int] = [self.variant.start_score(rules)] * rules.units
        self.start_scores: Final = tuple(self.scores)
        self.sheet: list[SheetRow] = []
        self.hands_log: list[HandLog] = []
        self.winners: tuple[int, ...] | None = None
        chosen = self.variant.choose_first_dealer(random.Random(f"{seed}:dealer"), self.players)
        self.first_dealer: Final = chosen.dealer
        self.dealer = chosen.dealer
        self.hand_index = -1
        self.opening: tuple[Event, ...] = (chosen, self._deal())

    # -- state of the hand in progress --------------------------------------------------------
    # Set by _deal; listed here for readers and type checkers.
    hands: list[list[Card]]
    spare: list[Card] | None
    put_down: list[list[tuple[Card, ...]]]
    exchange_order: tuple[int, ...]
    exchange_made: list[tuple[int, bool]]
    trump: Trump
    phase: str
    turn: int | None
    leader: int
    trick: list[Card]
    joker_call: JokerCall | None
    tricks: list[TrickWon]
    tricks_won: list[int]
    taken: list[list[Card]]
    hand_start_scores: tuple[int, ...]
    last_trick_winner: int

    @property
    def hand_number(self) -> int:
        return self.hand_index + 1

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def _deal(self) -> HandStarted:
        self.hand_index += 1
        rules, variant = self.rules, self.variant
        rng = random.Random(f"{self.seed}:hand:{self.hand_index}")
        self.hands, self.spare = variant.deal(rng, rules, self.dealer)
        self.put_down = [[] for _ in range(self.players)]
        self.exchange_order = variant.exchange_order(rules, self.dealer)
        self.exchange_made = []
        self.trump = variant.opening_trump(rules, self.hand_index)
        self.leader = (self.dealer + 1) % self.players
        self.trick = []
        self.joker_call = None
        self.tricks = []
        self.tricks_won = [0] * self.players
        self.taken = [[] for _ in range(self.players)]
        self.hand_start_scores = tuple(self.scores)
        if self.exchange_order:
            self.phase, self.turn = EXCHANGE, self.exchange_order[0]
        else:
            self.phase, self.turn = PLAY, self.leader
        self.hands_log.append(
            HandLog(
                number=self.hand_number,
                dealer=self.dealer,
                trump=self.trump,
                dealt=tuple(tuple(h) for h in self.hands),
                spare=tuple(self.spare) if self.spare is not None else None,
                exchange=self.exchange_made,
                tricks=self.tricks,
            )
        )
        return HandStarted(self.hand_number, self.dealer, self.trump, self.exchange_order)

    # -- legality, in three layers ---------------------------------------------------------------

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """What ``seat`` may do now; empty when it is not that seat's turn."""
        if seat != self.turn:
            return []
        if self.phase == EXCHANGE:
            return [KEEP, SWAP]
        return self.variant.legal_plays(self, seat)

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self.check(seat, action)
        except IllegalAction:
            return False
        return True

    def check(self, seat: int, action: Action) -> None:
        """Raise the IllegalAction that ``apply`` would raise, changing nothing."""
        if self.phase == OVER:
            raise GameIsOver()
        if seat != self.turn:
            raise NotYourTurn()
        if isinstance(action, Exchange):
            if self.phase != EXCHANGE:
                raise WrongPhase("The exchange is over: play a card.")
            return
        if self.phase != PLAY:
            raise WrongPhase("First decide whether to keep your hand or swap it.")
        if action.card not in self.hands[seat]:
            raise NotInHand(action.card.pretty)
        self.variant.check_play(self, seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and return what happened; an illegal one raises and changes
        nothing."""
        events: list[Event] = []
        if type(action) is not Play or seat != self.turn or self.phase is not PLAY:
            self.check(seat, action)  # raises unless the action is legal
            if isinstance(action, Exchange):
                self._exchange(seat, action.swap, events)
                self.log.append((seat, action))
                return events
        # A play: the common case, inline, as searches and simulations apply millions.
        card = action.card
        hand = self.hands[seat]
        if card not in hand:
            raise NotInHand(card.pretty)
        self.variant.check_play(self, seat, action)
        hand.remove(card)
        trick = self.trick
        trick.append(card)
        if action.joker is None:
            self.log.append(LOGGED[seat][card.index])
            events.append(PLAYED[seat][card.index])
        else:
            self.log.append((seat, action))
            self.joker_call = action.joker
            events.append(CardPlayed(seat, card, action.joker))
        if self._after_play is not None:
            events.extend(self._after_play(self, seat, action))
        if len(trick) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self._end_trick(events)
        return events

    # -- what actions do -------------------------------------------------------------------------

    def _exchange(self, seat: int, swap: bool, events: list[Event]) -> None:
        if swap:
            assert self.spare is not None
            mine = self.hands[seat]
            self.put_down[seat].append(tuple(mine))
            self.hands[seat], self.spare = self.spare, mine
        self.exchange_made.append((seat, swap))
        events.append(ExchangeDecided(seat, swap))
        if len(self.exchange_made) < len(self.exchange_order):
            self.turn = self.exchange_order[len(self.exchange_made)]
        else:
            self.phase, self.turn = PLAY, self.leader

    def _end_trick(self, events: list[Event]) -> None:
        winner = self.variant.trick_winner(self)
        trick = TrickWon(
            len(self.tricks) + 1,
            self.leader,
            tuple(self.trick),
            winner,
            self.joker_call,
        )
        self.tricks.append(trick)
        self.tricks_won[winner] += 1
        self.taken[winner].extend(self.trick)
        self.last_trick_winner = winner
        events.append(trick)
        self.trick = []
        self.joker_call = None
        self.leader = self.turn = winner
        stopped = self.variant.stops_hand(self, winner)
        if stopped or not self.hands[winner]:
            self._end_hand(stopped, events)

    def _end_hand(self, stopped: bool, events: list[Event]) -> None:
        result = self.variant.score_hand(self, stopped)
        self.hands_log[-1].result = result
        self.sheet.append(SheetRow(self.hand_number, self.trump, self.dealer, result.scores))
        events.append(result)
        winners = self.variant.winners(self, stopped)
        if winners is not None:
            self.winners = winners
            self.phase, self.turn = OVER, None
            events.append(GameEnded(winners, tuple(self.scores)))
            return
        self.dealer = (self.dealer + 1) % self.players
        events.append(self._deal())

    # -- copies, views, serialisation ------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the game (what a search needs to try actions)."""
        other = copy.copy(self)
        other.log = list(self.log)
        other.scores = list(self.scores)
        other.sheet = list(self.sheet)
        other.hands = [list(h) for h in self.hands]
        other.spare = list(self.spare) if self.spare is not None else None
        other.put_down = [list(p) for p in self.put_down]
        other.exchange_made = list(self.exchange_made)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.tricks_won = list(self.tricks_won)
        other.taken = [list(t) for t in self.taken]
        other.hands_log = list(self.hands_log[:-1])
        last = self.hands_log[-1]
        other.hands_log.append(
            HandLog(
                last.number,
                last.dealer,
                last.trump,
                last.dealt,
                last.spare,
                other.exchange_made,
                other.tricks,
                last.result,
            )
        )
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "actions": [[seat, str(action)] for seat, action in self.log],
        }

    def to_json(self) -> str:
        """The game as (rules, seed, actions) in JSON text."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def replay(cls, rules: Rules, seed: int, actions: list[tuple[int, Action]]) -> Game:
        """Rebuild a game from its rules, seed and actions; ReplayError if one is illegal."""
        game = cls(rules, seed)
        for i, (seat, action) in enumerate(actions):
            try:
                game.apply(seat, action)
            except IllegalAction as error:
                raise ReplayError(
                    f"Action {i} ({seat}: {action}) does not replay: {error}"
                ) from None
        return game

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        try:
            rules = Rules.from_dict(data["rules"])
            actions = [(int(seat), parse_action(str(text))) for seat, text in data["actions"]]
            seed = int(data["seed"])
        except (KeyError, TypeError, ValueError) as error:
            raise ReplayError(f"Not a stored game: {error}") from None
        return cls.replay(rules, seed, actions)

    @classmethod
    def from_json(cls, text: str) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ReplayError(f"Not a stored game: {error}") from None
        return cls.from_dict(data)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.name} seed={self.seed} hand={self.hand_number} "
            f"phase={self.phase} turn={self.turn} scores={self.scores}>"
        )
