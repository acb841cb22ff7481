"""The bot's logging set-up: discord.py's format, a network fault in one line, and no voice
warnings (the bot never joins a voice channel)."""

from __future__ import annotations

import logging
import sys
from typing import Final

import discord

from ..base import describe

#: What discord.py warns once a process when PyNaCl / davey (voice only) are missing.
VOICE_WARNINGS: Final = frozenset(
    {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    }
)
#: discord.py's own plain format (it uses it where it does not colour).
FORMAT: Final = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT: Final = "%Y-%m-%d %H:%M:%S"
#: discord.py logs each gateway reconnect with the whole traceback of what broke it.
RECONNECT: Final = "Attempting a reconnect in %.2fs"


class DiscordClientLog(logging.Filter):
    """On discord.py's ``discord.client`` logger: drops the voice warnings, and turns a
    reconnect's traceback into one line saying what failed."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in VOICE_WARNINGS:
            return False
        if record.msg == RECONNECT and record.exc_info and record.exc_info[1] is not None:
            delay = record.args[0] if isinstance(record.args, tuple) and record.args else 0.0
            record.msg = "Lost the connection to Discord's gateway: %s; reconnecting in %.1f s"
            record.args = (describe(record.exc_info[1]), delay)
            record.exc_info = None
            record.exc_text = None
        return True


def setup_logging(level: int) -> None:
    """discord.py's handler and format on the root logger, with the filter above. Colours
    only on a terminal: discord.py also colours inside any Docker container, which leaves
    escape codes in ``docker logs`` and whatever collects them."""
    plain = None if sys.stderr.isatty() else logging.Formatter(FORMAT, DATE_FORMAT, style="{")
    discord.utils.setup_logging(level=level, root=True, formatter=plain or discord.utils.MISSING)
    client = logging.getLogger("discord.client")
    if not any(isinstance(f, DiscordClientLog) for f in client.filters):
        client.addFilter(DiscordClientLog())
