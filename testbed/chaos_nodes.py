"""The chaos run's processes (testbed/chaos.py): real bot processes (``python -m bot``) on the
double and one PostgreSQL database, signalled by the seeded schedule and started again, and how
long each shard went unserved meanwhile."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fakecord import FakeDiscord

from .web_tables import CROWD_SIGN_INS

if TYPE_CHECKING:
    from testbed.chaos import Plan

ROOT = Path(__file__).resolve().parents[1]
#: Seconds from a process's start to its first IDENTIFY at most, on a busy machine (Python
#: imports, PostgreSQL, logging in): a process up for less is not yet able to serve a shard.
STARTUP_GRACE = 5.0
#: The key the processes share to relay the web tables' sockets (bot/activity/seal.py).
RELAY_KEY = secrets.token_urlsafe(32)


@dataclass
class Outage:
    """A shard without a session (its holder died or stopped) until one served it again."""

    shard: int
    start: float  # seconds since the chaos began
    seconds: float = 0.0
    #: Of those, the seconds during which a process able to serve it was running.
    served_late: float = 0.0


@dataclass
class Round:
    at: float  # seconds since the chaos began
    node: int
    action: str  # SIGKILL, SIGTERM, restart, skipped
    moment: str  # what was going on: play, takeover (a shard unserved), starting


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Node:
    """One bot process, started, signalled and started again by the schedule."""

    def __init__(self, index: int, env: dict[str, str], log: Path) -> None:
        self.index, self.env, self.log = index, env, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0
        self.deaths = 0

    @property
    def up(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    async def start(self) -> None:
        await self.reap()
        with self.log.open("ab") as out:
            out.write(f"---- start {time.strftime('%H:%M:%S')}\n".encode())
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(  # noqa: ASYNC220 (returns at once)
                [sys.executable, "-m", "bot"], cwd=ROOT, env=self.env, stdout=out, stderr=out
            )
        self.started_at = time.monotonic()

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        with self.log.open("ab") as out:
            out.write(f"---- {sig.name} {time.strftime('%H:%M:%S')}\n".encode())
        self.proc.send_signal(sig)
        self.deaths += 1

    async def reap(self, within: float = 15.0) -> None:
        """Wait for the process to end (a SIGTERM lets it finish its work); SIGKILL past
        ``within``."""
        if self.proc is None:
            return
        deadline = time.monotonic() + within
        while self.proc.poll() is None and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        self.stop()
        self.proc = None

    def stop(self) -> None:
        """SIGKILL, if the process still runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Processes:
    """The bot processes of a run, each preferring its own shard, and the schedule's rounds."""

    def __init__(
        self,
        plan: Plan,
        fake: FakeDiscord,
        database_url: str,
        workdir: Path,
        rng: random.Random,
    ) -> None:
        self.plan, self.fake, self.database_url, self.workdir = plan, fake, database_url, workdir
        self.rng = rng
        self.nodes: list[Node] = []
        self.rounds: list[Round] = []
        self.outages: list[Outage] = []
        self._down: dict[int, Outage] = {}  # the shards unserved now
        self._t0 = 0.0

    async def start(self) -> None:
        """Every process, pointed at the double (started) and the database."""
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE"))}
        for index in range(self.plan.processes):
            env = {
                **base,
                "DISCORD_TOKEN": self.fake.token,
                "DISCORD_API_BASE": self.fake.api_base,
                "DISCORD_GATEWAY_URL": self.fake.gateway_url,
                "DATABASE_URL": self.database_url,
                "COMPUTER_WORKERS": "0",
                "SYNC_COMMANDS": "auto",
                "LOG_LEVEL": "INFO",
                "SHARD_COUNT": str(self.plan.shards),
                "SHARD_IDS": str(index),
            }
            if self.plan.web_tables:
                env["ACTIVITY_PORT"] = str(free_port())
                env["DISCORD_CLIENT_SECRET"] = self.fake.client_secret
                env["RELAY_KEY"] = RELAY_KEY  # the same on every process
                # Every web table here signs in from 127.0.0.1, again at each crash.
                env.update(CROWD_SIGN_INS)
            self.nodes.append(Node(index, env, self.workdir / f"bot{index}.log"))
        for node in self.nodes:
            await node.start()

    def activity_ports(self) -> list[int]:
        """The Activity's ports of the processes up now (any of them serves any socket)."""
        return [int(n.env["ACTIVITY_PORT"]) for n in self.nodes if n.up]

    def served(self, shard: int) -> bool:
        session = self.fake.gateway.by_shard.get(shard)
        return session is not None and session.ws is not None and not session.ws.closed

    def every_shard_served(self) -> bool:
        return all(self.served(s) for s in range(self.plan.shards))

    def chaos_begins(self) -> None:
        """Rounds and outages are timed from here."""
        self._t0 = time.monotonic()

    async def schedule(self) -> None:
        """The seeded rounds: each signals a random process that is up, which starts again a
        random while later."""
        restarts: list[asyncio.Task[None]] = []
        for _ in range(self.plan.rounds):
            await asyncio.sleep(self.rng.uniform(*self.plan.gap))
            # Any process that is up (or starting): one just restarted may be hit again
            # during its IDENTIFY, restore or handback.
            up = [n for n in self.nodes if n.up] or self.nodes
            node = up[self.rng.randrange(len(up))]
            kill = self.rng.random() < self.plan.sigkill_share
            down = self.rng.uniform(*self.plan.down)
            if not node.up:
                self._log(node, "skipped")  # every process is down
                continue
            self._log(node, "SIGKILL" if kill else "SIGTERM")
            node.signal(signal.SIGKILL if kill else signal.SIGTERM)
            restarts.append(asyncio.create_task(self._restart_after(node, down)))
        await asyncio.gather(*restarts)

    async def restart_the_stopped(self) -> None:
        """Every process up again (for the end of the games)."""
        for node in self.nodes:
            if not node.up:
                await self._restart(node)

    async def _restart_after(self, node: Node, down: float) -> None:
        await asyncio.sleep(down)
        await self._restart(node)

    async def _restart(self, node: Node) -> None:
        await node.reap()
        self._log(node, "restart")
        await node.start()

    def _moment(self, node: Node) -> str:
        if time.monotonic() - node.started_at < 5.0:
            return "starting"  # an IDENTIFY, a restore or a handback under way
        if not self.every_shard_served():
            return "takeover"
        return "play"

    def _log(self, node: Node, action: str) -> None:
        moment = self._moment(node)
        self.rounds.append(Round(time.monotonic() - self._t0, node.index, action, moment))

    async def watch_shards(self) -> None:
        """When each shard lost its session, when a session served it again, and how long of
        that a process able to serve it was running (up for STARTUP_GRACE: when the schedule
        keeps every process down, no bot can do better)."""
        last = time.monotonic()
        while True:
            now = time.monotonic()
            able = any(n.up and now - n.started_at >= STARTUP_GRACE for n in self.nodes)
            for shard in range(self.plan.shards):
                outage = self._down.get(shard)
                if self.served(shard):
                    if outage is not None:
                        outage.seconds = now - self._t0 - outage.start
                        self.outages.append(self._down.pop(shard))
                elif outage is None:
                    self._down[shard] = Outage(shard, now - self._t0)
                elif able:
                    outage.served_late += now - last
            last = now
            await asyncio.sleep(0.05)

    def close_outages(self) -> None:
        now = time.monotonic()
        for outage in self._down.values():
            outage.seconds = now - self._t0 - outage.start
            self.outages.append(outage)
        self._down.clear()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def log_tail(self, lines: int = 40) -> str:
        """The end of each process's log, for a failure's message."""
        parts = []
        for node in self.nodes:
            text = node.log.read_text(errors="replace").splitlines() if node.log.exists() else []
            parts.append(f"== {node.log}\n" + "\n".join(text[-lines:]))
        return "\n".join(parts)
