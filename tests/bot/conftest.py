"""The project's own bot, started through its own startup code against the Discord double."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import discord
import pytest

from bot.app import NinesBot
from bot.process.run import build_bot
from fakecord import FakeDiscord
from testbed.settings import bot_settings

StartBot = Callable[..., Awaitable[NinesBot]]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "data" / "nines.sqlite3"


@pytest.fixture
async def start_bot(
    fake_discord: FakeDiscord,
    start_client: Callable[..., Awaitable[discord.Client]],
    database: Path,
) -> StartBot:
    """`bot = await start_bot(**env)`: the real bot, connected to the double and ready."""

    async def start(**extra: str) -> NinesBot:
        async def make(fake: FakeDiscord) -> discord.Client:
            bot = await build_bot(bot_settings(fake, database, **extra))
            # discord.py waits 2 s for more GUILD_CREATEs; the double sends them all at once.
            bot._connection.guild_ready_timeout = 0.05
            return bot

        client = await start_client(make)
        assert isinstance(client, NinesBot)
        return client

    return start
