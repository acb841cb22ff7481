"""Nein Nine (Mark S. Ball), all of it: what the game is (``NEIN_NINE``), the rulings G1 to
G11 that differ from the shared flow (``NeinNine``), its ruleset, and its computer players'
model, registered at the end (``engine.games``).

Three players, 21 cards (7 to jack of each suit and a Joker), seven tricks a round. A round
starts with no trump; the first 8 played makes its suit trump at once (G4), and the two 7s of
that colour become the Spits, the top of the trump suit (G5). The Joker is played with a "win"
or "lose" call (G7). Capturing 9s costs points (G8).

>>> big, little = spits(Suit.HEARTS)
>>> str(big), str(little)
('7H', '7D')
>>> stones(-2), stones(3), stones_text(-2)
((0, 2), (3, 0), '●●')
>>> round_points(6, 3)
2
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..actions import JOKER_LOSE, JOKER_WIN, PLAYS, Play
from ..cards import JOKER, Card, Suit
from ..errors import IllegalAction, JokerNeedsCall, MustFollowSuit
from ..events import DealerChosen, Event, HandEnded, TrumpSet
from ..gametype import GameType
from ..rules import Rules, Ruleset, Trump
from ..variant import Variant
from . import register

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import Game
    from ..players.games import Draw, GameModel
    from ..players.levels import Level
    from ..views import SeatView

NEIN_NINE: Final = GameType(
    name="nein-nine",
    unit="round",
    higher_wins=True,
    faces="J",
    has_quota=False,
    signed_scores=True,
    hidden_tricks=True,
    trump_from_play=True,
)

#: G1: 7, 8, 9, 10 and jack of each suit, then the Joker.
DECK: Final[tuple[Card, ...]] = (
    *(Card(rank, suit) for suit in Suit for rank in range(7, 12)),
    JOKER,
)
HAND_SIZE: Final = 7
#: G8: the penalty for capturing 0, 1, 2, 3 or 4 nines.
NINES_PENALTY: Final = (0, 1, 2, 4, 8)
#: Safety cap (ours, like Nines' MAX_HANDS): after this many rounds the players tied for the
#: highest score share the win, so an endless run of ties cannot keep a game going forever.
MAX_ROUNDS: Final = 60

_OTHER_OF_COLOUR: Final = {
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
}
_EIGHT: Final = {suit: Card(8, suit) for suit in Suit}


def spits(trump: Suit) -> tuple[Card, Card]:
    """The Big Spit and the Little Spit under ``trump`` (G5)."""
    return Card(7, trump), Card(7, _OTHER_OF_COLOUR[trump])


# -- precomputed tables, one per trump (four suits, then no trump), indexed by card.index ----
#
# _SUIT_OF[t][i]: the suit card i belongs to under trump t (the Little Spit moves to trump).
# _VALUE[t][i]:   its strength when it counts: 100 + rank order for trumps (Big Spit 113,
#                 Little Spit 112, then J 111 down to 8 at 108), the printed rank otherwise.

_TRUMP_KEYS: Final[tuple[Trump, ...]] = (*Suit, None)
_TABLE_INDEX: Final[dict[Trump, int]] = {t: i for i, t in enumerate(_TRUMP_KEYS)}


def _tables(trump: Trump) -> tuple[tuple[Suit | None, ...], tuple[int, ...]]:
    suit_of: list[Suit | None] = [None] * 53
    value: list[int] = [-1] * 53
    big, little = spits(trump) if trump is not None else (None, None)
    for card in DECK:
        if card is JOKER:
            continue
        suit = trump if card is little else card.suit
        suit_of[card.index] = suit
        if card is big:
            value[card.index] = 113
        elif card is little:
            value[card.index] = 112
        elif suit is trump:
            value[card.index] = 100 + card.rank
        else:
            value[card.index] = card.rank
    return tuple(suit_of), tuple(value)


_SUIT_OF: Final = tuple(_tables(t)[0] for t in _TRUMP_KEYS)
_VALUE: Final = tuple(_tables(t)[1] for t in _TRUMP_KEYS)


def suit_under(card: Card, trump: Trump) -> Suit | None:
    """The suit ``card`` belongs to under ``trump`` (G5); None for the Joker."""
    return _SUIT_OF[_TABLE_INDEX[trump]][card.index]


def led_suit(trick: list[Card] | tuple[Card, ...], trump: Trump) -> Suit | None:
    """The suit led in ``trick`` (G6, G7), with ``trump`` the trump as it stands now.

    It is the suit the first card had when it was led (the next card's, after a led Joker),
    so a trump set later in the trick does not change it. None until a suit is led.
    """
    if not trick:
        return None
    pos = 0
    first = trick[0]
    if first is JOKER:
        if len(trick) == 1:
            return None
        pos, first = 1, trick[1]
    if trump is None:
        return first.suit
    # The 8 of the trump suit set it (G4): if it came after ``first`` in this trick, there
    # was no trump yet when ``first`` was played.
    eight = _EIGHT[trump]
    for i in range(pos + 1, len(trick)):
        if trick[i] is eight:
            return first.suit
    return _SUIT_OF[_TABLE_INDEX[trump]][first.index]


def round_points(tricks: int, nines: int) -> int:
    """G8: one point a trick, less the penalty for the 9s taken."""
    return tricks - NINES_PENALTY[nines]


def stones(score: int) -> tuple[int, int]:
    """G10: ``(light, dark)`` stones for a cumulative score; one of them is always 0."""
    return (score, 0) if score >= 0 else (0, -score)


LIGHT_STONE: Final = "○"
DARK_STONE: Final = "●"


def stones_text(score: int) -> str:
    """G10 as text: ``○○○`` for +3, ``●●`` for -2 ("in the dark"), ``-`` for 0."""
    light, dark = stones(score)
    if not light and not dark:
        return "-"
    return LIGHT_STONE * light + DARK_STONE * dark


class NeinNine(Variant):
    def choose_first_dealer(self, rng: random.Random, players: int) -> DealerChosen:
        # G2: deal face up one at a time clockwise from seat 0; the first 9 deals.
        deck = list(DECK)
        rng.shuffle(deck)
        dealt: list[tuple[int, Card]] = []
        for i, card in enumerate(deck):
            seat = i % players
            dealt.append((seat, card))
            if card.rank == 9 and card.suit is not None:
                return DealerChosen((tuple(dealt),), seat)
        raise AssertionError("the deck has four 9s")  # pragma: no cover

    def deal(
        self, rng: random.Random, rules: Rules, dealer: int
    ) -> tuple[list[list[Card]], list[Card] | None]:
        # G1: seven cards each, one at a time from the dealer's left; no spare.
        deck = list(DECK)
        rng.shuffle(deck)
        n = rules.players
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            hands[(dealer + 1 + i) % n].append(card)
        return hands, None

    def opening_trump(self, rules: Rules, hand_index: int) -> Trump:
        return None  # G4: a round starts with no trump

    def legal_plays(self, game: Game, seat: int) -> list[Play]:
        hand = game.hands[seat]
        trick = game.trick
        if trick:
            trump = game.trump
            led = led_suit(trick, trump)
            if led is not None:
                suit_of = _SUIT_OF[_TABLE_INDEX[trump]]
                follow = [PLAYS[c.index] for c in hand if suit_of[c.index] is led]
                if follow:
                    if JOKER in hand:
                        follow += (JOKER_WIN, JOKER_LOSE)
                    return follow
        plays = [PLAYS[c.index] for c in hand if c is not JOKER]
        if len(plays) < len(hand):
            plays += (JOKER_WIN, JOKER_LOSE)
        return plays

    def check_play(self, game: Game, seat: int, play: Play) -> None:
        card = play.card
        if card is JOKER:
            if play.joker is None:
                raise JokerNeedsCall()
            return  # G7: the Joker may be played at any time
        if play.joker is not None:
            raise IllegalAction('Only the Joker is played with "win" or "lose".')
        trick = game.trick
        if not trick:
            return
        trump = game.trump
        led = led_suit(trick, trump)
        if led is None:
            return
        suit_of = _SUIT_OF[_TABLE_INDEX[trump]]
        if suit_of[card.index] is led:
            return
        for held in game.hands[seat]:
            if suit_of[held.index] is led:
                raise MustFollowSuit(led)

    def after_play(self, game: Game, seat: int, play: Play) -> list[Event]:
        card = play.card
        if game.trump is not None or card.rank != 8 or card.suit is None:
            return []
        # G4: the first 8 of the round sets trump, at once; the record keeps it (game-record).
        suit = card.suit
        game.trump = suit
        game.hands_log[-1].trump = suit
        big, little = spits(suit)
        return [TrumpSet(suit, big, little, seat)]

    def trick_winner(self, game: Game) -> int:
        # G6: decided when complete, under the trump as it stands then.
        trick = game.trick
        if game.joker_call == "win":
            return (game.leader + trick.index(JOKER)) % game.players
        trump = game.trump
        t = _TABLE_INDEX[trump]
        suit_of, value = _SUIT_OF[t], _VALUE[t]
        led = led_suit(trick, trump)
        best_i, best_v = 0, -2
        for i, card in enumerate(trick):
            suit = suit_of[card.index]
            if suit is None:  # the Joker, called "lose": every card beats it
                v = -1
            elif suit is trump or suit is led:
                v = value[card.index]
            else:
                continue
            if v > best_v:
                best_i, best_v = i, v
        return (game.leader + best_i) % game.players

    def score_hand(self, game: Game, stopped: bool) -> HandEnded:
        n = game.players
        nines = tuple(sum(1 for c in game.taken[s] if c.rank == 9) for s in range(n))
        points = tuple(round_points(game.tricks_won[s], nines[s]) for s in range(n))
        before = game.hand_start_scores
        for s in range(n):
            game.scores[s] = before[s] + points[s]
        return HandEnded(
            number=game.hand_number,
            tricks_won=tuple(game.tricks_won),
            scores=tuple(game.scores),
            spare=None,
            nines=nines,
            points=points,
        )

    def end_reached(self, rules: Rules, number: int, scores: Sequence[int]) -> bool:
        return number >= rules.rounds or any(abs(s) >= rules.limit for s in scores)

    def spits(self, trump: Trump) -> tuple[Card, Card] | None:
        return None if trump is None else spits(trump)

    def winners(self, game: Game, stopped: bool) -> tuple[int, ...] | None:
        # G9: nine rounds, or an early end at -limit or +limit; a tie for highest plays on
        # until a round ends with a single highest score, wherever the scores are by then.
        rules = game.rules
        scores = game.scores
        if not self.end_reached(rules, game.hand_number, scores) and not any(
            self.end_reached(rules, row.number, row.scores) for row in game.sheet
        ):
            return None
        top = max(scores)
        tied = tuple(s for s in range(game.players) if scores[s] == top)
        if len(tied) > 1 and game.hand_number < MAX_ROUNDS:
            return None
        return tied


RULESETS: Final = (
    Ruleset(
        "nein-nine",
        NEIN_NINE,
        3,
        0,
        False,
        None,
        ("rounds", "limit"),
        "Nein Nine: 21 cards, the first 8 makes trump, avoid capturing 9s.",
    ),
)


def players() -> GameModel:
    """What the computer players need of Nein Nine (``players.games``)."""
    from ..players.games import GameModel
    from ..players.nein import move_action, nein_knowledge, nein_rule_action, nein_search
    from ..players.nein import nein_state as state

    def search(view: SeatView, rng: random.Random, level: Level, draw: Draw) -> Action:
        # Each world the best fit of 4 draws to the others' plays (figures: docs/players.md).
        return nein_search(view, rng, level.nein_worlds, level.budget_s, 4)

    return GameModel(nein_knowledge, state, move_action, nein_rule_action, search, 7.0)


register(NEIN_NINE, NeinNine(), RULESETS, players)
