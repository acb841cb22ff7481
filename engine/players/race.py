"""The chance to win a four-player game (N11, N8) from a score sheet: the search's utility.

Each player's score is a random walk: quota minus the tricks taken each hand, tricks drawn from
what a rule-based player takes in the four-player game, players independent. The game ends
after the first hand that leaves someone at 0 or below, won by the lowest; a tie for lowest
plays on, counted here as an even share among the tied.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Final

#: Tricks a player takes in a hand, 0..11: rule-based players, 400 four-player games.
TRICKS_P: Final = (
    0.0349,
    0.115,
    0.2096,
    0.234,
    0.1854,
    0.1166,
    0.0618,
    0.0277,
    0.0105,
    0.0034,
    0.0007,
    0.0001,
)
QUOTA: Final = 3
MAX_HANDS: Final = 60
LOWEST: Final = QUOTA - len(TRICKS_P) + 1  # the lowest score a hand can end at from 1


@cache
def _ends(start: int) -> tuple[tuple[tuple[float, ...], tuple[float, ...], float], ...]:
    """For each hand h = 1, 2, ... with the player above 0 after every earlier hand: the chance
    to be above y after hand h, and at y or above, for y = LOWEST..0 (the list index), and
    the chance to be at 0 or below after it."""
    alive = {start: 1.0}
    out = []
    for _ in range(MAX_HANDS):
        nxt: dict[int, float] = {}
        for s, p in alive.items():
            for t, q in enumerate(TRICKS_P):
                y = s + QUOTA - t
                nxt[y] = nxt.get(y, 0.0) + p * q
        above = [sum(p for y, p in nxt.items() if y > v) for v in range(LOWEST, 1)]
        at_least = [sum(p for y, p in nxt.items() if y >= v) for v in range(LOWEST, 1)]
        down = sum(p for y, p in nxt.items() if y <= 0)
        out.append((tuple(above), tuple(at_least), down))
        alive = {y: p for y, p in nxt.items() if y > 0}
        if sum(alive.values()) < 1e-5:
            break
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def win_chance(mine: int, others: tuple[int, ...]) -> float:
    """My chance to win the game, every score above 0 now (``others`` sorted, for the cache)."""
    me = _ends(mine)
    them = [_ends(s) for s in others]
    total = 0.0
    for h, (above, at_least, _) in enumerate(me):
        # P(I end hand h at exactly y): at least y minus above y.
        for i in range(len(above)):
            p = at_least[i] - above[i]
            if p <= 1e-12:
                continue
            beat = tie = 1.0
            for walk in them:
                if h >= len(walk):  # that player is surely down by now: the game ended
                    beat = tie = 0.0
                    break
                a, e, _ = walk[h]
                beat *= a[i]
                tie *= e[i]
            total += p * (beat + 0.5 * (tie - beat))
    return total


def game_value(scores: tuple[int, ...] | list[int], me: int) -> float:
    """My chance to win from the scores after a hand: exact if the game ends there."""
    low = min(scores)
    if low <= 0:
        tied = [u for u, s in enumerate(scores) if s == low]
        if me not in tied:
            return 0.0
        return 1.0 / len(tied)  # alone: won; tied: they play on (N8), an even share
    others = tuple(sorted(s for u, s in enumerate(scores) if u != me))
    return win_chance(scores[me], others)
