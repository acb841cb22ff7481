"""Issue 32: the chaos test of failover, shared by tests/test_chaos.py (a small seeded run) and
bench/chaos.py (a long one).

The Discord double runs in this process with one guild per shard (or more), real bot
processes (``python -m bot``) share one PostgreSQL database, each preferring its own shards
(SHARD_IDS), and scripted people play games in every guild, reading only what Discord shows
them. A seeded random schedule meanwhile sends SIGKILL or SIGTERM to any process at any moment
(during play, a takeover, a handback, an IDENTIFY) and starts it again a random while later.

At the end the checks are read from outside, from the double's records and the database:
every move a person was answered for is stored once at the index its button carried, no
stored move of a person came from nowhere, no interaction was answered twice (the double's
40060) or wrongly (a live game called over or unknown, an apology), every game ends with
exactly one end message and is counted once, and how long each shard went unserved.

With ``Plan.web_tables``, the second person of each table plays at the Activity's web table
instead (testbed/web_tables.py), on whichever process is up: each action acknowledged is
stored once, none refused is stored, and a key resent is answered as the first time.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fakecord import FakeDiscord
from fakecord.server import BOT_DEFAULT
from testbed.chaos_checks import Checks, Figures
from testbed.chaos_clicks import Click, Players, Table
from testbed.chaos_nodes import Processes
from testbed.web_tables import WebTable

__all__ = ["Chaos", "Figures", "Plan"]


@dataclass(frozen=True)
class Plan:
    """What a run does: all of it follows from the seed, but for the processes' own timing."""

    seed: int
    processes: int = 2
    #: Rounds of chaos: each sends SIGKILL or SIGTERM to a random process that is up.
    rounds: int = 3
    #: Seconds from one round to the next, and how long a stopped process stays down.
    gap: tuple[float, float] = (3.0, 8.0)
    down: tuple[float, float] = (0.5, 8.0)
    sigkill_share: float = 0.6
    tables_per_shard: int = 1
    #: Keep opening new games while the rounds last (the long run); else one game per table.
    more_games: bool = False
    start_score: int = 3
    #: The second person of each table plays at the Activity's web table (testbed/web_tables.py)
    #: on whichever process is up, instead of clicking in chat.
    web_tables: bool = False
    #: Seconds of play before the first round.
    warmup: float = 2.0

    @property
    def shards(self) -> int:
        return self.processes  # one shard preferred by each process


class Chaos:
    """One run of ``plan`` against ``database_url`` (an empty PostgreSQL database): its
    processes (testbed/chaos_nodes.py), its people (testbed/chaos_clicks.py) and, after it, its
    checks (testbed/chaos_checks.py)."""

    def __init__(self, plan: Plan, database_url: str, workdir: Path | None = None) -> None:
        self.plan = plan
        self.database_url = database_url
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="nines-chaos-"))
        self.rng = random.Random(plan.seed)
        self.fake = FakeDiscord(shards=plan.shards)
        # Each shard in an IDENTIFY bucket of its own: no 5 s queue at the first start.
        self.fake.gateway.max_concurrency = plan.shards
        self.tables: list[Table] = []
        self.clicks: list[Click] = []
        self.processes = Processes(plan, self.fake, database_url, self.workdir, self.rng)
        self.players = Players(self.fake, plan, self.clicks)

    def _world(self) -> None:
        fake, number = self.fake, 0
        for shard in range(self.plan.shards):
            for _ in range(self.plan.tables_per_shard):
                number += 1
                if shard == 0 and number == 1:
                    guild, channel = fake.guild, fake.channel
                else:
                    guild = fake.add_guild(f"Server {number}", shard=shard)
                    role = fake.add_role(guild, "Nines", BOT_DEFAULT)
                    fake.add_member(guild, fake.bot, roles=[role])
                    channel = fake.add_channel(guild, "general")
                users = [fake.add_user(f"p{number}{c}", guild=guild) for c in "ab"]
                seed = self.rng.randrange(1 << 30)
                table = Table(guild, channel, users, random.Random(seed))
                if self.plan.web_tables:
                    ports = self.processes.activity_ports
                    table.web = WebTable(fake, users[1], guild, channel, ports, random.Random(seed))
                self.tables.append(table)

    async def _until(self, check: Callable[[], object], within: float, what: str) -> None:
        deadline = time.monotonic() + within
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"gave up waiting for {what}; logs in {self.workdir}")
            await asyncio.sleep(0.05)

    # the run -------------------------------------------------------------------------------
    async def run(self) -> Figures:
        started = time.monotonic()
        processes = self.processes
        await self.fake.start()
        if self.plan.web_tables:
            self.fake.enable_activities()
        try:
            self._world()
            await processes.start()
            await self._until(processes.every_shard_served, 60, "every shard")
            await self._until(
                lambda: self.fake.commands.find(self.fake.guild.id, "nines"), 30, "the commands"
            )
            processes.chaos_begins()
            monitor = asyncio.create_task(processes.watch_shards())
            players = [asyncio.create_task(self.players.run_table(t)) for t in self.tables]
            try:
                await asyncio.sleep(self.plan.warmup)
                await processes.schedule()
                self.players.chaos_over = True
                await processes.restart_the_stopped()
                await asyncio.gather(*players)
            finally:
                self.players.chaos_over = True
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
                monitor.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await monitor
                processes.close_outages()
        finally:
            for table in self.tables:
                if table.web is not None:
                    await table.web.close()
            processes.stop()
            await self.fake.stop()
        return await self.read_figures(time.monotonic() - started)

    async def read_figures(self, elapsed: float) -> Figures:
        """The checks, from the double's records and the database (after the run)."""
        checks = Checks(
            self.fake, self.database_url, self.tables, self.clicks, self.players.end_messages
        )
        processes = self.processes
        return await checks.read(self.plan.seed, processes.rounds, processes.outages, elapsed)

    def log_tail(self, lines: int = 40) -> str:
        """The end of each process's log, for a failure's message."""
        return self.processes.log_tail(lines)
