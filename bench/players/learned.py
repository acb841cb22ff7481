"""A learned model of how players choose their card, and worlds weighted by it (issue 19).

The search's default inference keeps the worlds in which the others would have played as our
own rule does, which is exact at a table of rule players and wrong elsewhere. Here a play is
modelled as a softmax over the legal cards, linear in a few features of each card (does it
win the trick, is it the lowest that does, a master, a trump, ...). The weights are fitted
to the plays of a mixed table of our players (rules, normal, hard, human-like, ISMCTS) by
``bench/players/train_learned.py`` and ship in ``learned_weights.py``. A world's weight is the
likelihood of the plays the seat has seen, each mixed with a uniform choice so that one play
unlike the model cannot rule a world out. Everything comes from the seat's view (R1).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.actions import Play
from engine.events import HandEnded
from engine.game import Game
from engine.players.base import Player
from engine.players.games import knowledge
from engine.players.sampling import Knowledge, sample_world
from engine.players.simulate import (
    FULL,
    SUIT_MASKS,
    SUIT_OF,
    beats,
    best_position,
    legal_mask,
    rule_exchange,
)
from engine.views import seat_view

FEATURES: Final = (
    "lead: trump",
    "lead: master",
    "lead: rank",
    "lead: length of its suit",
    "follow: wins the trick now",
    "follow: the lowest card that wins",
    "follow: the lowest card",
    "follow: the highest card",
    "follow: rank",
    "void: a trump that wins",
    "void: a trump",
    "void: the lowest of its suit",
    "void: rank",
    "void: length of its suit",
    "last to play: wins",
    "partner winning: wins",
    "a master that wins",
)
N_FEATURES: Final = len(FEATURES)

#: A play's probability is mixed with a uniform choice this much: a seat that plays unlike
#: the model makes its worlds less likely, never impossible.
UNIFORM_SHARE: Final = 0.15
#: A keep-or-swap decision unlike our rule: its likelihood (decisions are few, our rule is the
#: model for them, as in the default inference).
EXCHANGE_MISFIT: Final = math.log(0.25)


@dataclass(frozen=True, slots=True)
class Decision:
    """One play as a player saw it: its hand, the trick so far, every card played before."""

    hand: int
    trick: tuple[int, ...]
    played: int
    trump: int
    n: int
    teams: bool
    card: int


#: A card's features, sparse: (index in ``FEATURES``, value), most zeros left out.
Features = list[tuple[int, float]]


def plays_of_hand(game: Game, players: Sequence[Player]) -> list[Decision]:
    """Play ``game`` to the end of its hand; every card played, as its player saw it (the
    training data, from our own players)."""
    out: list[Decision] = []
    while game.turn is not None:
        seat = game.turn
        view = seat_view(game, seat)
        action = players[seat].choose(view)
        if isinstance(action, Play):
            k = knowledge(view)
            card = action.card.index
            out.append(Decision(k.hand, tuple(k.trick), k.played, k.trump, k.n, k.teams, card))
        if any(isinstance(event, HandEnded) for event in game.apply(seat, action)):
            break
    return out


def card_features(
    hand: int, trick: Sequence[int], played: int, trump: int, n: int, teams: bool
) -> list[tuple[int, Features]]:
    """Each legal card with its features (``FEATURES``), most zeros left out: the search
    weighs thousands of plays a decision."""
    legal = legal_mask(hand, list(trick))
    out = FULL & ~played & ~hand
    cards: list[int] = []
    m = legal
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    k = len(trick)
    rows: list[tuple[int, Features]] = []
    if k == 0:
        for c in cards:
            s = SUIT_OF[c]
            f = [(2, (c % 13) / 12), (3, (hand & SUIT_MASKS[s]).bit_count() / 5)]
            if s == trump:
                f.append((0, 1.0))
            if not out & SUIT_MASKS[s] & ~((2 << c) - 1):
                f.append((1, 1.0))
            rows.append((c, f))
        return rows
    led = SUIT_OF[trick[0]]
    bi = best_position(list(trick), trump)
    best = trick[bi]
    last = k == n - 1
    partner = teams and k >= 2 and bi == k - 2
    following = bool(hand & SUIT_MASKS[led])
    winners = [c for c in cards if beats(c, best, trump)]
    lowest_winner = min(winners, key=lambda c: (SUIT_OF[c] == trump, c)) if winners else -1
    for c in cards:
        s = SUIT_OF[c]
        wins = c in winners
        if following:
            f = [(8, (c % 13) / 12)]
            if wins:
                f.append((4, 1.0))
            if c == lowest_winner:
                f.append((5, 1.0))
            if c == cards[0]:
                f.append((6, 1.0))
            if c == cards[-1]:
                f.append((7, 1.0))
        else:
            f = [(12, (c % 13) / 12), (13, (hand & SUIT_MASKS[s]).bit_count() / 5)]
            if s == trump:
                f.append((10, 1.0))
                if wins:
                    f.append((9, 1.0))
            if not hand & SUIT_MASKS[s] & ((1 << c) - 1):
                f.append((11, 1.0))
        if wins:
            if last:
                f.append((14, 1.0))
            if partner:
                f.append((15, 1.0))
            if not out & SUIT_MASKS[s] & ~((2 << c) - 1):
                f.append((16, 1.0))
        rows.append((c, f))
    return rows


def probabilities(weights: Sequence[float], rows: list[tuple[int, Features]]) -> list[float]:
    """The model's softmax over the rows' cards."""
    scores = [sum(weights[j] * x for j, x in f) for _, f in rows]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def log_likelihood(weights: Sequence[float], d: Decision, share: float = UNIFORM_SHARE) -> float:
    """The log-probability of the decision's card under the model mixed with uniform."""
    rows = card_features(d.hand, d.trick, d.played, d.trump, d.n, d.teams)
    if len(rows) == 1:
        return 0.0
    probs = probabilities(weights, rows)
    for (c, _), p in zip(rows, probs, strict=True):
        if c == d.card:
            return math.log((1 - share) * p + share / len(rows))
    return -math.inf  # not a legal card in this world


def fit(
    decisions: Sequence[Decision], epochs: int = 150, rate: float = 4.0, l2: float = 1e-3
) -> list[float]:
    """Weights of the conditional logit by full-batch gradient ascent (pure Python: the
    features of every decision are computed once)."""
    data = []
    for d in decisions:
        rows = card_features(d.hand, d.trick, d.played, d.trump, d.n, d.teams)
        if len(rows) > 1:
            chosen = [c for c, _ in rows].index(d.card)
            data.append(([f for _, f in rows], chosen))
    w = [0.0] * N_FEATURES
    for _ in range(epochs):
        grad = [-l2 * x for x in w]
        for feats, chosen in data:
            scores = [sum(w[j] * x for j, x in f) for f in feats]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            for i, f in enumerate(feats):
                g = (1.0 if i == chosen else 0.0) - exps[i] / total
                for j, x in f:
                    grad[j] += g * x
        scale = rate / max(len(data), 1)
        w = [a + scale * b for a, b in zip(w, grad, strict=True)]
    return w


#: Per decision: (play seen, suit, the seat's cards of that suit) -> (the sum of the exponent
#: of the suit's legal cards' scores, how many there are, the played card's score or None).
Cache = dict[tuple[int, int, int], tuple[float, int, float | None]]


def _suit_terms(
    k: Knowledge, weights: Sequence[float], play: tuple[int, list[int], int], held: int
) -> tuple[float, int, float | None]:
    card, trick, before = play
    total, count, chosen = 0.0, 0, None
    for c, f in card_features(held, trick, before, k.trump, k.n, k.teams):
        score = sum(weights[j] * x for j, x in f)
        total += math.exp(score)
        count += 1
        if c == card:
            chosen = score
    return total, count, chosen


def world_log_likelihood(
    k: Knowledge, world: list[int], weights: Sequence[float], cache: Cache | None = None
) -> float:
    """How likely the others' plays and keep-or-swap decisions were in ``world``.

    Every feature of a card depends on the seat's cards of that card's suit alone (a
    following card's choices are its suit; a lead or a discard is weighed against every suit,
    each suit's share apart), so the softmax is a sum over suits, each cached by the cards the
    seat held in it, and the worlds of one decision share most of the work."""
    total = 0.0
    if cache is None:
        cache = {}
    for i, (seat, card, trick, before) in enumerate(k.history):
        held = world[seat] | (k.played_by[seat] & ~before)
        suits: tuple[int, ...] = (0, 1, 2, 3)
        if trick and held & SUIT_MASKS[SUIT_OF[trick[0]]]:
            suits = (SUIT_OF[trick[0]],)
        exps, count, chosen = 0.0, 0, 0.0
        for suit in suits:
            mine = held & SUIT_MASKS[suit]
            if not mine:
                continue
            key = (i, suit, mine)
            terms = cache.get(key)
            if terms is None:
                terms = cache[key] = _suit_terms(k, weights, (card, trick, before), mine)
            exps += terms[0]
            count += terms[1]
            if terms[2] is not None:
                chosen = terms[2]
        if count > 1:
            p = math.exp(chosen) / exps
            total += math.log((1 - UNIFORM_SHARE) * p + UNIFORM_SHARE / count)
    for seat, swapped, discarded in k.decisions:
        holder = k.pile_holder[seat]
        pile = world[holder] | (k.played_by[holder] if holder < k.n else 0)
        if rule_exchange(pile, k.trump, discarded) != swapped:
            total += EXCHANGE_MISFIT
    return total


def learned_world(
    k: Knowledge,
    rng: random.Random,
    tries: int,
    weights: Sequence[float],
    cache: Cache | None = None,
) -> list[int]:
    """One world: of ``tries`` draws consistent with the view, one chosen with a probability
    proportional to the likelihood of the others' decisions in it."""
    worlds: list[list[int]] = []
    logs: list[float] = []
    for _ in range(max(1, tries)):
        world = sample_world(k, rng)
        worlds.append(world)
        if not (k.history or k.decisions):
            return world
        logs.append(world_log_likelihood(k, world, weights, cache))
    top = max(logs)
    if top == -math.inf:
        return worlds[0]
    weights_now = [math.exp(x - top) for x in logs]
    return rng.choices(worlds, weights_now)[0]
