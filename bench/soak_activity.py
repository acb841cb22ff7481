"""Soak of the web table (issue 44): live games played only from their pages for minutes, with
Discord failing a share of the sign-in's calls and the bot's process restarted once.

    PYTHONPATH=. python bench/soak_activity.py --games 200 --minutes 10 --fail 0.10

The real bot (``python -m bot``, SQLite) with the Activity on, pointed at the double in this
process (Discord's global and per-route limits on); ``--games`` games of three people, each in
its own channel and Activity instance, opened through the double; each person's page
(testbed/page_sockets.py: the page's own back-off, ``retry``/``busy`` waited out, a ping every
10 s, actions resent under their key across sockets) signs in (``/api/token``) and plays
whatever is legal on its turn after a pause (``--pause``). From the start the double answers
``--fail`` of the calls the sign-in makes (``/oauth2/token``, ``/oauth2/@me``, the instance
route) with ``--fail-status``. At ``--restart-at`` of the run the bot's process is stopped
(``--signal``: term or kill) and started again.

Printed at the end, and the run fails (exit 1) on any of the first three:
- stranded tables: pages refused for good, or without an open socket once the run is over
  (each is given ``SETTLE`` seconds to come back first);
- moves lost or doubled, from the bot's database once it stopped (``checked_moves``);
- 429s the double answered;
- the restart: how long until every table had its ``ready`` again, and what it cost Discord;
- Discord's invalid requests (401, 403, 429 not shared) and the bot's requests under the global
  limit, by minute.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

from bot.storage import Storage
from engine import Game, Rules, parse_action
from fakecord import FakeDiscord
from fakecord.ratelimit import DISCORD_GLOBAL_LIMIT
from testbed.page_sockets import PageSocket
from testbed.web_restart import (
    INSTANCE_ROUTE,
    ME_ROUTE,
    TOKEN_ROUTE,
    WebBot,
    all_ready,
    by_route,
    calls,
    open_games,
    pages,
    sign_in,
    statuses,
)

#: The sign-in's calls to Discord the failures are drawn on.
AUTH_PATHS = ("/oauth2/token", "/oauth2/@me", "/applications/*/activity-instances/*")
#: The server's budget of calls to Discord: roomier than the defaults (600 sign-ins at once
#: from one harness, meant for people arriving over time) but with a small burst, so the
#: bot-token instance calls among them stay under Discord's global 50 a second (with
#: CROWD_SIGN_INS' burst of 1,000 the first sign-ins drew global 429s).
SIGN_IN_BUDGET = {"ACTIVITY_DISCORD_BURST": "40", "ACTIVITY_DISCORD_PER_MINUTE": "1200"}
#: How long the pages are given to come back (after the restart, and at the end).
SETTLE = 180.0


async def checked_moves(database: Path, open_pages: list[PageSocket]) -> dict[str, int]:
    """Every page's actions against what the bot stored (its process stopped). Lost: an
    acknowledged key whose move is not stored as sent. Doubled: a person's move in a game's
    log that no key made and that did not play itself (the person's only legal action, which
    the bot plays at once: bot/game/session.py ``forced_move``), or a log that does not replay."""
    storage = await Storage.open(database)
    lost = stored_keys = unanswered_stored = doubled = played_itself = people_moves = 0
    by_key: dict[int, set[int]] = {}
    try:
        for page in open_pages:
            for act in page.acts:
                row = await storage.key_answered(page.seat.game, page.seat.user_id, act.key)
                if row is not None:
                    stored_keys += 1
                    unanswered_stored += not act.acked
                    by_key.setdefault(page.seat.game, set()).add(row.n)
                if act.acked and (row is None or row.action != act.action):
                    lost += 1
        for game_id in sorted({p.seat.game for p in open_pages}):
            found = await storage.game(game_id)
            assert found is not None
            game = Game(Rules.from_dict(found.rules), found.seed)
            for action in await storage.actions(game_id):
                if not action.by_computer:
                    people_moves += 1
                    if action.n not in by_key.get(game_id, set()):
                        if len(game.legal_actions(action.seat)) == 1:
                            played_itself += 1
                        else:
                            doubled += 1
                try:
                    game.apply(action.seat, parse_action(action.action))
                except Exception:
                    doubled += 1
                    break
    finally:
        await storage.close()
    return {
        "acked": sum(a.acked for p in open_pages for a in p.acts),
        "sent": sum(len(p.acts) for p in open_pages),
        "resends": sum(a.sends - 1 for p in open_pages for a in p.acts),
        "refused": sum(bool(a.answers) and not a.acked for p in open_pages for a in p.acts),
        "stored_keys": stored_keys,
        "stored_unanswered": unanswered_stored,
        "people_moves": people_moves,
        "played_itself": played_itself,
        "lost": lost,
        "doubled": doubled,
    }


def per_minute(fake: FakeDiscord, t0: float) -> list[int]:
    """The bot's requests under Discord's global limit, by minute of the run."""
    counts: Counter[int] = Counter()
    for record in fake.requests:
        if record.under_global_limit and record.time >= t0:
            counts[int((record.time - t0) // 60)] += 1
    return [counts[m] for m in range(max(counts, default=-1) + 1)]


async def soak(args: argparse.Namespace, workdir: Path) -> int:
    fake = FakeDiscord()
    await fake.start()
    fake.enable_activities()
    fake.ratelimits.limit_global(DISCORD_GLOBAL_LIMIT)
    fake.ratelimits.use_discord_route_limits()
    for seed, path in enumerate(AUTH_PATHS):
        fake.ratelimits.fail_share(args.fail_status, args.fail, path=path, seed=args.seed + seed)
    bot = WebBot(fake, workdir, **SIGN_IN_BUDGET)
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    report: dict[str, Any] = {}
    try:
        t0 = fake.clock.now()
        await bot.start()
        opened = time.monotonic()
        people = await open_games(fake, args.games)
        print(f"{args.games} games opened in {time.monotonic() - opened:.0f} s", flush=True)
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            tokens = await sign_in(fake, http, bot.base, people, seed=args.seed)
            pause = (args.pause[0], args.pause[1])
            open_pages = pages(people, tokens, bot.base, args.seed, pause)
            tasks = [asyncio.create_task(p.run(http, stop)) for p in open_pages]
            await all_ready(open_pages, 1, within=SETTLE)
            brought_up = len(fake.requests)
            started = time.monotonic()
            print(f"{len(open_pages)} pages ready; playing {args.minutes} min", flush=True)
            await asyncio.sleep(args.minutes * 60 * args.restart_at)
            before = len(fake.requests)
            readies = [len(p.readies) for p in open_pages]
            stopped = time.monotonic()
            await bot.stop(signal.SIGKILL if args.signal == "kill" else signal.SIGTERM)
            await bot.start()
            deadline = time.monotonic() + SETTLE
            while any(len(p.readies) <= r for p, r in zip(open_pages, readies, strict=True)):
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
            back = [p.readies[r] - stopped for p, r in zip(open_pages, readies, strict=True)
                    if len(p.readies) > r]  # fmt: skip
            restart = calls(fake, before)
            report["restart"] = {
                "signal": args.signal,
                "tables_back": f"{len(back)} of {len(open_pages)}",
                "last_back_s": round(max(back, default=math.nan), 1),
                "median_back_s": round(sorted(back)[len(back) // 2], 1) if back else None,
                "instance_calls": by_route(restart, INSTANCE_ROUTE),
                "oauth2_me_calls": by_route(restart, ME_ROUTE),
                "oauth2_token_calls": by_route(restart, TOKEN_ROUTE),
                "instances": len({p.seat.instance for p in open_pages}),
            }
            print(f"restart: {report['restart']}", flush=True)
            rest = args.minutes * 60 - (time.monotonic() - started)
            await asyncio.sleep(max(0.0, rest))
            # Over: every page given its chance to be open, then stopped.
            deadline = time.monotonic() + SETTLE
            while time.monotonic() < deadline and not all(  # noqa: ASYNC110 (a poll of pages)
                p.open or p.final is not None for p in open_pages
            ):
                await asyncio.sleep(0.1)
            stranded = [p for p in open_pages if not p.open or p.final is not None]
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        await bot.stop(signal.SIGTERM)
        played = time.monotonic() - started
        moves = await checked_moves(workdir / "nines.sqlite3", open_pages)
        answers = calls(fake)
        sign_ins = sum(by_route(answers, r) for r in (TOKEN_ROUTE, ME_ROUTE, INSTANCE_ROUTE))
        failed = sum(
            n
            for (route, status), n in answers.items()
            if route in (TOKEN_ROUTE, ME_ROUTE, INSTANCE_ROUTE) and status == args.fail_status
        )
        minutes = per_minute(fake, t0)
        report.update(
            {
                "games": args.games,
                "pages": len(open_pages),
                "played_s": round(played),
                "stranded": len(stranded),
                "stranded_why": dict(Counter(p.final or "closed" for p in stranded)),
                "refusals": dict(sum((p.refusals for p in open_pages), Counter())),
                "drops": sum(p.drops for p in open_pages),
                "moves": moves,
                "finished_games": sum(
                    p.table is not None and p.table.get("status") == "finished" for p in open_pages
                )
                // 3,
                "sign_in_calls": sign_ins,
                "sign_in_calls_failed": f"{failed} ({failed / max(1, sign_ins):.1%})",
                "answers_by_status": dict(sorted(statuses(answers).items())),
                "429s_after_every_page_was_ready": statuses(calls(fake, brought_up))[429],
                "429s_by_route": {r: n for (r, status), n in answers.items() if status == 429},
                "discord_invalid_requests": fake.ratelimits.invalid_requests,
                "discord_invalid_in_10_min": fake.ratelimits.invalid_in_window(),
                "global_requests_by_minute": minutes,
                "global_requests_per_minute_max": max(minutes, default=0),
                "load_average": [f"{x:.1f}" for x in os.getloadavg()],
            }
        )
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        bot.node.stop()
        await fake.stop()
    for key, value in report.items():
        if key != "restart":  # printed when it happened
            print(f"{key}: {value}")
    bad = report["stranded"] or report["moves"]["lost"] or report["moves"]["doubled"]
    bad = bad or report["answers_by_status"].get(429, 0)
    print("FAILED" if bad else "OK: no table stranded, nothing lost or doubled, no 429")
    return 1 if bad else 0


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--games", type=int, default=200, help="games of three people (default 200)")
    add("--minutes", type=float, default=10.0, help="how long they play (default 10)")
    add("--fail", type=float, default=0.10, help="share of sign-in calls failed (default 0.10)")
    add("--fail-status", type=int, default=503, help="what those get (default 503)")
    add("--restart-at", type=float, default=0.5, help="when, as a share of the run (0.5)")
    add("--signal", choices=("term", "kill"), default="kill", help="how the bot is stopped")
    add(
        "--pause",
        type=lambda s: tuple(float(x) for x in s.split(",")),
        default=(3.0, 7.0),
        help="seconds before each action, uniform (default 3,7)",
    )
    add("--seed", type=int, default=44)
    return parser.parse_args()


def main() -> None:
    args = options()
    with tempfile.TemporaryDirectory(prefix="nines-soak-") as workdir:
        sys.exit(asyncio.run(soak(args, Path(workdir))))


if __name__ == "__main__":
    random.seed(0)
    main()
