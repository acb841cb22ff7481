"""The project's own bot, started through its own startup code against the Discord double."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import discord
import pytest

from bot.app import NinesBot, build_bot
from bot.settings import Settings
from fakecord import FakeDiscord

StartBot = Callable[..., Awaitable[NinesBot]]


def bot_settings(fake: FakeDiscord, database: Path, **extra: str) -> Settings:
    return Settings.from_mapping(
        {
            "DISCORD_TOKEN": fake.token,
            "DATABASE_PATH": str(database),
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "COMPUTER_WORKERS": "0",
            **extra,
        }
    )


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
