"""Duplicate scoring (engine/duplicate.py): matchpoints on made-up fields, a board's points read
from real games, and the order results arrive in changing nothing."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Rules
from engine.duplicate import (
    BoardScore,
    Field,
    Rotations,
    board_points,
    score_board,
    total_share,
)


def play_out(game: Game, rng: random.Random) -> Game:
    while not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(list(game.legal_actions(seat))))
    return game


def test_a_board_counts_the_others_beaten_and_half_the_ties() -> None:
    # Five people held the board: points 2, 1, 1, 0, -1.
    counts = Counter({2: 1, 1: 2, 0: 1, -1: 1})
    assert score_board(2, counts) == (4, 4)  # beat everyone
    assert score_board(1, counts) == (2.5, 4)  # beat 0 and -1, tied one
    assert score_board(0, counts) == (1, 4)
    assert score_board(-1, counts) == (0, 4)


def test_everyone_tied_shares_half() -> None:
    assert score_board(3, Counter({3: 5})) == (2, 4)
    assert BoardScore(1, 3, 2, 4).share == 0.5


def test_alone_in_the_field_has_no_share() -> None:
    assert score_board(0, Counter({0: 1})) == (0, 0)
    assert BoardScore(1, 0, 0, 0).share is None
    assert total_share([BoardScore(1, 0, 0, 0)]) is None


def test_a_result_not_in_the_field_is_refused() -> None:
    with pytest.raises(ValueError, match="holds no result"):
        score_board(5, Counter({1: 3}))


def test_the_total_weighs_boards_by_their_field() -> None:
    # 3 of 4 on a board of five, 0 of 1 on a board of two: 3 of 5, not the mean of 75% and 0%.
    boards = [BoardScore(1, 2, 3, 4), BoardScore(2, 0, 0, 1)]
    assert total_share(boards) == pytest.approx(0.6)


def test_a_field_scores_each_seat_and_hand_apart() -> None:
    field = Field()
    field.add(0, {1: 2, 2: -1})
    field.add(0, {1: 1, 2: 0, 3: 1})  # a longer game: hand 3 is in its field alone
    field.add(1, {1: 5})  # another seat: another board
    mine = field.score(0, {1: 2, 2: -1})
    assert [(b.hand, b.matchpoints, b.top) for b in mine] == [(1, 1, 1), (2, 0, 1)]
    longer = field.score(0, {1: 1, 2: 0, 3: 1})
    assert [(b.hand, b.matchpoints, b.top) for b in longer] == [(1, 0, 1), (2, 1, 1), (3, 0, 0)]
    assert total_share(longer) == pytest.approx(0.5)


@pytest.mark.parametrize("ruleset", ["classic", "partnership", "four-player", "nein-nine"])
def test_board_points_follow_the_score_sheet(ruleset: str) -> None:
    rules = Rules.from_settings(ruleset)
    game = play_out(Game(rules, seed=11), random.Random(3))
    for seat in range(rules.players):
        points = board_points(game, seat)
        assert sorted(points) == list(range(1, game.hand_number + 1))
        unit = rules.unit_of(seat)
        final = game.start_scores[unit] + sum(points.values()) * (
            1 if rules.kind.higher_wins else -1
        )
        assert final == game.scores[unit]
    if rules.kind.has_quota:
        # Nines: the points are the tricks over the quota.
        hand = game.hands_log[0]
        assert hand.result is not None
        seat = 0
        took = sum(hand.result.tricks_won[s] for s in rules.seats_of(rules.unit_of(seat)))
        assert board_points(game, seat)[1] == took - rules.quota


def test_the_same_seed_deals_the_same_board_whatever_was_played_before() -> None:
    # Two games of one deal played differently: hand 2 holds the same cards, the same dealer.
    rules = Rules.from_settings("classic")
    one = play_out(Game(rules, seed=99), random.Random(1))
    two = play_out(Game(rules, seed=99), random.Random(2))
    assert one.log != two.log
    for a, b in zip(one.hands_log, two.hands_log, strict=False):
        assert (a.number, a.dealer, a.dealt, a.spare) == (b.number, b.dealer, b.dealt, b.spare)


results = st.lists(
    st.dictionaries(st.integers(1, 6), st.integers(-4, 4), min_size=1, max_size=6),
    min_size=1,
    max_size=25,
)


@settings(max_examples=120, deadline=None)
@given(results, st.randoms(use_true_random=False))
def test_matchpoints_do_not_depend_on_the_order_results_arrived(
    people: list[dict[int, int]], rng: random.Random
) -> None:
    in_order = Field()
    for points in people:
        in_order.add(0, points)
    shuffled = list(enumerate(people))
    rng.shuffle(shuffled)
    other_order = Field()
    for _, points in shuffled:
        other_order.add(0, points)
    for points in people:
        assert in_order.score(0, points) == other_order.score(0, points)
    # And on each board the matchpoints handed out sum to the pairs of the field: n(n-1)/2.
    for hand in {h for points in people for h in points}:
        field = [p[hand] for p in people if hand in p]
        counts = Counter(field)
        given_out = sum(score_board(p, counts)[0] for p in field)
        assert given_out == len(field) * (len(field) - 1) / 2


def test_a_match_at_one_table_scores_each_hand_against_the_seat_before_it() -> None:
    # Three players, three games of one deal; two hands each. Seat points per game.
    first = ({1: 1, 2: 0}, {1: -1, 2: 0}, {1: 0, 2: 0})
    second = ({1: 0}, {1: 0}, {1: 0})  # the second game, one hand in
    match = Rotations(3, (first,))
    assert match.rotation == 1
    now = match.standing(second)
    # Hand 1, seat 0: 0 against the first game's 1 (lost); seat 1: 0 against -1 (beat).
    assert [[(b.hand, b.matchpoints, b.top) for b in seat] for seat in now.boards] == [
        [(1, 0, 1)],
        [(1, 1, 1)],
        [(1, 0.5, 1)],
    ]
    # Seat 0 now is the first game's seat 2 (one seat further round): that person's hand 1
    # in game 1 (tied, 0.5) and game 2 (lost, 0); hand 2 of game 1 has no other holder yet.
    assert now.totals[0] == (0.5, 2)
    # The first game's seat 0 (now seat 1): beat seat 0's holder on hand 1 now, and beat -1.
    assert now.totals[1] == (2, 2)


@pytest.mark.parametrize("ruleset", ["classic", "partnership", "nein-nine"])
def test_a_whole_match_stands_at_its_end_as_the_field_scores_it(ruleset: str) -> None:
    rules = Rules.from_settings(ruleset)
    n = rules.players
    games = [play_out(Game(rules, seed=7), random.Random(r)) for r in range(n)]
    points = [tuple(board_points(g, s) for s in range(n)) for g in games]
    last = Rotations(n, tuple(points[:-1])).standing(points[-1])
    field = Field()
    for game in points:
        for seat, board in enumerate(game):
            field.add(seat, board)
    for seat in range(n):
        assert last.boards[seat] == tuple(field.score(seat, points[-1][seat]))
        # The person at ``seat`` in the last game held seat ``seat - (n - 1) + g`` in game g.
        mine = [
            b
            for g in range(n)
            for b in field.score((seat + 1 + g) % n, points[g][(seat + 1 + g) % n])
        ]
        assert last.totals[seat] == (sum(b.matchpoints for b in mine), sum(b.top for b in mine))
