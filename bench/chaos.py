"""Chaos run of failover (issue 32): a long testbed/chaos.py run, its figures printed.

    .venv/bin/python bench/chaos.py [--rounds 50] [--seed 1] [--processes 3] [--web-tables]

A throwaway PostgreSQL server (testbed/postgres.py), bot processes each preferring one shard of
as many, people playing game after game in ``--tables`` servers per shard, and ``--rounds``
rounds of chaos: each sends SIGKILL or SIGTERM to a random process that is up (skipped if none
is), which starts again a random while later. Rounds come ``--gap`` seconds apart (a range),
so a process may die again during a takeover, a handback or its IDENTIFY. The defaults run
50 rounds in about two and a half minutes, with a process up most of the time; ``--gap 0.5,3
--down 0.5,8`` is harsher (every process down at times, most signals during a start).

Printed: the rounds (and what was going on at each), lost and doubled moves, stored moves
nobody made, double (40060) and wrong answers, games opened/ended/counted and their end
messages, with ``--web-tables`` the web-table actions (one person of each server plays
through the Activity's socket, on whichever process is up) and the keys answered two ways,
each shard outage and the longest, and every failure of the issue's goals (0 lost
or doubled moves, 0 wrong or double answers, every shard served again within 30 s). Exit
status 1 if any. The bots' logs stay in the folder printed last.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testbed.chaos import Chaos, Plan  # noqa: E402
from testbed.postgres import running_server  # noqa: E402


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    return float(low), float(high or low)


async def main(args: argparse.Namespace) -> int:
    plan = Plan(
        seed=args.seed,
        processes=args.processes,
        rounds=args.rounds,
        gap=_range(args.gap),
        down=_range(args.down),
        sigkill_share=args.sigkill,
        tables_per_shard=args.tables,
        more_games=True,
        web_tables=args.web_tables,
    )
    with running_server() as server:
        chaos = Chaos(plan, await server.create("chaos"))
        figures = await chaos.run()
    print(figures.summary())
    for r in figures.rounds:
        print(f"  +{r.at:6.1f} s  process {r.node}  {r.action:8} during {r.moment}")
    for o in figures.outages:
        print(
            f"  shard {o.shard} unserved {o.seconds:5.1f} s from +{o.start:.1f} s "
            f"({o.served_late:.1f} s of it with a process up)"
        )
    failures = figures.failures()
    print(f"failures: {len(failures)}")
    for failure in failures:
        print(f"  {failure}")
    print(f"logs: {chaos.workdir}")
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=3, help="and as many shards")
    parser.add_argument("--tables", type=int, default=2, help="servers playing, per shard")
    parser.add_argument("--gap", default="1,4", help="seconds between rounds: low,high")
    parser.add_argument("--down", default="0.5,5", help="seconds a process stays down")
    parser.add_argument("--sigkill", type=float, default=0.6, help="share of SIGKILLs")
    parser.add_argument(
        "--web-tables",
        action="store_true",
        help="the second person of each server plays at the Activity's web table",
    )
    sys.exit(asyncio.run(main(parser.parse_args())))
