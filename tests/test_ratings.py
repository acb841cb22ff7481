"""bot.storage.ratings: openskill Plackett-Luce ratings and the display scale."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage import ratings
from bot.storage.ratings import Rating, display_rating, initial, rate


def test_new_player_shows_1000() -> None:
    assert initial().display == pytest.approx(1000.0)
    assert display_rating(25.0, 25.0 / 3.0) == pytest.approx(1000.0)
    assert ratings.DISPLAY_BASE + ratings.DISPLAY_SCALE * initial().ordinal == initial().display


def test_winner_moves_up_and_loser_down() -> None:
    first, second, last = rate([None, None, None], [1, 2, 3])
    start = initial()
    assert first.mu > start.mu
    assert last.mu < start.mu
    assert first.display > second.display > last.display
    # A game teaches the model something about everyone, whatever the place.
    assert all(r.sigma < start.sigma for r in (first, second, last))


def test_ties_share_the_change() -> None:
    a, b, c = rate([None, None, None], [1, 1, 3])
    assert a == b
    assert a.mu > c.mu


def test_existing_ratings_and_tuples_are_accepted() -> None:
    as_rating = rate([Rating(30.0, 3.0), None], [2, 1])
    as_tuple = rate([(30.0, 3.0), None], [2, 1])
    assert as_rating == as_tuple
    # An upset: the strong, well-known player loses, so they drop and the newcomer jumps.
    assert as_rating[0].mu < 30.0
    assert as_rating[1].mu > 25.0


def test_deterministic_and_order_independent() -> None:
    players: list[Rating | None] = [Rating(27.0, 5.0), None, Rating(22.0, 7.0), Rating(25.0, 1.5)]
    places = [2, 1, 4, 3]
    once = rate(players, places)
    assert rate(players, places) == once
    order = [3, 0, 2, 1]
    shuffled = rate([players[i] for i in order], [places[i] for i in order])
    for position, i in enumerate(order):
        assert shuffled[position].mu == pytest.approx(once[i].mu)
        assert shuffled[position].sigma == pytest.approx(once[i].sigma)


@pytest.mark.parametrize(
    ("players", "places"),
    [
        ([None], [1]),
        ([None, None], [1]),
        ([None, None], [0, 1]),
    ],
)
def test_bad_input_is_refused(players: list[Rating | None], places: list[int]) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        rate(players, places)


_ratings = st.one_of(
    st.none(),
    st.builds(
        Rating,
        st.floats(min_value=10.0, max_value=40.0),
        st.floats(min_value=1.0, max_value=8.5),
    ),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_ratings, min_size=2, max_size=5))
def test_sole_first_gains_and_sole_last_loses(players: list[Rating | None]) -> None:
    places = list(range(1, len(players) + 1))
    new = rate(players, places)
    before = [p if p is not None else initial() for p in players]
    assert new[0].mu > before[0].mu
    assert new[-1].mu < before[-1].mu
    assert all(r.sigma > 0 for r in new)
