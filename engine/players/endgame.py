"""The last tricks of a world solved exactly (issue 19), instead of played out by the rule.

Partnership: both teams play perfectly, alpha-beta on one team's tricks (``Solver``). Each for
themselves it lost or was not worth its time (max^n, "paranoid": figures in docs/players.md).
"""

from __future__ import annotations

from collections.abc import Callable

from .simulate import SUIT_OF, NinesHand, best_position, legal_mask, rule_play


def solved_tricks(trump: int, n: int, me: int) -> Callable[[NinesHand], int]:
    """My team's tricks at the end of the hand from a state of one world, both teams
    playing perfectly. One solver a world: the candidates share its table."""
    solver = Solver(trump, n, 0b0101 << (me % 2), True)
    return lambda st: st.unit_tricks(me) + solver.tricks(st.hands, st.leader, st.trick, st.played)


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


def _to_try(
    hands: list[int], leader: int, trick: list[int], played: int, trump: int, teams: bool
) -> tuple[int, list[int]]:
    """The seat to play and the cards it tries, one per run of touching cards (no card still
    held or in the trick between them), the rule's card first."""
    seat = (leader + len(trick)) % len(hands)
    hand = hands[seat]
    live = 0
    for h in hands:
        live |= h
    for c in trick:
        live |= 1 << c
    first = rule_play(hand, trick, len(hands), trump, played, teams)
    return seat, _moves(hand, trick, live, first)


class Solver:
    """Tricks the seats of ``ours`` (a bit per seat) take under perfect play by all, for one
    world: the teams' seats 0 and 2 (``0b0101``) in the partnership game, the deciding seat
    alone each for themselves. Positions at a trick's start are remembered as bounds."""

    def __init__(self, trump: int, n: int = 4, ours: int = 0b0101, teams: bool = True) -> None:
        self.trump = trump
        self.n = n
        self.ours = ours
        self.teams = teams
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0

    def tricks(self, hands: list[int], leader: int, trick: list[int], played: int) -> int:
        """Tricks still to come that ``ours`` take, the trick in progress included."""
        return self._search(hands, leader, trick, played, -1, 14)

    def _won(self, leader: int, trick: list[int]) -> tuple[int, int]:
        winner = (leader + best_position(trick, self.trump)) % self.n
        return winner, (self.ours >> winner) & 1

    def _search(
        self, hands: list[int], leader: int, trick: list[int], played: int, alpha: int, beta: int
    ) -> int:
        self.nodes += 1
        if not trick:
            left = hands[leader].bit_count()
            if left == 0:
                return 0
            if left == 1:  # the last trick plays itself
                cards = [hands[(leader + i) % self.n].bit_length() - 1 for i in range(self.n)]
                return self._won(leader, cards)[1]
            key = (*hands, leader)
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
        seat, moves = _to_try(hands, leader, trick, played, self.trump, self.teams)
        hand = hands[seat]
        ours = (self.ours >> seat) & 1
        best = -1 if ours else 99
        for card in moves:
            hands[seat] = hand & ~(1 << card)
            trick.append(card)
            if len(trick) == self.n:
                winner, won = self._won(leader, trick)
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
