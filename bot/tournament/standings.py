"""A tournament's points and standings from its finished tables: pure, no I/O.

The scoring rule (the tournament's help says the same, ``tournament.help.scoring``):

- Points by place: at each table a person scores, for every opponent, one point if they
  finished ahead and half a point if level, as a share of the opponents at their table, times
  the opponents at a full table of the tournament (its *scale*: 3 at four seats, 2 at three;
  2 in partnership, where a partner is no opponent). So at a four-seat table the places are
  worth 3, 2, 1, 0, at three seats 2, 1, 0 (tied places share), and a three-seat table in a
  four-seat tournament (a remainder, ``pairing.py``) gives 3, 1.5, 0: first and last place
  are worth the same at either size, and a seat is worth 1.5 on average at both. Computers
  are opponents like anyone.
- Duplicate (every table of a round plays the same deals): scored as the daily deal scores
  them (``engine/duplicate.py``): each hand a person played from a seat position is compared
  with the same hand from the same position at every other table of the round (one
  matchpoint for each result beaten, half for each equalled); the round's share of the field
  beaten, times the scale, is their points for the round. Where there is nothing to compare
  (one table, or a table stopped before a hand), the round is worth half the scale: level.
- A table cut short by its round's deadline is finished by computers, and counts as finished;
  a table stopped (its game abandoned) leaves its people level.
- Standings order: points; then the opponents' average (the mean of the current points of
  every person met, once per meeting: a strong field ranks higher, whatever the size of the
  tables or how many computers sat there); then first places; then the earliest
  registration.
- Someone who drops keeps the points of the games they played; a round they miss scores 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.duplicate import Field, total_share


@dataclass(frozen=True, slots=True)
class TableResult:
    """One finished table: who sat in each seat position (None: a computer), each position's
    final score, and which positions are partners."""

    round_number: int
    players: tuple[str | None, ...]
    scores: tuple[int, ...]
    higher_wins: bool
    teams: tuple[tuple[int, ...], ...] | None = None
    #: Each position's points on each hand, better higher (``engine.duplicate.board_points``).
    boards: tuple[Mapping[int, int], ...] | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    person: str
    points: float
    #: The opponents' average: the mean current points of the people met, per meeting.
    opponents_points: float
    firsts: int
    games: int


def _better(a: int, b: int, higher_wins: bool) -> bool:
    return a > b if higher_wins else a < b


def place_points(result: TableResult, scale: int | None = None) -> dict[int, float]:
    """Each position's points by place at its table (the module's rule): per opponent, one
    for finishing ahead and a half for level, as a share of the table's opponents times
    ``scale`` (None: the table's own number of opponents, points unscaled).

    >>> place_points(TableResult(1, ("a", "b", "c", "d"), (0, 2, 2, 5), False))
    {0: 3.0, 1: 1.5, 2: 1.5, 3: 0.0}
    >>> place_points(TableResult(1, ("a", "b", "c"), (4, 0, 7), False), scale=3)
    {0: 1.5, 1: 3.0, 2: 0.0}
    """
    points: dict[int, float] = {}
    for me, mine in enumerate(result.scores):
        partners = _partners(result, me)
        total = 0.0
        opponents = 0
        for other, theirs in enumerate(result.scores):
            if other == me or other in partners:
                continue
            opponents += 1
            if _better(mine, theirs, result.higher_wins):
                total += 1
            elif mine == theirs:
                total += 0.5
        points[me] = total if scale is None or not opponents else total / opponents * scale
    return points


def _partners(result: TableResult, seat: int) -> tuple[int, ...]:
    for team in result.teams or ():
        if seat in team:
            return team
    return (seat,)


def round_points(
    results: Sequence[TableResult], duplicate: bool, scale: int | None = None
) -> dict[str, float]:
    """Each person's points for one round's tables (``scale``: as ``place_points``; in
    duplicate None means the opponents at the round's first table)."""
    points: dict[str, float] = {}
    if not duplicate:
        for result in results:
            for position, value in place_points(result, scale).items():
                person = result.players[position]
                if person is not None:
                    points[person] = points.get(person, 0.0) + value
        return points
    if scale is None:
        scale = len(results[0].scores) - len(_partners(results[0], 0)) if results else 0
    field = Field()
    for result in results:
        for position, boards in enumerate(result.boards or ()):
            field.add(position, boards)
    for result in results:
        for position, person in enumerate(result.players):
            if person is None:
                continue
            boards = result.boards[position] if result.boards else {}
            share = total_share(field.score(position, boards))
            value = scale / 2 if share is None else share * scale
            points[person] = points.get(person, 0.0) + value
    return points


def standings(
    registered: Sequence[str],
    results: Iterable[TableResult],
    duplicate: bool,
    scale: int | None = None,
) -> list[Standing]:
    """Everyone registered (in registration order), best first, by the module's rule
    (``scale``: as ``place_points``)."""
    rounds: dict[int, list[TableResult]] = defaultdict(list)
    for result in results:
        rounds[result.round_number].append(result)
    points: dict[str, float] = dict.fromkeys(registered, 0.0)
    firsts: dict[str, int] = dict.fromkeys(registered, 0)
    games: dict[str, int] = dict.fromkeys(registered, 0)
    met: dict[str, list[str]] = {p: [] for p in registered}
    for number in sorted(rounds):
        for person, value in round_points(rounds[number], duplicate, scale).items():
            points[person] = points.get(person, 0.0) + value
        for result in rounds[number]:
            places = place_points(result)
            top = max(places.values())
            for position, seated in enumerate(result.players):
                if seated is None:
                    continue
                games[seated] = games.get(seated, 0) + 1
                firsts[seated] = firsts.get(seated, 0) + (places[position] == top)
                met.setdefault(seated, []).extend(
                    p for p in result.players if p is not None and p != seated
                )
    order = {p: i for i, p in enumerate(registered)}
    table = [
        Standing(
            p,
            points.get(p, 0.0),
            _mean([points.get(q, 0.0) for q in met.get(p, [])]),
            firsts.get(p, 0),
            games.get(p, 0),
        )
        for p in registered
    ]
    return sorted(table, key=lambda s: (-s.points, -s.opponents_points, -s.firsts, order[s.person]))


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 6) if values else 0.0


def ranking(table: Sequence[Standing]) -> Mapping[str, int]:
    """Each person's place (1 = first); people level on every tie-break share a place."""
    places: dict[str, int] = {}
    previous: tuple[float, float, int] | None = None
    place = 0
    for index, row in enumerate(table):
        key = (row.points, row.opponents_points, row.firsts)
        if key != previous:
            place = index + 1
            previous = key
        places[row.person] = place
    return places
