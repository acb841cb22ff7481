"""A learned model of how players choose their card, and worlds weighted by it (issue 19).

The search's default inference keeps the worlds in which the others would have played as our
own rule does, which is exact at a table of rule players and wrong elsewhere. Here a play is
modelled as a softmax over the legal cards, linear in a few features of each card (does it
win the trick, is it the lowest that does, a master, a trump, ...). The weights are fitted
to the plays of a mixed table of our players (rules, normal, hard, human-like, ISMCTS) by
``bench/train_learned.py`` and ship in ``learned_weights.py``. A world's weight is the
likelihood of the plays the seat has seen, each mixed with a uniform choice so that one play
unlike the model cannot rule a world out. Everything comes from the seat's view (R1).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .sampling import Knowledge, deal
from .simulate import FULL, SUIT_MASKS, SUIT_OF, beats, best_position, legal_mask, rule_exchange

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


def card_features(
    hand: int, trick: Sequence[int], played: int, trump: int, n: int, teams: bool
) -> list[tuple[int, list[float]]]:
    """Each legal card with its feature vector (``FEATURES``)."""
    legal = legal_mask(hand, list(trick))
    out = FULL & ~played & ~hand
    cards: list[int] = []
    m = legal
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    k = len(trick)
    rows: list[tuple[int, list[float]]] = []
    if k == 0:
        for c in cards:
            f = [0.0] * N_FEATURES
            s = SUIT_OF[c]
            above = out & SUIT_MASKS[s] & ~((2 << c) - 1)
            f[0] = 1.0 if s == trump else 0.0
            f[1] = 0.0 if above else 1.0
            f[2] = (c % 13) / 12
            f[3] = (hand & SUIT_MASKS[s]).bit_count() / 5
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
        f = [0.0] * N_FEATURES
        s = SUIT_OF[c]
        wins = c in winners
        master = not (out & SUIT_MASKS[s] & ~((2 << c) - 1))
        if following:
            f[4] = 1.0 if wins else 0.0
            f[5] = 1.0 if c == lowest_winner else 0.0
            f[6] = 1.0 if c == cards[0] else 0.0
            f[7] = 1.0 if c == cards[-1] else 0.0
            f[8] = (c % 13) / 12
        else:
            f[9] = 1.0 if wins and s == trump else 0.0
            f[10] = 1.0 if s == trump else 0.0
            f[11] = 1.0 if (hand & SUIT_MASKS[s] & ((1 << c) - 1)) == 0 else 0.0
            f[12] = (c % 13) / 12
            f[13] = (hand & SUIT_MASKS[s]).bit_count() / 5
        f[14] = 1.0 if last and wins else 0.0
        f[15] = 1.0 if partner and wins else 0.0
        f[16] = 1.0 if master and wins else 0.0
        rows.append((c, f))
    return rows


def probabilities(weights: Sequence[float], rows: list[tuple[int, list[float]]]) -> list[float]:
    """The model's softmax over the rows' cards."""
    scores = [sum(w * x for w, x in zip(weights, f, strict=True) if x) for _, f in rows]
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
            scores = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            for i, f in enumerate(feats):
                p = exps[i] / total
                g = (1.0 if i == chosen else 0.0) - p
                if g:
                    for j, x in enumerate(f):
                        if x:
                            grad[j] += g * x
        scale = rate / max(len(data), 1)
        w = [a + scale * b for a, b in zip(w, grad, strict=True)]
    return w


#: Per decision: (play seen, the cards of the hand its likelihood depends on) -> likelihood.
Cache = dict[tuple[int, int], float]


def world_log_likelihood(
    k: Knowledge, world: list[int], weights: Sequence[float], cache: Cache | None = None
) -> float:
    """How likely the others' plays and keep-or-swap decisions were in ``world``.

    A card that followed suit depends only on the seat's cards of that suit (its choices,
    and which of them are masters), so the worlds of one decision share most of the work."""
    total = 0.0
    if cache is None:
        cache = {}
    for i, (seat, card, trick, before) in enumerate(k.history):
        held = world[seat] | (k.played_by[seat] & ~before)
        if trick and held & SUIT_MASKS[SUIT_OF[trick[0]]]:
            key = (i, held & SUIT_MASKS[SUIT_OF[trick[0]]])
        else:
            key = (i, held)
        ll = cache.get(key)
        if ll is None:
            d = Decision(held, tuple(trick), before, k.trump, k.n, k.teams, card)
            ll = cache[key] = log_likelihood(weights, d)
        total += ll
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
        world = [0] * (k.n + 1)
        for h, m in k.fixed.items():
            world[h] = m
        for h, m in deal(k, rng).items():
            world[h] = m
        world[k.seat] = k.hand
        worlds.append(world)
        if not (k.history or k.decisions):
            return world
        logs.append(world_log_likelihood(k, world, weights, cache))
    top = max(logs)
    if top == -math.inf:
        return worlds[0]
    weights_now = [math.exp(x - top) for x in logs]
    return rng.choices(worlds, weights_now)[0]
