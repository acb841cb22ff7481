"""pytest fixtures: `fake_discord`, `start_client` (a factory) and `test_client`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import pytest

from bot.base import discord_internals

from .server import FakeDiscord
from .testbot import make_test_client
from .wiring import discord_pointed_at, run_client, stop_client

MakeClient = Callable[[FakeDiscord], Awaitable[discord.Client]]
StartClient = Callable[[MakeClient], Awaitable[discord.Client]]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running double with discord.py pointed at it; fails the test on any rule broken."""
    fake = FakeDiscord()
    await fake.start()
    try:
        with discord_pointed_at(fake):
            yield fake
    finally:
        await fake.stop()
    fail_on_violations(fake)


def fail_on_violations(fake: FakeDiscord) -> None:
    """Fail the test if the bot sent anything Discord would refuse, unless it was expected."""
    if fake.violations and not fake.violations_expected:
        pytest.fail("requests Discord would refuse:\n" + "\n".join(map(str, fake.violations)))


@pytest.fixture
async def start_client(fake_discord: FakeDiscord) -> AsyncIterator[StartClient]:
    """`client = await start_client(make_client)`: make_client(fake) builds any discord.Client
    (a later bot's own factory plugs in here); it is logged in, connected, waited for, and
    closed at teardown."""
    running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(make_client: MakeClient) -> discord.Client:
        client = await make_client(fake_discord)
        # Settled only once the client's handlers of clicks and commands have finished: an
        # answer deferred and edited afterwards, or a computer thinking in its worker, sends
        # nothing for a while, and a quiet window alone mistakes that for idleness on a
        # loaded machine.
        fake_discord.busy_probes.append(lambda: bool(discord_internals.handler_tasks()))
        task = await run_client(client, fake_discord)
        running.append((client, task))
        await fake_discord.settle()
        return client

    yield start
    for client, task in reversed(running):
        await stop_client(client, task)


@pytest.fixture
async def test_client(start_client: StartClient) -> discord.Client:
    """The small test client (a /nines group and buttons), connected and synced."""
    return await start_client(make_test_client)
