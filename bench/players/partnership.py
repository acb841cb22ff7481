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

import random
from dataclasses import replace
from typing import Final

from engine.players.levels import SEARCH
from engine.players.sampling import Knowledge, best_worlds, sample_world
from engine.players.search import SearchPlayer
from engine.players.simulate import SUIT_OF, rule_play

#: Cards in hand at or below which the worlds are solved exactly (4: about 1 ms a world).
ENDGAME: Final = 4


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
        level = replace(SEARCH, worlds=worlds, budget_s=budget_s, pool=pool, endgame=endgame)
        super().__init__(seed, level)

    def _worlds(self, k: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
        if not k.teams:
            return super()._worlds(k, rng, count)
        if self.level.pool > 1:
            return best_worlds(k, rng, count, self.level.worlds * self.level.pool, misplays)
        return [sample_world(k, rng) for _ in range(count)]
