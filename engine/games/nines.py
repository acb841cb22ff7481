"""Nines / Le Neuf / Chômeur, all of it: what the game is (``NINES``), the rulings N1 to N13
that differ from the shared flow (``Nines``), its three rulesets, and its computer players'
model, registered at the end (``engine.games``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..actions import PLAYS, Play
from ..cards import FULL_DECK, Card, shuffled
from ..errors import IllegalAction, MustFollowSuit
from ..events import DealerChosen, HandEnded
from ..gametype import GameType
from ..rules import Rules, Ruleset, Trump
from ..variant import Variant
from . import register

if TYPE_CHECKING:
    from ..game import Game
    from ..players.games import GameModel

NINES: Final = GameType(
    name="nines",
    unit="hand",
    higher_wins=False,
    faces="KQJ",
    has_quota=True,
    signed_scores=False,
    hidden_tricks=False,
    trump_from_play=False,
)

#: Safety cap (N8, ours): after this many hands the players tied for lowest share the win.
MAX_HANDS: Final = 60


class Nines(Variant):
    def start_score(self, rules: Rules) -> int:
        return rules.start  # N7: every score starts at the setting and counts down

    def choose_first_dealer(self, rng: random.Random, players: int) -> DealerChosen:
        # N2: everyone draws; the highest rank deals; those tied for highest draw again.
        drawing = list(range(players))
        rounds: list[tuple[tuple[int, Card], ...]] = []
        while True:
            deck = shuffled(rng, FULL_DECK)
            draws = tuple(zip(drawing, deck, strict=False))
            rounds.append(draws)
            top = max(card.rank for _, card in draws)
            drawing = [seat for seat, card in draws if card.rank == top]
            if len(drawing) == 1:
                return DealerChosen(tuple(rounds), drawing[0])

    def deal(
        self, rng: random.Random, rules: Rules, dealer: int
    ) -> tuple[list[list[Card]], list[Card] | None]:
        # N3: one card at a time clockwise from the dealer's left; the spare gets its card
        # right after the dealer's in every round.
        deck = shuffled(rng, FULL_DECK)
        n = rules.players
        piles = n + 1 if rules.has_spare else n
        # Card k of the deck goes to pile k % piles; piles in receiving order.
        dealt = [deck[k::piles] for k in range(piles)]
        hands: list[list[Card]] = [[] for _ in range(n)]
        for k in range(n):
            hands[(dealer + 1 + k) % n] = dealt[k]
        return hands, (dealt[n] if rules.has_spare else None)

    def opening_trump(self, rules: Rules, hand_index: int) -> Trump:
        return rules.trump_of_hand(hand_index)

    def exchange_order(self, rules: Rules, dealer: int) -> tuple[int, ...]:
        if not rules.has_spare:
            return ()
        first = dealer if rules.exchange == "dealer" else (dealer + 1) % rules.players
        return tuple((first + k) % rules.players for k in range(rules.players))

    def legal_plays(self, game: Game, seat: int) -> list[Play]:
        hand = game.hands[seat]
        if game.trick:
            led = game.trick[0].suit
            follow = [PLAYS[c.index] for c in hand if c.suit is led]
            if follow:
                return follow
        return [PLAYS[c.index] for c in hand]

    def check_play(self, game: Game, seat: int, play: Play) -> None:
        if play.joker is not None:
            raise IllegalAction("Only Nein Nine's Joker is played with a win or lose call.")
        if not game.trick:
            return
        led = game.trick[0].suit
        if play.card.suit is not led and led is not None:
            for card in game.hands[seat]:
                if card.suit is led:
                    raise MustFollowSuit(led)

    def trick_winner(self, game: Game) -> int:
        trick = game.trick
        trump = game.trump
        best = trick[0]
        best_i = 0
        for i in range(1, len(trick)):
            card = trick[i]
            if card.suit is best.suit:
                if card.rank > best.rank:
                    best, best_i = card, i
            elif card.suit is trump:
                best, best_i = card, i
        return (game.leader + best_i) % game.players

    def _unit_tricks(self, game: Game, unit: int) -> int:
        return sum(game.tricks_won[s] for s in game.rules.seats_of(unit))

    def stops_hand(self, game: Game, winner: int) -> bool:
        # N9: with the house rule, a trick over quota lowers the score at once.
        rules = game.rules
        if not rules.instant_win:
            return False
        unit = rules.unit_of(winner)
        over = self._unit_tricks(game, unit) - rules.quota
        return over > 0 and game.hand_start_scores[unit] - over <= 0

    def score_hand(self, game: Game, stopped: bool) -> HandEnded:
        rules = game.rules
        before = game.hand_start_scores
        if stopped:
            # N9: only the winner's score moves; the others stay as they were.
            unit = rules.unit_of(game.last_trick_winner)
            game.scores[unit] = before[unit] - (self._unit_tricks(game, unit) - rules.quota)
        else:
            for unit in range(rules.units):
                game.scores[unit] = before[unit] + rules.quota - self._unit_tricks(game, unit)
            if sum(game.scores) != sum(before) - 1:  # N7: 13 tricks against quotas of 12
                raise AssertionError(f"scores {game.scores} do not total {sum(before) - 1}")
        return HandEnded(
            number=game.hand_number,
            tricks_won=tuple(game.tricks_won),
            scores=tuple(game.scores),
            spare=tuple(game.spare) if game.spare is not None else None,
            instant_win=stopped,
        )

    def end_reached(self, rules: Rules, number: int, scores: Sequence[int]) -> bool:
        return min(scores) <= 0  # N8: a score at 0 or below

    def winners(self, game: Game, stopped: bool) -> tuple[int, ...] | None:
        rules = game.rules
        scores = game.scores
        lowest = min(scores)
        tied = [u for u in range(rules.units) if scores[u] == lowest]
        capped = game.hand_number >= MAX_HANDS
        ended = self.end_reached(rules, game.hand_number, scores)
        if not capped and (not ended or (len(tied) > 1 and rules.ties == "play-on")):
            return None
        return tuple(sorted(s for u in tied for s in rules.seats_of(u)))


SETTINGS: Final = ("trumps", "exchange", "ties", "instant_win", "start")
#: Without a spare there is no exchange to order.
NO_SPARE_SETTINGS: Final = tuple(k for k in SETTINGS if k != "exchange")

RULESETS: Final = (
    Ruleset(
        "classic",
        NINES,
        3,
        4,
        True,
        None,
        SETTINGS,
        "Three players, a spare hand to swap for, quota 4 tricks.",
    ),
    Ruleset(
        "partnership",
        NINES,
        4,
        6,
        False,
        ((0, 2), (1, 3)),
        NO_SPARE_SETTINGS,
        "Four players in two teams sitting opposite, quota 6 tricks a team.",
    ),
    Ruleset(
        "four-player",
        NINES,
        4,
        3,
        False,
        None,
        NO_SPARE_SETTINGS,
        "Four players each for themselves, quota 3 tricks.",
    ),
)


def players() -> GameModel:
    """What the computer players need of Nines (``players.games``)."""
    from ..players.games import GameModel
    from ..players.nines import nines_hand, nines_knowledge, nines_rule_action, nines_search

    return GameModel(
        nines_knowledge, nines_hand, PLAYS.__getitem__, nines_rule_action, nines_search, 13.0
    )


register(NINES, Nines(), RULESETS, players)
