"""The scoring rule (bot/tournament/standings.py): points by place (scaled so a three-seat
table of a four-seat tournament is worth as much), duplicate scored hand by hand as the daily
deal scores them (engine/duplicate.py), the tie-breaks in their stated order, and a drop's
games standing."""

from __future__ import annotations

import doctest

import bot.tournament.standings as module
from bot.tournament.standings import TableResult, place_points, ranking, round_points, standings
from engine.duplicate import Field, score_board


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


def test_a_three_seat_table_in_a_four_seat_tournament_is_worth_the_same_first_and_last() -> None:
    four = TableResult(1, ("a", "b", "c", "d"), (0, 2, 5, 9), False)
    three = TableResult(1, ("e", "f", "g"), (3, 0, 8), False)
    assert place_points(four, scale=3) == {0: 3.0, 1: 2.0, 2: 1.0, 3: 0.0}
    assert place_points(three, scale=3) == {0: 1.5, 1: 3.0, 2: 0.0}
    # A seat is worth 1.5 on average at both sizes.
    assert sum(place_points(four, 3).values()) / 4 == sum(place_points(three, 3).values()) / 3
    # Level at a three-seat table: the share of the opponents, so 2.25 and 2.25 over 0.
    tied = TableResult(1, ("e", "f", "g"), (0, 0, 8), False)
    assert place_points(tied, scale=3) == {0: 2.25, 1: 2.25, 2: 0.0}
    points = round_points([four, three], duplicate=False, scale=3)
    assert points == {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0, "e": 1.5, "f": 3.0, "g": 0.0}


def test_duplicate_compares_each_hand_from_the_same_position_as_the_daily_deal() -> None:
    """Two tables of three played the same deals; each person's round is their share of the
    field beaten over their hands (engine/duplicate.py), times the scale."""
    first = TableResult(
        1, ("a", "b", "c"), (0, 5, 7), False, boards=({1: 3, 2: 1}, {1: 0, 2: 2}, {1: 1})
    )
    second = TableResult(
        1, ("d", "e", None), (3, 5, 1), False, boards=({1: 1, 2: 1}, {1: 0, 2: 0}, {1: 4})
    )
    points = round_points([first, second], duplicate=True, scale=2)
    # a beat d on hand 1 and tied on hand 2: (1 + 0.5) / 2 of the field, times 2.
    assert points["a"] == 1.5 and points["d"] == 0.5
    # b tied e on hand 1 and beat them on hand 2.
    assert points["b"] == 1.5 and points["e"] == 0.5
    # c lost hand 1 to the computer: 0 of 1.
    assert points["c"] == 0.0
    # The same function serves the daily deal: board by board.
    field = Field()
    field.add(0, {1: 3})
    field.add(0, {1: 1})
    assert score_board(3, field.counts[(1, 0)]) == (1.0, 1)
    # Nothing to compare (one table): level, half the scale each.
    alone = round_points([first], duplicate=True, scale=2)
    assert alone == {"a": 1.0, "b": 1.0, "c": 1.0}


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
    # a and b level on 3: a met b, c, d, f (3+1+4+0 = 8, 2 on average), b met a, c, c, e
    # (3+1+1+1 = 6, 1.5 on average).
    assert [s.person for s in table][:3] == ["d", "a", "b"]
    assert table[1].opponents_points == 2.0 and table[2].opponents_points == 1.5
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
