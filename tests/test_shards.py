"""Sharding: SHARD_COUNT and SHARD_IDS, and the leases and IDENTIFY slots that several processes
share through the database (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.base import Settings, SettingsError
from bot.process.shards import ShardLeases
from bot.storage import Storage
from tests.lease_clock import LeaseClock
from tests.storage_backends import Backend

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def settings(**env: str) -> Settings:
    return Settings.from_mapping({"DISCORD_TOKEN": TOKEN, **env})


def test_unsharded_by_default() -> None:
    s = settings()
    assert (s.shard_count, s.shard_ids) == (None, None)


def test_shard_count_and_ids() -> None:
    assert settings(SHARD_COUNT="4").shard_count == 4
    assert settings(SHARD_COUNT="4").shard_ids is None  # all of them
    s = settings(SHARD_COUNT=" 4 ", SHARD_IDS="2, 0,2")
    assert (s.shard_count, s.shard_ids) == (4, (0, 2))


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT='0' must be a whole number"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT='two' must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS='2' must be shard numbers from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "SHARD_IDS='0;1' must be shard numbers"),
    ],
)
def test_malformed_shards(env: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        settings(**env)
    assert words in str(caught.value) and "\n" not in str(caught.value)


class Clock:
    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def two(backend: Backend, clock: Clock) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two processes' storages on one database."""
    a = await backend.open(now=clock)
    b = await backend.open(now=clock)
    yield a, b
    await a.close()
    await b.close()


async def test_one_owner_per_shard_until_its_lease_expires(
    two: tuple[Storage, Storage], clock: Clock
) -> None:
    a, b = two
    assert await a.take_shards([0, 1], "A", 15) == {0, 1}
    assert await b.take_shards([0, 1, 2], "B", 15) == {2}
    clock.t += 10
    assert await a.take_shards([0], "A", 15) == {0}  # renewed: 0 until +25, 1 until +15
    clock.t += 5
    assert await b.take_shards([0, 1], "B", 15) == {1}  # 1 expired: B takes it over
    assert await a.take_shards([0, 1], "A", 15) == {0}  # A's renewal of 1 fails: it lost it
    leases = await a.shard_leases()
    assert {s: lease.owner for s, lease in leases.items()} == {0: "A", 1: "B", 2: "B"}
    assert leases[1].expires_at == clock.t + 15


async def test_a_wanted_shard_is_handed_back(two: tuple[Storage, Storage], clock: Clock) -> None:
    a, b = two
    assert await a.take_shards([0, 1], "A", 15) == {0, 1}
    assert not await a.hand_over(1, "A", 15)  # nobody asked
    await b.want_shards([1], "B")
    await a.want_shards([0], "A")  # its own: no request
    assert await a.take_shards([0, 1], "A", 15) == {0, 1}  # a renewal keeps the request
    leases = await a.shard_leases()
    assert (leases[0].wanted_by, leases[1].wanted_by) == (None, "B")
    assert await a.hand_over(1, "A", 15)
    assert await a.take_shards([0, 1], "A", 15) == {0}
    assert await b.take_shards([1], "B", 15) == {1}  # B's own lease now: renewed
    assert (await b.shard_leases())[1].wanted_by is None
    # A request dies with the owner's change: an expired lease taken over clears it.
    await a.want_shards([1], "A")
    clock.t += 16
    assert await a.take_shards([1], "A", 15) == {1}
    assert (await a.shard_leases())[1].wanted_by is None


async def test_a_released_shard_is_free_at_once(two: tuple[Storage, Storage]) -> None:
    a, b = two
    assert await a.take_shards([0, 1], "A", 15) == {0, 1}
    await b.release_shards([0], "B")  # not B's: nothing happens
    assert await b.take_shards([0], "B", 15) == set()
    await a.release_shards([0, 1], "A")
    assert await b.take_shards([0, 1], "B", 15) == {0, 1}


async def test_racing_processes_get_a_shard_once(two: tuple[Storage, Storage]) -> None:
    a, b = two
    got = await asyncio.gather(*(s.take_shards(range(8), o, 15) for s, o in ((a, "A"), (b, "B"))))
    assert got[0] | got[1] == set(range(8)) and not got[0] & got[1]


async def test_identify_slots_are_spaced_per_bucket(
    two: tuple[Storage, Storage], clock: Clock
) -> None:
    a, b = two
    start = clock.t
    assert await a.reserve_identify(0, 5.0) == start
    assert await b.reserve_identify(0, 5.0) == start + 5
    assert await b.reserve_identify(1, 5.0) == start  # another bucket: at once
    assert await a.reserve_identify(0, 5.0) == start + 10
    clock.t += 60
    assert await b.reserve_identify(0, 5.0) == clock.t  # long free: now
    slots = await asyncio.gather(*(s.reserve_identify(2, 5.0) for s in (a, b, a, b)))
    assert sorted(slots) == [clock.t, clock.t + 5, clock.t + 10, clock.t + 15]


async def test_leases_of_a_process(backend: Backend, lease_clock: LeaseClock) -> None:
    """ShardLeases (on a clock moved by hand): wanted shards taken, expired ones of others
    taken over, a wanted shard held by another asked for and handed back, and all let go once
    the database is away past the lease."""
    a_store = await backend.open(now=lease_clock.time)
    b_store = await backend.open(now=lease_clock.time)
    try:
        await _leases_of_a_process(a_store, b_store, lease_clock)
    finally:
        await a_store.close()
        await b_store.close()


async def _leases_of_a_process(a_store: Storage, b_store: Storage, clock: LeaseClock) -> None:
    a = ShardLeases(a_store, 3, (0,), lease=0.3)
    b = ShardLeases(b_store, 3, (1,), lease=0.3)
    assert await a.renew() == ({0}, set(), set())
    assert await b.renew() == ({1}, set(), set())
    assert a.serves(2 << 22) is False and a.serves(3 << 22) is True  # shards 2 and 0
    clock.advance(0.35)  # b stopped renewing: its shard 1 is an orphan
    assert await a.renew() == ({1}, set(), set())
    gained, lost, asked = await b.renew()  # b is back: 1 is a's now, b asks for it
    assert (gained, lost, asked) == (set(), {1}, set())
    assert await a.renew() == (set(), set(), {1})
    a.held -= {1}
    await a.hand_back(frozenset({1}))
    assert (await b.renew())[0] == {1}

    class Away:
        async def take_shards(self, *_args: object) -> set[int]:
            raise ConnectionError("the database is away")

    a.storage = Away()  # type: ignore[assignment]
    with pytest.raises(ConnectionError):
        await a.renew()
    assert a.expire() == set()  # still surely a's for a while
    clock.advance(0.35)
    assert a.expire() == {0} and a.held == set()


async def test_an_orphan_taken_over_is_not_handed_back_at_once(
    backend: Backend, lease_clock: LeaseClock
) -> None:
    """Issue 32 (found by the chaos run): a shard whose owner asked for it back and died again
    is an orphan; the process that takes it over keeps it (taking it cleared the request)
    rather than letting it go, unserved, while its lease stays this process's."""
    a_store = await backend.open(now=lease_clock.time)
    b_store = await backend.open(now=lease_clock.time)
    try:
        a = ShardLeases(a_store, 2, (0,), lease=0.3)
        b = ShardLeases(b_store, 2, (1,), lease=0.3)
        assert await a.renew() == ({0}, set(), set())
        await a_store.take_shards({1}, "dead", 0.3)  # a process since dead holds shard 1
        await a_store.want_shards({1}, b.owner)  # b came back and asked for it, then died
        lease_clock.advance(0.35)
        gained, lost, asked = await a.renew()
        assert (gained, lost, asked) == ({1}, set(), set())
        assert a.held == {0, 1}
        assert (await a_store.shard_leases())[1].wanted_by is None
    finally:
        await a_store.close()
        await b_store.close()


async def test_forgotten_settings_are_read_again(two: tuple[Storage, Storage]) -> None:
    """A process taking a shard over drops its cached server settings: another process may
    have changed them while it served the shard."""
    a, b = two
    await a.set_guild_settings(7, {"turn_timer": 60})
    await b.set_guild_settings(7, {"turn_timer": 90})
    assert await a.get_guild_settings(7) == {"turn_timer": 60}  # a's cache
    a.forget_guild_settings()
    assert await a.get_guild_settings(7) == {"turn_timer": 90}


async def test_each_new_holder_gets_the_next_epoch(
    two: tuple[Storage, Storage], clock: Clock
) -> None:
    """The fencing token (issue 32): one more per new holder, the same across renewals."""
    a, b = two
    assert await a.take_shards([0], "A", 15) == {0}
    assert (await a.shard_leases())[0].epoch == 1
    clock.t += 10
    assert await a.take_shards([0], "A", 15) == {0}
    assert (await a.shard_leases())[0].epoch == 1  # renewed: the same holder
    clock.t += 20
    assert await b.take_shards([0], "B", 15) == {0}  # A died: B takes over
    assert (await b.shard_leases())[0].epoch == 2
    await a.want_shards([0], "A")
    assert await b.hand_over(0, "B", 15)  # back to A
    lease = (await a.shard_leases())[0]
    assert (lease.owner, lease.epoch) == ("A", 3)


async def test_the_leases_know_the_epoch_of_each_shard_held(
    two: tuple[Storage, Storage], clock: Clock
) -> None:
    a, b = two
    first = ShardLeases(a, 2, (0, 1), lease=15)
    await first.renew()
    assert first.epochs == {0: 1, 1: 1}
    clock.t += 20  # first died
    second = ShardLeases(b, 2, (1,), lease=15)
    gained, _lost, _asked = await second.renew()
    assert gained == {0, 1} and second.epochs == {0: 2, 1: 2}
