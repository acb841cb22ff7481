"""What a daily deal's finish costs when the whole field plays it (a script, not a test).

    PYTHONPATH=. python bench/daily_field.py [--players 10000] [--servers 1000] [--database URL]

Issue 47's target: ten thousand people playing the same daily across a thousand servers. Each
person's finish is what the bot does at the end of a daily (``bot/game/daily.py``, ``Daily.record``
after the game is stored): claim the try, write its hands' points and decisions, add one to
each hand's count of the field and each decision's, then read the field's counts and score the
try against them. The results are made up in the shapes real ones have (a Nines deal's 6 to 12
hands, points from -4 to +5 a hand, 8 to 14 decisions a hand among a few cards each), as
playing ten thousand games with the hard computers would take hours and measure the players,
not the field.

Printed: the finish's time (p50, p95, max) for each tenth of the field, so a cost that grew
with the field would show; the rows the field holds; the Python memory a finish allocates at
its peak (``tracemalloc``) and what stays held after it; the standings' time over the whole
field (computed when asked, never per finish). A SQLite file in a temporary folder by default;
``--database`` takes a PostgreSQL URL, ``--postgres`` starts a throwaway server of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.game import rank, score_try
from bot.storage import Storage

DAY = "2026-12-02"
KIND = "nines"


def made_up(rng: random.Random) -> tuple[dict[int, int], list[tuple[int, int, str]]]:
    hands = rng.randint(6, 12)
    points = {hand: rng.randint(-4, 5) for hand in range(1, hands + 1)}
    decisions = [
        (hand, n, rng.choice(("AS", "KH", "9C", "7D", "QS", "2H")))
        for hand in points
        for n in range(rng.randint(8, 14))
    ]
    return points, decisions


async def finish(
    storage: Storage, user_id: int, guild_id: int, rng: random.Random
) -> tuple[float, int]:
    """One person's finish, as the bot does it; its seconds and the peak bytes it allocated."""
    points, decisions = made_up(rng)
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    started = time.perf_counter()
    await storage.claim_daily(
        DAY, KIND, user_id, guild_id=guild_id, channel_id=guild_id, name=f"p{user_id}"
    )
    await storage.finish_daily(DAY, KIND, user_id, points, decisions)
    counts = await storage.daily_field(DAY, KIND)
    score_try(points, counts)
    await storage.daily_choices(DAY, KIND)
    took = time.perf_counter() - started
    return took, tracemalloc.get_traced_memory()[1] - before


async def run(players: int, servers: int, database: str | None) -> None:
    folder = tempfile.TemporaryDirectory()
    target = database or str(Path(folder.name) / "daily.sqlite3")
    storage = await Storage.open(target)
    rng = random.Random(47)
    tracemalloc.start()
    held_before = tracemalloc.get_traced_memory()[0]
    tenth = max(1, players // 10)
    times: list[float] = []
    peaks: list[int] = []
    print(f"{players} finishes over {servers} servers, {storage.dialect}")
    print("players so far    p50 ms    p95 ms    max ms   peak KB")
    for user in range(1, players + 1):
        took, peak = await finish(storage, user, 1 + user % servers, rng)
        times.append(took)
        peaks.append(peak)
        if user % tenth == 0:
            q = statistics.quantiles(times, n=20)
            print(
                f"{user:>13}  {1000 * statistics.median(times):8.2f}  {1000 * q[18]:8.2f}"
                f"  {1000 * max(times):8.2f}  {max(peaks) / 1024:8.1f}"
            )
            times, peaks = [], []
    held = tracemalloc.get_traced_memory()[0] - held_before
    counts = await storage.daily_field(DAY, KIND)
    rows = sum(len(c) for c in counts.values())
    choices = await storage.daily_choices(DAY, KIND)
    print(f"field: {rows} rows of counts over {len(counts)} hands; {len(choices)} decisions")
    print(f"Python memory held after the run: {held / 1024:.0f} KB")
    started = time.perf_counter()
    boards = await storage.daily_boards([DAY], KIND, guild_id=None, public_only=False)
    read = time.perf_counter() - started
    standings = rank(boards, {DAY: counts}, 1)
    print(
        f"standings of all {len(standings)} players: {time.perf_counter() - started:.2f} s"
        f" ({len(boards)} hands read in {read:.2f} s)"
    )
    started = time.perf_counter()
    one = await storage.daily_boards([DAY], KIND, guild_id=2, public_only=False)
    rank(one, {DAY: counts}, 1)
    print(f"one server's standings: {1000 * (time.perf_counter() - started):.1f} ms")
    tracemalloc.stop()
    await storage.close()
    folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--servers", type=int, default=1_000)
    parser.add_argument("--database", help="a PostgreSQL URL (default: a SQLite file)")
    parser.add_argument(
        "--postgres", action="store_true", help="on a throwaway PostgreSQL server of its own"
    )
    args = parser.parse_args()
    if not args.postgres:
        asyncio.run(run(args.players, args.servers, args.database))
        return
    from testbed.postgres import running_server

    with running_server() as server:
        url = asyncio.run(server.create("daily"))
        asyncio.run(run(args.players, args.servers, url))


if __name__ == "__main__":
    main()
