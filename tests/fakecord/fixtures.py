"""pytest fixtures: `fake_discord`, `start_client` (a factory) and `test_client`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import FakeDiscord
from .testbot import make_test_client

MakeClient = Callable[[FakeDiscord], Awaitable[discord.Client]]
StartClient = Callable[[MakeClient], Awaitable[discord.Client]]

READY_TIMEOUT = 10.0


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running double with discord.py pointed at it; fails the test on any rule broken."""
    fake = FakeDiscord()
    await fake.start()
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield fake
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
        await fake.stop()
    fail_on_violations(fake)


def fail_on_violations(fake: FakeDiscord) -> None:
    """Fail the test if the bot sent anything Discord would refuse, unless it was expected."""
    if fake.violations and not fake.violations_expected:
        pytest.fail("requests Discord would refuse:\n" + "\n".join(map(str, fake.violations)))


async def run_client(client: discord.Client, fake: FakeDiscord) -> asyncio.Task[None]:
    """login + connect in a task, as the bot's own startup does; returns once READY."""
    await client.login(fake.token)
    task = asyncio.create_task(client.connect(reconnect=True), name="discord-client")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        await stop_client(client, task)
        raise RuntimeError("the client did not become ready against the fake Discord")
    return task


async def stop_client(client: discord.Client, task: asyncio.Task[None]) -> None:
    await client.close()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout=5)


@pytest.fixture
async def start_client(fake_discord: FakeDiscord) -> AsyncIterator[StartClient]:
    """`client = await start_client(make_client)`: make_client(fake) builds any discord.Client
    (a later bot's own factory plugs in here); it is logged in, connected, waited for, and
    closed at teardown."""
    running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(make_client: MakeClient) -> discord.Client:
        client = await make_client(fake_discord)
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
