"""A tournament's points and standings from its finished tables: pure, no I/O.

The scoring rule (the tournament's help says the same, ``tournament.help.scoring``):

- Points by place: at each table a person scores one point for every opponent who finished
  behind them and half a point for every opponent level with them (so at four seats the
  winner takes 3, then 2, 1, 0; at three seats 2, 1, 0; tied places share). Partners (the
  partnership ruleset) are not each other's opponents. Computers are opponents like anyone.
- Duplicate (every table of a round plays the same deals): matchpoints. A person's final score
  is compared with the final score of everyone who held the same seat position at the other
  tables of the round: one point for each they did better than, half for each level
  (``matchpoints``). It must stay the same rule as the daily deal's.
- A table cut short by its round's deadline is finished by computers, and counts as finished.
- Standings order: points; then the opponents' points (the sum of the current points of every
  person met, once per meeting: a strong field ranks higher); then first places; then the
  earliest registration.
- Someone who drops keeps the points of the games they played; a round they miss scores 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableResult:
    """One finished table: who sat in each seat position (None: a computer), each position's
    final score, and which positions are partners."""

    round_number: int
    players: tuple[str | None, ...]
    scores: tuple[int, ...]
    higher_wins: bool
    teams: tuple[tuple[int, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    person: str
    points: float
    opponents_points: float
    firsts: int
    games: int


def _better(a: int, b: int, higher_wins: bool) -> bool:
    return a > b if higher_wins else a < b


def place_points(result: TableResult) -> dict[int, float]:
    """Each position's points by place at its table (the module's rule).

    >>> place_points(TableResult(1, ("a", "b", "c", "d"), (0, 2, 2, 5), False))
    {0: 3.0, 1: 1.5, 2: 1.5, 3: 0.0}
    """
    points: dict[int, float] = {}
    for me, mine in enumerate(result.scores):
        partners = _partners(result, me)
        total = 0.0
        for other, theirs in enumerate(result.scores):
            if other == me or other in partners:
                continue
            if _better(mine, theirs, result.higher_wins):
                total += 1
            elif mine == theirs:
                total += 0.5
        points[me] = total
    return points


def _partners(result: TableResult, seat: int) -> tuple[int, ...]:
    for team in result.teams or ():
        if seat in team:
            return team
    return (seat,)


def matchpoints(scores: Sequence[int], higher_wins: bool) -> list[float]:
    """Matchpoints of scores made on the same deal from the same seat: one for each other score
    beaten, half for each equalled. To be unified with the daily deal's scoring at merge.

    >>> matchpoints([3, 5, 3, 9], higher_wins=False)
    [2.5, 1.0, 2.5, 0.0]
    """
    out = []
    for i, mine in enumerate(scores):
        total = 0.0
        for j, theirs in enumerate(scores):
            if i != j:
                total += 1.0 if _better(mine, theirs, higher_wins) else 0.5 if mine == theirs else 0
        out.append(total)
    return out


def round_points(results: Sequence[TableResult], duplicate: bool) -> dict[str, float]:
    """Each person's points for one round's tables."""
    points: dict[str, float] = {}
    if not duplicate:
        for result in results:
            for position, value in place_points(result).items():
                person = result.players[position]
                if person is not None:
                    points[person] = points.get(person, 0.0) + value
        return points
    by_position: dict[int, list[tuple[str | None, int, bool]]] = defaultdict(list)
    for result in results:
        for position, person in enumerate(result.players):
            by_position[position].append((person, result.scores[position], result.higher_wins))
    for entries in by_position.values():
        values = matchpoints([score for _, score, _ in entries], entries[0][2])
        for (person, _, _), value in zip(entries, values, strict=True):
            if person is not None:
                points[person] = points.get(person, 0.0) + value
    return points


def standings(
    registered: Sequence[str], results: Iterable[TableResult], duplicate: bool
) -> list[Standing]:
    """Everyone registered (in registration order), best first, by the module's rule."""
    rounds: dict[int, list[TableResult]] = defaultdict(list)
    for result in results:
        rounds[result.round_number].append(result)
    points: dict[str, float] = dict.fromkeys(registered, 0.0)
    firsts: dict[str, int] = dict.fromkeys(registered, 0)
    games: dict[str, int] = dict.fromkeys(registered, 0)
    met: dict[str, list[str]] = {p: [] for p in registered}
    for number in sorted(rounds):
        for person, value in round_points(rounds[number], duplicate).items():
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
            sum(points.get(q, 0.0) for q in met.get(p, [])),
            firsts.get(p, 0),
            games.get(p, 0),
        )
        for p in registered
    ]
    return sorted(table, key=lambda s: (-s.points, -s.opponents_points, -s.firsts, order[s.person]))


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
