"""The daily deal's storage (bot/storage/daily.py), on both databases: one try per person, day
and game, even when two processes claim it at once; a finish joins the field once; the field
read as counts; the standings' rows per server and across servers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage
from tests.storage_backends import Backend

DAY = "2026-12-02"
NOW = 1_700_000_000.0


@pytest.fixture
async def storage(backend: Backend) -> AsyncIterator[Storage]:
    store = await backend.open(now=lambda: NOW)
    yield store
    await store.close()


async def claim(storage: Storage, user_id: int, guild_id: int = 1, day: str = DAY) -> bool:
    _try, claimed = await storage.claim_daily(
        day, "nines", user_id, guild_id=guild_id, channel_id=10 * guild_id, name=f"p{user_id}"
    )
    return claimed


async def test_a_try_is_claimed_once(storage: Storage) -> None:
    assert await claim(storage, 7)
    assert not await claim(storage, 7)  # the same day and game: refused
    assert await claim(storage, 7, day="2026-12-03")  # another day
    found, claimed = await storage.claim_daily(
        DAY, "nein-nine", 7, guild_id=2, channel_id=20, name="p7"
    )
    assert claimed and found.kind == "nein-nine" and not found.finished
    again = await storage.daily_try(DAY, "nines", 7)
    assert again is not None and again.channel_id == 10 and again.game_id is None


async def test_two_processes_claiming_at_once_give_one_try(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    try:
        results = await asyncio.gather(
            *(claim(store, 7, guild_id=g) for g in (1, 2) for store in (first, second))
        )
        assert sorted(results) == [False, False, False, True]
    finally:
        await first.close()
        await second.close()


async def test_a_finish_joins_the_field_once(storage: Storage) -> None:
    for user in (1, 2, 3):
        await claim(storage, user)
    choices = [(1, 0, "KEEP"), (1, 1, "AS")]
    assert await storage.finish_daily(DAY, "nines", 1, {1: 2, 2: -1}, choices)
    assert await storage.finish_daily(DAY, "nines", 2, {1: 2, 2: 0, 3: 1}, [(1, 0, "SWAP")])
    # Finished already: nothing more is added.
    assert not await storage.finish_daily(DAY, "nines", 1, {1: 2, 2: -1}, choices)
    # Never claimed: nothing.
    assert not await storage.finish_daily(DAY, "nines", 9, {1: 5}, [])
    assert await storage.daily_field(DAY, "nines") == {1: {2: 2}, 2: {-1: 1, 0: 1}, 3: {1: 1}}
    assert await storage.daily_field(DAY, "nein-nine") == {}
    assert await storage.daily_choices(DAY, "nines") == {
        (1, 0): {"KEEP": 1, "SWAP": 1},
        (1, 1): {"AS": 1},
    }
    found = await storage.daily_try(DAY, "nines", 1)
    assert found is not None and found.finished_at == NOW


async def test_the_standings_rows_per_server_and_across(storage: Storage) -> None:
    await claim(storage, 1, guild_id=1)
    await claim(storage, 2, guild_id=2)
    await claim(storage, 3, guild_id=1)  # unfinished: in no standings
    await storage.finish_daily(DAY, "nines", 1, {1: 1}, [])
    await storage.finish_daily(DAY, "nines", 2, {1: 0}, [])
    here = await storage.daily_boards([DAY], "nines", guild_id=1)
    assert [(b.user_id, b.hand, b.points) for b in here] == [(1, 1, 1)]
    everyone = await storage.daily_boards([DAY], "nines")
    assert sorted(b.user_id for b in everyone) == [1, 2]
    # Across servers only those who said yes, by their chosen name.
    assert await storage.daily_boards([DAY], "nines", public_only=True) == []
    await storage.set_daily_public_name(2, "Ace of Spades")
    public = await storage.daily_boards([DAY], "nines", public_only=True)
    assert [(b.user_id, b.name) for b in public] == [(2, "Ace of Spades")]
    assert await storage.daily_public_name(2) == "Ace of Spades"
    await storage.set_daily_public_name(2, None)
    assert await storage.daily_public_name(2) is None
    assert await storage.daily_boards([DAY], "nines", public_only=True) == []


async def test_forget_me_drops_the_public_name_and_the_name_of_this_servers_tries(
    storage: Storage,
) -> None:
    await claim(storage, 7, guild_id=1)
    await claim(storage, 7, guild_id=2, day="2026-12-03")
    await storage.set_daily_public_name(7, "Seven")
    await storage.forget_player(1, 7)
    assert await storage.daily_public_name(7) is None
    here = await storage.daily_try(DAY, "nines", 7)
    there = await storage.daily_try("2026-12-03", "nines", 7)
    assert here is not None and here.name == "Former player"
    assert there is not None and there.name == "p7"  # another server's: its own forget-me
    assert not await claim(storage, 7, guild_id=1)  # still one try a day


async def test_a_try_takes_one_game(storage: Storage) -> None:
    """Two processes that both made a game for one try: the first attached is the try's."""
    assert await claim(storage, 7)
    first, second = [
        await storage.create_game(
            guild_id=g, channel_id=10 * g, kind="nines", rules={}, seed=1, host_id=7, rated=False
        )
        for g in (1, 2)
    ]
    assert await storage.attach_daily_game(DAY, "nines", 7, first.id)
    assert not await storage.attach_daily_game(DAY, "nines", 7, second.id)
    found = await storage.daily_try(DAY, "nines", 7)
    assert found is not None and found.game_id == first.id
