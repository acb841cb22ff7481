"""The Activity's sockets under load (a script, not a test).

    PYTHONPATH=. python bench/activity_sockets.py [--games 50] [--seconds 30] [--pace mixed]

The Discord double and the real bot (its own ``build_bot``, the Activity on) run in this
process; ``--games`` games of three people each are opened in their own channels, and a child
process (so that the clients' own work is not counted here) opens one web-table socket per
person, through ``/api/token`` and a hello as a browser would, and plays: whoever's turn it
is acts after a pause (``--pace``: machine, none; mixed, 0.5 to 2 s; human, 3 to 7 s).
Printed: the bot process's memory added per connected socket (tracemalloc, the double's
records of each person included); for every action, how long until each of the game's two
other sockets has the table that shows it (p50, p99, max); the requests under Discord's global
limit per action (what the chat side of each socket's action costs: the chat table follows
every action, whoever made it), and every request by route; the load average (a shared
machine slows every figure); and the event loop's lag meanwhile (the bot and the double share
it), to tell a slow push from a stalled process.

``bench/load.py`` is the chat's load run (people clicking in the double); this is the
Activity's, with the same bot, kept apart because its clients run in a child process of their
own so their JSON and sockets are not counted against the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    import discord  # noqa: F401  (its deprecation warnings silenced once)


# -- the clients (child process) ---------------------------------------------------------------


#: The pause before an action (seconds, uniform), by --pace.
PAUSES = {"machine": (0.0, 0.0), "mixed": (0.5, 2.0), "human": (3.0, 7.0)}


async def clients(
    spec: list[dict[str, Any]], port: int, seconds: float, pace: str
) -> dict[str, Any]:
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    #: game -> (when its last action was sent, the seq then, by which seat)
    sent: dict[int, tuple[float, int, int]] = {}
    seen: dict[tuple[int, int], int] = {}  # (game, seat) -> newest seq
    waits: list[float] = []
    acted = 0
    rng = random.Random(1)
    stop_at = float("inf")  # set at "go": the sockets' opening is not play

    async def one(http: aiohttp.ClientSession, person: dict[str, Any], ready: asyncio.Event,
                  all_ready: asyncio.Event) -> None:  # fmt: skip
        nonlocal acted
        async with http.post(base + "/api/token", json={"code": person["code"]}) as answer:
            token = (await answer.json())["access_token"]
        async with http.ws_connect(base + "/api/ws") as ws:
            await ws.send_json(
                {
                    "op": "hello",
                    "access_token": token,
                    "instance_id": person["instance"],
                    "channel_id": str(person["channel"]),
                    "guild_id": str(person["guild"]),
                    "last_seq": None,
                    "locale": "en-US",
                }
            )
            game, n = person["game"], 0
            async for message in ws:
                frame = json.loads(message.data)
                if frame["op"] not in ("ready", "table"):
                    continue
                table, seq = frame["table"], frame["seq"]
                seat = table["viewer"]
                if frame["op"] == "ready":
                    ready.set()
                    await all_ready.wait()
                else:
                    last = sent.get(game)
                    if (
                        last is not None
                        and last[2] != seat  # the other sockets' wait, not the actor's
                        and seq > last[1]
                        and seen.get((game, seat), -1) <= last[1]
                    ):
                        waits.append(time.monotonic() - last[0])
                seen[(game, seat)] = max(seen.get((game, seat), -1), seq)
                if time.monotonic() > stop_at or table["status"] != "playing":
                    break
                turn = table["turn"]
                if turn is not None and turn["seat"] == seat and table["hand"]["legal"]:
                    await asyncio.sleep(rng.uniform(*PAUSES[pace]))
                    n += 1
                    sent[game] = (time.monotonic(), seq, seat)
                    acted += 1
                    action = rng.choice(table["hand"]["legal"])
                    await ws.send_json({"op": "act", "key": f"{game}-{seat}-{n}", "action": action})

    all_ready = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        readies = [asyncio.Event() for _ in spec]
        tasks = [
            asyncio.create_task(one(http, p, r, all_ready))
            for p, r in zip(spec, readies, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        print("ready", flush=True)
        # The parent measures memory with every socket open and idle, then says go.
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        stop_at = time.monotonic() + seconds
        all_ready.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    waits.sort()
    return {"acted": acted, "waits": waits}


# -- the bot and the double (this process) ----------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def main(games: int, seconds: float, pace: str, validate_every: int) -> None:
    from bot.app import build_bot
    from bot.settings import Settings
    from fakecord import FakeDiscord
    from fakecord.wiring import discord_pointed_at, run_client, stop_client
    from testbed.games import open_game

    # The double checks the bot's request bodies against Discord's OpenAPI spec (jsonschema):
    # in this process, beside the bot, one in --validate-every, as bench/load.py does; every
    # one would make the double most of the loop's work (a profile: 30 of 80 busy seconds).
    fake = FakeDiscord(check_bodies_every=validate_every)
    await fake.start()
    fake.enable_activities()
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="nines-activity-bench-"))
    settings = Settings.from_mapping(
        {
            "DISCORD_TOKEN": fake.token,
            "DATABASE_PATH": str(folder / "nines.sqlite3"),
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "COMPUTER_WORKERS": "0",
            "ACTIVITY_PORT": str(port),
            "DISCORD_CLIENT_SECRET": fake.client_secret,
            "LOG_LEVEL": "WARNING",
        }
    )
    with discord_pointed_at(fake):
        bot = await build_bot(settings)
        task = await run_client(bot, fake)
        await fake.settle()
        spec = []
        for g in range(games):
            channel = fake.add_channel(name=f"table-{g}")
            people = [fake.add_user(f"p{g}-{k}") for k in range(3)]
            game = await open_game(fake, people[0], people=tuple(people[1:]), channel=channel)
            for person in people:
                spec.append(
                    {
                        "game": game,
                        "code": fake.authorize(person),
                        "instance": fake.activity_instance(channel, [person.id]),
                        "channel": channel.id,
                        "guild": fake.guild.id,
                    }
                )
        await fake.settle()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        child = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--child", str(port), str(seconds), pace,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write((json.dumps(spec) + "\n").encode())
        await child.stdin.drain()
        line = await asyncio.wait_for(child.stdout.readline(), 300)
        assert line.strip() == b"ready", line
        await asyncio.sleep(1.0)
        after = tracemalloc.take_snapshot()
        added = sum(s.size_diff for s in after.compare_to(before, "filename"))
        tracemalloc.stop()
        lags: list[float] = []

        async def watch_loop() -> None:
            while True:
                started = time.monotonic()
                await asyncio.sleep(0.01)
                lags.append(time.monotonic() - started - 0.01)

        watcher = asyncio.create_task(watch_loop())
        # Discord's budget meanwhile: what the double let through its global window (the
        # interaction routes are not bound to it), and every request by route.
        limits = fake.ratelimits
        under_global, requests_before = limits.under_global, len(fake.requests)
        started = time.monotonic()
        child.stdin.write(b"go\n")
        await child.stdin.drain()
        out = json.loads((await child.stdout.read()).decode().strip().splitlines()[-1])
        await child.wait()
        await fake.settle()  # the chat tables of the last actions shown
        elapsed = time.monotonic() - started
        under_global = limits.under_global - under_global
        by_route: dict[str, int] = {}
        for r in fake.requests[requests_before:]:
            key = f"{r.method} {r.route}"
            by_route[key] = by_route.get(key, 0) + 1
        watcher.cancel()
        lags.sort()
        await stop_client(bot, task)
    await fake.stop()
    waits = out["waits"]
    sockets = len(spec)
    acted = max(out["acted"], 1)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{games} games, {sockets} sockets, pace {pace}: {out['acted']} actions in "
        f"{elapsed:.0f} s; load average at the end {load} ({os.cpu_count()} cores)"
    )
    print(f"spec-checked request bodies: 1 in {validate_every}; violations: {len(fake.violations)}")
    print(f"memory added in the bot's process with every socket open: {added / 1024:.0f} KB, "
          f"{added / sockets / 1024:.1f} KB a socket")  # fmt: skip
    print(
        "action to the other sockets' table: "
        f"p50 {quantile(waits, 0.5) * 1000:.1f} ms, p99 {quantile(waits, 0.99) * 1000:.1f} ms, "
        f"max {(waits[-1] if waits else float('nan')) * 1000:.1f} ms ({len(waits)} deliveries)"
    )
    print(
        f"requests under Discord's global limit: {under_global} in all, "
        f"{under_global / acted:.3f} per action from a socket (the chat tables' edits and "
        "turn messages these actions caused; interaction routes are not bound to it)"
    )
    print("Discord requests per action from a socket, by route:")
    for key, count in sorted(by_route.items(), key=lambda kv: -kv[1]):
        print(f"   {count / acted:6.3f}  {key}")
    print(
        f"event loop lag: p50 {quantile(lags, 0.5) * 1000:.1f} ms, "
        f"p99 {quantile(lags, 0.99) * 1000:.1f} ms, max {lags[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        spec = json.loads(sys.stdin.readline())
        result = asyncio.run(clients(spec, int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]))
        print(json.dumps(result), flush=True)
        raise SystemExit(0)
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", choices=sorted(PAUSES), default="mixed")
    parser.add_argument("--validate-every", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.seconds, args.pace, args.validate_every))
