"""The bot's settings pointed at a running Discord double."""

from __future__ import annotations

from pathlib import Path

from bot.base import Settings
from fakecord import FakeDiscord


def bot_settings(fake: FakeDiscord, database: Path, **extra: str) -> Settings:
    """The project's own settings for a bot that talks to ``fake`` and stores in ``database``;
    ``extra`` overrides or adds environment variables (``COMPUTER_WORKERS="1"``, ...)."""
    return Settings.from_mapping(
        {
            "DISCORD_TOKEN": fake.token,
            "DATABASE_PATH": str(database),
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "COMPUTER_WORKERS": "0",
            # No emoji uploads unless a test asks (test_card_emojis.py): the other tests'
            # request counts and timings stay what they were.
            "CARD_EMOJIS": "off",
            **extra,
        }
    )
