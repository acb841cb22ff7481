"""Determinized Monte Carlo: sample worlds consistent with the view, try each distinct legal
action in every world, finish the hand with the rule-based policy (optionally judged against
the world's hands, ``simulate.sighted_play``), keep the best mean.

The same worlds judge every candidate (paired comparison), so a few dozen are enough; this was
as strong as ISMCTS with 300 iterations at a tenth of the CPU in the prototype.
"""

from __future__ import annotations

import random
import time
from typing import Final

from ..actions import KEEP, PLAYS, SWAP, Action, Play
from ..views import SeatView
from .base import Player
from .endgame import solved_tricks
from .levels import SEARCH, Level
from .race import game_value
from .rules_player import rule_action
from .sampling import (
    Knowledge,
    equivalent_groups,
    infer_exclusions,
    knowledge,
    play_actions,
    sample_world,
    sample_worlds,
)
from .simulate import SUIT_OF, NinesHand, rule_exchange

#: Four players each for themselves: playouts are judged by the chance to win the game once
#: someone is at this score or below before the hand (tricks before that, as the per-hand
#: edge is measured from the start). 800 games from 3 each: won 38.5% against 36.6% on
#: tricks; whole games 53.7% against 48.3% (300 each).
RACE_BELOW: Final = 5


def nines_state(k: Knowledge, world: list[int], start_scores: tuple[int, ...] | None) -> NinesHand:
    return NinesHand(
        world[: k.n],
        k.trump,
        k.leader,
        list(k.trick),
        list(k.tricks),
        k.played,
        k.teams,
        k.quota,
        start_scores,
    )


def exchange_outcome(k: Knowledge, world: list[int], swap: bool, order: tuple[int, ...]) -> int:
    """My tricks if I keep or swap in this world, the later seats deciding by the rule."""
    hands = list(world[: k.n])
    spare = world[k.n]
    me = k.seat
    discarded = any(s for _, s, _ in k.decisions)
    if swap:
        hands[me], spare = spare, hands[me]
        discarded = True
    for seat in order[order.index(me) + 1 :]:
        if rule_exchange(hands[seat], k.trump, discarded):
            hands[seat], spare = spare, hands[seat]
            discarded = True
    state = NinesHand(hands, k.trump, k.leader, [], [0] * k.n, 0, k.teams, k.quota, None)
    state.playout()
    return state.unit_tricks(me)


class SearchPlayer(Player):
    """Determinized Monte Carlo over ``level.worlds`` sampled worlds (settings: ``Level``).

    ``inference`` redraws worlds that contradict the others' decisions (up to that many
    draws a world, three-hand games); four-hand games keep the least contradicted of one pool
    of ``pool`` draws a world. ``exchange_worlds`` > 0 decides keep or swap by paired
    simulations instead of the rule. ``budget_s`` caps the thinking time: the worlds done by
    then decide. Four players each for themselves: the others' follows and discards rule out
    cards, and near the end of a game playouts count the chance to win it (``race``).
    ``endgame`` > 0: from that many cards in hand the worlds are solved exactly instead of
    played out (``endgame.py``; two teams), ``solved_worlds``
    of them from ``endgame`` cards and twice as many a card fewer. ``sighted``: in a game
    with a spare (classic), card play's playouts judge "a sure winner" and "a safe lead"
    against the world's hands of the seats still to play (for a lead, all the others), not
    against every card the seat has not seen, the spare's 13 dead cards among them; hard's
    setting (figures in ``levels.LEVELS`` and ``_play``). Not for the exchange (-0.013, 300
    deals, human-like table) nor Nein Nine (-0.030 points, 300); the rule told only the
    spare's cards: +0.127 (-0.025 .. +0.278, 300, human-like), less than sight.

    Options measured and left off, and what they measured: docs/players.md.
    """

    name = "search"

    def __init__(self, seed: int = 0, level: Level = SEARCH) -> None:
        super().__init__(seed)
        self.level = level

    def choose(self, view: SeatView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.table.rules.game == "nein-nine":
            from .nein import nein_search

            # ``nein_worlds``, each the best of 4 draws against the others' plays: +0.100
            # points/hand (CI +0.017 .. +0.183) over twice as many drawn blind, in 0.89 of
            # the time (400 deals, opponents rules). 16 take 0.102 of ISMCTS-2000's time;
            # 14 lost -0.060 (-0.117 .. -0.003, 300 deals) at a human-like table in 0.9 of it.
            return nein_search(
                view, self.rng_for(view), self.level.nein_worlds, self.level.budget_s, 4
            )
        if view.table.phase == "exchange":
            return self._exchange(view)
        return self._play(view)

    def _exchange(self, view: SeatView) -> Action:
        rule = rule_action(view)
        if self.level.exchange_worlds <= 0:
            return rule
        k = knowledge(view)
        rng = self.rng_for(view)
        order = view.table.exchange_order
        deadline = time.perf_counter() + self.level.budget_s
        diff = 0
        for _ in range(self.level.exchange_worlds):
            world = sample_world(k, rng, self.level.inference)
            diff += exchange_outcome(k, world, True, order)
            diff -= exchange_outcome(k, world, False, order)
            if time.perf_counter() > deadline:
                break
        if diff == 0:
            return rule
        return SWAP if diff > 0 else KEEP

    def _play(self, view: SeatView) -> Action:
        k = knowledge(view)
        legal = [p.card.index for p in play_actions(view)]
        candidates = equivalent_groups(legal, k)
        if len(candidates) == 1:
            return PLAYS[candidates[0]]
        rng = self.rng_for(view)
        rules = view.table.rules
        start = view.table.scores if rules.instant_win else None
        sheet = race_sheet(view)
        deadline = time.perf_counter() + self.level.budget_s
        me = k.seat
        cards = len(view.hand)
        solve = cards <= self.level.endgame and k.teams and sheet is None and start is None
        # Only with a spare, whose dead cards are most of what sight corrects. Without one it
        # gained nothing measurable and lost among rule players. Four-player: -0.213 (-0.317
        # .. -0.110, 300 deals) among rule players, +0.103 (-0.033 .. +0.240, 300) at a
        # human-like table, +0.030 (-0.108 .. +0.168, 200) among ISMCTS-500. Partnership,
        # with a version that let the partner's card hold (commit b527fb8 and before): +0.017
        # (-0.158 .. +0.191, 300) human-like, -0.080 (-0.298 .. +0.138, 200) among ISMCTS-500.
        sighted = self.level.sighted and rules.has_spare
        count = self.level.worlds
        if solve and self.level.solved_worlds:
            # A card fewer to solve, twice the worlds in about the same time.
            count = min(count, self.level.solved_worlds << (self.level.endgame - cards))
        worlds = self._worlds(k, rng, count)
        totals = [0.0] * len(candidates)
        for world in worlds:
            base = nines_state(k, world, start)
            solved = solved_tricks(k.trump, k.n, me) if solve else None
            for i, card in enumerate(candidates):
                state = base.copy()
                state.play(card)
                if solved is not None:
                    totals[i] += solved(state)
                    continue
                if not state.stopped:
                    state.playout(sighted)
                value = state.unit_tricks(me) if sheet is None else race_value(state, sheet, me)
                totals[i] += value
            if time.perf_counter() > deadline:
                break
        best = max(totals)
        # Ties go to the rule-based card when it is among the best, for a natural style.
        rule = rule_action(view)
        assert isinstance(rule, Play)
        rc = rule.card.index
        rep = max((c for c in candidates if SUIT_OF[c] == SUIT_OF[rc] and c <= rc), default=-1)
        if rep >= 0 and totals[candidates.index(rep)] == best:
            return rule
        return PLAYS[candidates[totals.index(best)]]

    def _worlds(self, k: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
        """Up to ``count`` worlds to judge the cards in."""
        if k.n == 3:
            return [sample_world(k, rng, self.level.inference) for _ in range(count)]
        # Four hands: one pool of ``pool`` draws a world, the least contradicted kept (as
        # strong as the best of 24 draws per world, at 0.68 of the time). Worlds sized to
        # stay under a tenth of ISMCTS-2000's time: 32 with the best of 24 draws each took
        # 0.19 of it in the partnership game (20 from the pool: 0.077), 0.145 with four
        # players each for themselves (24 from the pool there).
        sized = self.level.worlds * 5 // 8 if k.teams else self.level.worlds * 3 // 4
        if not k.teams:
            # Cards the others' follows and discards rule out: +0.361 tricks/hand against
            # +0.344 (300 deals, same cards), in 0.8 of the time (more worlds fit at once).
            infer_exclusions(k)
        # The pool is sized by the full count, so the fewer worlds solved near the end are
        # its best fits.
        return sample_worlds(k, rng, min(sized, count), sized * self.level.pool)


def race_sheet(view: SeatView) -> tuple[int, ...] | None:
    """The scores before this hand, when playouts are judged by the chance to win the game
    instead of tricks: four players each for themselves, near the end."""
    table = view.table
    rules = table.rules
    if rules.teams is not None or rules.players != 4 or rules.instant_win:
        return None
    if min(table.scores) > RACE_BELOW:
        return None
    return table.scores


def race_value(state: NinesHand, sheet: tuple[int, ...], me: int) -> float:
    """My chance to win the game after this playout, its tricks breaking ties."""
    quota = state.quota
    after = [s + quota - t for s, t in zip(sheet, state.tricks, strict=True)]
    return game_value(after, me) + 1e-4 * state.tricks[me]
