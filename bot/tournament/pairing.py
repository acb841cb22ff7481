"""Pairing a tournament round into tables of three or four: pure, no I/O, reproducible.

The pairing rule (the tournament's help says the same, ``tournament.help.pairing``):

1. Who is paired: everyone registered and checked in who has not dropped. Nobody sits out: a
   field that does not divide into tables of the tournament's size first becomes three-seat
   tables where the tournament allows both sizes (``allow_three``: a four-player tournament,
   not in duplicate, whose three-seat tables play classic Nines, ``seating.py``'s
   ``THREE_SEAT_COMPANIONS``; 10 people make 4 + 3 + 3); whatever is still missing is filled
   by computers, at most one a table where there are tables enough (never a bye while a
   computer can play). A duplicate round keeps one table size, as every table plays the same
   deals: computers fill its seats.
2. Round one: at random, from the tournament's seed (the same seed pairs the same round).
3. Later rounds: Swiss. Tables are formed, in order of importance, with
   a. seats balanced: each table's seats are handed out so that each person takes a position
      they have taken least (position 0 deals first, position 1 leads first, and so on round
      the table), which keeps each person's positions within one of each other (at mixed
      sizes: positions 0-2, which every table has, within one, and position 3 never more than
      one above them);
   b. as few repeat meetings as possible among such tables (a pair of people who sat at one
      table before and do again counts once per earlier meeting);
   c. people of close standing together (the sum over tables of the gap in standing rank
      between a table's highest and lowest).
   Fields of up to ``EXACT_LIMIT`` people are searched exhaustively for the best tables by that
   order; larger fields are paired greedily down the standings and then improved by swaps.

A table is returned in seat positions: position 0 deals the first hand, 1 leads first (the
player left of the dealer), and so on clockwise. ``None`` is a computer's seat.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: Fields up to this many people are paired by exhaustive search (15,400 partitions of 12 into
#: tables of three); larger ones greedily, then improved by swaps.
EXACT_LIMIT = 12
#: Swap passes over a large field after the greedy pairing.
SWAP_PASSES = 2

Table = tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class History:
    """What earlier rounds left that pairing needs: who met whom, who sat where."""

    #: How often each pair of people shared a table (the pair as a sorted tuple).
    met: Mapping[tuple[str, str], int] = field(default_factory=dict)
    #: Per person, how often they took each seat position (position 0 deals first).
    positions: Mapping[str, Sequence[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, tables: Iterable[Table]) -> History:
        """The history of these tables (every earlier round's, in seat positions)."""
        met: Counter[tuple[str, str]] = Counter()
        positions: dict[str, list[int]] = {}
        for table in tables:
            people = [p for p in table if p is not None]
            for a, b in itertools.combinations(sorted(people), 2):
                met[(a, b)] += 1
            for position, person in enumerate(table):
                if person is not None:
                    counts = positions.setdefault(person, [0, 0, 0, 0])
                    counts[position] += 1
        return cls(dict(met), {k: tuple(v) for k, v in positions.items()})

    def meetings(self, a: str, b: str) -> int:
        return self.met.get((a, b) if a < b else (b, a), 0)


def table_sizes(people: int, size: int, allow_three: bool) -> list[int]:
    """How many seats each table has: tables of ``size``; a remainder as three-seat tables
    where ``allow_three`` (a four-seat tournament whose rules allow both), else the last tables
    short, to be filled by computers. Never a table without a person.

    >>> table_sizes(10, 4, True), table_sizes(10, 4, False), table_sizes(7, 3, False)
    ([4, 3, 3], [4, 4, 4], [3, 3, 3])
    >>> table_sizes(5, 4, True), table_sizes(2, 3, False)
    ([4, 4], [3])
    """
    if people <= 0:
        return []
    if size == 4 and allow_three:
        for threes in range(4):
            rest = people - 3 * threes
            if rest >= 0 and rest % 4 == 0:
                return [4] * (rest // 4) + [3] * threes
    tables = -(-people // size)
    return [size] * tables


def computers_needed(people: int, size: int, allow_three: bool) -> int:
    """How many computer seats the tables of ``table_sizes`` leave to fill."""
    return sum(table_sizes(people, size, allow_three)) - people


def _places(people: int, size: int, allow_three: bool) -> list[int]:
    """How many people sit at each table: the computers spread one a table from the last."""
    sizes = table_sizes(people, size, allow_three)
    places = list(sizes)
    missing = sum(sizes) - people
    index = len(places) - 1
    while missing:
        places[index] -= 1
        missing -= 1
        index = index - 1 if index > 0 else len(places) - 1
    return places


def seat_cost(group: Sequence[str], seats: int, history: History) -> tuple[int, Table]:
    """The best handing out of a table's ``seats`` positions to ``group`` (computers take the
    rest): the order with each person in a position they took least, if one exists. Returns
    (how far the order falls short of that: 0 keeps everyone within one, the order)."""
    best: tuple[int, Table] | None = None
    filler: list[str | None] = [None] * (seats - len(group))
    for order in itertools.permutations([*group, *filler]):
        cost = 0
        for position, person in enumerate(order):
            if person is not None:
                counts = history.positions.get(person, (0, 0, 0, 0))
                cost += counts[position] - min(counts[:seats])
        if best is None or cost < best[0]:
            best = (cost, tuple(order))
            if cost == 0:
                break
    assert best is not None
    return best


def _repeats(group: Sequence[str], history: History) -> int:
    return sum(history.meetings(a, b) for a, b in itertools.combinations(group, 2))


def pair_round(
    people: Sequence[str],
    standings: Sequence[str],
    history: History,
    *,
    size: int,
    allow_three: bool,
    seed: str,
    round_number: int,
) -> list[Table]:
    """The tables of round ``round_number`` for ``people`` (as the module's rule says).

    ``standings``: the people in standing order, best first (anyone missing ranks last, as a
    late joiner with no points). ``seed``: the tournament's, so the same round pairs the same.
    """
    if size not in (3, 4):
        raise ValueError("A table seats three or four.")
    field_ = sorted(set(people))
    if not field_:
        return []
    places = _places(len(field_), size, allow_three)
    sizes = table_sizes(len(field_), size, allow_three)
    rng = random.Random(f"{seed}:round:{round_number}")
    groups: list[tuple[list[str], int]]
    if round_number == 1:
        rng.shuffle(field_)
        groups = list(zip(_cut(field_, places), sizes, strict=True))
    else:
        rank = {person: i for i, person in enumerate(standings)}
        ordered = sorted(field_, key=lambda p: (rank.get(p, len(rank)), p))
        if len(ordered) <= EXACT_LIMIT:
            groups = _exact(ordered, places, sizes, history)
        else:
            groups = _greedy(ordered, places, sizes, history)
    return [seat_cost(group, seats, history)[1] for group, seats in groups]


def _cut(ordered: Sequence[str], places: Sequence[int]) -> list[list[str]]:
    groups, start = [], 0
    for count in places:
        groups.append(list(ordered[start : start + count]))
        start += count
    return groups


def _table_cost(
    group: Sequence[str], seats: int, history: History, rank: Mapping[str, int]
) -> tuple[int, int, int]:
    spread = max(rank[p] for p in group) - min(rank[p] for p in group) if group else 0
    return (seat_cost(group, seats, history)[0], _repeats(group, history), spread)


def _total(costs: Iterable[tuple[int, int, int]]) -> tuple[int, int, int]:
    a = b = c = 0
    for x, y, z in costs:
        a, b, c = a + x, b + y, c + z
    return (a, b, c)


def _exact(
    ordered: Sequence[str], places: Sequence[int], sizes: Sequence[int], history: History
) -> list[tuple[list[str], int]]:
    """Every partition of the field into tables of ``places`` people (at tables of ``sizes``
    seats), the best kept; ties: the first found, which follows the standings."""
    rank = {p: i for i, p in enumerate(ordered)}
    best: tuple[tuple[int, int, int], list[tuple[list[str], int]]] | None = None
    slots = Counter(zip(places, sizes, strict=True))
    groups: list[tuple[list[str], int]] = []

    def search(rest: list[str], cost: tuple[int, int, int]) -> None:
        nonlocal best
        if best is not None and cost[0] > best[0][0]:
            return  # the seats come first: no completion can beat the best
        if not rest:
            if best is None or cost < best[0]:
                best = (cost, [(list(g), s) for g, s in groups])
            return
        first, others = rest[0], rest[1:]
        # The first person left opens a table of each kind still free, in turn.
        for slot in sorted((s for s, n in slots.items() if n), reverse=True):
            count, seats = slot
            slots[slot] -= 1
            for mates in itertools.combinations(others, count - 1):
                group = [first, *mates]
                here = _table_cost(group, seats, history, rank)
                groups.append((group, seats))
                search(
                    [p for p in others if p not in mates],
                    (cost[0] + here[0], cost[1] + here[1], cost[2] + here[2]),
                )
                groups.pop()
            slots[slot] += 1

    search(list(ordered), (0, 0, 0))
    assert best is not None
    return best[1]


def _greedy(
    ordered: Sequence[str], places: Sequence[int], sizes: Sequence[int], history: History
) -> list[tuple[list[str], int]]:
    """Down the standings: each table takes the best-ranked person left and, from the next
    few, those who keep the seats balanced and add fewest repeats; then swaps between
    neighbouring tables that lower the total cost."""
    rank = {p: i for i, p in enumerate(ordered)}
    left = list(ordered)
    groups: list[list[str]] = []
    for count, seats in zip(places, sizes, strict=True):
        group = [left.pop(0)]
        while len(group) < count:
            pick = _next_mate(group, left, seats, history, rank)
            left.remove(pick)
            group.append(pick)
        groups.append(group)
    for _ in range(SWAP_PASSES):
        improved = False
        for t in range(len(groups)):
            # A table with a repeat or an unbalanced seat tries swaps with every other table;
            # the rest only with their neighbours (close in the standings).
            flawed = _table_cost(groups[t], sizes[t], history, rank)[:2] != (0, 0)
            others = range(len(groups)) if flawed else (t + 1, t + 2)
            for u in others:
                if u != t and u < len(groups):
                    improved |= _swap_better(groups, t, u, sizes, history, rank)
        if not improved:
            break
    return list(zip(groups, sizes, strict=True))


def _next_mate(
    group: Sequence[str],
    left: Sequence[str],
    seats: int,
    history: History,
    rank: Mapping[str, int],
) -> str:
    """The best next person for a table: from the next few in the standings, the one that
    keeps the seats balanced and adds fewest repeats; where none of them is flawless, the
    best-ranked flawless person further down (else the best of the few)."""

    def flaws(p: str) -> tuple[int, int]:
        return (
            seat_cost([*group, p], seats, history)[0],
            sum(history.meetings(p, q) for q in group),
        )

    window = left[: 4 * seats]
    pick = min(window, key=lambda p: (*flaws(p), rank[p]))
    if flaws(pick) != (0, 0):
        for p in left[4 * seats :]:
            if flaws(p) == (0, 0):
                return p
    return pick


def _swap_better(
    groups: list[list[str]],
    t: int,
    u: int,
    sizes: Sequence[int],
    history: History,
    rank: Mapping[str, int],
) -> bool:
    """Swap the one pair of people between tables t and u that lowers their cost most."""
    a, b = groups[t], groups[u]
    base = _total(
        [_table_cost(a, sizes[t], history, rank), _table_cost(b, sizes[u], history, rank)]
    )
    best = (base, -1, -1)
    for i, j in itertools.product(range(len(a)), range(len(b))):
        na, nb = list(a), list(b)
        na[i], nb[j] = b[j], a[i]
        cost = _total(
            [_table_cost(na, sizes[t], history, rank), _table_cost(nb, sizes[u], history, rank)]
        )
        if cost < best[0]:
            best = (cost, i, j)
    if best[1] < 0:
        return False
    i, j = best[1], best[2]
    a[i], b[j] = b[j], a[i]
    return True
