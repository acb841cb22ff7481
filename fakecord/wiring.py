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

#: Guards for a hung client, not figures of speed: a loaded machine makes one slow, not stuck.
READY_TIMEOUT = 120.0
CLOSE_TIMEOUT = 60.0
GUILD_READY_TIMEOUT = 0.05
_active: str | None = None  # the double discord.py points at now (one per process)


@contextlib.contextmanager
def discord_pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """discord.py has no option for its URLs, only these two class attributes (process-wide)."""
    global _active
    if _active is not None:
        raise RuntimeError(f"discord.py already points at another fake Discord ({_active})")
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    _active = fake.api_base
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
        _active = None


async def run_client(client: discord.Client, fake: FakeDiscord) -> asyncio.Task[None]:
    """login + connect in a task, as a bot's own startup does; returns once READY."""
    # discord.py waits guild_ready_timeout (2 s by default) after the last GUILD_CREATE before
    # READY; the double sends all guilds at once, so any client can be made quick here.
    state = client._connection
    state.guild_ready_timeout = min(state.guild_ready_timeout, GUILD_READY_TIMEOUT)
    await client.login(fake.token)
    task = asyncio.create_task(client.connect(reconnect=True), name="discord-client")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ready
        await stop_client(client, task)  # re-raises what ended the connection, if anything did
        raise RuntimeError("the client did not become ready against the fake Discord")
    return task


async def stop_client(client: discord.Client, task: asyncio.Task[None]) -> None:
    await client.close()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout=CLOSE_TIMEOUT)
