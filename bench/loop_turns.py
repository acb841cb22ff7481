"""How many turns of a busy event loop a move's database writes cost (a script, not a test).

    .venv/bin/python bench/loop_turns.py [--busy-ms 5] [--writes 200]

On SQLite a move's write runs on the loop's own thread: no turn. On PostgreSQL each await on
the server costs turns of the loop, and when 200 games click in the same second every turn is
every other game's work: that, not the server, is PostgreSQL's tail in bench/load.py. Here a
callback burns ``--busy-ms`` of CPU on every turn (a loop full of other games' work) while the
storage writes a move, a delivery mark, and a bare statement on a connection already held;
each figure is the median time divided by the turn's length.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def turns(write: Callable[[], Awaitable[object]], busy_s: float, count: int) -> float:
    loop = asyncio.get_running_loop()
    stop = False

    def busy() -> None:
        end = time.perf_counter() + busy_s
        while time.perf_counter() < end:
            pass
        if not stop:
            loop.call_soon(busy)

    loop.call_soon(busy)
    spent = []
    try:
        for _ in range(count):
            start = time.perf_counter()
            await write()
            spent.append(time.perf_counter() - start)
    finally:
        stop = True
    return statistics.median(spent) / busy_s


async def measure(url: str, busy_s: float, count: int) -> None:
    from bot.storage import Storage
    from bot.storage.postgres import PostgresDriver

    storage = await Storage.open(url)
    try:
        game = await storage.create_game(
            guild_id=1, channel_id=2, kind="nines", rules={}, seed=1, host_id=3
        )
        await storage.update_game(game.id, status="live")
        n = [0]

        async def move() -> None:
            n[0] = await storage.append_actions(game.id, n[0], [(0, "x", False)])

        async def mark() -> None:
            await storage.update_game(game.id, table_message_id=5)

        driver = storage._driver
        assert isinstance(driver, PostgresDriver)
        async with driver._pool.acquire() as conn:

            async def bare() -> None:
                await conn.fetchval("SELECT 1")

            floor = await turns(bare, busy_s, count)
        print(f"turns of a loop busy {busy_s * 1000:.0f} ms a turn (median of {count}):")
        print(f"  a move's write (append_actions)       {await turns(move, busy_s, count):.1f}")
        print(f"  a delivery mark (update_game)         {await turns(mark, busy_s, count):.1f}")
        print(f"  a bare statement, connection held     {floor:.1f}")
    finally:
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--busy-ms", type=float, default=5.0)
    parser.add_argument("--writes", type=int, default=200)
    args = parser.parse_args()

    from testbed.postgres import running_server

    with running_server() as server:

        async def run() -> None:
            await measure(await server.create("turns"), args.busy_ms / 1000, args.writes)

        asyncio.run(run())


if __name__ == "__main__":
    main()
