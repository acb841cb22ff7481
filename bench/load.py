"""Load run: many games at once through the Discord double (a script, not a test).

    .venv/bin/python bench/load.py [--games 200] [--seconds 60] [--workers 1] [--global-limit]
    .venv/bin/python bench/load.py --clients sockets [--games 200] [--seconds 60] [--pace human]

The double runs in this process; the real bot runs in a child process (``python -m bot``'s
own startup, through ``build_bot``) with its metrics on: each click's answer time, computer
decisions and database writes as the bot measures them (bot/base/metrics.py, heard as raw samples),
plus event-loop lag and its memory idle, under load and at rest (people paused, games live).
Moves stored and games finished are read from the database afterwards. Nothing of the bot or
the double is patched. Every game has one or two people and
computers in the other seats; half of the people click at machine speed, half after a
human-like pause. A finished game is followed by a new one in its channel, so the number of
live games stays at ``--games``.

``--clients sockets``: the Activity's people instead (bench/socket_clients.py), the bot's
Activity on. Each game has three people, no computer, who act only through web-table sockets
(``POST /api/token``, then the websocket's hello, as a browser does), held in a process of their
own so their JSON is counted against neither the bot nor the double. Printed: a card sent to
every other socket of its game having the table that shows it (p50, p99, max), the bot's
memory added per connected socket (every socket open and idle, against the games live with
none), requests under Discord's global limit per card (the double's own count) and every
request by route, 429s, the load average, the bot's loop lag and how long it waited for a CPU.
A finished game is not followed by another (only chat starts one).

Diagnostics that slow the bot (not for figures): ``--profile FILE`` (cProfile of the bot),
``NINES_LOAD_CENSUS=FILE`` (the heap at rest by type, who holds leftover views and tasks, and
the cyclic garbage made after), ``NINES_LOAD_TRACEMALLOC=FILE`` (what the games allocated
since idle, by where; Python's allocator statistics go to the bot's log).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import warnings
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    import discord  # noqa: F401  (imported early, its deprecation warnings silenced)

from bench.load_bot import child  # noqa: E402
from bench.load_people import chat_people, socket_people  # noqa: E402
from bench.load_report import (  # noqa: E402
    database_cpu,
    interaction_kind,
    merged,
    own_cpu,
    pct,
    print_cpu,
    print_loop,
    print_spent,
    report_sockets,
    stored_counts,
)
from testbed.web_tables import CROWD_SIGN_INS  # noqa: E402

if TYPE_CHECKING:
    pass


#: How long a bot may take to stop once told (its figures are written first).
STOP_WITHIN = 120.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def main(args: argparse.Namespace) -> None:
    """Each --database in turn (one PostgreSQL server for them all), then the figures that
    compare them."""
    summaries: list[tuple[str, dict[str, float]]] = []
    server = None
    with contextlib.ExitStack() as stack:
        for database in args.database.split(","):
            url = None
            if database == "postgresql":
                if server is None:
                    from testbed.postgres import running_server

                    server = stack.enter_context(running_server())
                url = await server.create(f"load_{len(summaries)}")
            elif database != "sqlite":
                raise SystemExit(f"--database {database!r}: sqlite or postgresql")
            print(
                f"== {database}, {args.processes} bot process(es), computers {args.computers}, "
                f"pace {args.pace}, {args.workers} worker(s) ==",
                flush=True,
            )
            summaries.append((database, await run(args, url)))
    if len(summaries) > 1:
        print("\n== compared (the same run) ==")
        first = summaries[0][1]
        for database, figures in summaries:
            print(
                f"{database:<10}: click -> answer, bot side p50 {figures['p50']:.1f} ms  p99 "
                f"{figures['p99']:.1f} ms ({figures['p99'] / first['p99']:.2f}x the first); "
                f"as the double saw it p50 {figures['seen_p50']:.1f} ms  p99 "
                f"{figures['seen_p99']:.1f} ms ({figures['seen_p99'] / first['seen_p99']:.2f}x); "
                f"cards and exchanges alone, bot side p99 {figures['move_p99']:.1f} ms "
                f"({figures['move_p99'] / first['move_p99']:.2f}x); "
                f"person moves {figures['moves_per_s']:.1f}/s  "
                f"bot CPU per person move {figures['cpu_per_move']:.2f} ms"
            )


async def run(args: argparse.Namespace, database_url: str | None) -> dict[str, float]:
    from fakecord import FakeDiscord
    from fakecord.ratelimit import DISCORD_GLOBAL_LIMIT

    # The double's and the database's CPU from here: runs of one invocation go in turn.
    cpu_before = own_cpu(), database_cpu()
    database_cpu_at_stop = cpu_before[1]
    # The double checks bodies against Discord's OpenAPI spec with jsonschema (~20-60 ms a
    # message with components, which caps it near 40 requests/s): one in --validate-every here
    # (the test suite checks them all).
    fake = FakeDiscord(shards=args.processes, check_bodies_every=args.validate_every)
    await fake.start()
    # One server per process's shard (process i owns shard i), its tables dealt in turn.
    guilds = [fake.guild]
    for shard in range(1, args.processes):
        from fakecord.server import BOT_DEFAULT

        guild = fake.add_guild(f"Shard {shard}", shard=shard)
        fake.add_member(guild, fake.bot, roles=[fake.add_role(guild, "Nines", BOT_DEFAULT)])
        guilds.append(guild)
    if args.discord_limits:
        # Discord's per-route buckets as bots observe them (Discord publishes no figures; the
        # double says where each comes from): 5 messages posted, 5 edited, 5 deleted per
        # channel every 5, 5 and 1 seconds, follow-ups 30 a minute per channel.
        fake.ratelimits.use_discord_route_limits()
    if args.global_limit:
        fake.ratelimits.limit_global(args.global_limit)
    activity_port = free_port() if args.clients == "sockets" else None
    if activity_port is not None:
        if args.processes > 1:
            raise SystemExit("--clients sockets: one bot process (the sockets reach its port)")
        # The Activity on, as its README section says: the bot's aiohttp serves the web
        # tables' sockets on ACTIVITY_PORT and exchanges codes with the client secret.
        fake.enable_activities()
    work = Path(tempfile.mkdtemp(prefix="nines-load-"))
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DATABASE_PATH": str(work / "nines.sqlite3"),
        "COMPUTER_WORKERS": str(args.workers),
        "LOG_LEVEL": "WARNING",
        # Metrics on: the run's timings are the bot's own (the child listens to them).
        "METRICS_PORT": str(free_port()),
    }
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    if args.profile:
        env["NINES_LOAD_PROFILE"] = args.profile
    if activity_port is not None:
        env["ACTIVITY_PORT"] = str(activity_port)
        env["DISCORD_CLIENT_SECRET"] = fake.client_secret
        env["RELAY_KEY"] = secrets.token_urlsafe(32)  # the same on every process
        # Every person here signs in from 127.0.0.1, all at once: limits for a crowd.
        env.update(CROWD_SIGN_INS)
        # Every socket comes from this machine's one address: no cap per address.
        env["ACTIVITY_SOCKETS_PER_ADDRESS"] = "0"
    metrics = [work / f"metrics{i}.json" for i in range(args.processes)]
    procs = []
    for i in range(args.processes):
        if args.processes > 1:
            env = {**env, "SHARD_COUNT": str(args.processes), "SHARD_IDS": str(i)}
        log = (work / f"bot{i}.log").open("wb")
        procs.append(
            subprocess.Popen(  # noqa: ASYNC220 (returns at once)
                [sys.executable, __file__, "--child"],
                cwd=ROOT,
                env={**env, "NINES_LOAD_CHILD": str(metrics[i])},
                stdout=log,
                stderr=log,
            )
        )

    def signal_bots(number: int) -> None:
        for proc in procs:
            proc.send_signal(number)

    try:
        while not (
            fake.gateway.connected.is_set()
            and {shard for _, shard in fake.gateway.identified} == set(range(args.processes))
            and fake.commands.find(fake.guild.id, "nines")
        ):
            if any(proc.poll() is not None for proc in procs):
                raise SystemExit(f"a bot exited: see the logs in {work}")
            await asyncio.sleep(0.05)
        await fake.settle()
        await asyncio.sleep(1.0)
        if activity_port is not None:
            window, sockets = await socket_people(
                args, fake, activity_port, signal_bots, [p.pid for p in procs]
            )
        else:
            window, played = await chat_people(
                args, fake, guilds, signal_bots, [p.pid for p in procs]
            )

        database_cpu_at_stop = database_cpu()  # the bots' connections end with them
        signal_bots(signal.SIGTERM)
        # Waited for with the double's loop running: a bot closing still talks to it (a
        # blocking wait here left its last requests unanswered until the wait gave up).
        for proc in procs:
            try:
                await asyncio.to_thread(proc.wait, STOP_WITHIN)
            except subprocess.TimeoutExpired:
                print(f"a bot had not stopped {STOP_WITHIN:.0f} s after SIGTERM: killed")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        await fake.stop()

    data = merged([json.loads(m.read_text()) for m in metrics])
    stored = await stored_counts(database_url, work / "nines.sqlite3")
    if activity_port is not None:
        report_sockets(args, fake, data, stored, window, sockets, own_cpu() - cpu_before[0])
        print(f"logs and database in {work}", flush=True)
        return {}
    elapsed, requests, under_global = window.elapsed, window.requests, window.under_global
    games_started, person_moves, refusals = (
        played.games_started,
        played.person_moves,
        played.refusals,
    )
    unanswered, hand_clicks, never_shown = played.unanswered, played.hand_clicks, played.never_shown
    table_lags = played.table_lags
    # Each click's answer time as the bot measured it, by what the click was (the double
    # knows each interaction's custom_id).
    by_kind: defaultdict[str, list[float]] = defaultdict(list)
    for interaction_id, seconds in data["answers"].items():
        inter = fake.interactions.get(int(interaction_id))
        custom_id = str((inter.payload.get("data") or {}).get("custom_id") or "") if inter else ""
        by_kind[interaction_kind(custom_id, inter.command_name if inter else "?")].append(seconds)
    lat = [x * 1000 for values in by_kind.values() for x in values]
    base, loaded = data["memory"].get("baseline"), data["memory"].get("loaded")
    rest = data["memory"].get("rest")
    by_route = window.by_route()
    play_requests = sum(1 for r in requests if r.route != "/applications/{application_id}/commands")
    print(
        f"games: {args.games} tables, {games_started} games started, "
        f"{stored['finished']} finished in {elapsed:.1f} s "
        f"({stored['finished'] / elapsed:.2f} games/s)"
    )
    print(
        f"actions stored: {stored['actions']} "
        f"({stored['actions'] / elapsed:.0f}/s); "
        f"person moves: {person_moves} (refused as out of date: {refusals}); "
        f"interactions: {len(fake.interactions)}, unanswered: {unanswered}"
    )
    print(f"person moves per second: {person_moves / elapsed:.1f}")
    print(
        f"click -> answer accepted (bot side, its nines_click_answer_seconds, ms): p50 "
        f"{pct(lat, 0.5):.1f}  p99 {pct(lat, 0.99):.1f}  "
        f"max {max(lat, default=float('nan')):.1f}  (n={len(lat)})"
    )
    kinds_seen = sorted(by_kind.items(), key=lambda kv: -len(kv[1]))
    print(
        "   bot side by kind (ms): "
        + "; ".join(
            f"{kind} p50 {pct([x * 1000 for x in values], 0.5):.1f} p99 "
            f"{pct([x * 1000 for x in values], 0.99):.1f} (n={len(values)})"
            for kind, values in kinds_seen
        )
    )
    # As the person's side (Discord) sees it: from the click sent on the gateway to its answer
    # received, so also the time the event waited before the bot read it and discord.py
    # dispatched it to the button (the difference with the bot side above).
    seen = [
        (i.acked_at - i.created_at) * 1000
        for i in fake.interactions.values()
        if i.acked_at is not None
    ]
    print(
        f"click -> answer as the double saw it (sent to answered, ms): p50 {pct(seen, 0.5):.1f}  "
        f"p99 {pct(seen, 0.99):.1f}  max {max(seen, default=float('nan')):.1f}"
    )
    print_loop(data)
    window.print_waited()
    print(
        f"Discord requests: {play_requests} in all, {play_requests / max(person_moves, 1):.2f} "
        "per person move (lobbies, hands, tables and summaries included)"
    )
    for key, count in sorted(by_route.items(), key=lambda kv: -kv[1])[:8]:
        print(f"   {count:7d}  {key}")
    # Which clicks the callbacks answered: a card (or exchange, or the Joker's call) is a
    # person's move; "hand" is My hand (on the table or a turn message); the rest is lobbies
    # and commands.
    kinds: dict[str, int] = {}
    for inter in fake.interactions.values():
        custom_id = str((inter.payload.get("data") or {}).get("custom_id") or "")
        kind = interaction_kind(custom_id, inter.command_name)
        kinds[kind] = kinds.get(kind, 0) + 1
    print("   interactions by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    moves = kinds.get("play", 0) + kinds.get("xchg", 0)
    print(
        f"'My hand' clicks per card a person plays: "
        f"{(hand_clicks['first'] + hand_clicks['stale']) / max(moves, 1):.4f} "
        f"({hand_clicks['first']} with no hand yet, {hand_clicks['stale']} on a hand out of "
        f"date, for {moves} cards and exchanges)"
    )
    print("Discord requests per card a person plays, by route:")
    for key, count in sorted(by_route.items(), key=lambda kv: -kv[1]):
        if "/commands" in key:
            continue
        bound = (
            "webhook, no global limit"
            if "/webhooks/" in key or "/interactions/" in key
            else "channel"
        )
        print(f"   {count / max(moves, 1):6.3f}  {key}  ({bound})")
    channel_requests = sum(n for k, n in by_route.items() if k.split()[1].startswith("/channels/"))
    print(
        f"   channel routes in all: {channel_requests / max(moves, 1):.3f} a card, "
        f"{channel_requests / elapsed:.1f}/s (Discord's global limit: 50/s a bot)"
    )
    # The double's own count: requests let through the global window (interaction routes are
    # not bound to it).
    enforced = f"enforced at {args.global_limit}/s" if args.global_limit else "not enforced"
    print(
        f"requests under the global limit: {under_global} in all, "
        f"{under_global / max(moves, 1):.3f} per card a person plays, "
        f"{under_global / elapsed:.1f}/s (Discord's global limit: {DISCORD_GLOBAL_LIMIT}/s a "
        f"bot; {enforced})"
    )
    lag = [x * 1000 for x in table_lags]
    print(
        f"table lag (a person's card clicked -> the channel first shows it, ms): "
        f"p50 {pct(lag, 0.5):.1f}  p99 {pct(lag, 0.99):.1f}  "
        f"max {max(lag, default=float('nan')):.1f}  (n={len(lag)}, never shown: {never_shown})"
    )
    window.print_429s()
    print_spent(data)
    server_cpu = database_cpu_at_stop - cpu_before[1]
    print_cpu(
        data,
        elapsed,
        f"the double and its people {own_cpu() - cpu_before[0]:.1f} s",
        server_cpu if database_url else None,
    )
    print(
        f"   bot CPU per person move: {1000 * data['cpu'] / max(person_moves, 1):.2f} ms "
        "(its computers' moves, hands, lobbies and tables included, and its start-up)"
        + (
            f"; PostgreSQL's: {1000 * server_cpu / max(person_moves, 1):.2f} ms"
            if database_url
            else ""
        )
    )
    print(
        f"   bot CPU in the play: {window.cpu:.1f} s, "
        f"{1000 * window.cpu / max(person_moves, 1):.2f} ms a person move (the lobbies, starts, "
        "computers' moves and tables of the play included; its start-up not)"
    )
    steady_cpu, steady_moves, steady_opened = played.steady
    if steady_moves:
        print(
            f"   bot CPU in the steady play (every table's first game under way, until "
            f"--seconds): {steady_cpu:.1f} s, {1000 * steady_cpu / steady_moves:.2f} ms a "
            f"person move ({steady_moves} moves; {steady_opened} games opened meanwhile)"
        )
    print(f"429s received: {sum(1 for r in requests if r.status == 429)}")
    if base and loaded and loaded["live"]:
        per_game = (loaded["rss"] - base["rss"]) / loaded["live"]
        print(
            f"memory under load: {base['rss'] / 2**20:.1f} MB idle, {loaded['rss'] / 2**20:.1f} "
            f"MB with {loaded['live']} live games and their clicks in flight: "
            f"{per_game / 1024:.1f} KB per live game"
        )
    if base and rest and rest["live"]:
        per_game = (rest["rss"] - base["rss"]) / rest["live"]
        print(
            f"memory at rest: {rest['rss'] / 2**20:.1f} MB with {rest['live']} live games, no "
            f"click in flight: {per_game / 1024:.1f} KB per live game"
        )
        print(
            "   by kind (MB, idle -> at rest): "
            + ", ".join(
                f"{kind} {base.get(kind, 0) / 2**20:.1f} -> {rest.get(kind, 0) / 2**20:.1f}"
                for kind in ("RssAnon", "RssFile", "RssShmem", "SQLite", "arenas", "blocks")
            )
        )
        trimmed = data["memory"].get("trimmed")
        if trimmed:
            print(
                f"   (then malloc_trim: {trimmed['rss'] / 2**20:.1f} MB: the C allocator held "
                f"{(rest['rss'] - trimmed['rss']) / 2**20:.1f} MB free)"
            )
    print(f"spec-checked bodies: 1 in {args.validate_every}; violations: {len(fake.violations)}")
    print(f"logs and database in {work}", flush=True)
    return {
        "p50": pct(lat, 0.5),
        "p99": pct(lat, 0.99),
        "seen_p50": pct(seen, 0.5),
        "seen_p99": pct(seen, 0.99),
        # A card or an exchange (not a lobby button or a command): what a player clicks most.
        "move_p99": pct(
            [x * 1000 for kind in ("play", "xchg") for x in by_kind.get(kind, [])], 0.99
        ),
        "moves_per_s": person_moves / elapsed,
        "table_p50": pct(lag, 0.5),
        "table_p99": pct(lag, 0.99),
        "cpu_per_move": 1000 * data["cpu"] / max(person_moves, 1),
    }


#: What each option is for, where its name does not say it all.
HELP = {
    "--clients": "chat: people click in the double (one or two a game, computers in the other "
    "seats); sockets: three people a game at the Activity's web tables, browser-less, in a "
    "process of their own (bench/socket_clients.py), the Activity on in the bot",
    "--computers": "levels of the computer seats (a one-person game has the first two, a "
    "two-person game the first); hard thinks in the bot's --workers (0: a thread)",
    "--database": "sqlite, postgresql (a throwaway server started here), or both in turn: "
    "sqlite,postgresql",
    "--processes": "bot processes, each owning one shard of as many (SQLite: one shared file)",
    "--pace": "mixed: half the people pause 0.5-2 s before a card; machine: none do; human: "
    "all pause 3-7 s (a person's card every 5 s a game: issue 31's 'human pace', a thousand "
    "games at 200 person cards a second)",
    "--no-discord-limits": "serve without Discord-like per-channel rate limits",
    "--drain": "after --seconds, how long games still going may take to finish before they "
    "are left (new games start only within --seconds)",
    "--global-limit": "make the double enforce a global limit of N requests a second on the "
    "bot's routes (interaction routes are not bound to it): Discord's 50 without N",
    "--profile": "write a cProfile of the bot process here, of the play after the weighing at rest "
    "(the steady play: cards, not the openings)",
}


def options() -> argparse.Namespace:
    from fakecord.ratelimit import DISCORD_GLOBAL_LIMIT

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--clients", choices=("chat", "sockets"), default="chat", help=HELP["--clients"])
    add("--games", type=int, default=200)
    add("--seconds", type=float, default=60)
    add("--workers", type=int, default=1)
    add("--ramp", type=float, default=10.0)
    add("--computers", default="normal,easy", help=HELP["--computers"])
    add("--validate-every", type=int, default=50)
    add("--database", default="sqlite", help=HELP["--database"])
    add("--processes", type=int, default=1, help=HELP["--processes"])
    add("--pace", choices=("mixed", "machine", "human"), default="mixed", help=HELP["--pace"])
    add(
        "--no-discord-limits",
        dest="discord_limits",
        action="store_false",
        help=HELP["--no-discord-limits"],
    )
    add("--drain", type=float, default=120.0, metavar="SECONDS", help=HELP["--drain"])
    add(
        "--global-limit",
        type=int,
        nargs="?",
        const=DISCORD_GLOBAL_LIMIT,
        default=0,
        metavar="N",
        help=HELP["--global-limit"],
    )
    add("--profile", type=lambda p: str(Path(p).resolve()), help=HELP["--profile"])
    return parser.parse_args()


if __name__ == "__main__":
    if "--child" in sys.argv:
        asyncio.run(child(Path(os.environ["NINES_LOAD_CHILD"])))
    else:
        asyncio.run(main(options()))
