"""``Storage.one_at_a_time``: work of one name never overlaps, across storages on one
PostgreSQL database (as separate processes) or within one SQLite process; other names and
other work go on meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from testbed.games import HANG_GUARD
from tests.storage_backends import Backend


async def test_work_of_one_name_runs_one_at_a_time(backend: Backend):
    # PostgreSQL: two storages, two pools, as two processes; SQLite: one process, one storage.
    storages = [await backend.open() for _ in range(2 if backend.name == "postgresql" else 1)]
    inside: list[str] = []
    overlaps: list[tuple[str, ...]] = []

    def work(who: str) -> Callable[[], Awaitable[str]]:
        async def run() -> str:
            inside.append(who)
            if len(inside) > 1:
                overlaps.append(tuple(inside))
            await asyncio.sleep(0.05)
            inside.remove(who)
            return who

        return run

    try:
        mine = [storages[i % len(storages)] for i in range(4)]
        done = await asyncio.gather(
            *(s.one_at_a_time("emojis", work(f"w{i}")) for i, s in enumerate(mine)),
        )
        assert sorted(done) == ["w0", "w1", "w2", "w3"] and overlaps == []
        # Another name is not held up by it, nor is an ordinary write.
        other = asyncio.Event()

        async def holds() -> None:
            await other.wait()

        async def releases() -> None:
            await storages[0].set_meta("k", "v")
            other.set()

        await asyncio.wait_for(
            asyncio.gather(
                storages[-1].one_at_a_time("emojis", holds),
                storages[0].one_at_a_time("other", releases),
            ),
            HANG_GUARD,  # a guard: only a deadlock takes it
        )
        assert await storages[0].get_meta("k") == "v"
    finally:
        for storage in storages:
            await storage.close()
