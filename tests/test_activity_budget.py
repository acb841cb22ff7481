"""The Activity's budgets (bot/activity/budget.py) on a clock passed in: a token bucket's burst
and refill, the per-address buckets' memory bound, and the count that stops the asking."""

from __future__ import annotations

from bot.activity.budget import ADDRESSES_KEPT, PerAddress, TokenBucket, WindowCount


def test_a_bucket_spends_its_burst_then_refills_at_its_rate() -> None:
    bucket = TokenBucket(burst=3, per_minute=60)  # one a second
    assert [bucket.take(100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(100.0) == 1.0  # the next one in a second
    assert bucket.take(100.5) == 0.5
    assert bucket.take(101.0) == 0.0
    # Idle for long: back to its burst, never more.
    assert [bucket.take(1_000.0) for _ in range(4)][:3] == [0.0, 0.0, 0.0]
    assert bucket.take(1_000.0) > 0


def test_one_bucket_per_address_and_only_so_many_kept() -> None:
    limits = PerAddress(burst=1, per_minute=1)
    assert limits.take("10.0.0.1", 0.0) == 0.0
    assert limits.take("10.0.0.1", 0.0) > 0  # this one is spent
    assert limits.take("10.0.0.2", 0.0) == 0.0  # another's is not
    for i in range(ADDRESSES_KEPT + 5):
        limits.take(f"flood-{i}", 1.0)
    assert len(limits.buckets) == ADDRESSES_KEPT
    assert "10.0.0.1" not in limits.buckets  # the least recently seen forgotten first


def test_the_window_count_is_full_until_its_oldest_events_age_out() -> None:
    count = WindowCount(limit=3, window=600.0)
    for at in (0.0, 10.0, 20.0):
        assert count.full_for(at) == 0.0
        count.add(at)
    assert count.full_for(30.0) == 570.0  # until the event at 0 is 10 minutes old
    assert count.full_for(600.0) == 0.0 and count.count(600.0) == 2
    # Calls on their way count: two more pending would fill it.
    assert count.full_for(600.0, pending=1) > 0
    assert count.full_for(600.0, pending=0) == 0.0
