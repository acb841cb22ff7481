"""Web tables across a restart of the bot's process: the real bot (``python -m bot``) with the
Activity on, pointed at the double in this process; games opened through the double, three
people each in a channel of their own; each person's page (testbed/page_sockets.py) signed
in and open; the process stopped and started again; the pages back by their own rule.

Shared by the restart test (tests/bot/test_activity_restart.py) and the soak
(bench/soak_activity.py). What Discord was asked is read from the double's request log
(``calls``), by route and status.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import aiohttp

from fakecord import FakeDiscord
from fakecord.interactions import Interaction
from fakecord.models import User
from testbed.chaos_nodes import Node, free_port
from testbed.games import game_id_of
from testbed.page_sockets import PageSocket, Seat, backoff, exchange
from testbed.web_tables import CROWD_SIGN_INS

#: The Activity's sign-in routes the gate asks Discord (bot/activity/discord_api.py).
TOKEN_ROUTE: Final = "/oauth2/token"
ME_ROUTE: Final = "/oauth2/@me"
INSTANCE_ROUTE: Final = "/applications/{application_id}/activity-instances/{instance_id}"
#: Games opened at once through the double.
OPENING: Final = 10
#: How long a click of a table's opening may wait for the bot's answer (a loaded machine).
ANSWER_WITHIN: Final = 60.0
#: How long the bot may take to start and connect (a loaded 2-core machine).
START_WITHIN: Final = 120.0


class WebBot:
    """The bot's process with the Activity on, on a SQLite file, started again at will."""

    def __init__(self, fake: FakeDiscord, workdir: Path, **settings: str) -> None:
        """``settings``: environment variables over the defaults below."""
        self.fake = fake
        self.port = free_port()
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE"))}
        env = {
            **base,
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DATABASE_PATH": str(workdir / "nines.sqlite3"),
            "COMPUTER_WORKERS": "0",
            "SYNC_COMMANDS": "auto",
            "LOG_LEVEL": "WARNING",
            "CARD_EMOJIS": "off",
            "ACTIVITY_PORT": str(self.port),
            "ACTIVITY_HOST": "127.0.0.1",
            "DISCORD_CLIENT_SECRET": fake.client_secret,
            # Every page here is on 127.0.0.1: the per-address bounds are for real people.
            **CROWD_SIGN_INS,
            "ACTIVITY_SOCKETS_PER_ADDRESS": "100000",
            **settings,
        }
        workdir.mkdir(parents=True, exist_ok=True)
        self.node = Node(0, env, workdir / "bot.log")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Started, and once it has connected to the gateway and its commands are there."""
        identifies = self.fake.gateway.identifies
        await self.node.start()
        deadline = time.monotonic() + START_WITHIN
        while (
            self.fake.gateway.identifies == identifies
            or not self.fake.gateway.connected.is_set()
            or not self.fake.commands.find(self.fake.guild.id, "nines")
        ):
            if not self.node.up:
                raise RuntimeError(f"the bot died: {self.node.log.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError("the bot did not connect")
            await asyncio.sleep(0.05)

    async def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """Signalled (SIGTERM: its graceful stop; SIGKILL: gone at once) and reaped."""
        self.node.signal(sig)
        await self.node.reap(within=30.0)


@dataclass
class Person:
    user: User
    seat: Seat


async def open_games(fake: FakeDiscord, games: int) -> list[Person]:
    """``games`` games of three people each, each in a channel of its own, started through the
    double; each person in the channel's Activity instance, as Discord's client would have it."""
    gate = asyncio.Semaphore(OPENING)

    async def answered(inter: Interaction) -> Interaction:
        await asyncio.wait_for(inter.answered.wait(), ANSWER_WITHIN)
        if inter.errors:
            raise RuntimeError(f"opening a table failed: {inter.errors}")
        return inter

    async def one(g: int) -> list[Person]:
        async with gate:
            channel = fake.add_channel(name=f"table-{g}")
            host, *others = people = [fake.add_user(f"p{g}-{k}") for k in range(3)]
            lobby = (
                await answered(await fake.slash(host, channel, "nines start", wait=False))
            ).message
            assert lobby is not None
            game = game_id_of(lobby)
            for person in others:
                await answered(await fake.click(person, lobby, "Join", wait=False))
            await answered(await fake.click(host, lobby, "Start", wait=False))
        instance = fake.activity_instance(channel, [p.id for p in people])
        where = (str(channel.id), str(channel.guild_id))
        return [Person(p, Seat(p.id, instance, *where, game)) for p in people]

    per_game = await asyncio.gather(*(one(g) for g in range(games)))
    return [person for people in per_game for person in people]


async def sign_in(
    fake: FakeDiscord, http: aiohttp.ClientSession, base: str, people: list[Person], seed: int
) -> list[str]:
    """Each person's access token, exchanged as the page does (a code from Discord's client,
    ``POST /api/token``), tried again with the page's back-off while it fails."""
    rng = random.Random(seed)

    async def one(person: Person) -> str:
        for attempt in range(12):
            try:
                return await exchange(http, base, fake.authorize(person.user))
            except (RuntimeError, aiohttp.ClientError, ValueError):
                await asyncio.sleep(backoff(attempt, 0.0, rng))
        raise RuntimeError(f"{person.user.name} could not sign in")

    return list(await asyncio.gather(*(one(p) for p in people)))


def pages(
    people: list[Person],
    tokens: list[str],
    base: str,
    seed: int,
    pause: tuple[float, float] | None = None,
) -> list[PageSocket]:
    rng = random.Random(seed)
    return [
        PageSocket(p.seat, t, lambda: base, random.Random(rng.random()), pause=pause)
        for p, t in zip(people, tokens, strict=True)
    ]


async def all_ready(pages: list[PageSocket], readies: int, within: float) -> None:
    """Until every page has had ``readies`` ``ready`` frames (a guard for a stuck run)."""
    deadline = time.monotonic() + within
    while any(len(p.readies) < readies for p in pages):
        stopped = [p.final for p in pages if p.final is not None]
        if stopped:
            raise AssertionError(f"pages refused for good: {Counter(stopped)}")
        if time.monotonic() > deadline:
            late = [p.seat.user_id for p in pages if len(p.readies) < readies]
            raise AssertionError(f"{len(late)} pages without their ready #{readies}")
        await asyncio.sleep(0.05)


def calls(fake: FakeDiscord, since: int = 0) -> Counter[tuple[str, int]]:
    """The double's answers from request number ``since`` on, by (route, status)."""
    return Counter((r.route, r.status) for r in fake.requests[since:])


def by_route(answers: Counter[tuple[str, int]], route: str) -> int:
    return sum(n for (r, _), n in answers.items() if r == route)


def statuses(answers: Counter[tuple[str, int]]) -> Counter[int]:
    found: Counter[int] = Counter()
    for (_, status), n in answers.items():
        found[status] += n
    return found
