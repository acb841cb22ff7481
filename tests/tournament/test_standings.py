"""The scoring rule (bot/tournament/standings.py): points by place, matchpoints in duplicate,
the tie-breaks in their stated order, and a drop's games standing."""

from __future__ import annotations

import doctest

import bot.tournament.standings as module
from bot.tournament.standings import TableResult, matchpoints, place_points, ranking, standings


def test_the_modules_examples() -> None:
    assert doctest.testmod(module).failed == 0


def test_points_by_place_share_ties_and_skip_partners() -> None:
    # Nines: the lowest score wins (N8).
    assert place_points(TableResult(1, ("a", "b", "c"), (0, 4, 2), False)) == {
        0: 2.0,
        1: 0.0,
        2: 1.0,
    }
    # Nein Nine: the highest wins (G9).
    assert place_points(TableResult(1, ("a", "b", "c"), (3, 3, -2), True)) == {
        0: 1.5,
        1: 1.5,
        2: 0.0,
    }
    partnership = TableResult(1, ("a", "b", "c", "d"), (0, 5, 0, 5), False, ((0, 2), (1, 3)))
    assert place_points(partnership) == {0: 2.0, 1: 0.0, 2: 2.0, 3: 0.0}


def test_matchpoints_compare_the_same_seat_across_tables() -> None:
    assert matchpoints([1, 1], False) == [0.5, 0.5]
    assert matchpoints([0, 4, 9], False) == [2.0, 1.0, 0.0]
    # Duplicate round: seat 0 at both tables compared with each other only.
    results = [
        TableResult(1, ("a", "b", "c"), (0, 5, 7), False),
        TableResult(1, ("d", "e", None), (3, 5, 1), False),
    ]
    assert module.round_points(results, duplicate=True) == {
        "a": 1.0,
        "d": 0.0,
        "b": 0.5,
        "e": 0.5,
        "c": 0.0,
    }


def test_standings_order_points_then_opponents_points_then_firsts() -> None:
    people = ["a", "b", "c", "d", "e", "f"]
    results = [
        TableResult(1, ("a", "b", "c"), (0, 5, 7), False),
        TableResult(1, ("d", "e", "f"), (0, 5, 7), False),
        TableResult(2, ("a", "d", "f"), (4, 0, 9), False),
        TableResult(2, ("b", "c", "e"), (0, 2, 9), False),
    ]
    table = standings(people, results, duplicate=False)
    points = {s.person: s.points for s in table}
    assert points == {"a": 3.0, "b": 3.0, "c": 1.0, "d": 4.0, "e": 1.0, "f": 0.0}
    # a and b level on 3: a met b, c, d, f (3+1+4+0 = 8), b met a, c, c, e (3+1+1+1 = 6).
    assert [s.person for s in table][:3] == ["d", "a", "b"]
    assert table[1].opponents_points == 8.0 and table[2].opponents_points == 6.0
    places = ranking(table)
    assert places["d"] == 1 and places["a"] == 2 and places["b"] == 3


def test_a_dropped_persons_games_stand_and_a_late_joiner_starts_at_nought() -> None:
    results = [TableResult(1, ("a", "b", None), (0, 5, 7), False)]
    table = standings(["a", "b", "late"], results, duplicate=False)
    assert [(s.person, s.points, s.games) for s in table] == [
        ("a", 2.0, 1),
        ("b", 1.0, 1),
        ("late", 0.0, 0),
    ]
