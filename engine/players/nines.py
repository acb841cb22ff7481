"""Nines for the players: a world's hand in play, the rule-based action and the search.

Card play is the determinized search (``determinized.best_move``) over ``NinesHand``: each
distinct legal card tried in every world, the hand finished by the rule-based policy
(optionally judged against the world's hands, ``simulate.sighted_play``) or solved exactly
near the end (``endgame``); this was as strong as ISMCTS with 300 iterations at a tenth of the
CPU in the prototype. The exchange is decided by paired simulations of keep and swap.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Final

from ..actions import KEEP, PLAYS, SWAP, Action, Play
from ..views import SeatView
from .determinized import best_move, until
from .endgame import solved_tricks
from .levels import Level
from .race import game_value
from .sampling import (
    Knowledge,
    NinesFollows,
    equivalent_groups,
    infer_exclusions,
    knowledge_of,
    mask_of,
    play_actions,
    sample_world,
    sample_worlds,
    trump_index,
)
from .simulate import SUIT_OF, NinesHand, rule_exchange, rule_play

#: Worlds for card play: ``draw(k, rng, count)`` (the bench's players draw their own).
Draw = Callable[[Knowledge, random.Random, int], list[list[int]]]

#: Four players each for themselves: playouts are judged by the chance to win the game once
#: someone is at this score or below before the hand (tricks before that, as the per-hand
#: edge is measured from the start): more games won (docs/players.md).
RACE_BELOW: Final = 5


def nines_knowledge(view: SeatView) -> Knowledge:
    """What the seat knows: a seat that did not follow suit holds none of it."""
    return knowledge_of(view, NinesFollows())


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


def nines_hand(k: Knowledge, world: list[int], view: SeatView) -> NinesHand:
    """The hand in play in ``world``, stopped early by the instant-win house rule (N9)."""
    return nines_state(k, world, view.table.scores if view.table.rules.instant_win else None)


def nines_rule_action(view: SeatView) -> Action:
    """Nines: keep or swap by hand strength; play by the rules of thumb in ``rule_play``."""
    table = view.table
    trump = trump_index(table.trump)
    hand = mask_of(view.hand)
    if table.phase == "exchange":
        discarded = any(swap for _, swap in table.exchange)
        return SWAP if rule_exchange(hand, trump, discarded) else KEEP
    played = 0
    for t in view.played:
        played |= mask_of(t.cards)
    trick = [c.index for _, c in table.trick]
    for c in trick:
        played |= 1 << c
    card = rule_play(hand, trick, table.players, trump, played, table.rules.teams is not None)
    action = PLAYS[card]
    assert action in view.legal, (action, view.legal)
    return action


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


def nines_search(view: SeatView, rng: random.Random, level: Level, draw: Draw) -> Action:
    """The exchange decision or the card to play, by the search."""
    if view.table.phase == "exchange":
        return nines_exchange(view, rng, level)
    return nines_play(view, rng, level, draw)


def nines_exchange(view: SeatView, rng: random.Random, level: Level) -> Action:
    """Keep or swap by paired simulations over ``level.exchange_worlds`` worlds."""
    rule = nines_rule_action(view)
    if level.exchange_worlds <= 0:
        return rule
    k = nines_knowledge(view)
    order = view.table.exchange_order
    deadline = time.perf_counter() + level.budget_s
    diff = 0
    for _ in range(level.exchange_worlds):
        world = sample_world(k, rng, level.inference)
        diff += exchange_outcome(k, world, True, order)
        diff -= exchange_outcome(k, world, False, order)
        if time.perf_counter() > deadline:
            break
    if diff == 0:
        return rule
    return SWAP if diff > 0 else KEEP


def nines_play(view: SeatView, rng: random.Random, level: Level, draw: Draw) -> Action:
    """The card with the best mean over the worlds ``draw`` gives (paired playouts)."""
    k = nines_knowledge(view)
    legal = [p.card.index for p in play_actions(view)]
    candidates = equivalent_groups(legal, k)
    if len(candidates) == 1:
        return PLAYS[candidates[0]]
    rules = view.table.rules
    start = view.table.scores if rules.instant_win else None
    sheet = race_sheet(view)
    deadline = time.perf_counter() + level.budget_s
    me = k.seat
    cards = len(view.hand)
    solve = cards <= level.endgame and k.teams and sheet is None and start is None
    # Only with a spare, whose dead cards are most of what sight corrects: without one it
    # gained nothing measurable and lost among rule players (docs/players.md).
    sighted = level.sighted and rules.has_spare
    count = level.worlds
    if solve and level.solved_worlds:
        # A card fewer to solve, twice the worlds in about the same time.
        count = min(count, level.solved_worlds << (level.endgame - cards))
    worlds = draw(k, rng, count)

    def played_out(state: NinesHand) -> float:
        if not state.stopped:
            state.playout(sighted)
        return state.unit_tricks(me) if sheet is None else race_value(state, sheet, me)

    def judge(world: NinesHand) -> Callable[[NinesHand], float]:
        return solved_tricks(k.trump, k.n, me) if solve else played_out

    # Ties go to the rule-based card (its group's candidate) when it is among the best.
    rule = nines_rule_action(view)
    assert isinstance(rule, Play)
    rc = rule.card.index
    rep = max((c for c in candidates if SUIT_OF[c] == SUIT_OF[rc] and c <= rc), default=-1)
    ruled = candidates.index(rep) if rep >= 0 else None
    states = (nines_state(k, world, start) for world in until(deadline, worlds))
    chosen = best_move(states, candidates, judge, rule=ruled)
    return rule if chosen == ruled else PLAYS[candidates[chosen]]


def nines_worlds(k: Knowledge, rng: random.Random, count: int, level: Level) -> list[list[int]]:
    """Up to ``count`` worlds to judge the cards in."""
    if k.n == 3:
        return [sample_world(k, rng, level.inference) for _ in range(count)]
    # Four hands: one pool of ``pool`` draws a world, the least contradicted kept (as
    # strong as the best of 24 draws a world, in less time); fewer worlds, to stay under a
    # tenth of ISMCTS-2000's time (docs/players.md).
    sized = level.worlds * 5 // 8 if k.teams else level.worlds * 3 // 4
    if not k.teams:
        # Cards the others' follows and discards rule out: a little stronger, and faster
        # (more worlds fit at once; docs/players.md).
        infer_exclusions(k)
    # The pool is sized by the full count, so the fewer worlds solved near the end are
    # its best fits.
    return sample_worlds(k, rng, min(sized, count), sized * level.pool)


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
