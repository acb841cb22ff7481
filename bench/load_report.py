"""The load run's figures (bench/load.py): the processes' CPU and waits measured over the
window of play, percentiles, the children's samples merged, moves and games read from the
database, and the lines printed."""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import time
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]

if TYPE_CHECKING:
    from fakecord import FakeDiscord
    from fakecord.server import RequestRecord


STALL_S = 0.08  # a loop that has not ticked for this long is stalled: say where it is


def interaction_kind(custom_id: str, command: object) -> str:
    """A button's kind from its custom_id (``nines:...:play:...`` gives "play"), else the
    command's name ("/nines")."""
    return custom_id.split(":")[2] if custom_id.count(":") >= 3 else f"/{command}"


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

    def print_same_edits(self) -> None:
        """Edits that changed nothing: the same body as the message's previous edit (a redundant
        request, had the bot known); and how many edits were of ephemeral hands (flags 64 or
        no embed) against public tables (an embed)."""
        last: dict[str, Any] = {}
        same = tables = same_tables = 0
        for r in self.requests:
            if r.method != "PATCH" or not r.route.endswith("/messages/{message_id}"):
                continue
            embed = isinstance(r.body, dict) and bool(r.body.get("embeds"))
            tables += embed
            if r.path in last and last[r.path] == r.body:
                same += 1
                same_tables += embed
            last[r.path] = r.body
        edits = sum(1 for r in self.requests if r.method == "PATCH")
        print(
            f"   edits: {edits} ({tables} with an embed: tables, summaries); the same body as "
            f"the message's previous edit: {same} ({same_tables} with an embed)"
        )

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
    window.print_same_edits()
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
