"""A "human-like" opponent for measuring (issue 19): noisy, with tendencies of its own.

It is deliberately unlike the rule-based player that the search assumes in its playouts and
inference: it scores each legal card with a few plain-spoken habits (win the trick when it
can, often with a needlessly high card; cash aces; lead from a long suit; throw low when
losing; keep trumps for later) and picks by a softmax over those scores, so it errs the way
people do, more often when the choice looks close. Each seed is a different person: how much
each habit weighs, and how noisy, are drawn once from the seed. Nobody is offered this level;
``duel --field human`` measures the others against a table of such players.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import NEIN_NINE, NINES, GameType
from engine.actions import KEEP, SWAP, Action, Play
from engine.players.base import Player
from engine.players.games import knowledge
from engine.players.nein import (
    JOKER_LOSE_MOVE,
    JOKER_WIN_MOVE,
    NINES_MASK,
    VALUE,
    nein_state,
    winner_pos,
)
from engine.players.sampling import mask_of, trump_index
from engine.players.simulate import NO_TRUMP, SUIT_MASKS, SUIT_OF, beats, best_position, hcp
from engine.views import SeatView


@dataclass(frozen=True, slots=True)
class Habits:
    """How much one person leans on each habit; drawn from the seed."""

    temperature: float  # softmax temperature: higher, more random
    win: float  # wants to take the trick in hand now
    thrift: float  # wins with the lowest card that does (low: with a needlessly high one)
    cash: float  # leads an ace
    long_lead: float  # leads from its longest suit
    trump_lead: float  # leads trumps (negative: keeps them)
    save_trump: float  # reluctance to ruff or to throw a trump
    swap_below: float  # swaps a hand weaker than this (high-card points, trumps counted)
    trump_weight: float  # what a trump beyond three is worth to it in the exchange
    nine_fear: float  # Nein Nine: how much a 9 in the trick puts it off winning
    partner_care: float  # partnership: reluctance to overtake a partner's winning card

    @classmethod
    def of(cls, seed: int) -> Habits:
        r = random.Random(f"human-habits:{seed}")
        return cls(
            temperature=r.uniform(0.35, 0.9),
            win=r.uniform(1.0, 2.5),
            thrift=r.uniform(0.0, 1.2),
            cash=r.uniform(0.3, 1.5),
            long_lead=r.uniform(0.0, 1.5),
            trump_lead=r.uniform(-1.0, 0.8),
            save_trump=r.uniform(0.0, 1.0),
            swap_below=r.uniform(8.0, 11.5),
            trump_weight=r.uniform(0.5, 2.5),
            nine_fear=r.uniform(0.3, 1.3),
            partner_care=r.uniform(0.5, 3.0),
        )


def softmax_pick(scores: list[float], temperature: float, rng: random.Random) -> int:
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    r = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    return len(scores) - 1


class HumanLikePlayer(Player):
    """Softmax over its own habits (``Habits``), from the view alone."""

    name = "human"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.habits = Habits.of(seed)

    def choose(self, view: SeatView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        rng = self.rng_for(view)
        if view.table.phase == "exchange":
            return self._exchange(view, rng)
        plays = [a for a in view.legal if isinstance(a, Play)]
        scores = SCORES[view.table.rules.kind](view, plays, self.habits)
        return plays[softmax_pick(scores, self.habits.temperature, rng)]

    def _exchange(self, view: SeatView, rng: random.Random) -> Action:
        h = self.habits
        hand = mask_of(view.hand)
        trump = trump_index(view.table.trump)
        value = float(hcp(hand))
        if trump != NO_TRUMP:
            value += h.trump_weight * max(0, (hand & SUIT_MASKS[trump]).bit_count() - 3)
        value += rng.gauss(0.0, 1.5)  # a person's sense of a hand is rough
        return SWAP if value < h.swap_below else KEEP


def nines_scores(view: SeatView, plays: list[Play], h: Habits) -> list[float]:
    hand = mask_of(view.hand)
    trump = trump_index(view.table.trump)
    trick = [c.index for _, c in view.table.trick]
    best = best_position(trick, trump) if trick else 0
    partner_winning = view.table.rules.teams is not None and len(trick) - best == 2
    scores = []
    for play in plays:
        c = play.card.index
        suit = SUIT_OF[c]
        rank = (c % 13) / 12.0  # 0 for a two, 1 for an ace
        length = (hand & SUIT_MASKS[suit]).bit_count()
        is_trump = suit == trump
        if not trick:
            v = h.long_lead * length / 6.0 + 0.5 * rank
            v += h.cash * (c % 13 == 12)
            v += h.trump_lead if is_trump else 0.0
        elif beats(c, trick[best], trump):
            v = (
                (-h.partner_care if partner_winning else h.win)
                - h.thrift * rank
                - (h.save_trump if is_trump else 0.0)
            )
        else:
            # Losing anyway: throw low, from a short suit; keep trumps.
            v = -rank - 0.2 * length / 6.0 - (h.save_trump if is_trump else 0.0)
        scores.append(v)
    return scores


def nein_scores(view: SeatView, plays: list[Play], h: Habits) -> list[float]:
    k = knowledge(view)
    world = [0] * (k.n + 1)
    world[k.seat] = k.hand
    state = nein_state(k, world, view)
    scores = []
    for play in plays:
        move = play.card.index
        if play.joker is not None:
            move = JOKER_WIN_MOVE if play.joker == "win" else JOKER_LOSE_MOVE
        after = state.copy()
        after.play(move)
        trick = after.trick or []
        if not trick:  # the trick is complete: did I take it?
            winning = after.leader == k.seat
            nines = after.nines[k.seat] - state.nines[k.seat]
        else:
            winning = (after.leader + winner_pos(trick, after.trump, after.call)) % k.n == k.seat
            nines = sum(1 for c in trick if (NINES_MASK >> c) & 1)
        strength = _nein_strength(move, after.trump)
        is_nine = move < 52 and bool((NINES_MASK >> move) & 1)
        if winning:
            v = h.win * (1.0 - h.nine_fear * nines) - h.thrift * strength
        else:
            v = (0.8 if is_nine else 0.0) - 0.5 * strength
        scores.append(v)
    return scores


def _nein_strength(move: int, trump: int) -> float:
    """How good a card is to keep, 0..1: a 7 of a plain suit 0, the Joker 1."""
    if move >= 52:
        return 1.0
    value = VALUE[trump][move]
    if value >= 100:  # a trump, the Spits highest
        return 0.6 + 0.4 * (value - 108) / 5.0
    return 0.5 * (value - 7) / 4.0


#: Each game's habits scored, by its type.
SCORES: dict[GameType, Callable[[SeatView, list[Play], Habits], list[float]]] = {
    NINES: nines_scores,
    NEIN_NINE: nein_scores,
}
