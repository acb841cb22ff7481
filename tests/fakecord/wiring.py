"""Pointing a real discord.py client at the double, and running it (shared by fixtures/bench)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import FakeDiscord

READY_TIMEOUT = 10.0


@contextlib.contextmanager
def discord_pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """discord.py has no option for its URLs, only these two class attributes (process-wide)."""
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    if "127.0.0.1" in saved[0]:
        raise RuntimeError(f"discord.py already points at another fake Discord ({saved[0]})")
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


async def run_client(client: discord.Client, fake: FakeDiscord) -> asyncio.Task[None]:
    """login + connect in a task, as a bot's own startup does; returns once READY."""
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
