"""The Activity's people for ``bench/load.py --clients sockets``: browser-less web tables.

The run's process opens the games (``open_tables``: three people each, in their own channel,
through the double) and starts ``SocketClients``: a child process of its own, so that the
clients' JSON and sockets are counted against neither the bot nor the double. There each
person opens one web-table socket as a browser does (``POST /api/token`` with the code the
double issued, then the websocket's hello, docs/activity.md) and plays: whoever's turn it is
sends one of the legal actions after a pause. The child measures, on its own clock, how long
until every other socket of the game has the table that shows a card (the first frame after
the card's seq: the three people are the game's only players, so nothing else moves it).

The conversation with the child, one line each: the spec (JSON) in; "ready" out once every
socket has its table; "go" in (the parent has weighed the bot with every socket idle); the
figures (JSON) out at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fakecord import FakeDiscord
    from fakecord.interactions import Interaction

ROOT = Path(__file__).resolve().parents[1]

Json = dict[str, Any]

#: How long the sockets may take to open and say ready (600 of them, a loaded 2-core machine).
READY_WITHIN = 300.0
#: How long one click of a table's opening may wait for the bot's answer.
ANSWER_WITHIN = 60.0
#: Games opened at once through the double (each a slash command and three clicks).
OPENING = 20
#: The client's heartbeat (docs/activity.md: a ping every 10 s; the server drops a socket
#: silent for 30 s, and an idle run's sockets wait longer than that for "go").
PING_EVERY = 10.0


async def open_tables(
    fake: FakeDiscord, games: int, pause: Callable[[int], tuple[float, float]]
) -> list[Json]:
    """``games`` games of three people each, each in a channel of its own, started through the
    double (``OPENING`` at once); one spec per person: the code to exchange on ``/api/token``
    and the Activity instance the person is in, as Discord's client would hand them over, and
    the pause (seconds, uniform) before each of their actions, by table (``pause(g)``)."""
    from testbed.games import game_id_of

    gate = asyncio.Semaphore(OPENING)

    async def answered(inter: Interaction) -> Interaction:
        # Each click waits for its own answer, not for the double to settle: with games
        # opening side by side it never would.
        await asyncio.wait_for(inter.answered.wait(), ANSWER_WITHIN)
        if inter.errors:
            raise SystemExit(f"opening a table failed: {inter.errors}")
        return inter

    async def one(g: int) -> list[Json]:
        async with gate:
            channel = fake.add_channel(name=f"table-{g}")
            host, *others = people = [fake.add_user(f"p{g}-{k}") for k in range(3)]
            start = await answered(await fake.slash(host, channel, "nines start", wait=False))
            lobby = start.message
            assert lobby is not None  # answered with no error: the lobby
            game = game_id_of(lobby)
            for person in others:
                await answered(await fake.click(person, lobby, "Join", wait=False))
            await answered(await fake.click(host, lobby, "Start", wait=False))
        return [
            {
                "game": game,
                "code": fake.authorize(person),
                "instance": fake.activity_instance(channel, [person.id]),
                "channel": str(channel.id),
                "guild": str(fake.guild.id),
                "pause": pause(g),
            }
            for person in people
        ]

    return [
        p for per_game in await asyncio.gather(*(one(g) for g in range(games))) for p in per_game
    ]


class SocketClients:
    """The child process that holds the sockets."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, spec: list[Json], port: int, seconds: float) -> SocketClients:
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, str(port), str(seconds),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        clients = cls(process)
        await clients._say(json.dumps(spec))
        return clients

    async def _say(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())
        await self.process.stdin.drain()

    async def ready(self) -> None:
        """Once every socket has its first table."""
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), READY_WITHIN)
        if line.strip() != b"ready":
            raise SystemExit(f"the socket clients did not open: {line!r}")

    async def go(self) -> None:
        await self._say("go")

    async def figures(self) -> Json:
        """What the clients measured, once they stopped."""
        assert self.process.stdout is not None
        out = (await self.process.stdout.read()).decode().strip().splitlines()
        await self.process.wait()
        if self.process.returncode != 0 or not out:
            raise SystemExit(f"the socket clients failed (exit {self.process.returncode})")
        figures: Json = json.loads(out[-1])
        return figures

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()


# -- the child process -------------------------------------------------------------------------


class Deliveries:
    """How long each card took to reach every other socket of its game: from its player
    sending it to each other socket's first table after it (a card's own table comes after
    the seq its player saw). Every card counts, not only a game's last: at machine speed the
    next card often leaves before the third socket has the last one's table."""

    def __init__(self, seats: int = 3) -> None:
        self.seats = seats
        #: game -> its cards not yet seen by every other socket: (when sent, the game's seq
        #: its player saw then, by which seat)
        self.sent: dict[int, list[tuple[float, int, int]]] = {}
        self.seen: dict[tuple[int, int], int] = {}  # (game, seat) -> newest seq
        self.waits: list[float] = []

    def card(self, game: int, seat: int, seq: int, at: float) -> None:
        """``seat`` sent a card, its table at ``seq``."""
        self.sent.setdefault(game, []).append((at, seq, seat))

    def table(self, game: int, seat: int, seq: int, at: float) -> None:
        """``seat``'s socket has the game's table at ``seq`` (its hello's, or a push)."""
        had = self.seen.get((game, seat))
        pending = self.sent.get(game, [])
        if had is not None:  # a hello's table is no delivery
            self.waits.extend(
                at - sent for sent, sent_seq, by in pending if by != seat and had <= sent_seq < seq
            )
        self.seen[(game, seat)] = max(seq, -1 if had is None else had)
        # Forget the cards every socket of the game has had a table after.
        oldest = min(self.seen.get((game, s), -1) for s in range(self.seats))
        self.sent[game] = [c for c in pending if c[1] >= oldest]


async def clients(spec: list[Json], port: int, seconds: float) -> Json:
    import aiohttp

    from testbed.page_sockets import backoff

    base = f"http://127.0.0.1:{port}"
    deliveries = Deliveries()
    counts = {"actions": 0, "cards": 0, "finished": 0, "errors": 0}
    rng = random.Random(1)
    stop_at = float("inf")  # set at "go": opening the sockets is not play
    all_ready = asyncio.Event()

    async def one(http: aiohttp.ClientSession, person: Json, ready: asyncio.Event) -> None:
        # The page's rule: what the sign-in refuses as "retry"/"busy" (the server's budget of
        # calls to Discord, spent by 600 sign-ins at once) is tried again after its wait.
        async with http.post(base + "/api/token", json={"code": person["code"]}) as answer:
            token = (await answer.json())["access_token"]
        for attempt in range(20):
            if await socket(http, person, token, ready) or ready.is_set():
                return
            await asyncio.sleep(backoff(attempt, 1.0, rng))

    async def socket(
        http: aiohttp.ClientSession, person: Json, token: str, ready: asyncio.Event
    ) -> bool:
        """One socket's life; False if its hello was refused as worth trying again."""
        async with http.ws_connect(base + "/api/ws", heartbeat=None) as ws:
            await ws.send_json(
                {
                    "op": "hello",
                    "access_token": token,
                    "instance_id": person["instance"],
                    "channel_id": person["channel"],
                    "guild_id": person["guild"],
                    "last_seq": None,
                    "locale": "en-US",
                }
            )
            game, n, pinged = person["game"], 0, time.monotonic()
            while True:
                try:
                    message = await ws.receive(timeout=PING_EVERY)
                except TimeoutError:
                    message = None
                if time.monotonic() - pinged >= PING_EVERY:
                    await ws.send_json({"op": "ping"})
                    pinged = time.monotonic()
                if message is None:
                    continue
                if message.type is not aiohttp.WSMsgType.TEXT:
                    return ready.is_set()  # closed before its ready: tried again
                frame = json.loads(message.data)
                if (
                    frame["op"] == "error"
                    and not ready.is_set()
                    and frame.get("code") in ("retry", "busy")
                ):
                    return False
                if frame["op"] == "error":
                    counts["errors"] += 1
                if frame["op"] not in ("ready", "table"):
                    continue
                table, seq = frame["table"], frame["seq"]
                seat = table["viewer"]
                if frame["op"] == "ready":
                    ready.set()
                    while not all_ready.is_set():  # heard from, or the server drops it
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(all_ready.wait(), PING_EVERY)
                        await ws.send_json({"op": "ping"})
                    pinged = time.monotonic()
                deliveries.table(game, seat, seq, time.monotonic())
                if table["status"] != "playing":
                    counts["finished"] += seat == 0
                    return True
                if time.monotonic() > stop_at:
                    return True
                turn = table["turn"]
                if turn is not None and turn["seat"] == seat and table["hand"]["legal"]:
                    await asyncio.sleep(rng.uniform(*person["pause"]))
                    action = rng.choice(table["hand"]["legal"])
                    n += 1
                    counts["actions"] += 1
                    if action not in ("swap", "keep"):  # a card, not the exchange's choice
                        counts["cards"] += 1
                        deliveries.card(game, seat, seq, time.monotonic())
                    await ws.send_json(
                        {
                            "op": "act",
                            "key": f"{game}-{seat}-{n}",
                            "action": action,
                            "n": table["n"],
                        }
                    )

    lags: list[float] = []

    async def lag_probe() -> None:
        # This process's own loop lag: a frame read late here counts in the waits too.
        while True:
            started = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append(time.monotonic() - started - 0.01)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        readies = [asyncio.Event() for _ in spec]
        tasks = [asyncio.create_task(one(http, p, r)) for p, r in zip(spec, readies, strict=True)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), READY_WITHIN)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        stop_at = time.monotonic() + seconds
        all_ready.set()
        probe = asyncio.create_task(lag_probe())
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        probe.cancel()
    failed = [repr(o) for o in outcomes if isinstance(o, BaseException)]
    used = resource.getrusage(resource.RUSAGE_SELF)
    return {
        **counts,
        "cpu": used.ru_utime + used.ru_stime,
        "waits": sorted(deliveries.waits),
        "lags": sorted(lags),
        "failed": len(failed),
        "failures": failed[:3],
    }


if __name__ == "__main__":
    port, seconds = sys.argv[1:3]
    spec = json.loads(sys.stdin.readline())
    figures = asyncio.run(clients(spec, int(port), float(seconds)))
    print(json.dumps(figures), flush=True)
