"""The determinized search, written once over ``HandState`` and used by both games.

Sample worlds consistent with the seat's view (each a deal of the unseen cards), try every
candidate move in every world, finish the hand by the game's judge (the rule's playout, or an
exact solve), and keep the best total. The same worlds judge every candidate (a paired
comparison), so a few dozen are enough; ties go to the rule-based move when it is among the
best, for a natural style. Each game supplies its worlds, moves and judge: ``nines.nines_play``
and ``nein.nein_search_worlds``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .state import HandState

S = TypeVar("S", bound=HandState)
T = TypeVar("T")

#: How a world values a state after a candidate's move, made once a world (``judge(world)``):
#: a judge may keep what the world's candidates share (an exact solver's table).
Judge = Callable[[S], Callable[[S], float]]


@dataclass(frozen=True, slots=True)
class Prune:
    """After ``after`` worlds, drop the moves whose total trails the best by more than ``gap``
    a world: most positions have a few hopeless moves, and they cost as much as the rest."""

    after: int
    gap: float


def until(deadline: float, items: Iterable[T]) -> Iterator[T]:
    """``items`` while time is left: the first always, the next ones before ``deadline``
    (``time.perf_counter``), so an anytime search stops with the worlds it has judged."""
    for i, item in enumerate(items):
        if i and time.perf_counter() > deadline:
            return
        yield item


def best_move(
    worlds: Iterable[S],
    moves: Sequence[int],
    judge: Judge[S],
    *,
    rule: int | None = None,
    prune: Prune | None = None,
    tie: float = 0.0,
) -> int:
    """The index in ``moves`` of the move with the best total over ``worlds`` (the hand in
    play in each world, before the move). ``rule``: the index of the rule-based move, chosen
    when its total is within ``tie`` of the best; otherwise the first of the best. When
    pruning leaves one move, the worlds left are not judged."""
    totals = [0.0] * len(moves)
    alive = list(range(len(moves)))
    for done, world in enumerate(worlds, 1):
        value = judge(world)
        for i in alive:
            state = world.copy()
            state.play(moves[i])
            totals[i] += value(state)
        if prune is not None and done == prune.after:
            top = max(totals)
            alive = [i for i in alive if totals[i] >= top - prune.gap * done]
            if len(alive) == 1:
                break  # nothing left to compare
    best = max(alive, key=totals.__getitem__)
    if rule is not None and rule in alive and totals[rule] >= totals[best] - tie:
        return rule
    return best
