"""Load run: many games at once through the Discord double (a script, not a test).

    .venv/bin/python bench/load.py [--games 200] [--seconds 60] [--workers 1] [--global-limit]
    .venv/bin/python bench/load.py --clients sockets [--games 200] [--seconds 60] [--pace human]

The double runs in this process; the real bot runs in a child process (``python -m bot``'s
own startup, through ``build_bot``) with its metrics on: each click's answer time, computer
decisions and database writes as the bot measures them (bot/metrics.py, heard as raw samples),
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
import random
import re
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from array import array
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    import discord  # noqa: F401  (imported early, its deprecation warnings silenced)

from bench import socket_clients  # noqa: E402  (from ROOT, put on the path above)
from testbed.web_tables import CROWD_SIGN_INS  # noqa: E402

if TYPE_CHECKING:
    from fakecord import FakeDiscord
    from fakecord.models import Guild
    from fakecord.server import RequestRecord

# -- the bot side (child process) ------------------------------------------------------------

#: The pause before a person's card (seconds, uniform) by --pace, for the people who pause.
PAUSES = {"mixed": (0.5, 2.0), "human": (3.0, 7.0), "machine": (0.0, 0.0)}


#: How long a bot may take to stop once told (its figures are written first).
STOP_WITHIN = 120.0
#: How long the double may stay busy with the bot's work before it is quiet (200 tables opened,
#: 600 sockets' hellos, on a shared machine).
SETTLE_WITHIN = 120.0


def paused(pace: str, table: int) -> bool:
    """Whether the people of this table pause before a move (--pace mixed: every other)."""
    return pace == "human" or (pace == "mixed" and table % 2 == 0)


STALL_S = 0.08  # a loop that has not ticked for this long is stalled: say where it is


def interaction_kind(custom_id: str, command: object) -> str:
    """A button's kind from its custom_id (``nines:...:play:...`` gives "play"), else the
    command's name ("/nines")."""
    return custom_id.split(":")[2] if custom_id.count(":") >= 3 else f"/{command}"


def samples() -> array[float]:
    return array("d")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def run_queue_wait(pid: int) -> float:
    """Seconds the process's main thread (the bot's event loop) has spent runnable but
    waiting for a CPU (the kernel's schedstat); 0 once it ended."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def own_cpu() -> float:
    """CPU seconds this process (the double and its people) has used so far."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def cpu_of(process: Path) -> float:
    """CPU seconds a process (``/proc/<pid>``) has used so far; 0 once it ended."""
    try:
        fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def database_cpu() -> float:
    """CPU seconds used so far by the running PostgreSQL server's processes (0 without one)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
        except OSError:  # it ended meanwhile
            continue
        total += cpu_of(entry)
    return total


def rss_parts() -> dict[str, int]:
    """Resident memory by kind: anonymous (the heap), file-backed (code and libraries paged
    in), shared memory (SQLite's WAL index), in bytes."""
    parts = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("RssAnon", "RssFile", "RssShmem")):
                name, value, _ = line.split()
                parts[name.rstrip(":")] = int(value) * 1024
    with contextlib.suppress(OSError, AttributeError):  # what SQLite's own allocator holds
        import ctypes

        used = ctypes.CDLL("libsqlite3.so.0").sqlite3_memory_used
        used.restype = ctypes.c_int64
        parts["SQLite"] = int(used())
    # Python's own allocator: its arenas, and the blocks in them in use (it prints to fd 2).
    with tempfile.TemporaryFile() as f:
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        for line in f.read().decode().splitlines():
            if "# arenas allocated current" in line:
                parts["arenas"] = int(line.split("=")[1].replace(",", "")) * 2**20
            elif "# bytes in allocated blocks" in line:
                parts["blocks"] = int(line.split("=")[1].replace(",", ""))
    return parts


async def child(out: Path) -> None:
    import gc

    from bot import metrics
    from bot.run import build_bot
    from bot.settings import Settings

    settings = Settings.from_mapping(os.environ)
    if settings.metrics_port is None:
        raise SystemExit("the load run's bot needs METRICS_PORT: its timings are the metrics'")
    bot = await build_bot(settings)
    measured = metrics.active
    assert measured is not None  # METRICS_PORT set: build_bot enabled them
    # Samples go into arrays of doubles, not lists of floats: a float object per sample (a few
    # hundred thousand in a run) counted against the games' memory and pinned the allocator's
    # arenas.
    lags = samples()
    hops = samples()
    queued = samples()
    memory: dict[str, Any] = {}

    # The bot's own timings (bot/metrics.py), every one as it is measured: a click's answer
    # (from its handler starting to Discord accepting the answer) by interaction, so that the
    # people's side can say what kind of click it was; computer decisions; database writes.
    # Nothing of the bot is patched: where else its time goes, --profile says.
    answers: dict[int, float] = {}
    spent: defaultdict[str, array[float]] = defaultdict(samples)

    def heard(name: str, seconds: float, interaction_id: int | None) -> None:
        if name == metrics.ANSWER and interaction_id is not None:
            answers[interaction_id] = seconds
        else:
            spent[name].append(seconds)

    measured.listen(heard)

    # A watchdog thread: when the loop has not ticked for STALL_S, note where the loop's
    # thread is (its innermost frames): what stalls every game at once.
    beat = [time.perf_counter()]
    stalls: dict[str, int] = {}
    loop_thread = threading.get_ident()

    def watchdog() -> None:
        seen = 0.0
        while True:
            time.sleep(0.02)
            if time.perf_counter() - beat[0] > STALL_S and beat[0] != seen:
                seen = beat[0]
                frame = sys._current_frames().get(loop_thread)
                # Without source lines: reading them filled linecache with whole files,
                # megabytes the memory figure counted against the games.
                stack = traceback.StackSummary.extract(
                    traceback.walk_stack(frame), limit=4, lookup_lines=False
                )
                where = list(stack) if frame else []
                key = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in where)
                stalls[key] = stalls.get(key, 0) + 1

    threading.Thread(target=watchdog, daemon=True).start()

    loop = asyncio.get_running_loop()

    async def lag_probe() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            beat[0] = time.perf_counter()
            lags.append(beat[0] - start - 0.01)
            # One hop through the loop's queue (what every await on I/O costs a click), and
            # how many callbacks were queued when it was asked.
            queued.append(len(loop._ready))  # type: ignore[attr-defined]
            start = time.perf_counter()
            await asyncio.sleep(0)
            hops.append(time.perf_counter() - start)

    # Garbage-collector pauses stop the loop too: time each collection, per generation.
    pauses = {"0": samples(), "1": samples(), "2": samples()}
    collected = {"0": samples(), "1": samples(), "2": samples()}
    gc_started = [0.0]

    def gc_timer(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            pauses[str(info["generation"])].append(time.perf_counter() - gc_started[0])
            collected[str(info["generation"])].append(info["collected"])

    gc.callbacks.append(gc_timer)

    def snapshot(name: str) -> None:
        """Memory at three points: idle before any game ("baseline"), under load ("loaded":
        requests in flight included) and with every game still live but no click in flight
        ("rest": what holding the games costs)."""
        if name in ("baseline", "rest"):  # under load a full collection would stall every game
            gc.collect()
        tracing = os.environ.get("NINES_LOAD_TRACEMALLOC")
        if name == "baseline" and tracing:
            import tracemalloc

            tracemalloc.start(6)
        sessions = getattr(bot, "sessions", None)
        memory[name] = {
            "rss": rss_bytes(),
            "live": len(sessions) if sessions else 0,
            **rss_parts(),
        }
        if name == "rest":
            # Diagnosis: how much of it the C allocator held free (returned by malloc_trim).
            with contextlib.suppress(OSError, AttributeError):
                import ctypes

                ctypes.CDLL("libc.so.6").malloc_trim(0)
                memory["trimmed"] = {"rss": rss_bytes(), "live": memory[name]["live"]}
        if name == "rest" and tracing:
            # What the games added since idle, by where it was allocated (slows the bot:
            # not for figures).
            import tracemalloc

            stats = tracemalloc.take_snapshot().statistics("traceback")
            with Path(tracing).open("w") as f:
                f.write(f"traced: {sum(s.size for s in stats) / 2**20:.1f} MB\n")
                for stat in stats[:60]:
                    f.write(f"\n{stat.size / 1024:9.1f} KB in {stat.count} blocks\n")
                    f.write("\n".join("    " + line for line in stat.traceback.format()[-8:]))
            tracemalloc.stop()
            sys._debugmallocstats()  # Python's own allocator: arenas, pools, free blocks
        if name == "rest" and os.environ.get("NINES_LOAD_CENSUS"):
            # What the heap holds (stalls the bot once, so not for figures): objects the
            # collector tracks, by type, and where the last-allocated ones were made.
            by_type: dict[str, list[int]] = {}
            for obj in gc.get_objects():
                entry = by_type.setdefault(type(obj).__qualname__, [0, 0])
                entry[0] += 1
                entry[1] += sys.getsizeof(obj)
            top = sorted(by_type.items(), key=lambda kv: -kv[1][1])[:40]
            tracked = [len(gc.get_objects(g)) for g in range(3)]
            start = time.perf_counter()
            gc.collect()
            full_ms = (time.perf_counter() - start) * 1000
            Path(os.environ["NINES_LOAD_CENSUS"]).write_text(
                f"tracked by generation: {tracked}, frozen: {gc.get_freeze_count()}, "
                f"a full collection now: {full_ms:.1f} ms, live games: {memory[name]['live']}\n"
                + "\n".join(f"{n:10d} {size / 2**20:8.2f} MB  {name}" for name, (n, size) in top)
            )
            # Who holds a few objects of the kinds that should not outlive a click.
            with Path(os.environ["NINES_LOAD_CENSUS"]).open("a") as f:
                for kind in ("View", "Task", "deque", "coroutine"):
                    found = [o for o in gc.get_objects() if type(o).__qualname__ == kind][-3:]
                    for obj in found:
                        f.write(f"\n{kind} {str(obj)[:150]!r} held by:")
                        for ref in gc.get_referrers(obj)[:4]:
                            if ref is not found and not isinstance(ref, type(sys._getframe())):
                                f.write(f"\n    {type(ref).__qualname__} {str(ref)[:150]!r}")
            # From now on keep what the collector would free, to see what makes cycles.
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)

    def garbage_census() -> None:
        gc.collect()
        kinds: dict[str, int] = {}
        for obj in gc.garbage:
            kinds[type(obj).__qualname__] = kinds.get(type(obj).__qualname__, 0) + 1
        top = sorted(kinds.items(), key=lambda kv: -kv[1])[:40]
        with Path(os.environ["NINES_LOAD_CENSUS"]).open("a") as f:
            f.write("\n\ncyclic garbage since then, by type:\n")
            f.write("\n".join(f"{n:10d}  {name}" for name, n in top))

    def dump() -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        out.write_text(
            json.dumps(
                {
                    "answers": answers,
                    "lags": lags.tolist(),
                    "hops": hops.tolist(),
                    "queued": queued.tolist(),
                    "memory": memory,
                    "spent": {name: values.tolist() for name, values in spent.items()},
                    "cpu": usage.ru_utime + usage.ru_stime,
                    "gc": {g: values.tolist() for g, values in pauses.items()},
                    "gc_collected": {g: values.tolist() for g, values in collected.items()},
                    "stalls": stalls,
                }
            )
        )

    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGUSR1, lambda: snapshot("baseline"))
    loop.add_signal_handler(signal.SIGUSR2, lambda: snapshot("loaded"))
    loop.add_signal_handler(signal.SIGHUP, lambda: snapshot("rest"))
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    probe = asyncio.create_task(lag_probe())
    profile_to = os.environ.get("NINES_LOAD_PROFILE")
    if profile_to:  # where the bot's CPU goes (it slows the bot down: not for figures)
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token))
        await stop.wait()
        probe.cancel()
        if profile_to:
            profiler.disable()
            profiler.dump_stats(profile_to)
        dump()
        if os.environ.get("NINES_LOAD_CENSUS"):
            garbage_census()
        runner.cancel()


# -- the people (this process) ---------------------------------------------------------------


def shown_text(msg: Any) -> str:
    """Everything a message shows as text: its content, its embeds' titles, descriptions,
    fields and footers, and its text components (components v2)."""
    parts = [msg.content or ""]
    for embed in msg.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    parts += [c.get("content") or "" for c in msg.all_components() if c.get("type") == 10]
    return "\n".join(parts)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One figure set from each bot process's: samples joined, CPU and memory summed
    (memory per live game is then the processes' growth over their live games)."""
    if len(parts) == 1:
        return parts[0]
    out: dict[str, Any] = {
        key: [x for part in parts for x in part[key]] for key in ("lags", "hops", "queued")
    }
    out["answers"] = {k: v for part in parts for k, v in part["answers"].items()}
    out["cpu"] = sum(part["cpu"] for part in parts)
    out["memory"] = {}
    for name in ("baseline", "loaded", "rest"):
        if all(name in part["memory"] for part in parts):
            snaps = [part["memory"][name] for part in parts]
            out["memory"][name] = {k: sum(snap.get(k, 0) for snap in snaps) for k in snaps[0]}
    for key in ("spent", "gc", "gc_collected"):
        out[key] = defaultdict(list)
        for part in parts:
            for name, values in part[key].items():
                out[key][name].extend(values)
    out["stalls"] = defaultdict(int)
    for part in parts:
        for where, n in part["stalls"].items():
            out["stalls"][where] += n
    return out


async def stored_counts(database_url: str | None, sqlite_path: Path) -> dict[str, int]:
    """Moves stored and games finished, read from the run's database once its bots stopped:
    the bot's own records, so nothing in the bot counts them for this run."""
    query = (
        "SELECT (SELECT count(*) FROM actions) AS actions,"
        " (SELECT count(*) FROM games WHERE status = 'finished') AS finished"
    )
    if database_url is not None:
        import asyncpg

        conn = await asyncpg.connect(database_url)
        try:
            row = await conn.fetchrow(query)
        finally:
            await conn.close()
        assert row is not None
        return {"actions": int(row["actions"]), "finished": int(row["finished"])}
    import sqlite3

    with contextlib.closing(sqlite3.connect(sqlite_path)) as db:
        actions, finished = db.execute(query).fetchone()
    return {"actions": int(actions), "finished": int(finished)}


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


class Window:
    """What the double counted while people played: every request, and Discord's budget
    (requests let through its global window, 429s by scope, invalid requests)."""

    def __init__(self, fake: FakeDiscord, bots: list[int]) -> None:
        self.fake, self.bots = fake, bots
        self.started = time.monotonic()
        self._waited = sum(map(run_queue_wait, bots))
        self._cpu = self.bots_cpu()
        self.waited = self.cpu = 0.0
        limits = fake.ratelimits
        self._before = (
            len(fake.requests),
            limits.under_global,
            dict(limits.sent_429_by_scope),
            limits.invalid_requests,
        )
        self.elapsed = 0.0
        self.requests: list[RequestRecord] = []
        self.under_global = 0
        self.by_scope: dict[str, int] = {}
        self.invalid = 0

    def close(self) -> None:
        from fakecord.ratelimit import SCOPES

        limits = self.fake.ratelimits
        self.elapsed = time.monotonic() - self.started
        self.waited = sum(map(run_queue_wait, self.bots)) - self._waited
        self.cpu = self.bots_cpu() - self._cpu
        self.requests = self.fake.requests[self._before[0] :]
        self.under_global = limits.under_global - self._before[1]
        self.by_scope = {
            scope: limits.sent_429_by_scope[scope] - self._before[2].get(scope, 0)
            for scope in SCOPES
        }
        self.invalid = limits.invalid_requests - self._before[3]

    def by_route(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for r in self.requests:
            key = f"{r.method} {r.route}"
            counts[key] = counts.get(key, 0) + 1
        return counts

    def bots_cpu(self) -> float:
        return sum(cpu_of(Path(f"/proc/{pid}")) for pid in self.bots)

    def print_waited(self) -> None:
        print(
            f"the bot's loop waited for a CPU (runnable, not running: the machine's other work "
            f"took it) {self.waited:.1f} s in {self.elapsed:.1f} s "
            f"({100 * self.waited / self.elapsed:.0f}%)"
        )

    def print_429s(self) -> None:
        from fakecord.ratelimit import INVALID_REQUEST_LIMIT

        print(
            "429s by scope: "
            + ", ".join(f"{scope} {n}" for scope, n in self.by_scope.items())
            + f"; invalid requests (401, 403, 429 not shared): {self.invalid} "
            f"(Cloudflare bans an IP at {INVALID_REQUEST_LIMIT:,} in 10 minutes)"
        )


@dataclass
class ChatPlayed:
    """What the chat's people did and saw."""

    games_started: int
    person_moves: int
    refusals: int
    unanswered: int
    hand_clicks: dict[str, int]
    table_lags: list[float]
    never_shown: int


async def socket_people(
    args: argparse.Namespace,
    fake: FakeDiscord,
    port: int,
    signal_bots: Callable[[int], None],
    bots: list[int],
) -> tuple[Window, dict[str, Any]]:
    """People at the Activity's web tables (``--clients sockets``, bench/socket_clients.py):
    the games opened, the bot weighed with them live and no socket ("baseline"), then with
    every socket open and idle ("rest"), not under play (weighing stops its loop); the
    sockets' own figures."""
    spec = await socket_clients.open_tables(
        fake, args.games, lambda g: PAUSES[args.pace if paused(args.pace, g) else "machine"]
    )
    await fake.settle(SETTLE_WITHIN)
    await asyncio.sleep(1.0)
    signal_bots(signal.SIGUSR1)
    await asyncio.sleep(1.0)
    clients = await socket_clients.SocketClients.start(spec, port, args.seconds)
    try:
        await clients.ready()
        # The hellos' own requests (tokens, users, instances) answered.
        await fake.settle(SETTLE_WITHIN)
        await asyncio.sleep(1.0)
        signal_bots(signal.SIGHUP)
        await asyncio.sleep(1.0)
        window = Window(fake, bots)
        await clients.go()
        figures = await clients.figures()
        played = time.monotonic() - window.started
        await fake.settle(SETTLE_WITHIN)  # the chat tables of the last cards shown
        window.close()
    finally:
        clients.kill()
    return window, {**figures, "sockets": len(spec), "played": played}


async def chat_people(
    args: argparse.Namespace,
    fake: FakeDiscord,
    guilds: list[Guild],
    signal_bots: Callable[[int], None],
    bots: list[int],
) -> tuple[Window, ChatPlayed]:
    """People in chat (``--clients chat``): each table's games one after another, their people
    clicking in the double; the bots weighed idle before, under load, and at rest."""
    from bot.card_faces import face_key
    from bot.emojis import PREFIX
    from engine.cards import Card
    from fakecord.models import Channel, Message, User

    signal_bots(signal.SIGUSR1)
    await asyncio.sleep(0.5)

    rng = random.Random(1)
    computers = [level.strip() for level in args.computers.split(",")] * 2
    channels = [
        fake.add_channel(guilds[i % len(guilds)], name=f"table-{i}") for i in range(args.games)
    ]
    await asyncio.sleep(0.5)
    person_moves = 0
    refusals = 0
    # Why people clicked "My hand": no hand of this game yet, or the one shown had no move
    # when a notification said it was their turn.
    hand_clicks = {"first": 0, "stale": 0}
    games_started = 0
    stop_at = 0.0

    # Event-driven people: a channel's messages changing wakes its people (polling 200
    # tables would make this process, not the bot, the bottleneck). People read only what
    # Discord shows them: notifications (a mention in a newly created message) and their
    # newest private hand.
    changed: dict[int, asyncio.Event] = {ch.id: asyncio.Event() for ch in channels}
    notified: dict[int, list[Message]] = defaultdict(list)
    hands: dict[int, Message] = {}

    def has_cards(msg: Message) -> bool:
        return any(
            ":play:" in (b.custom_id or "") or ":xchg:" in (b.custom_id or "")
            for b in msg.buttons()
        )

    def announced(event: str, msg: Message) -> None:
        if msg.channel_id in changed:
            if event != "MESSAGE_DELETE" and awaited:
                watch_tables(msg)
            if event == "MESSAGE_CREATE" and msg.ephemeral_for is None:
                # A turn message names its person, pinged or not (the bot pings only
                # when it helps): people read the channel, not only their pings.
                named = {int(i) for i in re.findall(r"<@!?(\d+)>", msg.content or "")}
                for user_id in named | {user.id for user in msg.mentions}:
                    notified[user_id].append(msg)
            elif msg.ephemeral_for is not None and has_cards(msg):
                hands[msg.ephemeral_for] = msg
            changed[msg.channel_id].set()

    fake.message_watchers.append(announced)

    # Table lag: from a person's card click until a public message of the channel first
    # shows that card beside the player's name (as the trick and the last trick write
    # it: ``p3a **9♥**``, ``**p3a 9♥**``), read from what the bot sent the double.
    awaited: defaultdict[int, list[tuple[re.Pattern[str], float]]] = defaultdict(list)
    table_lags: list[float] = []
    never_shown = 0

    def card_shown(user: User, custom_id: str) -> re.Pattern[str]:
        # The bot names a seat by the person's display name (the double's is the user
        # name) between Unicode's isolate marks (U+2068, U+2069); a card by its face's emoji
        # (``<:nines_9h_1a2b3c4d:123>``, bot/emojis.py), or by its label where faces would
        # pass a length limit, in the guild's notation and deck (English, two colours here).
        card = Card.parse(custom_id.rsplit(":", 1)[1])
        face = rf"<:{PREFIX}{face_key(card, 'en', False)}_[0-9a-f]{{8}}:\d+>"
        shown = rf"(?:{re.escape(card.pretty)}|{face})"
        return re.compile(rf"(?<!\w){re.escape(user.name[:32])}\u2069?[ *]{{1,3}}{shown}")

    def watch_tables(msg: Message) -> None:
        nonlocal never_shown
        waiting = awaited.get(msg.channel_id)
        if not waiting or msg.ephemeral_for is not None:
            return
        text = shown_text(msg)
        now = fake.clock.now()
        still = []
        for pattern, clicked in waiting:
            if pattern.search(text):
                table_lags.append(now - clicked)
            elif now - clicked > 60:  # its game moved on without showing it
                never_shown += 1
            else:
                still.append((pattern, clicked))
        awaited[msg.channel_id] = still

    # People make no new move while ``go`` is clear (to weigh the games at rest).
    go = asyncio.Event()
    go.set()

    def over(channel: Channel, since: int) -> bool:
        """Whether the game started at message ``since`` of the channel has ended (only
        its own messages: the last game's end is often among the last three)."""
        for message in fake.store.messages.get(channel.id, [])[since:][-4:]:
            if any(b.label == "Rematch" for b in message.buttons()):
                return True
            if any("ran out of time" in json.dumps(e) for e in message.embeds):
                return True
        return False

    unanswered = 0

    async def answered(inter: Any) -> bool:
        """Whether the bot answered (a failed interaction is counted, not fatal)."""
        nonlocal unanswered
        try:
            await asyncio.wait_for(inter.answered.wait(), 10)
        except TimeoutError:
            unanswered += 1
            return False
        return True

    async def back() -> None:
        """Wait while people are paused; then come back within 2 s, as people would,
        not all in the same millisecond."""
        if not go.is_set():
            await go.wait()
            await asyncio.sleep(rng.uniform(0.0, 2.0))

    def enabled(hand: Message | None) -> list[str]:
        return [
            b.custom_id
            for b in (hand.buttons() if hand is not None else [])
            if b.custom_id and not b.disabled and ":hand:" not in b.custom_id
        ]

    async def person(user: User, channel: Channel, human: bool, since: int) -> None:
        nonlocal person_moves, refusals
        event = changed[channel.id]
        while not over(channel, since):
            await back()
            hand = hands.get(user.id)
            moves = enabled(hand)
            # Their turn shows in a message naming them, or in their own hand: the answer
            # to their last click gives them the turn with no ping (issue 29), and the bot
            # keeps the hand current (its cards enabled) when the turn comes back.
            if not notified[user.id] and not moves:
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), 1.0)
                continue
            note = notified[user.id][-1] if notified[user.id] else None
            notified[user.id].clear()
            if not moves and note is not None:
                hand_clicks["first" if hand is None else "stale"] += 1
                inter = await fake.click(user, note, "My hand", wait=False)
                await answered(inter)
                if inter.message is not None:
                    hands[user.id] = hand = inter.message
                moves = enabled(hand)
                if not moves:
                    continue
            if human:
                await asyncio.sleep(rng.uniform(*PAUSES[args.pace]))
            choice = rng.choice(moves)
            card = (card_shown(user, choice), fake.clock.now()) if ":play:" in choice else None
            if card is not None:
                awaited[channel.id].append(card)
            inter = await fake.click(user, hand, choice, wait=False)  # type: ignore[arg-type]
            await answered(inter)
            person_moves += 1
            # A deferred answer (the game was busy) edits the hand a little later.
            answer = inter.message if inter.ack_type == 7 else None
            if answer is not None and "out of date" in (answer.content or ""):
                refusals += 1
                if card in awaited[channel.id]:  # refused: no table will show it
                    awaited[channel.id].remove(card)
            calls = [
                b.custom_id
                for b in (answer.buttons() if answer else [])
                if b.custom_id and ":joker:" in b.custom_id
            ]
            if calls:
                inter = await fake.click(user, answer, rng.choice(calls), wait=False)  # type: ignore[arg-type]
                await answered(inter)

    async def table_loop(i: int, channel: Channel) -> None:
        nonlocal games_started
        guild = guilds[i % len(guilds)]
        users = [fake.add_user(f"p{i}a", guild=guild), fake.add_user(f"p{i}b", guild=guild)]
        two = i % 5 == 0  # one game in five has two people
        human = paused(args.pace, i)
        await asyncio.sleep(i * args.ramp / max(args.games, 1))  # tables open over --ramp s
        while time.monotonic() < stop_at:
            await back()
            host = users[0]
            res = await fake.slash(host, channel, "nines start", start=5, wait=False)
            await answered(res)
            lobby = res.message
            if lobby is None or not lobby.buttons():  # the last game is still closing
                await asyncio.sleep(0.2)
                continue
            gid = lobby.buttons()[0].custom_id.split(":")[3]  # type: ignore[union-attr]
            if two:
                await answered(await fake.click(users[1], lobby, "Join", wait=False))
                levels = computers[:1]
            else:
                levels = computers[:2]
            for level in levels:
                await answered(
                    await fake.click(host, lobby, f"nines:1:lobby:{gid}:cpu-{level}", wait=False)
                )
            since = len(fake.store.messages.get(channel.id, []))
            await answered(await fake.click(host, lobby, "Start", wait=False))
            games_started += 1
            people = users[:2] if two else users[:1]
            await asyncio.gather(*(person(u, channel, human, since) for u in people))

    window = Window(fake, bots)
    stop_at = window.started + args.seconds
    tasks = [asyncio.create_task(table_loop(i, ch)) for i, ch in enumerate(channels)]
    await asyncio.sleep(min(args.seconds / 2, 20))
    signal_bots(signal.SIGUSR2)
    await asyncio.sleep(0.5)
    # Then at rest: no new click for a moment, every click answered and every table
    # edited, the games still live.
    go.clear()
    await asyncio.sleep(3.0)
    signal_bots(signal.SIGHUP)
    await asyncio.sleep(0.5)
    go.set()
    done, pending = await asyncio.wait(tasks, timeout=args.seconds + args.drain)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            print("a table failed:", repr(task.exception()))
    window.close()
    never_shown += sum(len(waiting) for waiting in awaited.values())
    return window, ChatPlayed(
        games_started, person_moves, refusals, unanswered, hand_clicks, table_lags, never_shown
    )


def print_loop(data: dict[str, Any]) -> None:
    """The bot's event loop: its lag, and one hop through its queue."""
    lags = [x * 1000 for x in data["lags"]]
    print(
        f"event-loop lag (ms): p50 {pct(lags, 0.5):.1f}  p99 {pct(lags, 0.99):.1f}  "
        f"max {max(lags, default=float('nan')):.1f}"
    )
    hops = [x * 1000 for x in data["hops"]]
    print(
        f"one hop through the loop's queue (ms): p50 {pct(hops, 0.5):.1f}  "
        f"p99 {pct(hops, 0.99):.1f}; callbacks queued: p50 {pct(data['queued'], 0.5):.0f}  "
        f"p99 {pct(data['queued'], 0.99):.0f}"
    )


def print_spent(data: dict[str, Any]) -> None:
    """Where the bot's time went: its own timings (database writes, computers' decisions),
    its collector's pauses, and where its loop stalled."""
    for name, values in sorted(data["spent"].items(), key=lambda kv: -sum(kv[1])):
        ms = [v * 1000 for v in values]
        print(
            f"   {name}: n={len(ms)} p50 {pct(ms, 0.5):.1f} p99 {pct(ms, 0.99):.1f} "
            f"max {max(ms):.1f} ms"
        )
    for generation, values in data["gc"].items():
        if values:
            ms = [v * 1000 for v in values]
            print(
                f"   gc generation {generation}: n={len(ms)} p50 {pct(ms, 0.5):.1f} "
                f"max {max(ms):.1f} ms, {sum(ms) / 1000:.1f} s in all; objects freed "
                f"p50 {pct(data['gc_collected'][generation], 0.5):.0f}"
            )
    stalls = sorted(data["stalls"].items(), key=lambda kv: -kv[1])
    print(f"loop stalls over {STALL_S * 1000:.0f} ms: {sum(n for _, n in stalls)}; where:")
    for where, n in stalls[:6]:
        print(f"   {n:5d}  {where}")


def print_cpu(data: dict[str, Any], elapsed: float, others: str, server: float | None) -> None:
    """CPU seconds: the bot's, the rest of the run's (``others``), PostgreSQL's; the machine."""
    print(
        f"CPU: bot {data['cpu']:.1f} s ({100 * data['cpu'] / elapsed:.0f}% of a core); "
        f"{others}; "
        + (f"PostgreSQL {server:.1f} s; " if server is not None else "")
        + f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
    )


def report_sockets(
    args: argparse.Namespace,
    fake: FakeDiscord,
    data: dict[str, Any],
    stored: dict[str, int],
    window: Window,
    sockets: dict[str, Any],
    double_cpu: float,
) -> None:
    """The figures of a ``--clients sockets`` run."""
    elapsed, cards = window.elapsed, max(sockets["cards"], 1)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{args.games} games, {sockets['sockets']} sockets, pace {args.pace}: "
        f"{sockets['actions']} actions from the sockets ({sockets['cards']} cards) in "
        f"{sockets['played']:.1f} s of play, the chat's side done {elapsed:.1f} s after the "
        f"start; {sockets['finished']} games finished; actions stored "
        f"{stored['actions']}; errors answered {sockets['errors']}; sockets failed "
        f"{sockets['failed']} {sockets['failures']}"
    )
    print(f"load average at the end: {load} ({os.cpu_count()} cores)")
    waits = [x * 1000 for x in sockets["waits"]]
    print(
        "a card sent -> every other socket of its game has the table showing it (ms): "
        f"p50 {pct(waits, 0.5):.1f}  p99 {pct(waits, 0.99):.1f}  "
        f"max {max(waits, default=float('nan')):.1f}  (n={len(waits)} deliveries)"
    )
    lags = [x * 1000 for x in sockets["lags"]]
    print(
        f"   the sockets' own process's loop lag (in those figures too, ms): p50 "
        f"{pct(lags, 0.5):.1f}  p99 {pct(lags, 0.99):.1f}  max {max(lags, default=0.0):.1f}"
    )
    base, rest = data["memory"].get("baseline"), data["memory"].get("rest")
    if base and rest:
        n = sockets["sockets"]
        print(
            f"bot memory with every socket open and idle: {base['rss'] / 2**20:.1f} MB with "
            f"{base['live']} live games and no socket, {rest['rss'] / 2**20:.1f} MB with {n}: "
            f"{(rest['rss'] - base['rss']) / n / 1024:.1f} KB per connected socket "
            f"(Python's allocated blocks: {(rest['blocks'] - base['blocks']) / n / 1024:.1f} KB)"
        )
    print(
        f"requests under Discord's global limit: {window.under_global} in all, "
        f"{window.under_global / cards:.3f} per card from a socket, "
        f"{window.under_global / elapsed:.1f}/s (the chat tables' edits and turn messages the "
        "sockets' actions caused; interaction routes are not bound to it)"
    )
    print("Discord requests per card from a socket, by route:")
    for key, count in sorted(window.by_route().items(), key=lambda kv: -kv[1]):
        print(f"   {count / cards:6.3f}  {key}")
    window.print_429s()
    print(f"429s received: {sum(1 for r in window.requests if r.status == 429)}")
    print_loop(data)
    window.print_waited()
    print_spent(data)
    print_cpu(data, elapsed, f"the double {double_cpu:.1f} s, the sockets' own process "
              f"{sockets['cpu']:.1f} s", None)  # fmt: skip
    print(
        f"   bot CPU in the play: {window.cpu:.1f} s ({100 * window.cpu / elapsed:.0f}% of a "
        f"core), {1000 * window.cpu / cards:.1f} ms a card from a socket (its pushes to the "
        "sockets, the chat table's edits and the storage it caused; the games' opening not "
        "included)"
    )
    print(f"spec-checked bodies: 1 in {args.validate_every}; violations: {len(fake.violations)}")


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
        "(its computers' moves, hands, lobbies and tables included)"
        + (
            f"; PostgreSQL's: {1000 * server_cpu / max(person_moves, 1):.2f} ms"
            if database_url
            else ""
        )
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
    "--profile": "write a cProfile of the bot process here",
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
