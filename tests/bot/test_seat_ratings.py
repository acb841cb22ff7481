"""Issue 29: each seat's rating line is its own, even for two computers of one level (which
share one leaderboard entry, moved by the mean of their seats' changes)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage, ratings
from tests.storage_backends import Backend
from tests.test_storage import GUILD, Clock, computer, person, play_and_finish


@pytest.fixture
async def storage(backend: Backend) -> AsyncIterator[Storage]:
    store = await backend.open(now=Clock())
    yield store
    await store.close()


async def test_two_computers_of_a_level_each_show_their_own_change(storage: Storage) -> None:
    # Four-player: a computer wins, a person second and third, the other computer last.
    seats = [computer(0, "normal"), person(1, 11), person(2, 12), computer(3, "normal")]
    game = await play_and_finish(storage, seats, [1, 2, 3, 4])
    finished = await storage.game_result(game.id)
    assert finished is not None
    changes = {c.seat: c for c in finished.rating_changes}
    expected = ratings.rate([None] * 4, [1, 2, 3, 4])
    # Each seat, computers included, shows the change rated for that seat alone.
    for seat, rating in enumerate(expected):
        assert changes[seat].after == pytest.approx(rating.display)
    assert changes[0].delta > 0 > changes[3].delta
    # The level's one entry moved by the mean of its two seats' changes, over two games played.
    level = await storage.stats(GUILD, "nines", "cpu:normal")
    assert level is not None
    start = ratings.initial()
    mu = start.mu + (expected[0].mu - start.mu + expected[3].mu - start.mu) / 2
    sigma = (expected[0].sigma + expected[3].sigma) / 2
    assert level.rating == pytest.approx(ratings.display_rating(mu, sigma))
    assert level.games == 2
