"""The search for the partnership game (N10, issue 19): no inference from the others' plays,
more worlds, and the last tricks solved exactly.

``SearchPlayer`` keeps, of a pool of drawn worlds, those in which a rule-based player would
have made the plays seen. At a table of ISMCTS-2000 players that model is wrong for the
opponents (they play the rule's card about 70% of the time) and it cost two thirds of the
thinking time; drawing worlds that fit only what the view makes certain (voids) leaves time
for twice the worlds, which halves the noise that split hard's leads (the same lead from
another seed in 60% of positions).

Near the end the worlds are few and the hand small: each world is solved double dummy (both
sides play perfectly, alpha-beta on the team's tricks) instead of played out by the rule,
whose partner play (no unblocking, no finesse) is where rule playouts misjudge most.
"""

from __future__ import annotations

import bisect
import random
import time
from typing import Final

from ..actions import PLAYS, Action, Play
from ..views import SeatView
from .rules_player import rule_action
from .sampling import Knowledge, equivalent_groups, knowledge, play_actions, sample_world
from .search import SearchPlayer, nines_state
from .simulate import SUIT_OF, best_position, legal_mask, rule_play

#: Cards in hand at or below which the worlds are solved exactly (4: about 1 ms a world).
ENDGAME: Final = 4


def _moves(hand: int, trick: list[int], live: int, first: int) -> list[int]:
    """One legal card per run of touching cards (no live card between them), ``first``
    (the rule's card, a good guess) tried first."""
    mask = legal_mask(hand, trick)
    out: list[int] = []
    prev = -2
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        mask ^= low
        if prev >= 0 and SUIT_OF[c] == SUIT_OF[prev]:
            between = ((1 << c) - 1) & ~((2 << prev) - 1)
            if not between & live:
                prev = c
                if first == c:
                    out[-1] = c
                continue
        out.append(c)
        prev = c
    if first in out:
        out.remove(first)
        out.insert(0, first)
    return out


class Solver:
    """Double-dummy team tricks for partnership Nines: seats 0 and 2 against 1 and 3."""

    def __init__(self, trump: int) -> None:
        self.trump = trump
        self.table: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.nodes = 0

    def tricks(self, hands: list[int], leader: int, trick: list[int], played: int) -> int:
        """Tricks still to come that seats 0 and 2 take, the trick in progress included."""
        return self._search(hands, leader, trick, played, -1, 14)

    def _search(
        self, hands: list[int], leader: int, trick: list[int], played: int, alpha: int, beta: int
    ) -> int:
        self.nodes += 1
        if not trick:
            left = hands[leader].bit_count()
            if left == 0:
                return 0
            if left == 1:  # the last trick plays itself
                cards = [hands[(leader + i) % 4].bit_length() - 1 for i in range(4)]
                winner = (leader + best_position(cards, self.trump)) % 4
                return 1 if winner % 2 == 0 else 0
            key = (hands[0], hands[1], hands[2], hands[3], leader)
            low, high = self.table.get(key, (0, left))
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            a, b = max(alpha, low), min(beta, high)
            value = self._node(hands, leader, trick, played, a, b)
            if value <= a:  # an upper bound (fail-soft)
                high = max(low, min(high, value))
            elif value >= b:  # a lower bound
                low = min(high, max(low, value))
            else:
                low = high = value
            self.table[key] = (low, high)
            return value
        return self._node(hands, leader, trick, played, alpha, beta)

    def _node(
        self, hands: list[int], leader: int, trick: list[int], played: int, alpha: int, beta: int
    ) -> int:
        seat = (leader + len(trick)) % 4
        hand = hands[seat]
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            live |= 1 << c
        first = rule_play(hand, trick, 4, self.trump, played, True)
        ours = seat % 2 == 0
        best = -1 if ours else 99
        for card in _moves(hand, trick, live, first):
            hands[seat] = hand & ~(1 << card)
            trick.append(card)
            if len(trick) == 4:
                winner = (leader + best_position(trick, self.trump)) % 4
                won = 1 if winner % 2 == 0 else 0
                v = won + self._search(
                    hands, winner, [], played | (1 << card), alpha - won, beta - won
                )
            else:
                v = self._search(hands, leader, trick, played | (1 << card), alpha, beta)
            trick.pop()
            hands[seat] = hand
            if ours:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


def _touching(a: int, b: int, held: int, before: int) -> bool:
    """Whether cards ``a`` and ``b`` win and lose the same tricks for a seat that holds
    ``held`` after ``before`` was played: one suit, nothing between them anyone else holds."""
    if SUIT_OF[a] != SUIT_OF[b]:
        return False
    low, high = min(a, b), max(a, b)
    between = ((1 << high) - 1) & ~((2 << low) - 1)
    return not between & ~(held | before)


def misplays(k: Knowledge, world: list[int], enough: int) -> int:
    """How many of the others' plays the rule would not have made in ``world``, up to
    touching cards (a player who takes with the king from king-queen played the rule's
    card for all that can be told): counting stops at ``enough``."""
    bad = 0
    for seat, card, trick, before in k.history:
        held = world[seat] | (k.played_by[seat] & ~before)
        rule = rule_play(held, trick, k.n, k.trump, before, k.teams)
        if rule != card and not _touching(rule, card, held, before):
            bad += 1
            if bad >= enough:
                break
    return bad


def fitting_worlds(k: Knowledge, rng: random.Random, count: int, draws: int) -> list[list[int]]:
    """The ``count`` of ``draws`` drawn worlds with the fewest ``misplays``, best first;
    drawing stops once ``count`` worlds fit every play."""
    ranked: list[tuple[int, int, list[int]]] = []
    enough = 1 << 30
    for i in range(max(draws, count)):
        world = sample_world(k, rng)
        bad = misplays(k, world, enough) if k.history else 0
        if bad >= enough:
            continue
        bisect.insort(ranked, (bad, i, world))
        if len(ranked) > count:
            ranked.pop()
        if len(ranked) == count:
            enough = ranked[-1][0]
            if enough == 0:
                break
    return [w for _, _, w in ranked]


class PartnershipPlayer(SearchPlayer):
    """``SearchPlayer`` for the partnership game: ``worlds`` worlds drawn from the voids
    alone (``pool`` > 1: the best fits of ``pool`` draws a world to the plays seen, up to
    touching cards), solved exactly from ``endgame`` cards in hand."""

    name = "partnership"

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 40,
        budget_s: float = 0.25,
        endgame: int = ENDGAME,
        pool: int = 1,
    ) -> None:
        super().__init__(seed, worlds=worlds, budget_s=budget_s, pool=pool)
        self.endgame = endgame

    def _worlds(self, k: Knowledge, rng: random.Random) -> list[tuple[list[int], int]]:
        if not k.teams:
            return super()._worlds(k, rng)
        if self.pool > 1:
            return [(w, 1) for w in fitting_worlds(k, rng, self.worlds, self.worlds * self.pool)]
        return [(sample_world(k, rng), 1) for _ in range(self.worlds)]

    def choose(self, view: SeatView) -> Action:
        rules = view.table.rules
        if (
            rules.teams is None
            or rules.instant_win
            or len(view.legal) == 1
            or len(view.hand) > self.endgame
        ):
            return super().choose(view)
        return self._solve(view)

    def _solve(self, view: SeatView) -> Action:
        """Each candidate's mean double-dummy team tricks over the worlds."""
        k = knowledge(view)
        legal = [p.card.index for p in play_actions(view)]
        candidates = equivalent_groups(legal, k)
        if len(candidates) == 1:
            return PLAYS[candidates[0]]
        rng = self.rng_for(view)
        deadline = time.perf_counter() + self.budget_s
        totals = [0] * len(candidates)
        sign = 1 if k.seat % 2 == 0 else -1
        for world, _ in self._worlds(k, rng):
            base = nines_state(k, world, None)
            solver = Solver(k.trump)
            for i, card in enumerate(candidates):
                st = base.copy()
                st.play(card)
                ours = st.tricks[0] + st.tricks[2]
                value = ours + solver.tricks(st.hands, st.leader, st.trick, st.played)
                totals[i] += sign * value
            if time.perf_counter() > deadline:
                break
        best = max(totals)
        rule = rule_action(view)
        assert isinstance(rule, Play)
        rc = rule.card.index
        rep = max((c for c in candidates if SUIT_OF[c] == SUIT_OF[rc] and c <= rc), default=-1)
        if rep >= 0 and totals[candidates.index(rep)] == best:
            return rule
        return PLAYS[candidates[totals.index(best)]]
